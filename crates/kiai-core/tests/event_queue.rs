//! The tick's event queue as a game reads it: sorted by agent (events of no
//! agent first), then kind, each agent's events of one kind in the order
//! they were made; every percept event there; the same at 1 and 2
//! threads. With agents that hear before they see (a sense order that
//! makes an agent's percept events come out of kind order), messages,
//! spawns and despawns between ticks, and doors.

mod common;

use kiai_core::glam::{Vec2, Vec3};
use kiai_core::perception::hearing::{Falloff, Sound};
use kiai_core::perception::occlusion::{Wall, Walls};
use kiai_core::{
    AgentId, AgentSpawn, Archetype, Event, EventKind, Message, Movement, Occluders, Pipeline,
    Recipient, Sense, SenseFilter, Shape, World, WorldConfig,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// 300 agents of two hostile factions that hear, then see, then feel
/// around them; one door.
fn world() -> World {
    let mut world = World::new(WorldConfig::default());
    let factions = world.factions_mut();
    let red = factions.add("red").unwrap_or_else(|e| panic!("{e}"));
    let blue = factions.add("blue").unwrap_or_else(|e| panic!("{e}"));
    factions.set_hostile(red, blue);
    let hearing = Shape::Hearing {
        threshold: 0.05,
        falloff: Falloff::InverseSquare,
    };
    let cone = Shape::Cone {
        range: 12.0,
        fov_deg: 120.0,
    };
    let archetype = world
        .add_archetype(Archetype {
            name: "a".into(),
            senses: vec![
                Sense::new("ears", hearing, SenseFilter::All),
                Sense::new("eyes", cone, SenseFilter::Hostile),
                Sense::new("radar", Shape::Sphere { radius: 5.0 }, SenseFilter::All),
            ],
            movement: Movement::Static,
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for i in 0..300 {
        let at = |rng: &mut ChaCha8Rng| rng.random_range(0.0..60.0);
        let _ = world.spawn(AgentSpawn {
            name: format!("n{i}"),
            archetype,
            faction: if i % 2 == 0 { red } else { blue },
            position: Vec3::new(at(&mut rng), 0.0, at(&mut rng)),
            facing: Vec3::new(rng.random_range(-1.0..1.0), 0.0, 1.0),
        });
    }
    world.set_occluders(Occluders {
        walls: Walls::build(
            vec![Wall::new(Vec2::new(30.0, 0.0), Vec2::new(30.0, 20.0), 3.0)],
            None,
        ),
        pvs: None,
    });
    world
}

/// The queue's documented order.
fn key(e: &Event) -> (bool, Option<AgentId>, u8) {
    let agent = e.kind.agent();
    (agent.is_some(), agent, e.kind.rank())
}

/// Ten ticks with sounds, messages, spawns, despawns and a door between
/// them, on `threads` threads; each tick's queue.
fn queues(threads: usize) -> Vec<Vec<Event>> {
    common::on_threads(threads, || {
        let mut world = world();
        let mut pipeline = Pipeline::new();
        let mut decider = kiai_core::DefaultDecider::default();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut out = Vec::new();
        for tick in 0..10u32 {
            for k in 0..4u32 {
                let at = Vec3::new(
                    rng.random_range(0.0..60.0),
                    0.0,
                    rng.random_range(0.0..60.0),
                );
                world.emit_sound(Sound {
                    position: at,
                    volume: 40.0,
                    source: k,
                    tag: tick,
                });
                world.send_message(Message {
                    from: Some(AgentId::from_index(k as usize)),
                    to: Recipient::Radius {
                        center: at,
                        radius: 10.0,
                    },
                    tag: k,
                    position: at,
                });
            }
            if tick % 3 == 1 {
                let gone =
                    AgentId::new(10 + tick, world.agents().generation_of(10 + tick as usize));
                let _ = world.despawn(gone);
                let _ = world.set_wall_enabled(0, tick % 2 == 0);
            }
            // Everyone moves a little: sights are gained and lost.
            common::nudge(&mut world, &mut rng, |_| true, 2.0);
            pipeline.tick(&mut world, &mut decider);
            let queue = world.events().to_vec();
            assert!(queue.is_sorted_by_key(key), "tick {tick}: out of order");
            // Every percept event, each agent's kinds in rank order and
            // otherwise as the sense stage made them.
            let mut made: Vec<EventKind> = world.percept_events().collect();
            // Hearing comes first: some agent heard before it saw.
            let heard_first = made
                .windows(2)
                .any(|w| w[0].agent() == w[1].agent() && w[0].rank() > w[1].rank());
            assert!(
                heard_first,
                "tick {tick}: every agent's kinds came in order"
            );
            made.sort_by_key(|k| (k.agent(), k.rank()));
            let queued: Vec<EventKind> = queue
                .iter()
                .map(|e| e.kind)
                .filter(common::is_percept)
                .collect();
            assert!(
                made.len() > 200,
                "tick {tick}: {} percept events",
                made.len()
            );
            assert_eq!(queued, made, "tick {tick}");
            out.push(queue);
        }
        out
    })
}

#[test]
fn the_queue_is_in_order_with_every_percept_event_at_any_thread_count() {
    let one = queues(1);
    assert!(
        one.iter()
            .flatten()
            .any(|e| matches!(e.kind, EventKind::Despawned { .. }))
    );
    assert!(
        one.iter()
            .flatten()
            .any(|e| matches!(e.kind, EventKind::DoorChanged { .. }))
    );
    assert_eq!(one, queues(2));
}
