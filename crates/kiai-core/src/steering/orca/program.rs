//! The 2D incremental linear program (RVO2's `linearProgram1` and
//! `linearProgram2`; de Berg et al.'s randomised incremental algorithm
//! without the shuffle, so the result depends on the order of the lines).

use glam::Vec2;

use super::half_plane::{HalfPlane, det};
use super::segment::EPSILON;

/// How far, in world units per second per unit of `radius` (at least 1),
/// the program may leave a velocity outside an earlier half-plane when it
/// moves along a later one. Half-planes often meet exactly: the legs of
/// every wall's velocity obstacle pass through the zero velocity, so walls
/// on two sides leave exactly that velocity, and RVO2 then decides between
/// "feasible" and "infeasible" by the sign of a rounding error. Relaxing the
/// earlier half-planes by this much (a distance, so lines at a small angle
/// are treated alike) keeps such points feasible.
const ROUNDING: f32 = 1.0e-5;

/// What the program optimises.
#[derive(Clone, Copy, Debug)]
pub(super) enum Goal {
    /// The permitted velocity nearest this one.
    Nearest(Vec2),
    /// The permitted velocity furthest along this unit direction.
    Furthest(Vec2),
}

/// RVO2's `linearProgram1`: the best point on the boundary of `lines[line_no]`
/// inside the disc of `radius` and the half-planes `lines[..line_no]`
/// (relaxed by [`ROUNDING`]), or `None` when there is none.
///
/// Positions along the line are measured from its point nearest the
/// origin, and the disc's chord from the line's distance to the origin
/// (RVO2 measures from the line's own point, `dot² + r² - |point|²`): the
/// same numbers in exact arithmetic, but in `f32` a point far out on the
/// line (the 3D program makes such lines) no longer cancels away the
/// chord's precision.
#[inline(always)]
fn on_line(lines: &[HalfPlane], line_no: usize, radius: f32, goal: Goal) -> Option<Vec2> {
    let line = lines[line_no];
    let direction = line.direction;
    let foot = line.point - line.point.dot(direction) * direction;
    let offset = det(direction, foot).abs();
    let discriminant = (radius - offset) * (radius + offset);
    if discriminant < 0.0 {
        // The speed disc lies entirely outside this half-plane.
        return None;
    }
    let half_chord = discriminant.sqrt();
    let mut t_left = -half_chord;
    let mut t_right = half_chord;
    let slack = ROUNDING * radius.max(1.0);
    for other in &lines[..line_no] {
        let denominator = det(direction, other.direction);
        // The other half-plane, relaxed by `slack`, bounds this line at
        // `numerator / denominator`.
        let numerator = det(other.direction, foot - other.point) + slack;
        if denominator.abs() <= EPSILON {
            // (Almost) parallel: all of the line or none of it.
            if numerator < 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = t_right.min(t);
        } else {
            t_left = t_left.max(t);
        }
        if t_left > t_right {
            return None;
        }
    }
    let t = match goal {
        Goal::Furthest(toward) => {
            if toward.dot(direction) > 0.0 {
                t_right
            } else {
                t_left
            }
        }
        Goal::Nearest(velocity) => {
            let t = direction.dot(velocity - foot);
            if t < t_left {
                t_left
            } else if t > t_right {
                t_right
            } else {
                t
            }
        }
    };
    Some(foot + t * direction)
}

/// RVO2's `linearProgram2`: the best velocity of length at most `radius`
/// in every half-plane of `lines`, into `result`. Returns `lines.len()` on
/// success, or the index of the first half-plane it cannot satisfy, with
/// `result` then the best velocity for the half-planes before it.
#[inline]
pub(super) fn solve(lines: &[HalfPlane], radius: f32, goal: Goal, result: &mut Vec2) -> usize {
    *result = match goal {
        Goal::Furthest(direction) => direction * radius,
        // Lengths, not squares as RVO2: no overflow for huge inputs.
        Goal::Nearest(velocity) if velocity.length() > radius => velocity.normalize() * radius,
        Goal::Nearest(velocity) => velocity,
    };
    for (i, line) in lines.iter().enumerate() {
        if line.violation(*result) > 0.0 {
            match on_line(lines, i, radius, goal) {
                Some(v) => *result = v,
                None => return i,
            }
        }
    }
    lines.len()
}
