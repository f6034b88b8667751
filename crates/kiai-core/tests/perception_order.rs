//! The sense stage works through agents in grid cell order, not id order;
//! what it reports must not show it: lists per agent id, `iter()` in agent
//! order, events in agent, sense, lost-before-gained, target order and equal
//! to the difference between consecutive ticks' lists, with hysteresis,
//! filters and memory, at 1 and 2 threads.

mod common;

use kiai_core::glam::Vec3;
use kiai_core::{
    AgentId, AgentSpawn, Archetype, EventKind, Movement, Pipeline, Sense, SenseFilter, Shape,
    World, WorldConfig, state_hash,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn world(seed: u64) -> World {
    let mut world = World::new(WorldConfig::default());
    let red = world
        .factions_mut()
        .add("red")
        .unwrap_or_else(|e| panic!("{e}"));
    let blue = world
        .factions_mut()
        .add("blue")
        .unwrap_or_else(|e| panic!("{e}"));
    world.factions_mut().set_hostile(red, blue);
    let sense = |name: &str, shape, filter, lose_range| Sense {
        name: name.into(),
        shape,
        filter,
        occluded: false,
        lose_range,
        memory_ticks: 3,
    };
    let archetype = world
        .add_archetype(Archetype {
            name: "a".into(),
            senses: vec![
                sense(
                    "radar",
                    Shape::Sphere { radius: 6.0 },
                    SenseFilter::All,
                    None,
                ),
                sense(
                    "eyes",
                    Shape::Cone {
                        range: 12.0,
                        fov_deg: 120.0,
                    },
                    SenseFilter::Hostile,
                    Some(14.0),
                ),
            ],
            movement: Movement::Static,
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..600 {
        let _ = world.spawn(AgentSpawn {
            name: format!("n{i}"),
            archetype,
            faction: if i % 3 == 0 { red } else { blue },
            position: Vec3::new(
                rng.random_range(0.0..80.0),
                0.0,
                rng.random_range(0.0..80.0),
            ),
            facing: Vec3::new(
                rng.random_range(-1.0..1.0),
                0.0,
                rng.random_range(-1.0..1.0),
            ),
        });
    }
    world
}

/// (agent, sense, kind: 0 lost, 1 gained, 2 heard, 3 message, target).
type Key = (u32, u16, u8, u32);

fn key(e: &EventKind) -> Key {
    match *e {
        EventKind::Lost {
            agent,
            sense,
            target,
        } => (agent.slot(), sense, 0, target.slot()),
        EventKind::Gained {
            agent,
            sense,
            target,
        } => (agent.slot(), sense, 1, target.slot()),
        EventKind::Heard { agent, sense, .. } => (agent.slot(), sense, 2, 0),
        EventKind::Message { agent, .. } => (agent.slot(), u16::MAX, 3, 0),
        ref other => panic!("not a percept event: {other:?}"),
    }
}

fn run(threads: usize) -> (u64, Vec<Vec<Key>>) {
    common::on_threads(threads, || {
        let mut world = world(5);
        let mut pipeline = Pipeline::new();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut before: Vec<Vec<Vec<AgentId>>> = Vec::new();
        let mut all_events = Vec::new();
        for tick in 0..8 {
            pipeline.sense(&mut world);
            let p = world.percepts();
            let now: Vec<Vec<Vec<AgentId>>> = (0..world.agents().len())
                .map(|i| {
                    (0..2)
                        .map(|s| p.sensed(AgentId::from_index(i), s).to_vec())
                        .collect()
                })
                .collect();
            // iter() is in agent then sense order and agrees with sensed().
            let listed: Vec<(AgentId, usize, Vec<AgentId>)> =
                p.iter().map(|(a, s, ids)| (a, s, ids.to_vec())).collect();
            assert_eq!(listed.len(), now.len() * 2);
            for (k, (a, s, ids)) in listed.iter().enumerate() {
                assert_eq!((a.index(), *s), (k / 2, k % 2));
                assert_eq!(ids, &now[k / 2][k % 2]);
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "ascending");
            }
            // Events are ordered, and are exactly the differences.
            let keys: Vec<_> = world.percept_events().map(|e| key(&e)).collect();
            assert!(
                keys.windows(2).all(|w| w[0] < w[1]),
                "tick {tick}: events out of order"
            );
            let mut expected = Vec::new();
            for (i, senses) in now.iter().enumerate() {
                for (s, ids) in senses.iter().enumerate() {
                    let old = before.get(i).map_or(&[][..], |b| &b[s][..]);
                    for t in old.iter().filter(|t| !ids.contains(t)) {
                        expected.push((i as u32, s as u16, 0, t.slot()));
                    }
                    for t in ids.iter().filter(|t| !old.contains(t)) {
                        expected.push((i as u32, s as u16, 1, t.slot()));
                    }
                }
            }
            assert_eq!(keys, expected, "tick {tick}");
            all_events.push(keys);
            before = now;
            // Move a third of the agents a little.
            common::nudge(&mut world, &mut rng, |i| (i + tick) % 3 == 0, 3.0);
        }
        (state_hash(&world), all_events)
    })
}

#[test]
fn cell_order_is_invisible_and_thread_count_free() {
    let one = run(1);
    let two = run(2);
    assert_eq!(one, two);
}

/// Every tick's queue ([`World::events`]) at `threads` threads; checks
/// that each holds exactly the sense stage's events (as
/// [`World::percept_events`] lists them, whatever their order).
fn ticked(threads: usize) -> Vec<Vec<kiai_core::Event>> {
    common::on_threads(threads, || {
        let mut world = world(7);
        let mut pipeline = Pipeline::new();
        let mut decider = kiai_core::DefaultDecider::default();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut queues = Vec::new();
        for tick in 0..6 {
            pipeline.tick(&mut world, &mut decider);
            let mut sensed: Vec<String> =
                world.percept_events().map(|e| format!("{e:?}")).collect();
            let mut queued: Vec<String> = world
                .events()
                .iter()
                .filter(|e| common::is_percept(&e.kind))
                .map(|e| format!("{:?}", e.kind))
                .collect();
            assert!(sensed.len() > 1_000, "tick {tick}: {} events", sensed.len());
            sensed.sort();
            queued.sort();
            assert_eq!(queued, sensed, "tick {tick}");
            queues.push(world.events().to_vec());
            common::nudge(&mut world, &mut rng, |_| true, 4.0);
        }
        queues
    })
}

#[test]
fn the_tick_queue_holds_the_sense_events_the_same_at_any_thread_count() {
    assert_eq!(ticked(1), ticked(2));
}
