//! The half-plane of permitted velocities, as RVO2's `Line`.

use glam::Vec2;

/// A directed line in velocity space bounding a half-plane of permitted
/// velocities: those on the left of `direction` through `point` (RVO2's
/// `Line`). Velocities are world units per second on the X-Z plane
/// (`x` = world x, `y` = world z).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HalfPlane {
    /// A velocity on the boundary, world units per second.
    pub point: Vec2,
    /// Unit direction of the boundary; permitted velocities lie on its left
    /// (counter-clockwise) side.
    pub direction: Vec2,
}

impl HalfPlane {
    /// How far `velocity` lies outside the half-plane, world units per
    /// second: positive outside, zero on the boundary, negative inside
    /// (RVO2's `det(direction, point - velocity)`).
    #[inline(always)]
    pub fn violation(&self, velocity: Vec2) -> f32 {
        det(self.direction, self.point - velocity)
    }

    /// Both vectors finite (a degenerate input can make them NaN; such a
    /// half-plane is dropped). One test on the sum: an infinity or NaN
    /// anywhere makes `sum * 0` NaN (as does a sum that overflows, which no
    /// usable half-plane has).
    #[inline(always)]
    pub(super) fn is_finite(&self) -> bool {
        let sum = self.point.x + self.point.y + self.direction.x + self.direction.y;
        sum * 0.0 == 0.0
    }
}

/// The 2D cross product `a.x * b.y - a.y * b.x` (RVO2's `det`).
#[inline(always)]
pub(super) fn det(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}
