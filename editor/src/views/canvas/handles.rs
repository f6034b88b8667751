//! Sense handles: where the handles of an agent's senses sit, and what
//! shape a handle dragged to a point makes. Pure geometry in world X-Z
//! coordinates.

use eframe::egui::Vec2;
use kiai_content::def::{AgentDef, ArchetypeDef, ContentDef, FalloffDef, ShapeDef};

/// Volume of the reference sound whose audible ring the hearing handle
/// shows: a sound this loud is heard inside the ring.
pub const REFERENCE_VOLUME: f32 = 100.0;

/// Which parameter of a sense a handle drags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandleKind {
    /// Sphere radius.
    Radius,
    /// Cone or sector range.
    Range,
    /// Cone or sector field of view (the handle sits on the edge).
    Angle,
    /// Ellipse semi-major axis `a` (along the facing).
    EllipseA,
    /// Ellipse semi-minor axis `b`.
    EllipseB,
    /// Ellipse centre distance ahead of the agent.
    EllipseOffset,
    /// Hearing threshold, shown as the ring where a sound of
    /// [`REFERENCE_VOLUME`] is just heard.
    Threshold,
}

/// A draggable handle: which sense (`None`: the agent's facing) and what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handle {
    /// Index of the sense in the archetype (`None`: facing).
    pub sense: Option<usize>,
    /// The parameter.
    pub kind: HandleKind,
    /// Where it is, world `(x, z)`.
    pub at: (f32, f32),
}

/// The unit X-Z facing of an agent's start pose (+X when zero).
pub fn facing_xz(a: &AgentDef) -> Vec2 {
    let f = Vec2::new(a.facing.0, a.facing.2);
    if f.length_sq() > 0.0 {
        f.normalized()
    } else {
        Vec2::X
    }
}

/// `v` turned by `angle` radians (X toward Z).
pub fn rotate(v: Vec2, angle: f32) -> Vec2 {
    let (s, c) = angle.sin_cos();
    Vec2::new(v.x * c - v.y * s, v.x * s + v.y * c)
}

/// The hearing ring's radius for `threshold` (world units).
pub fn hearing_radius(threshold: f32, falloff: FalloffDef) -> f32 {
    match falloff {
        FalloffDef::InverseSquare => (REFERENCE_VOLUME / threshold.max(1e-6)).sqrt(),
        FalloffDef::Linear { range } => range * (1.0 - threshold / REFERENCE_VOLUME).max(0.0),
    }
}

/// The handles of agent `index`'s senses and facing at its start
/// position, world positions.
pub fn handles(def: &ContentDef, index: usize) -> Vec<Handle> {
    let Some(agent) = def.agents.get(index) else {
        return Vec::new();
    };
    let eye = Vec2::new(agent.pos.0, agent.pos.2);
    handles_at(def.archetypes.get(&agent.archetype), eye, facing_xz(agent))
}

/// The handles of the senses of `archetype` (and the facing) for an agent
/// at world X-Z `eye` facing the unit X-Z direction `f`.
pub fn handles_at(archetype: Option<&ArchetypeDef>, eye: Vec2, f: Vec2) -> Vec<Handle> {
    let side = rotate(f, std::f32::consts::FRAC_PI_2);
    let at = |v: Vec2| (v.x, v.y);
    let mut out = vec![Handle {
        sense: None,
        kind: HandleKind::Angle,
        at: at(eye + f * 2.0),
    }];
    let Some(archetype) = archetype else {
        return out;
    };
    for (s, sense) in archetype.senses.iter().enumerate() {
        let h = |kind, v| Handle {
            sense: Some(s),
            kind,
            at: at(v),
        };
        match sense.shape {
            ShapeDef::Sphere { radius } => {
                out.push(h(HandleKind::Radius, eye - side * radius));
            }
            ShapeDef::Cone { range, fov_deg } | ShapeDef::Sector { range, fov_deg, .. } => {
                out.push(h(HandleKind::Range, eye + f * range));
                let half = (fov_deg * 0.5).to_radians();
                out.push(h(HandleKind::Angle, eye + rotate(f, half) * range));
            }
            ShapeDef::Ellipse { a, b, center_ahead } => {
                let c = eye + f * center_ahead;
                out.push(h(HandleKind::EllipseOffset, c));
                out.push(h(HandleKind::EllipseA, c + f * a));
                out.push(h(HandleKind::EllipseB, c + side * b));
            }
            ShapeDef::Hearing { threshold, falloff } => {
                out.push(h(
                    HandleKind::Threshold,
                    eye + rotate(f, -2.4) * hearing_radius(threshold, falloff),
                ));
            }
        }
    }
    out
}

/// The shape `old` with `handle` dragged to world point `p` by an agent at
/// `eye` facing `f` (unit X-Z).
pub fn drag_shape(old: ShapeDef, kind: HandleKind, eye: Vec2, f: Vec2, p: Vec2) -> ShapeDef {
    let d = p - eye;
    let ahead = d.dot(f);
    let dist = d.length().max(0.01);
    let min = 0.05;
    match (old, kind) {
        (ShapeDef::Sphere { .. }, HandleKind::Radius) => ShapeDef::Sphere {
            radius: dist.max(min),
        },
        (ShapeDef::Cone { fov_deg, .. }, HandleKind::Range) => ShapeDef::Cone {
            range: dist.max(min),
            fov_deg,
        },
        (ShapeDef::Cone { range, .. }, HandleKind::Angle) => ShapeDef::Cone {
            range,
            fov_deg: fov_from(d, f),
        },
        (
            ShapeDef::Sector {
                fov_deg,
                max_height_diff,
                ..
            },
            HandleKind::Range,
        ) => ShapeDef::Sector {
            range: dist.max(min),
            fov_deg,
            max_height_diff,
        },
        (
            ShapeDef::Sector {
                range,
                max_height_diff,
                ..
            },
            HandleKind::Angle,
        ) => ShapeDef::Sector {
            range,
            fov_deg: fov_from(d, f),
            max_height_diff,
        },
        (
            ShapeDef::Ellipse {
                b, center_ahead, ..
            },
            HandleKind::EllipseA,
        ) => ShapeDef::Ellipse {
            a: (ahead - center_ahead).max(b).max(min),
            b,
            center_ahead,
        },
        (
            ShapeDef::Ellipse {
                a, center_ahead, ..
            },
            HandleKind::EllipseB,
        ) => {
            let side = rotate(f, std::f32::consts::FRAC_PI_2);
            ShapeDef::Ellipse {
                a,
                b: (p - (eye + f * center_ahead)).dot(side).abs().clamp(min, a),
                center_ahead,
            }
        }
        (ShapeDef::Ellipse { a, b, .. }, HandleKind::EllipseOffset) => ShapeDef::Ellipse {
            a,
            b,
            center_ahead: ahead,
        },
        (ShapeDef::Hearing { falloff, .. }, HandleKind::Threshold) => ShapeDef::Hearing {
            threshold: match falloff {
                FalloffDef::InverseSquare => REFERENCE_VOLUME / (dist * dist),
                FalloffDef::Linear { range } => {
                    (REFERENCE_VOLUME * (1.0 - dist / range.max(min))).max(0.0)
                }
            },
            falloff,
        },
        (shape, _) => shape,
    }
}

fn fov_from(d: Vec2, f: Vec2) -> f32 {
    let cos = (d.normalized().dot(f)).clamp(-1.0, 1.0);
    (cos.acos().to_degrees() * 2.0).clamp(1.0, 360.0)
}
