//! kiai-nav's A* and distance-field queries, and the avoid stage, allocate
//! nothing after warm-up, counted by the benchmarks' own
//! [`kiai_bench::CountingAllocator`] (the figure `kiai bench` reports per
//! query).
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

use kiai_core::glam::Vec3;
use kiai_nav::{DistanceField, NavQuery, PathFilter, WaypointGraph, WaypointId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[global_allocator]
static ALLOCATOR: kiai_bench::CountingAllocator = kiai_bench::CountingAllocator;

/// The count is global: the tests take turns.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A seeded random graph of `n` waypoints in a 100 x 10 x 100 box with about
/// `degree` random out-links each (multipliers in [0.25, 4]), a few
/// waypoints removed (ids with holes), ~15 % inactive; returns the graph,
/// the remaining ids and ~10 % of them to exclude.
fn random_graph(
    seed: u64,
    n: usize,
    degree: usize,
) -> (WaypointGraph, Vec<WaypointId>, Vec<WaypointId>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut graph = WaypointGraph::new();
    let list = graph.add_cost_list("a", 1.0).expect("list");
    let mut ids: Vec<WaypointId> = (0..n)
        .map(|_| {
            let p = Vec3::new(
                rng.random_range(0.0..100.0),
                rng.random_range(0.0..10.0),
                rng.random_range(0.0..100.0),
            );
            graph.add_waypoint(p).expect("finite")
        })
        .collect();
    for &a in &ids {
        for _ in 0..degree {
            let b = ids[rng.random_range(0..ids.len())];
            if let Ok(link) = graph.add_link(a, b) {
                let cost = rng.random_range(0.25..=4.0);
                graph.set_link_cost(link, list, cost).expect("cost");
            }
        }
    }
    for _ in 0..rng.random_range(0..=n / 8) {
        let k = rng.random_range(0..ids.len());
        graph.remove_waypoint(ids.swap_remove(k));
    }
    let mut exclude = Vec::new();
    for &id in &ids {
        if rng.random_bool(0.15) {
            graph.set_active(id, false).expect("exists");
        } else if rng.random_bool(0.1) {
            exclude.push(id);
        }
    }
    (graph, ids, exclude)
}

#[test]
fn astar_and_distance_fields_allocate_nothing_after_warm_up() {
    let _turn = TURN.lock();
    let (graph, ids, exclude) = random_graph(11, 2000, 6);
    let nav = graph.freeze();
    let list = graph.cost_list("a").expect("list");
    let filter = PathFilter {
        cost_list: list,
        exclude: &exclude,
        max_distance: None,
        min_clearance: 0.0,
    };
    let starts: Vec<_> = ids
        .iter()
        .copied()
        .filter(|id| graph.waypoint(*id).is_some_and(|w| w.active) && !exclude.contains(id))
        .collect();
    let pairs: Vec<_> = (0..200)
        .map(|i| {
            (
                starts[(i * 7919) % starts.len()],
                ids[(i * 104_729) % ids.len()],
            )
        })
        .collect();
    let mut query = NavQuery::default();
    let mut field = DistanceField::new();
    // Warm-up: every query once, so the heap and path buffers reach their peak.
    for &(a, b) in &pairs {
        nav.find_path(a, b, &filter, &mut query).expect("ok");
    }
    for &(_, b) in pairs.iter().take(20) {
        nav.distance_field(b, &filter, &mut field).expect("ok");
    }
    let before = kiai_bench::allocations();
    let mut complete = 0;
    for &(a, b) in &pairs {
        complete += usize::from(
            nav.find_path(a, b, &filter, &mut query)
                .expect("ok")
                .is_complete(),
        );
    }
    for &(_, b) in pairs.iter().take(20) {
        nav.distance_field(b, &filter, &mut field).expect("ok");
    }
    let after = kiai_bench::allocations();
    assert!(before > 0, "the counting allocator is installed");
    assert_eq!(
        after - before,
        0,
        "allocations during {} queries",
        pairs.len()
    );
    assert!(complete > 100, "most pairs are connected ({complete})");
}

/// Allocations per tick of the 2,000-walker battle, after warm-up.
fn battle_allocations(avoidance: Option<kiai_core::Avoidance>) -> u64 {
    let mut world = kiai_bench::tick::battle_with(2000, 5, avoidance).expect("battle");
    let (mut pipeline, mut decider) = (
        kiai_core::Pipeline::new(),
        kiai_core::DefaultDecider::default(),
    );
    for _ in 0..20 {
        pipeline.tick(&mut world, &mut decider);
    }
    let before = kiai_bench::allocations();
    for _ in 0..20 {
        pipeline.tick(&mut world, &mut decider);
    }
    kiai_bench::allocations() - before
}

#[test]
fn the_avoid_stage_allocates_nothing_after_warm_up() {
    let _turn = TURN.lock();
    let without = battle_allocations(None);
    let with = battle_allocations(Some(kiai_core::Avoidance::default()));
    // A buffer may still grow to a new peak (a crowd denser than any
    // before); per-tick scratch would allocate hundreds of times.
    assert!(
        with <= without + 4,
        "20 ticks allocated {with} times with avoidance, {without} without"
    );
}
