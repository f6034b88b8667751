//! String pulling against brute force: on random routes among random
//! walls, the smoothed route is never longer than the route and none of
//! its segments passes closer to a wall than the walker's radius.

use glam::{Vec2, Vec3};
use kiai_nav::{path_length, smooth_path};
use proptest::prelude::*;

/// A wall: a segment on X-Z.
type Wall = (Vec2, Vec2);

fn closest_on(p: Vec2, (a, b): Wall) -> Vec2 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    a + ab * t
}

/// Distance between two segments (zero when they cross), brute force.
fn segment_distance(p: Wall, q: Wall) -> f32 {
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let (d1, d2) = (cross(q.0, q.1, p.0), cross(q.0, q.1, p.1));
    let (d3, d4) = (cross(p.0, p.1, q.0), cross(p.0, p.1, q.1));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    [
        p.0.distance(closest_on(p.0, q)),
        p.1.distance(closest_on(p.1, q)),
        q.0.distance(closest_on(q.0, p)),
        q.1.distance(closest_on(q.1, p)),
    ]
    .into_iter()
    .fold(f32::MAX, f32::min)
}

fn clear(walls: &[Wall], radius: f32, a: Vec3, b: Vec3) -> bool {
    let seg = (Vec2::new(a.x, a.z), Vec2::new(b.x, b.z));
    walls.iter().all(|&w| segment_distance(seg, w) >= radius)
}

fn point() -> impl Strategy<Value = Vec2> {
    (-50.0f32..50.0, -50.0f32..50.0).prop_map(|(x, z)| Vec2::new(x, z))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn smoothed_routes_are_never_longer_and_never_touch_a_wall(
        walls in prop::collection::vec((point(), point()), 0..8),
        candidates in prop::collection::vec(point(), 2..24),
        radius in 0.0f32..2.0,
    ) {
        // The route: the candidate corners a walker could reach one after
        // another (each leg clear), as a waypoint route is.
        let mut route: Vec<Vec3> = Vec::new();
        for c in candidates {
            let c = Vec3::new(c.x, 0.0, c.y);
            if route.last().is_none_or(|&last| clear(&walls, radius, last, c)) {
                route.push(c);
            }
        }
        let mut smoothed = Vec::new();
        smooth_path(&route, |a, b| clear(&walls, radius, a, b), &mut smoothed);
        prop_assert!(path_length(&smoothed) <= path_length(&route) * (1.0 + 1e-5) + 1e-4);
        prop_assert_eq!(smoothed.first(), route.first());
        prop_assert_eq!(smoothed.last(), route.last());
        for leg in smoothed.windows(2) {
            prop_assert!(clear(&walls, radius, leg[0], leg[1]), "leg {leg:?} touches a wall");
        }
    }
}
