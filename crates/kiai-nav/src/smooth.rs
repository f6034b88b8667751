//! String pulling: a route's corners cut where the straight way is clear.

use glam::Vec3;

/// Writes into `out` the corners of `points` (a route, world units) that a
/// walker has to visit: starting from the first point, each following
/// point is skipped while the straight segment from the last kept corner
/// to the point after it is `clear` (the caller's test: walls, with the
/// walker's radius). The first and last points are always kept.
///
/// The result is never longer than `points` (each skipped stretch is
/// replaced by a straight segment between its ends), every segment of it
/// passed `clear` or is a segment of `points`, and `clear` is called at
/// most once per point.
pub fn smooth_path(
    points: &[Vec3],
    mut clear: impl FnMut(Vec3, Vec3) -> bool,
    out: &mut Vec<Vec3>,
) {
    out.clear();
    let Some(&first) = points.first() else {
        return;
    };
    out.push(first);
    let mut anchor = first;
    for k in 2..points.len() {
        if !clear(anchor, points[k]) {
            anchor = points[k - 1];
            out.push(anchor);
        }
    }
    if points.len() > 1 {
        out.push(points[points.len() - 1]);
    }
}

/// The length of a polyline, world units.
pub fn path_length(points: &[Vec3]) -> f32 {
    points.windows(2).map(|w| w[0].distance(w[1])).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_route_becomes_one_segment() {
        let route = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(2.0, 0.0, 1.0),
        ];
        let mut out = Vec::new();
        smooth_path(&route, |_, _| true, &mut out);
        assert_eq!(out, [route[0], route[3]]);
        assert!(path_length(&out) < path_length(&route));
    }

    #[test]
    fn blocked_shortcuts_keep_the_corner() {
        let route = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0)];
        let mut out = Vec::new();
        smooth_path(&route, |_, _| false, &mut out);
        assert_eq!(out, route);
        smooth_path(&route[..1], |_, _| true, &mut out);
        assert_eq!(out, [Vec3::ZERO]);
        smooth_path(&[], |_, _| true, &mut out);
        assert!(out.is_empty());
    }
}
