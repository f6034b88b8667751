//! Walls: independent two-sided line segments, and their half-planes (RVO2's
//! `Agent::computeNewVelocity`, obstacle part, for a two-vertex obstacle).
//!
//! RVO2 takes obstacles as polygons whose vertices carry a convexity flag
//! and links to their neighbours; a polygon edge is seen from outside only.
//! A wall here is a segment on its own, seen from either side, which is
//! what RVO2 makes of a two-vertex polygon: edges `a -> b` and `b -> a`,
//! both vertices convex, each edge the other's neighbour. Of the two edges
//! only the one facing the agent counts (the agent on its right, as RVO2's
//! obstacle query keeps it); an agent exactly on the wall's line takes the
//! edge `a -> b`. Walls meeting at a corner are two segments: each is
//! avoided on its own, so the legs of one may point into the other, which
//! RVO2's non-convex vertices would prevent; the clearance (the agent's
//! radius) is kept from both.

use glam::Vec2;

use super::agent::Agent;
use super::half_plane::{HalfPlane, det};

/// RVO2's `RVO_EPSILON`: tolerance of the "already covered" test and of
/// parallel lines in the linear programs.
pub(super) const EPSILON: f32 = 1.0e-5;

/// A wall the agent keeps its radius away from: a segment from `a` to `b` on
/// the X-Z plane (`x` = world x, `y` = world z), world units, blocking from
/// both sides. Segments of zero length and segments with a non-finite end
/// are ignored (a post is a neighbour that does not move, with
/// responsibility 1.0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaSegment {
    /// One end, world units.
    pub a: Vec2,
    /// The other end, world units.
    pub b: Vec2,
}

/// The wall's edge as RVO2 sees it: from `p1` to `p2` with the agent on its
/// right, in the agent's frame (relative to its position).
#[derive(Clone, Copy, Debug)]
struct Edge {
    /// Relative position of the first vertex.
    rel1: Vec2,
    /// Relative position of the second vertex.
    rel2: Vec2,
    /// Unit direction from `p1` to `p2`.
    dir: Vec2,
}

impl Edge {
    /// The edge of `segment` facing `position`, or `None` when degenerate.
    #[inline(always)]
    fn facing(segment: &OrcaSegment, position: Vec2) -> Option<Edge> {
        let (a, b) = (segment.a - position, segment.b - position);
        let ab = b - a;
        let dir = ab.try_normalize()?;
        // The agent is at the origin: on the right of a -> b when
        // det(b - a, 0 - a) < 0.
        let (rel1, rel2, dir) = if det(ab, -a) <= 0.0 {
            (a, b, dir)
        } else {
            (b, a, -dir)
        };
        Some(Edge { rel1, rel2, dir })
    }
}

/// Which vertex, or the edge between them, defines the velocity obstacle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Both vertices (the usual case).
    Edge,
    /// The first vertex alone (the edge seen end-on past `p1`).
    First,
    /// The second vertex alone (the edge seen end-on past `p2`).
    Second,
}

/// Appends to `lines` the half-plane of velocities that keep `agent`
/// `agent.radius` away from `segment` for the obstacle time horizon, as
/// RVO2 computes it from velocity `velocity` (the agent's, or zero for the
/// fallback), unless the lines already there cover it.
#[inline]
pub(super) fn push_segment_half_plane(
    agent: &Agent,
    velocity: Vec2,
    segment: &OrcaSegment,
    lines: &mut Vec<HalfPlane>,
) {
    let Some(edge) = Edge::facing(segment, agent.position) else {
        return;
    };
    if !(edge.rel1.is_finite() && edge.rel2.is_finite()) {
        return;
    }
    let inv_h = agent.inv_obstacle_horizon;
    let r = agent.radius;
    if covered(lines, &edge, inv_h, r) {
        return;
    }
    let plane = match collision(&edge, r) {
        Ok(plane) => plane,
        Err(shape) => Some(approaching(&edge, shape, velocity, inv_h, r)),
    };
    if let Some(plane) = plane.filter(HalfPlane::is_finite) {
        lines.push(plane);
    }
}

/// RVO2's "already covered" test: both vertices, cut off at the horizon,
/// lie at least the radius inside the permitted side of an earlier wall's
/// half-plane, so this wall adds nothing.
#[inline(always)]
fn covered(lines: &[HalfPlane], edge: &Edge, inv_h: f32, r: f32) -> bool {
    let (c1, c2) = (inv_h * edge.rel1, inv_h * edge.rel2);
    let margin = inv_h * r;
    lines.iter().any(|l| {
        det(c1 - l.point, l.direction) - margin >= -EPSILON
            && det(c2 - l.point, l.direction) - margin >= -EPSILON
    })
}

/// The agent already touches the wall: `Ok` with the half-plane that stops
/// it moving further in (through the zero velocity), or `Ok(None)` when
/// RVO2 leaves the vertex to the neighbouring edge. Otherwise `Err` with
/// what defines the velocity obstacle.
#[inline(always)]
fn collision(edge: &Edge, r: f32) -> Result<Option<HalfPlane>, Shape> {
    let (rel1, rel2) = (edge.rel1, edge.rel2);
    let dist_sq1 = rel1.length_squared();
    let dist_sq2 = rel2.length_squared();
    let r_sq = r * r;
    let obstacle_vector = rel2 - rel1;
    let s = (-rel1).dot(obstacle_vector) / obstacle_vector.length_squared();
    let dist_sq_line = (-rel1 - s * obstacle_vector).length_squared();
    let through_zero = |d: Vec2| HalfPlane {
        point: Vec2::ZERO,
        direction: d,
    };
    if s < 0.0 && dist_sq1 <= r_sq {
        // On the first vertex.
        return Ok(Some(through_zero(Vec2::new(-rel1.y, rel1.x).normalize())));
    }
    if s > 1.0 && dist_sq2 <= r_sq {
        // On the second vertex, unless the reverse edge takes it.
        let on_this_side = det(rel2, -edge.dir) >= 0.0;
        return Ok(on_this_side.then(|| through_zero(Vec2::new(-rel2.y, rel2.x).normalize())));
    }
    if (0.0..=1.0).contains(&s) && dist_sq_line <= r_sq {
        // On the edge.
        return Ok(Some(through_zero(-edge.dir)));
    }
    Err(if s < 0.0 && dist_sq_line <= r_sq {
        Shape::First
    } else if s > 1.0 && dist_sq_line <= r_sq {
        Shape::Second
    } else {
        Shape::Edge
    })
}

/// The left tangent from the origin to the disc of radius `r` around
/// `rel` (RVO2's left leg direction; the disc does not contain the origin).
#[inline(always)]
fn left_tangent(rel: Vec2, r: f32) -> Vec2 {
    let dist_sq = rel.length_squared();
    let leg = (dist_sq - r * r).sqrt();
    Vec2::new(rel.x * leg - rel.y * r, rel.x * r + rel.y * leg) / dist_sq
}

/// The right tangent from the origin to the disc of radius `r` around
/// `rel` (RVO2's right leg direction).
#[inline(always)]
fn right_tangent(rel: Vec2, r: f32) -> Vec2 {
    let dist_sq = rel.length_squared();
    let leg = (dist_sq - r * r).sqrt();
    Vec2::new(rel.x * leg + rel.y * r, -rel.x * r + rel.y * leg) / dist_sq
}

/// The agent is clear of the wall: project `velocity` on the wall's
/// velocity obstacle (cut-off circles, legs or cut-off line, whichever is
/// nearest).
#[inline(always)]
fn approaching(edge: &Edge, shape: Shape, velocity: Vec2, inv_h: f32, r: f32) -> HalfPlane {
    let d = edge.dir;
    // The vertices that define the obstacle, and the directions RVO2 reads
    // from them: `-previous.direction` of the left one and `direction` of
    // the right one (p1's direction is `d`, p2's is `-d`).
    let (left_rel, right_rel, left_foreign_dir, right_foreign_dir, same) = match shape {
        Shape::Edge => (edge.rel1, edge.rel2, d, -d, false),
        Shape::First => (edge.rel1, edge.rel1, d, d, true),
        Shape::Second => (edge.rel2, edge.rel2, -d, -d, true),
    };
    let mut left_leg = left_tangent(left_rel, r);
    let mut right_leg = right_tangent(right_rel, r);
    // Legs never point into the wall: take the wall's own line instead.
    let left_foreign = det(left_leg, left_foreign_dir) >= 0.0;
    if left_foreign {
        left_leg = left_foreign_dir;
    }
    let right_foreign = det(right_leg, right_foreign_dir) <= 0.0;
    if right_foreign {
        right_leg = right_foreign_dir;
    }
    let left_cutoff = inv_h * left_rel;
    let right_cutoff = inv_h * right_rel;
    let cutoff_vector = right_cutoff - left_cutoff;
    let t = if same {
        0.5
    } else {
        (velocity - left_cutoff).dot(cutoff_vector) / cutoff_vector.length_squared()
    };
    let t_left = (velocity - left_cutoff).dot(left_leg);
    let t_right = (velocity - right_cutoff).dot(right_leg);
    let on_circle = |cutoff: Vec2| {
        let unit_w = (velocity - cutoff).normalize();
        HalfPlane {
            point: cutoff + r * inv_h * unit_w,
            direction: Vec2::new(unit_w.y, -unit_w.x),
        }
    };
    if (t < 0.0 && t_left < 0.0) || (same && t_left < 0.0 && t_right < 0.0) {
        return on_circle(left_cutoff);
    }
    if t > 1.0 && t_right < 0.0 {
        return on_circle(right_cutoff);
    }
    let dist_sq = |p: Vec2| (velocity - p).length_squared();
    let dist_cutoff = if !(0.0..=1.0).contains(&t) || same {
        f32::INFINITY
    } else {
        dist_sq(left_cutoff + t * cutoff_vector)
    };
    let dist_left = if t_left < 0.0 {
        f32::INFINITY
    } else {
        dist_sq(left_cutoff + t_left * left_leg)
    };
    let dist_right = if t_right < 0.0 {
        f32::INFINITY
    } else {
        dist_sq(right_cutoff + t_right * right_leg)
    };
    let along = |cutoff: Vec2, direction: Vec2| HalfPlane {
        point: cutoff + r * inv_h * Vec2::new(-direction.y, direction.x),
        direction,
    };
    if dist_cutoff <= dist_left && dist_cutoff <= dist_right {
        // The cut-off line (only when both vertices define the obstacle).
        return along(left_cutoff, -d);
    }
    let foreign = || {
        // RVO2 adds nothing here, leaving the leg to the neighbouring edge
        // of the polygon; a wall's neighbouring edge is its own back,
        // which the agent never sees. A leg points into a wall only when
        // the agent stands at its clearance from it, where the cut-off line
        // (through the zero velocity, nearly) is the boundary.
        if same {
            on_circle(left_cutoff)
        } else {
            along(left_cutoff, -d)
        }
    };
    if dist_left <= dist_right {
        if left_foreign {
            foreign()
        } else {
            along(left_cutoff, left_leg)
        }
    } else if right_foreign {
        foreign()
    } else {
        along(right_cutoff, -right_leg)
    }
}
