//! The navigate stage's route queue as a game sees it: a big order served
//! within the budget, every walker moving at once, every one arriving,
//! and the same run at any thread count.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

use glam::Vec3;
use kiai_core::nav::{AutoConnect, WaypointGraph};
use kiai_core::{
    AgentSpawn, Archetype, BehaviourState, Decider, Decision, EventKind, Mind, Movement, Pipeline,
    World, WorldConfig, state_hash,
};

/// Grid side (waypoints) and spacing (world units).
const SIDE: u32 = 30;
const STEP: f32 = 4.0;

/// Sends every agent to its goal: agent `i` to `goals[i % goals.len()]`.
struct GoTo {
    goals: Vec<Vec3>,
}

impl Decider for GoTo {
    fn decide(&mut self, _world: &World, _minds: &mut [Mind], out: &mut [Decision]) {
        for (i, d) in out.iter_mut().enumerate() {
            *d = Decision {
                state: BehaviourState::Chase,
                target: None,
                goal: Some(self.goals[i % self.goals.len()]),
            };
        }
    }
}

/// A grid of waypoints with 8-neighbour links and `walkers` A* walkers
/// standing on its left edge's waypoints, with route budget `budget`.
fn world(walkers: u32, budget: Option<u32>) -> World {
    let mut world = World::new(WorldConfig {
        seed: 5,
        ..WorldConfig::default()
    });
    let mut g = WaypointGraph::new();
    g.add_cost_list("default", 1.0).expect("list");
    for k in 0..SIDE * SIDE {
        let p = Vec3::new((k % SIDE) as f32 * STEP, 0.0, (k / SIDE) as f32 * STEP);
        g.add_waypoint(p).expect("finite");
    }
    g.auto_connect(
        &AutoConnect {
            range: STEP * 1.5,
            two_way: true,
            active_only: false,
        },
        |_, _| true,
    )
    .expect("connects");
    world.set_nav(g.freeze());
    world.set_route_budget(budget);
    let red = world.factions_mut().add("red").expect("faction");
    let walker = world
        .add_archetype(Archetype {
            name: "walker".into(),
            movement: Movement::WaypointWalker {
                speed: 6.0,
                route: kiai_core::navigate::RouteMode::AStar,
                arrive_radius: 0.5,
                jitter: 0.0,
                smooth: false,
            },
            ..Archetype::default()
        })
        .expect("archetype");
    for i in 0..walkers {
        // On the waypoints of the left edge: each asks for its route at
        // once.
        let z = (i % SIDE) as f32 * STEP;
        let x = 0.0;
        world
            .spawn(AgentSpawn {
                name: format!("w{i}"),
                archetype: walker,
                faction: red,
                position: Vec3::new(x, 0.0, z),
                facing: Vec3::X,
            })
            .expect("spawn");
    }
    world
}

/// The far corners and edge: each walker's goal.
fn goals() -> Vec<Vec3> {
    let far = (SIDE - 1) as f32 * STEP;
    vec![
        Vec3::new(far, 0.0, far),
        Vec3::new(far, 0.0, 0.0),
        Vec3::new(far, 0.0, far / 2.0),
    ]
}

/// Runs `ticks` ticks; returns the state hash after each.
fn run(world: &mut World, ticks: u32, threads: usize) -> Vec<u64> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    pool.install(|| {
        let mut pipeline = Pipeline::new();
        let mut decider = GoTo { goals: goals() };
        (0..ticks)
            .map(|_| {
                pipeline.tick(world, &mut decider);
                state_hash(world)
            })
            .collect()
    })
}

#[test]
fn a_big_order_waits_in_the_queue_while_every_walker_moves_at_once() {
    let mut w = world(300, Some(400));
    let start: Vec<Vec3> = w.agents().positions().to_vec();
    run(&mut w, 1, 2);
    let moved = w
        .agents()
        .positions()
        .iter()
        .zip(&start)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(moved, 300, "every walker moves in tick 1");
    assert!(
        w.routes_waiting() > 100,
        "a budget of 400 waypoints cannot serve 300 walkers at once ({} wait)",
        w.routes_waiting()
    );
    let waiting = w.nav_states().iter().filter(|s| s.waiting).count();
    assert_eq!(waiting, w.routes_waiting());
}

#[test]
fn every_walker_reaches_its_goal_and_late_routes_say_so() {
    let mut w = world(300, Some(400));
    let mut pipeline = Pipeline::new();
    let mut decider = GoTo { goals: goals() };
    let mut arrived = std::collections::BTreeSet::new();
    let mut found_late = 0;
    for _ in 0..400 {
        pipeline.tick(&mut w, &mut decider);
        for e in w.events() {
            match e.kind {
                EventKind::Arrived { agent, .. } => {
                    arrived.insert(agent);
                }
                EventKind::RouteFound { waited, .. } => {
                    assert!(waited >= 1);
                    found_late += 1;
                }
                EventKind::RouteFailed { .. } => panic!("every goal is reachable"),
                _ => {}
            }
        }
    }
    assert_eq!(arrived.len(), 300, "every walker arrives");
    assert!(found_late > 0, "routes that came late send RouteFound");
    assert_eq!(w.routes_waiting(), 0);
}

#[test]
fn the_queue_gives_the_same_run_at_one_and_two_threads() {
    for budget in [Some(150), Some(3_000), None] {
        let mut one = world(200, budget);
        let mut two = world(200, budget);
        assert_eq!(
            run(&mut one, 120, 1),
            run(&mut two, 120, 2),
            "budget {budget:?}"
        );
    }
}

#[test]
fn without_a_budget_no_walker_waits() {
    let mut w = world(300, None);
    run(&mut w, 1, 2);
    assert_eq!(w.routes_waiting(), 0);
    assert!(w.nav_states().iter().all(|s| !s.waiting));
}

#[test]
fn a_search_longer_than_the_budget_runs_a_slice_per_tick() {
    // One walker, a budget of 8 waypoints a tick: its corner-to-corner
    // search expands far more, so it runs over several ticks (before the
    // search was sliced, the tick that began it ran it to the end).
    let mut w = world(1, Some(8));
    let mut pipeline = Pipeline::new();
    let mut decider = GoTo { goals: goals() };
    let mut waited = None;
    let mut arrived = false;
    for _ in 0..300 {
        pipeline.tick(&mut w, &mut decider);
        for e in w.events() {
            match e.kind {
                EventKind::RouteFound { waited: t, .. } => waited = waited.or(Some(t)),
                EventKind::Arrived { .. } => arrived = true,
                _ => {}
            }
        }
    }
    let waited = waited.expect("the route came late");
    assert!(waited >= 3, "the search took {waited} ticks");
    assert!(arrived, "the walker arrives");
}

#[test]
fn a_world_cloned_while_searches_run_goes_on_as_the_original() {
    // Forks (What if…, `kiai fork`) clone the world mid-run: searches under
    // way must carry over, or the fork would differ from the original.
    let mut original = world(60, Some(40));
    let mut pipeline = Pipeline::new();
    let mut decider = GoTo { goals: goals() };
    for _ in 0..3 {
        pipeline.tick(&mut original, &mut decider);
    }
    assert!(original.routes_waiting() > 0, "searches are under way");
    let mut fork = original.clone();
    assert_eq!(state_hash(&fork), state_hash(&original));
    let (mut p2, mut d2) = (Pipeline::new(), GoTo { goals: goals() });
    for t in 0..150 {
        pipeline.tick(&mut original, &mut decider);
        p2.tick(&mut fork, &mut d2);
        assert_eq!(
            state_hash(&fork),
            state_hash(&original),
            "tick {t} after the clone"
        );
    }
}
