//! Helpers the tests of kiai-core share: thread pools, two factions at
//! war, agents placed, nudges, percept kinds.

#![allow(dead_code)] // each test file uses its own part

use kiai_core::glam::Vec3;
use kiai_core::{
    AgentId, AgentSpawn, Archetype, ArchetypeId, Avoidance, EventKind, FactionId, LodTier,
    Movement, Sense, SenseFilter, Shape, World, WorldConfig,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Runs `f` on a pool of `threads` threads.
pub(crate) fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("thread pool: {e}"))
        .install(f)
}

/// Moves each agent whose index `which` picks by up to `reach` on X and Z.
pub(crate) fn nudge(
    world: &mut World,
    rng: &mut ChaCha8Rng,
    which: impl Fn(usize) -> bool,
    reach: f32,
) {
    for i in (0..world.agents().len()).filter(|&i| which(i)) {
        let p = world.agents().positions()[i];
        let step = Vec3::new(
            rng.random_range(-reach..reach),
            0.0,
            rng.random_range(-reach..reach),
        );
        let _ = world.set_position(AgentId::from_index(i), p + step);
    }
}

/// Whether `kind` is one of the sense stage's events.
pub(crate) fn is_percept(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Gained { .. }
            | EventKind::Lost { .. }
            | EventKind::Heard { .. }
            | EventKind::Message { .. }
    )
}

/// Adds the factions `red` and `blue`, each hostile to the other.
pub(crate) fn red_and_blue(world: &mut World) -> (FactionId, FactionId) {
    let f = world.factions_mut();
    let (red, blue) = (
        f.add("red").unwrap_or_else(|e| panic!("{e}")),
        f.add("blue").unwrap_or_else(|e| panic!("{e}")),
    );
    f.set_hostile(red, blue);
    f.set_hostile(blue, red);
    (red, blue)
}

/// A sense of `shape`, not occluded, without hysteresis, remembering for
/// `memory_ticks` ticks.
pub(crate) fn sense(name: &str, shape: Shape, filter: SenseFilter, memory_ticks: u32) -> Sense {
    Sense {
        name: name.into(),
        shape,
        filter,
        occluded: false,
        lose_range: None,
        memory_ticks,
    }
}

/// Spawns agent `name` of `archetype` and `faction` at `position`,
/// facing `facing`.
pub(crate) fn spawn_at(
    world: &mut World,
    name: &str,
    (archetype, faction): (ArchetypeId, FactionId),
    position: Vec3,
    facing: Vec3,
) -> AgentId {
    world
        .spawn(AgentSpawn {
            name: name.into(),
            archetype,
            faction,
            position,
            facing,
        })
        .unwrap_or_else(|e| panic!("spawn {name}: {e}"))
}

/// `n` soldiers of factions `red` and `blue` (alternating), scattered over
/// a square of `side` world units: walkers that sense hostiles around them
/// (a sphere of 4) and ahead (a cone of 15 and 90°), remember them for 30
/// ticks, avoid each other, and think by `tiers`.
pub(crate) fn soldiers(n: usize, side: f32, seed: u64, tiers: &[LodTier]) -> World {
    let mut world = World::new(WorldConfig {
        seed,
        ..WorldConfig::default()
    });
    let (red, blue) = red_and_blue(&mut world);
    let remembers = |name: &str, shape| sense(name, shape, SenseFilter::Hostile, 30);
    let cone = Shape::Cone {
        range: 15.0,
        fov_deg: 90.0,
    };
    let soldier = world
        .add_archetype(Archetype {
            name: "soldier".into(),
            senses: vec![
                remembers("near", Shape::Sphere { radius: 4.0 }),
                remembers("eyes", cone),
            ],
            movement: Movement::Walker {
                min_speed: 0.5,
                max_speed: 2.0,
                direction_change_factor: 20,
                planar: true,
            },
            avoidance: Some(Avoidance::default()),
            lod: tiers.to_vec(),
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..n {
        let (x, z) = (rng.random_range(0.0..side), rng.random_range(0.0..side));
        world
            .spawn(AgentSpawn {
                name: format!("s{i}"),
                archetype: soldier,
                faction: if i % 2 == 0 { red } else { blue },
                position: Vec3::new(x, 0.0, z),
                facing: Vec3::X,
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    world
}
