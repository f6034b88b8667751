//! The distance from a point to a line segment on a plane, shared by the
//! waypoint generator (clearance from walls), kiai-core's avoid stage
//! (nearest walls) and the editor (picking a wall or link under the
//! pointer).

use glam::Vec2;

/// The distance from `p` to the segment `a..b` (to the point `a` when
/// `a == b`), in the units of the arguments; >= 0, NaN only for NaN input.
pub fn point_segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_beyond_and_degenerate() {
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0));
        assert_eq!(point_segment_distance(Vec2::new(2.0, 3.0), a, b), 3.0);
        assert_eq!(point_segment_distance(Vec2::new(7.0, 4.0), a, b), 5.0);
        assert_eq!(point_segment_distance(Vec2::new(-3.0, 0.0), a, b), 3.0);
        assert_eq!(point_segment_distance(Vec2::new(0.0, 2.0), a, a), 2.0);
    }
}
