//! The 2D incremental linear program (RVO2's `linearProgram1` and
//! `linearProgram2`; de Berg et al.'s randomised incremental algorithm
//! without the shuffle, so the result depends on the order of the lines).

use glam::Vec2;

use super::half_plane::{HalfPlane, det};
use super::segment::EPSILON;

/// How far, in world units per second per unit of the speed limit (at
/// least 1), the program may leave a velocity outside a wall's half-plane
/// when it moves along a later one. Walls' half-planes often meet exactly:
/// the legs of every wall's velocity obstacle pass through the zero
/// velocity, so walls on two sides leave exactly that velocity, and RVO2
/// then decides between "feasible" and "infeasible" by the sign of a
/// rounding error. Relaxing the walls' half-planes by this much (a
/// distance, so lines at a small angle are treated alike) keeps such points
/// feasible. Neighbours' half-planes meet nowhere in particular and are
/// held exactly, as RVO2 holds them.
const ROUNDING: f32 = 1.0e-5;

/// What the program optimises.
#[derive(Clone, Copy, Debug)]
pub(super) enum Goal {
    /// The permitted velocity nearest this one.
    Nearest(Vec2),
    /// The permitted velocity furthest along this unit direction.
    Furthest(Vec2),
}

/// One linear program: the speed limit, the goal, and how many of the
/// leading half-planes are walls' (relaxed by [`ROUNDING`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Program {
    /// The speed limit: the radius of the disc of velocities, world units
    /// per second.
    pub(super) radius: f32,
    /// What is optimised.
    pub(super) goal: Goal,
    /// How many of the leading half-planes come from walls.
    pub(super) walls: usize,
}

/// The part of a line left by the half-planes before it: `t_left..=t_right`
/// from the line's point nearest the origin, along its direction.
#[derive(Clone, Copy, Debug)]
struct Interval {
    t_left: f32,
    t_right: f32,
    /// A parallel half-plane excludes the whole line.
    excluded: bool,
}

/// How many half-planes [`Interval::cut_all`] takes together: four `f32`
/// lanes (SSE2), each computing exactly what [`Interval::cut`] computes.
const LANES: usize = 4;

impl Interval {
    /// [`cut`](Self::cut) by every half-plane of `others`, [`LANES`] at a
    /// time (the smallest of a set of bounds does not depend on the order
    /// they are taken in).
    #[inline(always)]
    fn cut_all(&mut self, direction: Vec2, foot: Vec2, others: &[HalfPlane], slack: f32) {
        let chunks = others.chunks_exact(LANES);
        let rest = chunks.remainder();
        if others.len() >= LANES {
            let mut lanes = [*self; LANES];
            for chunk in chunks {
                for (lane, other) in lanes.iter_mut().zip(chunk) {
                    lane.cut(direction, foot, other, slack);
                }
            }
            for lane in lanes {
                self.t_left = if lane.t_left > self.t_left {
                    lane.t_left
                } else {
                    self.t_left
                };
                self.t_right = if lane.t_right < self.t_right {
                    lane.t_right
                } else {
                    self.t_right
                };
                self.excluded |= lane.excluded;
            }
        }
        for other in rest {
            self.cut(direction, foot, other, slack);
        }
    }

    /// Cuts the interval of the line through `foot` along `direction` by
    /// `other`, relaxed by `slack`. RVO2 stops at the first half-plane that
    /// empties the interval or excludes the line; the bounds only ever
    /// tighten, so testing once at the end gives the same answer without a
    /// branch per half-plane.
    #[inline(always)]
    fn cut(&mut self, direction: Vec2, foot: Vec2, other: &HalfPlane, slack: f32) {
        let denominator = det(direction, other.direction);
        // `other` bounds this line at `numerator / denominator`.
        let numerator = det(other.direction, foot - other.point) + slack;
        // (Almost) parallel: all of the line or none of it.
        let parallel = denominator.abs() <= EPSILON;
        self.excluded |= parallel & (numerator < 0.0);
        let t = numerator / denominator;
        let bounds_right = !parallel & (denominator >= 0.0);
        let bounds_left = !parallel & (denominator < 0.0);
        // Comparisons and selects (no NaN reaches them: `t` is used only
        // where the lines are not parallel), which the lanes of `cut_all`
        // turn into packed minimum and maximum.
        self.t_right = if bounds_right & (t < self.t_right) {
            t
        } else {
            self.t_right
        };
        self.t_left = if bounds_left & (t > self.t_left) {
            t
        } else {
            self.t_left
        };
    }
}

/// RVO2's `linearProgram1`: the best point on the boundary of `lines[line_no]`
/// inside the speed disc and the half-planes `lines[..line_no]`, or `None`
/// when there is none.
///
/// Positions along the line are measured from its point nearest the
/// origin, and the disc's chord from the line's distance to the origin
/// (RVO2 measures from the line's own point, `dot² + r² - |point|²`): the
/// same numbers in exact arithmetic, but in `f32` a point far out on the
/// line (the 3D program makes such lines) no longer cancels away the
/// chord's precision.
#[inline(always)]
fn on_line(lines: &[HalfPlane], line_no: usize, program: &Program) -> Option<Vec2> {
    let radius = program.radius;
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
    let mut interval = Interval {
        t_left: -half_chord,
        t_right: half_chord,
        excluded: false,
    };
    let (walls, others) = lines[..line_no].split_at(program.walls.min(line_no));
    interval.cut_all(direction, foot, walls, ROUNDING * radius.max(1.0));
    interval.cut_all(direction, foot, others, 0.0);
    let Interval {
        t_left,
        t_right,
        excluded,
    } = interval;
    if excluded || t_left > t_right {
        return None;
    }
    let t = match program.goal {
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

/// RVO2's `linearProgram2`: the best velocity within the speed disc in
/// every half-plane of `lines`, into `result`. Returns `lines.len()` on
/// success, or the index of the first half-plane it cannot satisfy, with
/// `result` then the best velocity for the half-planes before it.
#[inline(always)]
pub(super) fn solve(lines: &[HalfPlane], program: &Program, result: &mut Vec2) -> usize {
    let radius = program.radius;
    *result = match program.goal {
        Goal::Furthest(direction) => direction * radius,
        Goal::Nearest(velocity) => {
            let length_sq = velocity.length_squared();
            // The square of a huge speed overflows: compare lengths then.
            if length_sq > radius * radius || length_sq.is_infinite() {
                velocity.normalize() * radius
            } else {
                velocity
            }
        }
    };
    for (i, line) in lines.iter().enumerate() {
        if line.violation(*result) > 0.0 {
            match on_line(lines, i, program) {
                Some(v) => *result = v,
                None => return i,
            }
        }
    }
    lines.len()
}
