//! The runtime inside a game: stale handles refused, a door that opens,
//! bodies the game moves, and the event queue.

use kiai_core::glam::{Vec2, Vec3};
use kiai_core::nav::{WaypointGraph, WaypointId};
use kiai_core::navigate::RouteMode;
use kiai_core::perception::occlusion::{Wall, Walls};
use kiai_core::{
    AgentId, Archetype, ArchetypeId, BehaviourState, BodyMode, DefaultDecider, Event, EventKind,
    FactionId, Movement, Occluders, Pipeline, Sense, SenseFilter, Shape, World, WorldConfig,
    WorldError,
};

mod common;
use common::red_and_blue;

fn spawn(
    world: &mut World,
    name: &str,
    archetype: ArchetypeId,
    faction: FactionId,
    at: Vec3,
) -> AgentId {
    common::spawn_at(world, name, (archetype, faction), at, Vec3::X)
}

fn eyes(occluded: bool) -> Sense {
    Sense {
        occluded,
        memory_ticks: 20,
        ..Sense::new(
            "eyes",
            Shape::Cone {
                range: 40.0,
                fov_deg: 360.0,
            },
            SenseFilter::Hostile,
        )
    }
}

fn add(world: &mut World, archetype: Archetype) -> ArchetypeId {
    world
        .add_archetype(archetype)
        .unwrap_or_else(|e| panic!("archetype: {e}"))
}

#[test]
fn a_stale_handle_is_refused_everywhere() {
    let mut world = World::new(WorldConfig::default());
    let (red, blue) = red_and_blue(&mut world);
    let guard = add(
        &mut world,
        Archetype {
            name: "guard".into(),
            senses: vec![eyes(false)],
            ..Archetype::default()
        },
    );
    let a = spawn(&mut world, "a", guard, red, Vec3::ZERO);
    let watcher = spawn(&mut world, "w", guard, blue, Vec3::new(-5.0, 0.0, 0.0));
    let mut pipeline = Pipeline::new();
    pipeline.tick(&mut world, &mut DefaultDecider::default());
    assert_eq!(world.sensed_by_name(watcher, "eyes"), Some(&[a][..]));
    assert!(world.memory(watcher).iter().any(|m| m.target == a));

    assert_eq!(world.despawn(a), Ok(()));
    let b = spawn(&mut world, "b", guard, red, Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(b.index(), a.index(), "the slot is reused");
    assert_ne!(b, a, "with a new generation");

    assert!(!world.is_alive(a));
    assert_eq!(world.despawn(a), Err(WorldError::NotAlive(a)));
    assert_eq!(world.set_position(a, Vec3::ONE), None);
    assert!(world.set_body(a, Vec3::ONE, Vec3::ZERO, Vec3::X).is_err());
    assert!(world.set_body_mode(a, BodyMode::Driven).is_err());
    assert_eq!(world.body_mode(a), None);
    assert_eq!(world.sensed_by_name(a, "eyes"), None);
    assert!(world.memory(a).is_empty());
    assert_eq!(world.agents().state(a), None);
    assert!(world.percepts().sensed(a, 0).is_empty());
    assert_eq!(world.agents().find("a"), None);
    assert_eq!(world.agents().find("b"), Some(b));
    // The world never moved `b` into `a`'s place: the last tick's lists
    // hold `a`, not `b`, until the next tick.
    assert!(!world.percepts().sensed(watcher, 0).contains(&b));

    pipeline.tick(&mut world, &mut DefaultDecider::default());
    assert_eq!(world.sensed_by_name(watcher, "eyes"), Some(&[b][..]));
    assert!(world.memory(watcher).iter().all(|m| m.target != a));
    let lost = world.events().iter().any(|e| {
        e.kind
            == EventKind::Lost {
                agent: watcher,
                sense: 0,
                target: a,
            }
    });
    assert!(lost, "the watcher lost sight of the departed agent");
    assert!(
        world
            .agents()
            .decisions()
            .iter()
            .all(|d| d.target != Some(a))
    );
}

/// A door between a guard and an intruder, and a waypoint walker whose way
/// to the intruder goes round the long way while the door is closed.
struct DoorScene {
    world: World,
    door: usize,
    guard: AgentId,
    intruder: AgentId,
    walker: AgentId,
    waypoints: Vec<WaypointId>,
}

fn door_scene() -> DoorScene {
    let mut world = World::new(WorldConfig::default());
    let (red, blue) = red_and_blue(&mut world);
    let guard_type = add(
        &mut world,
        Archetype {
            name: "guard".into(),
            senses: vec![eyes(true)],
            ..Archetype::default()
        },
    );
    let walker_type = add(
        &mut world,
        Archetype {
            name: "walker".into(),
            senses: vec![eyes(false)],
            movement: Movement::WaypointWalker {
                speed: 4.0,
                route: RouteMode::AStar,
                arrive_radius: 0.3,
                jitter: 0.0,
                smooth: false,
            },
            ..Archetype::default()
        },
    );
    let still = add(
        &mut world,
        Archetype {
            name: "still".into(),
            ..Archetype::default()
        },
    );
    // The door: x = 0 from z = -5 to 5; walls either side close the rest.
    let walls = vec![
        Wall::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0), 3.0),
        Wall::new(Vec2::new(0.0, 5.0), Vec2::new(0.0, 30.0), 3.0),
        Wall::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, -30.0), 3.0),
    ];
    world.set_occluders(Occluders {
        walls: Walls::build(walls, None),
        pvs: None,
    });
    // Waypoints: 0 and 1 either side of the door, 2 and 3 the way round
    // beyond the wall's end (z = 40).
    let mut g = WaypointGraph::new();
    assert!(g.add_cost_list("default", 1.0).is_ok());
    let points = [(-10.0, 0.0), (10.0, 0.0), (-10.0, 40.0), (10.0, 40.0)];
    let waypoints: Vec<WaypointId> = points
        .iter()
        .filter_map(|&(x, z)| g.add_waypoint(Vec3::new(x, 0.0, z)).ok())
        .collect();
    for (a, b) in [(0, 1), (0, 2), (2, 3), (3, 1)] {
        let _ = g.add_link(waypoints[a], waypoints[b]);
        let _ = g.add_link(waypoints[b], waypoints[a]);
    }
    world.set_nav(g.freeze());
    assert_eq!(world.set_door(0, true), Ok(()));
    let guard = spawn(
        &mut world,
        "guard",
        guard_type,
        red,
        Vec3::new(-3.0, 0.0, 0.0),
    );
    let walker = spawn(
        &mut world,
        "walker",
        walker_type,
        red,
        Vec3::new(-10.0, 0.0, 0.0),
    );
    let intruder = spawn(
        &mut world,
        "intruder",
        still,
        blue,
        Vec3::new(10.0, 0.0, 0.0),
    );
    DoorScene {
        world,
        door: 0,
        guard,
        intruder,
        walker,
        waypoints,
    }
}

/// The walker's way ahead: the waypoint it walks to, then its route.
fn way(world: &World, walker: AgentId) -> Vec<WaypointId> {
    let nav = &world.nav_states()[walker.index()];
    nav.next
        .into_iter()
        .chain(nav.route.iter().rev().copied())
        .collect()
}

#[test]
fn an_opened_door_lets_the_guard_see_and_the_walker_through() {
    let DoorScene {
        mut world,
        door,
        guard,
        intruder,
        walker,
        waypoints: w,
    } = door_scene();
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    for _ in 0..3 {
        pipeline.tick(&mut world, &mut decider);
    }
    assert_eq!(
        world.sensed_by_name(guard, "eyes"),
        Some(&[][..]),
        "the closed door hides"
    );
    assert_eq!(world.is_link_blocked(w[0], w[1]), Some(true));
    assert_eq!(world.agents().state(walker), Some(BehaviourState::Chase));
    assert_eq!(
        way(&world, walker),
        [w[2], w[3], w[1]],
        "round the long way"
    );

    let n = world.tick();
    assert_eq!(world.set_wall_enabled(door, false), Ok(()));
    assert!(matches!(
        world.events().last(),
        Some(Event {
            kind: EventKind::DoorChanged {
                wall: 0,
                open: true
            },
            ..
        })
    ));
    pipeline.tick(&mut world, &mut decider);
    assert_eq!(world.tick(), n + 1);
    assert_eq!(world.sensed_by_name(guard, "eyes"), Some(&[intruder][..]));
    assert_eq!(world.is_link_blocked(w[0], w[1]), Some(false));
    assert_eq!(way(&world, walker), [w[0], w[1]], "back through the door");

    for _ in 0..80 {
        pipeline.tick(&mut world, &mut decider);
    }
    let arrived = world.nav_states()[walker.index()].at == Some(w[1]);
    assert!(arrived, "it walked through the open door");
}

#[test]
fn a_driven_body_that_only_manages_half_still_arrives_and_kinematic_ones_stay_put() {
    let DoorScene {
        mut world,
        door,
        walker,
        intruder,
        waypoints: w,
        ..
    } = door_scene();
    assert_eq!(world.set_wall_enabled(door, false), Ok(()));
    assert_eq!(world.set_body_mode(walker, BodyMode::Driven), Ok(()));
    assert_eq!(world.set_body_mode(intruder, BodyMode::Kinematic), Ok(()));
    let intruder_at = world.agents().positions()[intruder.index()];
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    let dt = world.config().tick_seconds;
    let mut arrived = None;
    for tick in 0..400 {
        pipeline.tick(&mut world, &mut decider);
        if world.events().iter().any(|e| {
            e.kind
                == EventKind::Arrived {
                    agent: walker,
                    waypoint: w[1],
                }
        }) {
            arrived = Some(tick);
            break;
        }
        // The game's slow character controller: half of what is asked.
        let wanted = world.desired_velocities().to_vec();
        let facings = world.desired_facings().to_vec();
        let i = walker.index();
        let v = wanted[i] * 0.5;
        world.positions_mut()[i] += v * dt;
        world.velocities_mut()[i] = v;
        world.facings_mut()[i] = facings[i];
        assert_eq!(world.agents().positions()[intruder.index()], intruder_at);
        assert_eq!(world.desired_velocities()[intruder.index()], Vec3::ZERO);
    }
    assert!(
        arrived.is_some(),
        "the walker reached the intruder's waypoint"
    );
    assert_eq!(
        world.agents().state(intruder),
        Some(BehaviourState::RandomWalk)
    );
}

#[test]
fn events_come_sorted_by_agent_then_kind_and_each_tick_starts_a_new_queue() {
    let DoorScene {
        mut world, walker, ..
    } = door_scene();
    let spawned = world
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Spawned { .. }))
        .count();
    assert_eq!(spawned, 3, "the spawns before the first tick");
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    pipeline.tick(&mut world, &mut decider);
    let keys: Vec<_> = world
        .events()
        .iter()
        .map(|e| (e.kind.agent(), e.kind.rank()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(world.events().iter().all(|e| e.tick == 0));
    assert!(world.events().iter().any(|e| matches!(
        e.kind,
        EventKind::DecisionChanged { agent, to, .. } if agent == walker && to.state == BehaviourState::Chase
    )));
    pipeline.tick(&mut world, &mut decider);
    assert!(
        world.events().iter().all(|e| e.tick == 1),
        "last tick's events are gone"
    );
    let drained: Vec<Event> = world.drain_events().collect();
    assert!(world.events().is_empty());
    assert!(
        drained
            .iter()
            .all(|e| !matches!(e.kind, EventKind::Spawned { .. }))
    );
}
