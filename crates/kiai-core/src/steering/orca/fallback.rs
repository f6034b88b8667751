//! The 3D linear program (RVO2's `linearProgram3`): when no velocity
//! satisfies every agent half-plane, the one that violates the worst of
//! them least, the wall half-planes still held exactly (van den Berg et al.
//! 2011, section 5.2).

use glam::Vec2;

use super::half_plane::{HalfPlane, det};
use super::program::{Goal, Program, solve};
use super::segment::EPSILON;

/// Starting from `result`, which satisfies `lines[..begin]`, moves it to
/// the velocity of length at most `radius` that minimises the largest
/// violation of `lines[fixed..]` while satisfying `lines[..fixed]` (the
/// walls). `projected` is scratch space.
#[inline]
pub(super) fn least_violation(
    lines: &[HalfPlane],
    fixed: usize,
    begin: usize,
    radius: f32,
    result: &mut Vec2,
    projected: &mut Vec<HalfPlane>,
) {
    debug_assert!(fixed <= begin, "the wall half-planes are feasible");
    let mut distance = 0.0_f32;
    projected.clear();
    projected.extend_from_slice(&lines[..fixed]);
    for i in begin..lines.len() {
        let line = lines[i];
        if line.violation(*result) <= distance {
            continue;
        }
        // The result violates line i more than the worst so far: find the
        // velocity violating line i least among those that violate no
        // earlier agent line more than line i (lines of equal violation).
        projected.truncate(fixed);
        for other in &lines[fixed..i] {
            let determinant = det(line.direction, other.direction);
            let point = if determinant.abs() <= EPSILON {
                if line.direction.dot(other.direction) > 0.0 {
                    // Parallel, same way: line i bounds both.
                    continue;
                }
                // Opposite ways: equal violation half-way between.
                0.5 * (line.point + other.point)
            } else {
                equal_violation_foot(&line, other)
            };
            projected.push(HalfPlane {
                point,
                direction: (other.direction - line.direction).normalize(),
            });
        }
        let before = *result;
        let outward = Vec2::new(-line.direction.y, line.direction.x);
        let program = Program {
            radius,
            goal: Goal::Furthest(outward),
            walls: fixed,
        };
        if solve(projected, &program, result) < projected.len() {
            // In principle impossible (the result is feasible by
            // construction); a rounding error: keep the previous result.
            *result = before;
        }
        distance = line.violation(*result);
    }
}

/// The point nearest the origin of the line where `a` and `b` are violated
/// equally: `det(a.direction - b.direction, v)` equals
/// `det(a.direction, a.point) - det(b.direction, b.point)` along it.
///
/// RVO2 takes the lines' intersection, which is the same line in exact
/// arithmetic; but two lines at a small angle meet far from the origin,
/// and an `f32` point out there loses the line's position by as much as
/// the result's precision (the speed disc is near the origin).
#[inline(always)]
fn equal_violation_foot(a: &HalfPlane, b: &HalfPlane) -> Vec2 {
    let difference = a.direction - b.direction;
    let c = det(a.direction, a.point) - det(b.direction, b.point);
    // det(m, v) = perp(m) . v with perp(m) = (-m.y, m.x).
    let normal = Vec2::new(-difference.y, difference.x);
    normal * (c / difference.length_squared())
}
