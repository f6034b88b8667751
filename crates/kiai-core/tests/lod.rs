//! Tick level of detail: tiers that all think every tick change nothing
//! (the state hash equals the run without tiers); with far tiers the run
//! is identical at 1 and 2 threads; a held agent that an every-tick
//! observer senses, or that hears a sound, thinks in that same tick; a
//! far agent walking toward the point of interest thinks at least once
//! per its tier's period, and near agents every tick.

mod common;

use common::{red_and_blue, sense};

use kiai_core::glam::Vec3;
use kiai_core::perception::hearing::{Falloff, NO_SOURCE, Sound};
use kiai_core::{
    AgentId, AgentSpawn, Archetype, DefaultDecider, LodTier, Movement, Pipeline, SenseFilter,
    Shape, World, WorldConfig, state_hash,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Two hostile factions of walkers that see and avoid, on a square of
/// `side` world units, with the given tiers, and a point of interest in
/// the middle.
fn battle(n: usize, side: f32, seed: u64, tiers: &[LodTier]) -> World {
    let mut world = common::soldiers(n, side, seed, tiers);
    world.set_interest_points([Vec3::new(side / 2.0, 0.0, side / 2.0)]);
    world
}

/// The state hash after each of `ticks` ticks.
fn hashes(mut world: World, ticks: usize) -> Vec<u64> {
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    (0..ticks)
        .map(|_| {
            pipeline.tick(&mut world, &mut decider);
            state_hash(&world)
        })
        .collect()
}

fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
        .install(f)
}

/// Mass's default tiers at 10 ticks a second: every tick within 50,
/// every 0.5 s to 100, every 1 s to 300, every 1.5 s beyond.
fn mass() -> Vec<LodTier> {
    vec![
        LodTier::new(Some(50.0), 1),
        LodTier::new(Some(100.0), 5),
        LodTier::new(Some(300.0), 10),
        LodTier::new(None, 15),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn tiers_that_think_every_tick_change_nothing(seed in 0u64..1_000, n in 50usize..400) {
        let every_tick = vec![LodTier::new(Some(20.0), 1), LodTier::new(None, 1)];
        let with = hashes(battle(n, 120.0, seed, &every_tick), 40);
        let without = hashes(battle(n, 120.0, seed, &[]), 40);
        prop_assert_eq!(with, without);
    }

    #[test]
    fn far_tiers_run_the_same_at_any_thread_count(seed in 0u64..1_000, n in 50usize..600) {
        let tiers = vec![
            LodTier::new(Some(15.0), 1),
            LodTier::new(Some(40.0), 4),
            LodTier { avoidance: false, ..LodTier::new(None, 16) },
        ];
        let one = on_threads(1, || hashes(battle(n, 150.0, seed, &tiers), 50));
        let two = on_threads(2, || hashes(battle(n, 150.0, seed, &tiers), 50));
        prop_assert_eq!(one, two);
    }
}

#[test]
fn far_tiers_change_the_run_and_spread_the_work() {
    let world = battle(2_000, 800.0, 7, &mass());
    assert_ne!(
        hashes(world.clone(), 30),
        hashes(battle(2_000, 800.0, 7, &[]), 30)
    );
    let mut world = world;
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    let mut thinking = Vec::new();
    for _ in 0..30 {
        pipeline.tick(&mut world, &mut decider);
        let ids: Vec<AgentId> = world.agents().ids().collect();
        thinking.push(ids.iter().filter(|&&a| world.thinks(a)).count());
    }
    let counts = world.lod_counts();
    assert_eq!(counts.iter().sum::<usize>(), 2_000);
    assert!(counts[3] > 1_000, "most are far: {counts:?}");
    // Staggered: no tick carries much more than its share.
    let max = thinking.iter().copied().max().unwrap_or(0) as f64;
    let mean = thinking.iter().sum::<usize>() as f64 / thinking.len() as f64;
    assert!(max < mean * 1.5, "{thinking:?}");
    assert!(mean < 2_000.0 / 5.0, "{thinking:?}");
}

/// One observer at the point of interest that thinks every tick, and one
/// far agent walking straight at it, thinking every 16 ticks.
fn approach() -> (World, AgentId, AgentId) {
    let mut world = World::new(WorldConfig::default());
    let (red, blue) = red_and_blue(&mut world);
    let tiers = vec![LodTier::new(Some(10.0), 1), LodTier::new(None, 16)];
    let around = |radius| sense("around", Shape::Sphere { radius }, SenseFilter::Hostile, 0);
    let guard = world
        .add_archetype(Archetype {
            name: "guard".into(),
            senses: vec![around(20.0)],
            lod: tiers.clone(),
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let runner = world
        .add_archetype(Archetype {
            name: "runner".into(),
            senses: vec![
                around(20.0),
                sense(
                    "ears",
                    Shape::Hearing {
                        threshold: 0.5,
                        falloff: Falloff::InverseSquare,
                    },
                    SenseFilter::Hostile,
                    0,
                ),
            ],
            movement: Movement::Walker {
                min_speed: 1.0,
                max_speed: 1.0,
                direction_change_factor: 1_000_000,
                planar: true,
            },
            lod: tiers,
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let g = world
        .spawn(AgentSpawn {
            name: "guard".into(),
            archetype: guard,
            faction: red,
            position: Vec3::ZERO,
            facing: Vec3::X,
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let r = world
        .spawn(AgentSpawn {
            name: "runner".into(),
            archetype: runner,
            faction: blue,
            position: Vec3::new(35.0, 0.0, 0.0),
            facing: -Vec3::X,
        })
        .unwrap_or_else(|e| panic!("{e}"));
    world
        .set_goal(r, Some(Vec3::ZERO))
        .unwrap_or_else(|e| panic!("{e}"));
    world
        .set_interest_agent(g, true)
        .unwrap_or_else(|e| panic!("{e}"));
    (world, g, r)
}

#[test]
fn a_held_agent_sensed_by_an_every_tick_observer_thinks_in_that_tick() {
    let (mut world, guard, runner) = approach();
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    let mut first_seen = None;
    let mut thought = Vec::new();
    for _ in 0..400 {
        pipeline.tick(&mut world, &mut decider);
        let t = world.tick() - 1;
        assert!(world.thinks(guard), "the guard thinks every tick");
        if world.thinks(runner) {
            thought.push(t);
        }
        if world.percepts().sensed(guard, 0).contains(&runner) {
            first_seen.get_or_insert(t);
            assert!(world.thinks(runner), "tick {t}: seen but held");
            assert_eq!(world.thought_at(runner), Some(t));
            // It senses the guard in that same tick, and decides on it.
            assert!(world.percepts().sensed(runner, 0).contains(&guard));
        }
    }
    let Some(first_seen) = first_seen else {
        panic!("the runner never came within 20 of the guard");
    };
    // Far away it thinks once in 16 ticks, never less often.
    let far: Vec<u64> = thought
        .iter()
        .copied()
        .filter(|&t| t < first_seen)
        .collect();
    assert!(far.windows(2).all(|w| w[1] - w[0] <= 16), "{far:?}");
    assert!(far.len() < first_seen as usize / 8, "{far:?}");
}

#[test]
fn a_held_agent_that_hears_a_sound_thinks_in_that_tick() {
    let (mut world, _guard, runner) = approach();
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    for _ in 0..3 {
        pipeline.tick(&mut world, &mut decider);
    }
    // Find a tick the runner would be held in, then make a sound near it.
    let mut probe = world.clone();
    pipeline.tick(&mut probe, &mut decider);
    let held_next = !probe.thinks(runner);
    assert!(
        held_next || {
            pipeline.tick(&mut world, &mut decider);
            let mut probe = world.clone();
            pipeline.tick(&mut probe, &mut decider);
            !probe.thinks(runner)
        }
    );
    let at = world.agents().positions()[runner.index()];
    world.emit_sound(Sound {
        position: at + Vec3::X,
        volume: 10.0,
        source: NO_SOURCE,
        tag: 0,
    });
    pipeline.tick(&mut world, &mut decider);
    assert!(world.thinks(runner), "woken by the sound");
    assert!(!world.percepts().heard(runner, 1).is_empty());
}

#[test]
fn agents_spawned_between_ticks_think_and_a_lone_sense_stage_runs() {
    let mut world = battle(200, 300.0, 11, &mass());
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    for _ in 0..3 {
        pipeline.tick(&mut world, &mut decider);
    }
    let archetype = world.agents().archetypes()[0];
    let faction = world.agents().factions()[0];
    let new = world
        .spawn(AgentSpawn {
            name: "late".into(),
            archetype,
            faction,
            position: Vec3::new(290.0, 0.0, 290.0),
            facing: Vec3::X,
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // A sense stage alone, before the next tick sets the new agent's tier.
    pipeline.sense(&mut world);
    assert!(world.thinks(new));
    for _ in 0..20 {
        pipeline.tick(&mut world, &mut decider);
    }
    assert_eq!(world.lod_tier(new), Some(2), "about 200 from the middle");
}

/// [`battle`] with occluded eyes, random walls and a ray budget.
fn walled_battle(seed: u64) -> World {
    use kiai_core::glam::Vec2;
    use kiai_core::perception::occlusion::{Wall, Walls};
    use kiai_core::perception::{Occluders, PerceptionBudget};
    let mut world = battle(600, 200.0, seed, &mass());
    let id = world.agents().archetypes()[0];
    let mut soldier = world
        .archetype(id)
        .cloned()
        .unwrap_or_else(|| panic!("the soldier"));
    for s in &mut soldier.senses {
        s.occluded = true;
    }
    soldier.lod = vec![LodTier::new(Some(40.0), 1), LodTier::new(None, 8)];
    world
        .set_archetype(id, soldier)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let walls: Vec<Wall> = (0..40)
        .map(|_| {
            let from = Vec2::new(rng.random_range(0.0..200.0), rng.random_range(0.0..200.0));
            let to = from + Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * 10.0;
            Wall::new(from, to, 3.0)
        })
        .collect();
    world.set_occluders(Occluders {
        walls: Walls::build(walls, None),
        pvs: None,
    });
    world.set_perception_budget(Some(PerceptionBudget {
        max_rays_per_tick: 400,
    }));
    world
}

#[test]
fn held_agents_under_a_ray_budget_run_the_same_at_any_thread_count() {
    let one = on_threads(1, || hashes(walled_battle(4), 40));
    let two = on_threads(2, || hashes(walled_battle(4), 40));
    assert_eq!(one, two);
}

#[test]
fn a_held_agents_memory_ages_by_the_ticks_that_passed() {
    // A far watcher (every 16th tick) remembers for 5 ticks; a target
    // stands in its sight, then the game moves it away for good.
    let mut world = World::new(WorldConfig::default());
    let all = world
        .factions_mut()
        .add("all")
        .unwrap_or_else(|e| panic!("{e}"));
    let watcher = world
        .add_archetype(Archetype {
            name: "watcher".into(),
            senses: vec![sense(
                "around",
                Shape::Sphere { radius: 10.0 },
                SenseFilter::All,
                5,
            )],
            lod: vec![LodTier::new(Some(10.0), 1), LodTier::new(None, 16)],
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let post = world
        .add_archetype(Archetype {
            name: "post".into(),
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let spawn = |world: &mut World, name: &str, archetype, x: f32| {
        world
            .spawn(AgentSpawn {
                name: name.into(),
                archetype,
                faction: all,
                position: Vec3::new(x, 0.0, 0.0),
                facing: Vec3::X,
            })
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let w = spawn(&mut world, "watcher", watcher, 500.0);
    let target = spawn(&mut world, "target", post, 505.0);
    world.set_interest_points([Vec3::ZERO]);
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    // Run until the watcher has thought with the target in sight.
    let mut seen_at = None;
    for _ in 0..40 {
        pipeline.tick(&mut world, &mut decider);
        if world.thinks(w) && !world.memory(w).is_empty() {
            seen_at = Some(world.tick() - 1);
            break;
        }
    }
    let Some(seen_at) = seen_at else {
        panic!("the watcher never thought with the target in sight");
    };
    world
        .set_position(target, Vec3::new(900.0, 0.0, 0.0))
        .unwrap_or_else(|| panic!("the target is alive"));
    loop {
        pipeline.tick(&mut world, &mut decider);
        let t = world.tick() - 1;
        let memory = world.memory(w);
        if !world.thinks(w) {
            // Held: memory untouched, the entry keeps the tick it was made.
            assert!(memory.iter().all(|m| m.tick == seen_at), "tick {t}");
            continue;
        }
        // At its next thinking tick, more than 5 ticks later: forgotten.
        assert!(t > seen_at + 5, "thought again at {t}, seen at {seen_at}");
        assert!(memory.is_empty(), "tick {t}: {memory:?}");
        break;
    }
}

#[test]
fn percept_events_come_from_thinking_agents_in_agent_order() {
    use kiai_core::EventKind;
    let mut world = battle(3_000, 400.0, 9, &mass());
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    let mut seen = 0;
    for _ in 0..30 {
        pipeline.tick(&mut world, &mut decider);
        let agents: Vec<AgentId> = world
            .percept_events()
            .filter_map(|e| match e {
                EventKind::Gained { agent, .. } | EventKind::Lost { agent, .. } => Some(agent),
                _ => None,
            })
            .collect();
        assert!(agents.windows(2).all(|w| w[0].index() <= w[1].index()));
        assert!(agents.iter().all(|&a| world.thinks(a)));
        seen += agents.len();
    }
    assert!(seen > 100, "{seen} events");
}
