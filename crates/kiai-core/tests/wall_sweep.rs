//! Bodies against walls: the grid queries equal their brute-force twins,
//! and sliding keeps its guarantee (never across a wall, never into one).
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

use kiai_core::glam::{Vec2, Vec3};
use kiai_core::perception::occlusion::{
    RayScratch, Sweep, Wall, Walls, blocks_brute, clear_of_brute, nearest_distance_brute,
    sweep_circle_brute,
};
use proptest::prelude::*;

fn wall(x0: f32, z0: f32, x1: f32, z1: f32) -> Wall {
    Wall::new(Vec2::new(x0, z0), Vec2::new(x1, z1), 2.0)
}

fn walls_strategy() -> impl Strategy<Value = Vec<Wall>> {
    prop::collection::vec(
        (
            -20.0f32..20.0,
            -20.0f32..20.0,
            -6.0f32..6.0,
            -6.0f32..6.0,
            prop_oneof![Just(2.0f32), Just(0.05f32)],
        )
            .prop_map(|(x, z, dx, dz, h)| Wall::new(Vec2::new(x, z), Vec2::new(x + dx, z + dz), h)),
        0..25,
    )
}

fn point() -> impl Strategy<Value = Vec2> {
    (-25.0f32..25.0, -25.0f32..25.0).prop_map(|(x, z)| Vec2::new(x, z))
}

#[test]
fn a_circle_stops_at_a_wall_and_slides_along_it() {
    let walls = Walls::build(vec![wall(5.0, -10.0, 5.0, 10.0)], None);
    let mut s = RayScratch::new();
    let sweep = Sweep {
        from: Vec2::ZERO,
        delta: Vec2::new(10.0, 10.0),
        radius: 0.5,
        floor: 0.1,
    };
    let c = walls.sweep_circle(&sweep, &mut s).expect("touches");
    assert!((c.t - 0.45).abs() < 1e-5, "{c:?}");
    assert_eq!(c.normal, Vec2::new(-1.0, 0.0));
    let end = walls.slide(&sweep, &mut s);
    assert!((end.x - 4.499).abs() < 1e-3, "{end}");
    assert!(
        (end.y - 10.0).abs() < 1e-3,
        "{end}: the whole movement along the wall"
    );
    // A low wall does not hold a body standing above it.
    let high = Sweep {
        floor: 2.5,
        ..sweep
    };
    assert_eq!(walls.sweep_circle(&high, &mut s), None);
}

#[test]
fn a_corner_stops_a_body_without_letting_it_through() {
    let walls = Walls::build(
        vec![wall(5.0, -10.0, 5.0, 5.0), wall(-10.0, 5.0, 5.0, 5.0)],
        None,
    );
    let mut s = RayScratch::new();
    let sweep = Sweep {
        from: Vec2::ZERO,
        delta: Vec2::new(20.0, 20.0),
        radius: 0.5,
        floor: 0.1,
    };
    let end = walls.slide(&sweep, &mut s);
    assert!(end.x <= 4.5 && end.y <= 4.5, "{end}");
    assert!((end - Vec2::splat(4.499)).length() < 1e-2, "{end}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn grid_queries_equal_brute_force(
        walls in walls_strategy(),
        from in point(),
        to in point(),
        radius in 0.0f32..2.0,
        floor in 0.0f32..1.0,
    ) {
        let set = Walls::build(walls.clone(), None);
        let mut s = RayScratch::new();
        let sweep = Sweep { from, delta: to - from, radius, floor };
        prop_assert_eq!(set.sweep_circle(&sweep, &mut s), sweep_circle_brute(&walls, &sweep));
        prop_assert_eq!(set.clear_of((from, to), radius, floor, &mut s), clear_of_brute(&walls, (from, to), radius, floor));
        let near = set.nearest_distance(from, 3.0, floor, &mut s);
        let brute = nearest_distance_brute(&walls, from, floor);
        if brute <= 3.0 {
            prop_assert_eq!(near, brute);
        } else {
            prop_assert_eq!(near, f32::INFINITY);
        }
    }

    #[test]
    fn sliding_never_crosses_or_enters_a_wall(
        walls in walls_strategy(),
        from in point(),
        steps in prop::collection::vec(point(), 1..20),
        radius in 0.05f32..1.5,
    ) {
        let set = Walls::build(walls.clone(), None);
        let mut s = RayScratch::new();
        let floor = 0.1;
        let mut pos = from;
        let start = nearest_distance_brute(&walls, pos, floor);
        let mut allowed = start.min(radius) - 1e-3;
        for step in steps {
            let delta = (step - pos) * 0.3;
            let end = set.slide(&Sweep { from: pos, delta, radius, floor }, &mut s);
            let lift = |p: Vec2| Vec3::new(p.x, floor, p.y);
            prop_assert!(!blocks_brute(&walls, lift(pos), lift(end)), "crossed a wall from {} to {}", pos, end);
            let d = nearest_distance_brute(&walls, end, floor);
            prop_assert!(d >= allowed, "{} from the nearest wall, at least {} allowed", d, allowed);
            allowed = allowed.max(d.min(radius) - 1e-3);
            pos = end;
        }
    }
}
