//! Keeping the pool's threads awake through a tick (the default inside a
//! rayon pool) changes which thread runs a piece of work, never the
//! result: the state hash after every tick is the same with the threads
//! kept awake or left to sleep, at 1, 2 and 3 threads.

mod common;

use common::{on_threads, red_and_blue};
use kiai_core::glam::Vec3;
use kiai_core::{
    AgentSpawn, Archetype, Avoidance, DefaultDecider, Movement, Pipeline, Sense, SenseFilter,
    Shape, World, WorldConfig, state_hash,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Two hostile armies of walkers that see and avoid each other: enough
/// agents (2,500) that every per-agent stage splits over the threads.
fn armies() -> World {
    let mut world = World::new(WorldConfig {
        seed: 11,
        ..WorldConfig::default()
    });
    let (red, blue) = red_and_blue(&mut world);
    let soldier = world
        .add_archetype(Archetype {
            name: "soldier".into(),
            senses: vec![Sense::new(
                "eyes",
                Shape::Cone {
                    range: 12.0,
                    fov_deg: 120.0,
                },
                SenseFilter::Hostile,
            )],
            movement: Movement::Walker {
                min_speed: 0.5,
                max_speed: 2.0,
                direction_change_factor: 20,
                planar: true,
            },
            avoidance: Some(Avoidance::default()),
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for i in 0..2_500 {
        world
            .spawn(AgentSpawn {
                name: format!("s{i}"),
                archetype: soldier,
                faction: if i % 2 == 0 { red } else { blue },
                position: Vec3::new(
                    rng.random_range(0.0..120.0),
                    0.0,
                    rng.random_range(0.0..120.0),
                ),
                facing: Vec3::X,
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    world
}

/// The state hash after each of 8 ticks, on `threads` threads, with the
/// pool's threads kept `awake` or not.
fn hashes(threads: usize, awake: bool) -> Vec<u64> {
    on_threads(threads, || {
        let mut world = armies();
        let mut pipeline = Pipeline::new();
        pipeline.set_threads_awake(awake);
        assert_eq!(pipeline.threads_awake(), awake);
        let mut decider = DefaultDecider::default();
        (0..8)
            .map(|_| {
                pipeline.tick(&mut world, &mut decider);
                state_hash(&world)
            })
            .collect()
    })
}

#[test]
fn threads_kept_awake_or_left_to_sleep_give_the_same_ticks() {
    assert!(Pipeline::new().threads_awake(), "awake is the default");
    let reference = hashes(1, false);
    for (threads, awake) in [(1, true), (2, true), (2, false), (3, true)] {
        assert_eq!(
            hashes(threads, awake),
            reference,
            "{threads} threads, awake {awake}"
        );
    }
}
