//! Coverage points: a world-aligned grid at the spacing, thinned where a
//! corner or hand-placed waypoint already stands, then a finer sample that
//! adds a point wherever no waypoint is in clear sight within the
//! coverage distance (narrow passages the grid missed).

use glam::Vec2;

use super::buckets::Buckets;
use super::walls::Obstacles;

/// A grid point is left out when a corner or fixed waypoint is in clear
/// sight within this fraction of the spacing.
const THIN: f32 = 0.5;

/// World-aligned sample positions at `step` (offset by `offset` x step)
/// inside `lo..hi`, row by row (Z, then X).
pub(super) fn samples(lo: Vec2, hi: Vec2, step: f32, offset: f32) -> Vec<Vec2> {
    let step = step.max(1e-2);
    let first = |v: f32| ((v / step) - offset).ceil() as i64;
    let last = |v: f32| ((v / step) - offset).floor() as i64;
    let mut out = Vec::new();
    for z in first(lo.y)..=last(hi.y) {
        for x in first(lo.x)..=last(hi.x) {
            out.push(Vec2::new(
                (x as f32 + offset) * step,
                (z as f32 + offset) * step,
            ));
        }
    }
    out
}

/// Whether some point of `points` (via `index`) is within `dist` of `p`
/// with a clear line.
pub(super) fn sees_any(
    obstacles: &Obstacles,
    index: &Buckets,
    points: &[Vec2],
    p: Vec2,
    dist: f32,
) -> bool {
    index.near(p, dist).into_iter().any(|i| {
        let q = points[i as usize];
        q.distance(p) <= dist && obstacles.clear(p, q)
    })
}

/// Adds coverage points to `points` (which holds the corners and fixed
/// waypoints): the thinned grid at `cover` x sqrt 2 (it covers open
/// ground), then every sample of the
/// half-spacing grid that sees no point within `cover` (world units).
pub(super) fn add_cover(
    obstacles: &Obstacles,
    points: &mut Vec<Vec2>,
    lo: Vec2,
    hi: Vec2,
    spacing: f32,
    cover: f32,
) {
    let mut index = Buckets::new(cover);
    for (i, &p) in points.iter().enumerate() {
        index.insert(i as u32, p);
    }
    let base = points.len();
    let mut grid = Vec::new();
    for p in samples(lo, hi, cover * std::f32::consts::SQRT_2, 0.0) {
        if obstacles.placeable(p, 0.0)
            && !sees_any(obstacles, &index, &points[..base], p, THIN * spacing)
        {
            grid.push(p);
        }
    }
    for p in grid {
        index.insert(points.len() as u32, p);
        points.push(p);
    }
    for p in samples(lo, hi, spacing * 0.25, 0.5) {
        if obstacles.placeable(p, 0.0) && !sees_any(obstacles, &index, points, p, cover) {
            index.insert(points.len() as u32, p);
            points.push(p);
        }
    }
}
