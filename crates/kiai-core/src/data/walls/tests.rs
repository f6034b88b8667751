use super::*;
use proptest::prelude::*;

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn check(walls: &[Wall], eye: Vec3, target: Vec3) -> bool {
    let set = Walls::build(walls.to_vec(), None);
    let mut s = RayScratch::new();
    let got = set.blocks(eye, target, &mut s);
    assert_eq!(got, blocks_brute(walls, eye, target), "grid vs brute");
    assert_eq!(got, set.blocks(target, eye, &mut s), "symmetry");
    got
}

fn wall(x0: f32, z0: f32, x1: f32, z1: f32, h: f32) -> Wall {
    Wall::new(Vec2::new(x0, z0), Vec2::new(x1, z1), h)
}

#[test]
fn crossing_below_top_blocks_and_above_does_not() {
    let w = [wall(5.0, -5.0, 5.0, 5.0, 3.0)];
    assert!(check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
    assert!(
        !check(&w, v3(0.0, 3.0, 0.0), v3(10.0, 3.0, 0.0)),
        "top is open"
    );
    assert!(
        check(&w, v3(0.0, 0.0, 0.0), v3(10.0, 0.0, 0.0)),
        "floor is closed"
    );
    assert!(!check(&w, v3(0.0, -0.1, 0.0), v3(10.0, -0.1, 0.0)));
    // Height interpolated at the crossing: 1.0 + 0.5 * (5.0 - 1.0) = 3.0.
    assert!(!check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 5.0, 0.0)));
    assert!(check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 4.9, 0.0)));
    assert!(
        !check(&w, v3(0.0, 1.0, 6.0), v3(10.0, 1.0, 6.0)),
        "misses the end"
    );
}

#[test]
fn touching_a_wall_endpoint_blocks() {
    let w = [wall(5.0, 0.0, 5.0, 5.0, 3.0)];
    assert!(check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
    // A closed square has no leak through its corner.
    let sq = Wall::polygon(
        &[
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::new(0.0, 4.0),
        ],
        2.0,
    );
    assert!(check(&sq, v3(-2.0, 1.0, -2.0), v3(2.0, 1.0, 2.0)));
}

#[test]
fn eye_or_target_on_a_wall_is_not_blocked_by_it() {
    let w = [wall(5.0, -5.0, 5.0, 5.0, 3.0)];
    assert!(!check(&w, v3(5.0, 1.0, 0.0), v3(0.0, 1.0, 0.0)));
    assert!(!check(&w, v3(5.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
    assert!(!check(&w, v3(0.0, 1.0, 0.0), v3(5.0, 1.0, 2.0)));
    // ...but running along it blocks.
    assert!(check(&w, v3(5.0, 1.0, 0.0), v3(5.0, 1.0, 1.0)));
}

#[test]
fn collinear_overlap_rules() {
    let w = [wall(0.0, 0.0, 10.0, 0.0, 3.0)];
    assert!(check(&w, v3(-5.0, 1.0, 0.0), v3(15.0, 1.0, 0.0)));
    assert!(check(&w, v3(-5.0, 1.0, 0.0), v3(1.0, 1.0, 0.0)));
    // Only touching the wall's end at the target: not blocked.
    assert!(!check(&w, v3(-5.0, 1.0, 0.0), v3(0.0, 1.0, 0.0)));
    // Stopping short of the wall: not blocked.
    assert!(!check(&w, v3(-5.0, 1.0, 0.0), v3(-1.0, 1.0, 0.0)));
    assert!(check(&w, v3(-5.0, 1.0, 0.0), v3(0.5, 1.0, 0.0)));
    // Rising along the wall: inside only while below the top.
    assert!(check(&w, v3(2.0, 2.0, 0.0), v3(8.0, 9.0, 0.0)));
    assert!(!check(&w, v3(2.0, 3.0, 0.0), v3(8.0, 9.0, 0.0)));
    // Eye on the floor at the wall, descending: open end at y = 0 only.
    assert!(!check(&w, v3(2.0, 0.0, 0.0), v3(8.0, -1.0, 0.0)));
}

#[test]
fn zero_length_and_vertical_queries() {
    let w = [wall(0.0, 0.0, 10.0, 0.0, 3.0)];
    assert!(!check(&w, v3(5.0, 1.0, 0.0), v3(5.0, 1.0, 0.0)));
    assert!(check(&w, v3(5.0, 5.0, 0.0), v3(5.0, 1.0, 0.0)));
    assert!(!check(&w, v3(5.0, 5.0, 0.0), v3(5.0, 3.0, 0.0)));
    assert!(!check(&w, v3(5.0, 5.0, 1.0), v3(5.0, 1.0, 1.0)));
}

#[test]
fn posts_and_flat_walls() {
    let post = [wall(5.0, 0.0, 5.0, 0.0, 2.0)];
    assert!(check(&post, v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
    assert!(!check(&post, v3(0.0, 1.0, 0.1), v3(10.0, 1.0, 0.0)));
    assert!(!check(
        &[wall(5.0, -5.0, 5.0, 5.0, 0.0)],
        v3(0.0, 0.0, 0.0),
        v3(10.0, 0.0, 0.0)
    ));
}

#[test]
fn non_finite_inputs_never_block() {
    let w = [
        wall(5.0, -5.0, 5.0, 5.0, 3.0),
        wall(f32::NAN, 0.0, 1.0, 1.0, 3.0),
    ];
    assert!(!check(&w, v3(f32::NAN, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
    assert!(!check(&w, v3(0.0, 1.0, 0.0), v3(f32::INFINITY, 1.0, 0.0)));
    assert!(check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
}

#[test]
fn first_hit_is_the_nearest_wall() {
    let ws = vec![
        wall(8.0, -5.0, 8.0, 5.0, 3.0),
        wall(2.0, -5.0, 2.0, 5.0, 3.0),
    ];
    let set = Walls::build(ws.clone(), Some(1.0));
    let mut s = RayScratch::new();
    let (e, t) = (v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0));
    assert_eq!(set.first_hit(e, t, &mut s), Some(0.2));
    assert_eq!(set.first_hit(t, e, &mut s), Some(0.2));
    assert_eq!(first_hit_brute(&ws, e, t), Some(0.2));
    assert_eq!(set.first_hit(e, v3(1.0, 1.0, 0.0), &mut s), None);
}

#[test]
fn add_polygon_reindexes() {
    let mut set = Walls::default();
    let mut s = RayScratch::new();
    assert!(!set.blocks(v3(-1.0, 1.0, 2.0), v3(5.0, 1.0, 2.0), &mut s));
    set.add_polygon(&[Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0)], 2.0);
    assert_eq!(set.walls().len(), 3);
    assert!(set.blocks(v3(-1.0, 1.0, 2.0), v3(5.0, 1.0, 2.0), &mut s));
    set.add(wall(100.0, 100.0, 101.0, 100.0, 1.0));
    assert!(set.blocks(v3(100.5, 0.5, 99.0), v3(100.5, 0.5, 101.0), &mut s));
}

#[test]
fn scratch_generation_wraps() {
    let set = Walls::build(vec![wall(5.0, -5.0, 5.0, 5.0, 3.0)], None);
    let mut s = RayScratch::new();
    s.generation = u32::MAX - 1;
    for _ in 0..4 {
        assert!(set.blocks(v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0), &mut s));
    }
}

// ---- property tests: grid == brute force ----

/// Coordinates drawn from a mix of a snapped lattice (hits cell
/// boundaries, corners and exact collinearity) and free floats.
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        (-8i32..=8).prop_map(|i| i as f32 * 2.0),
        (-32i32..=32).prop_map(|i| i as f32 * 0.5),
        -20.0f32..20.0,
    ]
}

fn point2() -> impl Strategy<Value = Vec2> {
    (coord(), coord()).prop_map(|(x, z)| Vec2::new(x, z))
}

fn height() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.0f32), Just(2.0f32), 0.0f32..5.0, -1.0f32..0.5]
}

fn any_wall() -> impl Strategy<Value = Vec<Wall>> {
    prop_oneof![
        // Plain walls.
        4 => (point2(), point2(), height()).prop_map(|(a, b, h)| vec![Wall::new(a, b, h)]),
        // Tiny walls and posts.
        1 => (point2(), -0.01f32..0.01, -0.01f32..0.01, height())
            .prop_map(|(a, dx, dz, h)| vec![Wall::new(a, a + Vec2::new(dx, dz), h)]),
        1 => (point2(), height()).prop_map(|(a, h)| vec![Wall::new(a, a, h)]),
        // Huge walls.
        1 => (point2(), -1.0e4f32..1.0e4, -1.0e4f32..1.0e4, height())
            .prop_map(|(a, dx, dz, h)| vec![Wall::new(a - Vec2::new(dx, dz), a + Vec2::new(dx, dz), h)]),
        // Polygons.
        2 => (prop::collection::vec(point2(), 2..7), height())
            .prop_map(|(pts, h)| Wall::polygon(&pts, h)),
    ]
}

fn scene() -> impl Strategy<Value = Vec<Wall>> {
    prop::collection::vec(any_wall(), 0..12).prop_map(|v| v.concat())
}

fn point3() -> impl Strategy<Value = Vec3> {
    (
        coord(),
        prop_oneof![Just(0.0f32), Just(2.0f32), -1.0f32..6.0],
        coord(),
    )
        .prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// Query pairs: free, axis-aligned, vertical, zero-length.
fn query() -> impl Strategy<Value = (Vec3, Vec3)> {
    prop_oneof![
        4 => (point3(), point3()),
        1 => (point3(), coord(), -1.0f32..6.0).prop_map(|(a, x, y)| (a, Vec3::new(x, y, a.z))),
        1 => (point3(), coord(), -1.0f32..6.0).prop_map(|(a, z, y)| (a, Vec3::new(a.x, y, z))),
        1 => (point3(), -1.0f32..6.0).prop_map(|(a, y)| (a, Vec3::new(a.x, y, a.z))),
        1 => point3().prop_map(|a| (a, a)),
    ]
}

fn cell_size() -> impl Strategy<Value = Option<f32>> {
    prop_oneof![
        Just(None),
        Just(Some(2.0f32)),
        Just(Some(0.5f32)),
        (0.05f32..30.0).prop_map(Some)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn grid_equals_brute_force(
        walls in scene(),
        cell in cell_size(),
        queries in prop::collection::vec(query(), 1..16),
    ) {
        let set = Walls::build(walls.clone(), cell);
        let mut s = RayScratch::new();
        for (eye, target) in queries {
            let brute = blocks_brute(&walls, eye, target);
            prop_assert_eq!(set.blocks(eye, target, &mut s), brute);
            prop_assert_eq!(set.blocks(target, eye, &mut s), brute, "symmetry");
            let hit = set.first_hit(eye, target, &mut s);
            prop_assert_eq!(hit, first_hit_brute(&walls, eye, target));
            prop_assert_eq!(hit.is_some(), brute);
            if let Some(t) = hit {
                prop_assert!((0.0..=1.0).contains(&t));
            }
        }
    }

    #[test]
    fn near_equals_brute_force(
        walls in scene(),
        cell in cell_size(),
        reach in prop_oneof![Just(4.0f32), Just(15.0f32), 0.0f32..40.0],
        eyes in prop::collection::vec(point3(), 1..4),
        queries in prop::collection::vec(query(), 1..24),
    ) {
        let set = Walls::build(walls.clone(), cell);
        let mut s = RayScratch::new();
        let mut near = NearWalls::new();
        // Many targets per eye (the sense stage's pattern), targets
        // from the lattice and free, near and beyond the reach.
        for eye in eyes.iter().copied().chain(queries.iter().map(|q| q.0)) {
            for &(_, target) in &queries {
                let brute = blocks_brute(&walls, eye, target);
                prop_assert_eq!(set.blocks_near(eye, target, reach, &mut near, &mut s), brute);
                prop_assert_eq!(set.blocks_near(target, eye, reach, &mut near, &mut s), brute);
            }
        }
    }
}

/// One change to a set of walls while the world runs.
#[derive(Clone, Debug)]
enum Change {
    Toggle(usize),
    Push(Vec<Wall>),
    Remove(usize),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => (0usize..64).prop_map(Change::Toggle),
        2 => any_wall().prop_map(Change::Push),
        1 => (0usize..64).prop_map(Change::Remove),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn changed_walls_equal_brute_force_over_the_standing_ones(
        walls in scene(),
        cell in cell_size(),
        changes in prop::collection::vec(change(), 1..12),
        queries in prop::collection::vec(query(), 1..12),
    ) {
        let mut set = Walls::build(walls, cell);
        let mut s = RayScratch::new();
        let mut near = NearWalls::new();
        for c in changes {
            let n = set.walls().len().max(1);
            match c {
                Change::Toggle(i) => {
                    let on = set.is_enabled(i % n);
                    if let Some(on) = on {
                        set.set_enabled(i % n, !on);
                    }
                }
                Change::Push(ws) => {
                    for w in ws {
                        set.push(w);
                    }
                }
                Change::Remove(i) => {
                    set.remove(i % n);
                }
            }
            let standing: Vec<Wall> = set.enabled_walls().map(|(_, w)| *w).collect();
            // The grid after the changes equals one built from the standing
            // walls, and both equal the brute force.
            let fresh = Walls::build(standing.clone(), cell);
            near.clear();
            for &(eye, target) in &queries {
                let brute = blocks_brute(&standing, eye, target);
                prop_assert_eq!(set.blocks(eye, target, &mut s), brute);
                prop_assert_eq!(fresh.blocks(eye, target, &mut s), brute);
                prop_assert_eq!(set.first_hit(eye, target, &mut s), first_hit_brute(&standing, eye, target));
                prop_assert_eq!(set.blocks_near(eye, target, 12.0, &mut near, &mut s), brute);
            }
        }
    }
}

#[test]
fn a_door_opens_and_closes_and_removed_walls_stay_removed() {
    let mut set = Walls::build(vec![wall(5.0, -5.0, 5.0, 5.0, 3.0)], None);
    let mut s = RayScratch::new();
    let (e, t) = (v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0));
    assert!(set.blocks(e, t, &mut s));
    assert_eq!(set.set_enabled(0, false), Some(true));
    assert!(!set.blocks(e, t, &mut s));
    assert_eq!(set.set_enabled(0, true), Some(false));
    assert!(set.blocks(e, t, &mut s));
    let far = set.push(wall(500.0, -5.0, 500.0, 5.0, 3.0));
    assert!(
        set.blocks(v3(490.0, 1.0, 0.0), v3(510.0, 1.0, 0.0), &mut s),
        "beyond the old grid"
    );
    assert!(set.remove(far));
    assert_eq!(
        set.set_enabled(far, true),
        None,
        "a removed wall stays removed"
    );
    assert!(!set.blocks(v3(490.0, 1.0, 0.0), v3(510.0, 1.0, 0.0), &mut s));
    assert_eq!(set.enabled_walls().count(), 1);
}
