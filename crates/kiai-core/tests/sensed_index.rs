//! `SensedIndex` (the sensed lists copied into agent order) gives exactly
//! what `Percepts::sensed` gives, for every agent slot and sense: live
//! agents, agents of archetypes with no senses, handles of agents that
//! left the world, slots reused by newer agents, held agents of far tiers,
//! and senses the archetype does not have.

use kiai_core::glam::Vec3;
use kiai_core::{
    AgentId, AgentSpawn, Archetype, ArchetypeId, DefaultDecider, FactionId, LodTier, Movement,
    Pipeline, Sense, SenseFilter, SensedIndex, Shape, World, WorldConfig,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod common;
use common::red_and_blue;

/// Walkers of three archetypes (two senses, one sense, none) in two
/// hostile factions on a square of `side` units; the first archetype
/// thinks every 3rd tick beyond 30 units of the point of interest. Also
/// returns that archetype and the first faction.
fn world(n: usize, side: f32, seed: u64) -> (World, ArchetypeId, FactionId) {
    let mut world = World::new(WorldConfig {
        seed,
        ..WorldConfig::default()
    });
    let (red, blue) = red_and_blue(&mut world);
    let movement = Movement::Walker {
        min_speed: 0.5,
        max_speed: 2.0,
        direction_change_factor: 20,
        planar: true,
    };
    let senses = [
        vec![
            Sense::new("near", Shape::Sphere { radius: 6.0 }, SenseFilter::All),
            Sense::new(
                "eyes",
                Shape::Cone {
                    range: 12.0,
                    fov_deg: 100.0,
                },
                SenseFilter::Hostile,
            ),
        ],
        vec![Sense::new(
            "near",
            Shape::Sphere { radius: 8.0 },
            SenseFilter::Hostile,
        )],
        Vec::new(),
    ];
    let archetypes: Vec<_> = senses
        .into_iter()
        .enumerate()
        .map(|(k, senses)| {
            let lod = if k == 0 {
                vec![LodTier::new(Some(30.0), 1), LodTier::new(None, 3)]
            } else {
                Vec::new()
            };
            world
                .add_archetype(Archetype {
                    name: format!("a{k}"),
                    senses,
                    movement,
                    lod,
                    ..Archetype::default()
                })
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..n {
        spawn(
            &mut world,
            &mut rng,
            archetypes[i % 3],
            i,
            side,
            [red, blue][i % 2],
        );
    }
    world.set_interest_points([Vec3::new(side / 2.0, 0.0, side / 2.0)]);
    (world, archetypes[0], red)
}

fn spawn(
    world: &mut World,
    rng: &mut ChaCha8Rng,
    archetype: ArchetypeId,
    i: usize,
    side: f32,
    faction: FactionId,
) -> AgentId {
    world
        .spawn(AgentSpawn {
            name: format!("u{i}"),
            archetype,
            faction,
            position: Vec3::new(
                rng.random_range(0.0..side),
                0.0,
                rng.random_range(0.0..side),
            ),
            facing: Vec3::X,
        })
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Every handle ever given out, checked against the percepts, senses 0..4.
fn check(world: &World, index: &mut SensedIndex, handles: &[AgentId]) {
    index.build(world.percepts());
    for &agent in handles {
        for s in 0..4 {
            assert_eq!(
                index.sensed(agent, s),
                world.percepts().sensed(agent, s),
                "agent {agent:?}, sense {s}, tick {}",
                world.tick()
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn the_index_lists_what_the_percepts_list(seed in 0u64..1_000, n in 1usize..300) {
        let side = (n as f32 * 40.0).sqrt().max(10.0);
        let (mut w, a0, red) = world(n, side, seed);
        let mut handles: Vec<AgentId> = w.agents().ids().collect();
        let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
        let mut index = SensedIndex::default();
        check(&w, &mut index, &handles);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        for t in 0..12 {
            pipeline.tick(&mut w, &mut decider);
            check(&w, &mut index, &handles);
            // Some leave (their slots are reused by the next spawns).
            if t % 4 == 1 {
                let live: Vec<AgentId> = w.agents().ids().collect();
                for &a in live.iter().step_by(5) {
                    w.despawn(a).unwrap_or_else(|e| panic!("{e}"));
                }
                for k in 0..live.len().div_ceil(10) {
                    handles.push(spawn(&mut w, &mut rng, a0, n + k, side, red));
                }
                check(&w, &mut index, &handles);
            }
        }
    }
}
