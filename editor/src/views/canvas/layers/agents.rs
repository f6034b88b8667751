//! Agents: the selected agent's senses (or everyone's), where agents
//! started (while the run is past tick 0), the glyphs, rings around the
//! selection and what it senses, names, and the sense handles.

use eframe::egui::{Mesh, Pos2, Rect, Shape, Vec2, epaint::PathShape};
use kiai_content::def::{ArchetypeDef, ContentDef, ShapeDef};

use crate::model::analysis::Sight;
use crate::model::{Scene, Sel, Selection};
use crate::views::canvas::glyph::{self, Glyph};
use crate::views::canvas::handles::{Handle, hearing_radius, rotate};
use crate::views::canvas::labels::{Priority, Request};
use crate::views::canvas::paint::{Paint, dir_to_scene, to_scene};

/// Segments of a full circle in the sense overlay.
const CIRCLE_STEPS: usize = 64;

/// The outline of a sense shape for an agent at world X-Z `eye` facing
/// the unit X-Z direction `f` (kiai-core's [`kiai_core::Outline`], the one
/// kiai-bevy draws too), in scene coordinates, and the point its fill fans
/// from; hearing is a ring (no fill).
fn outline(shape: ShapeDef, eye: Vec2, f: Vec2) -> (Vec<Pos2>, Option<Pos2>) {
    let glam = |v: Vec2| kiai_core::glam::Vec2::new(v.x, v.y);
    let o = shape.outline(glam(eye), glam(f), CIRCLE_STEPS);
    let points = o.points.iter().map(|p| to_scene(p.x, p.y)).collect();
    (points, o.fill_from.map(|c| to_scene(c.x, c.y)))
}

/// Draws `archetype`'s senses for an agent at world X-Z `eye` facing the
/// unit X-Z direction `f`, each in its sense colour, named when zoomed in.
pub fn senses(p: &mut Paint<'_>, archetype: &ArchetypeDef, eye: Vec2, f: Vec2) {
    for (k, sense) in archetype.senses.iter().enumerate() {
        let hue = p.palette.sense(k);
        let stroke = p.stroke(1.5, hue);
        let (points, centre) = outline(sense.shape, eye, f);
        match centre {
            None => {
                for pair in points.chunks(2) {
                    if let [a, b] = pair {
                        p.painter.line_segment([*a, *b], stroke);
                    }
                }
            }
            Some(centre) => {
                let fill = hue.gamma_multiply(0.11);
                let mut mesh = Mesh::default();
                mesh.colored_vertex(centre, fill);
                for q in &points {
                    mesh.colored_vertex(*q, fill);
                }
                for i in 1..points.len() as u32 {
                    mesh.add_triangle(0, i, i + 1);
                }
                p.painter.add(Shape::mesh(mesh));
                p.painter
                    .add(PathShape::closed_line(points.clone(), stroke));
            }
        }
        let at = match sense.shape {
            ShapeDef::Cone { range, .. } | ShapeDef::Sector { range, .. } => eye + f * range * 0.6,
            ShapeDef::Sphere { radius } => eye + rotate(f, 2.2) * radius,
            ShapeDef::Ellipse {
                a, center_ahead, ..
            } => eye + f * (center_ahead + a * 0.6),
            ShapeDef::Hearing { threshold, falloff } => {
                eye + rotate(f, -2.4) * hearing_radius(threshold, falloff)
            }
        };
        p.labels.add(Request {
            anchor: p.screen(to_scene(at.x, at.y)),
            clearance: 2.0,
            text: sense.name.clone(),
            colour: hue,
            priority: Priority::Sense,
        });
    }
}

/// What the agent layer draws.
pub struct Agents<'a> {
    /// Where the agents are.
    pub scene: Scene<'a>,
    /// The selection.
    pub selection: &'a Selection,
    /// Fill by state while live (else by faction).
    pub states: bool,
    /// What the selected agent senses, to ring those agents.
    pub sight: Option<&'a Sight>,
    /// Crowds drawn into the map image: skip the glyphs here.
    pub in_image: bool,
    /// Draw names.
    pub names: bool,
}

/// The fill of agent `i`: its state's colour while live (and states are
/// shown), else its faction's.
pub fn fill(p: &Paint<'_>, scene: Scene<'_>, states: bool, i: usize) -> eframe::egui::Color32 {
    match scene {
        Scene::Live(sim) if states => sim
            .timeline()
            .state_at(sim.tick(), i)
            .map_or(p.palette.state(0), |k| p.palette.state(k)),
        _ => p.palette.faction(scene.faction(i)),
    }
}

/// Glyphs, rings and names.
pub fn agents(p: &mut Paint<'_>, a: &Agents<'_>) {
    let cull = p.cull(30.0);
    let r_px = glyph::radius(p.zoom());
    let r = r_px * p.px;
    let mut mesh = Mesh::default();
    let names = a.names && a.scene.len() <= 300;
    for i in 0..a.scene.len() {
        if !a.scene.alive(i) {
            continue;
        }
        let pos = a.scene.pos(i);
        let at = to_scene(pos.x, pos.z);
        if !cull.contains(at) {
            continue;
        }
        let f = a.scene.facing(i);
        if !a.in_image {
            glyph::add(
                &mut mesh,
                &Glyph {
                    at,
                    r,
                    shape: glyph::Shape::of_faction(a.scene.faction(i)),
                    fill: fill(p, a.scene, a.states, i),
                    outline: p.palette.outline,
                    facing: Some(dir_to_scene(f.x, f.z)),
                },
            );
        }
        let screen = p.screen(at);
        p.labels
            .obstacle(Rect::from_center_size(screen, Vec2::splat(2.2 * r_px)));
        let selected = a.selection.contains(&Sel::Agent(i));
        if selected {
            p.painter
                .circle_stroke(at, r + 4.0 * p.px, p.stroke(2.5, p.palette.selected));
        }
        if let Some(sight) = a.sight
            && sight.agents.get(i).is_some_and(|v| !v.is_empty())
        {
            p.painter
                .circle_stroke(at, r + 7.0 * p.px, p.stroke(2.0, p.palette.sensed));
        }
        if names || selected {
            let text = match a.scene.state(i) {
                Some(state) if selected => format!("{} · {state}", a.scene.name(i)),
                _ => a.scene.name(i).to_owned(),
            };
            p.labels.add(Request {
                anchor: screen,
                clearance: r_px + 3.0,
                text,
                colour: p.palette.text,
                priority: if selected {
                    Priority::Focus
                } else {
                    Priority::Agent
                },
            });
        }
    }
    p.painter.add(Shape::mesh(mesh));
}

/// Where agents started, as faint rings with a line to where they are
/// now (the run is past tick 0); `only`: just this agent (`Some(None)`:
/// none), for crowds.
pub fn start_positions(
    p: &mut Paint<'_>,
    def: &ContentDef,
    scene: Scene<'_>,
    only: Option<Option<usize>>,
) {
    let r = glyph::radius(p.zoom()) * p.px;
    let colour = p.palette.start_ghost;
    for (i, a) in def.agents.iter().enumerate() {
        if only.is_some_and(|o| o != Some(i)) {
            continue;
        }
        let at = to_scene(a.pos.0, a.pos.2);
        p.painter.circle_stroke(at, r, p.stroke(1.0, colour));
        if scene.alive(i) {
            let now = scene.pos(i);
            let to = to_scene(now.x, now.z);
            if at.distance(to) > 2.0 * r {
                let dashes = Shape::dashed_line(
                    &[at, to],
                    p.stroke(1.0, colour.gamma_multiply(0.6)),
                    3.0 * p.px,
                    4.0 * p.px,
                );
                p.painter.extend(dashes);
            }
        }
    }
}

/// The sense handles: the facing handle and each sense's.
pub fn handles(p: &mut Paint<'_>, handles: &[Handle]) {
    for h in handles {
        let at = to_scene(h.at.0, h.at.1);
        let colour = if h.sense.is_none() {
            p.palette.handle_facing
        } else {
            p.palette.handle
        };
        p.painter.circle_filled(at, 5.0 * p.px, colour);
        p.painter
            .circle_stroke(at, 5.0 * p.px, p.stroke(1.2, p.palette.outline));
    }
}
