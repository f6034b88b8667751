//! The perception budget: a cap on occlusion rays per sense stage, spread
//! round-robin over the agents. Rays never exceed the cap; when nothing
//! moves, the budgeted lists reach the unbudgeted ones within
//! ceil(total rays / budget) stages; everything is identical at 1 and 2
//! threads; the budget and its cursor are in the state hash.

use kiai_core::glam::{Vec2, Vec3};
use kiai_core::perception::Occluders;
use kiai_core::perception::occlusion::{Wall, Walls};
use kiai_core::{
    AgentId, AgentSpawn, Archetype, DefaultDecider, Movement, PerceptionBudget, Pipeline, Sense,
    SenseFilter, Shape, World, WorldConfig, state_hash,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SIDE: f32 = 90.0;

/// `n` static agents with a sphere and an occluded cone (with a second
/// archetype whose only sense is occluded), among 60 random walls.
fn world(n: usize, seed: u64) -> World {
    let mut world = World::new(WorldConfig {
        seed,
        ..WorldConfig::default()
    });
    let all = world
        .factions_mut()
        .add("all")
        .unwrap_or_else(|e| panic!("{e}"));
    let sense = |name: &str, shape, occluded| Sense {
        name: name.into(),
        shape,
        filter: SenseFilter::All,
        occluded,
        lose_range: None,
        memory_ticks: 0,
    };
    let archetype = |name: &str, senses| Archetype {
        name: name.into(),
        senses,
        movement: Movement::Static,
        ..Archetype::default()
    };
    let seer = world
        .add_archetype(archetype(
            "seer",
            vec![
                sense("radar", Shape::Sphere { radius: 5.0 }, false),
                sense(
                    "eyes",
                    Shape::Cone {
                        range: 12.0,
                        fov_deg: 120.0,
                    },
                    true,
                ),
            ],
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let owl = world
        .add_archetype(archetype(
            "owl",
            vec![sense("around", Shape::Sphere { radius: 9.0 }, true)],
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..n {
        world
            .spawn(AgentSpawn {
                name: format!("a{i}"),
                archetype: if i % 4 == 0 { owl } else { seer },
                faction: all,
                position: Vec3::new(
                    rng.random_range(0.0..SIDE),
                    rng.random_range(0.0..2.0),
                    rng.random_range(0.0..SIDE),
                ),
                facing: Vec3::new(
                    rng.random_range(-1.0..1.0),
                    0.0,
                    rng.random_range(-1.0..1.0),
                ),
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let walls: Vec<Wall> = (0..60)
        .map(|_| {
            let from = Vec2::new(rng.random_range(0.0..SIDE), rng.random_range(0.0..SIDE));
            let angle = rng.random_range(0.0..std::f32::consts::TAU);
            let len = rng.random_range(3.0..15.0);
            Wall::new(from, from + Vec2::from_angle(angle) * len, 3.0)
        })
        .collect();
    world.set_occluders(Occluders {
        walls: Walls::build(walls, None),
        pvs: None,
    });
    world
}

type Lists = Vec<(AgentId, usize, Vec<AgentId>)>;

fn lists(world: &World) -> Lists {
    world
        .percepts()
        .iter()
        .map(|(a, s, ids)| (a, s, ids.to_vec()))
        .collect()
}

#[test]
fn converges_to_the_unbudgeted_lists_within_the_bound() {
    let mut free = world(700, 3);
    let mut pipeline = Pipeline::new();
    pipeline.sense(&mut free);
    let total = free.percepts().rays();
    assert!(total > 1000, "the scene casts rays: {total}");
    let want = lists(&free);
    for budget in [total / 7, total / 3 + 17, 997, total - 1, total, total + 5] {
        let budget = u32::try_from(budget).unwrap_or_else(|e| panic!("{e}"));
        let mut w = world(700, 3);
        w.set_perception_budget(Some(PerceptionBudget {
            max_rays_per_tick: budget,
        }));
        let mut p = Pipeline::new();
        let stages = total.div_ceil(u64::from(budget));
        for stage in 0..stages {
            p.sense(&mut w);
            let rays = w.percepts().rays();
            assert!(
                rays <= u64::from(budget),
                "stage {stage}: {rays} rays > {budget}"
            );
            // Every stage but the last uses the whole budget.
            if stage + 1 < stages {
                assert_eq!(rays, u64::from(budget), "stage {stage}");
            }
            if stages > 2 && stage == 0 {
                assert!(lists(&w) != want, "one stage cannot have seen everything");
            }
        }
        assert!(lists(&w) == want, "budget {budget}: after {stages} stages");
        // Converged lists stay converged.
        for _ in 0..3 {
            p.sense(&mut w);
            assert!(w.percepts().rays() <= u64::from(budget));
            assert!(lists(&w) == want, "budget {budget}: after convergence");
        }
    }
}

#[test]
fn a_zero_budget_freezes_occluded_senses() {
    let mut w = world(300, 4);
    let mut p = Pipeline::new();
    p.sense(&mut w);
    let before = lists(&w);
    w.set_perception_budget(Some(PerceptionBudget {
        max_rays_per_tick: 0,
    }));
    p.sense(&mut w);
    assert_eq!(w.percepts().rays(), 0);
    assert!(lists(&w) == before, "nothing moved, nothing re-tested");
}

fn run(threads: usize, budget: u32) -> (Vec<u64>, Vec<Lists>, Vec<u64>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("thread pool: {e}"));
    pool.install(|| {
        let mut w = world(1500, 9);
        w.set_perception_budget(Some(PerceptionBudget {
            max_rays_per_tick: budget,
        }));
        let mut p = Pipeline::new();
        let (mut hashes, mut all, mut rays) = (Vec::new(), Vec::new(), Vec::new());
        for t in 0..8 {
            // Shift everyone a little each tick so that candidates change.
            for i in 0..w.agents().len() {
                let id = AgentId::from_index(i);
                let pos = w.agents().positions()[i];
                let step = Vec3::new(((i + t) % 5) as f32 * 0.3 - 0.6, 0.0, 0.4);
                let _ = w.set_position(id, pos + step);
            }
            p.tick(&mut w, &mut DefaultDecider::default());
            hashes.push(state_hash(&w));
            all.push(lists(&w));
            rays.push(w.percepts().rays());
        }
        (hashes, all, rays)
    })
}

#[test]
fn budgeted_results_are_identical_at_one_and_two_threads() {
    let budget = 2500;
    let one = run(1, budget);
    let two = run(2, budget);
    assert!(one.2.iter().all(|&r| r <= u64::from(budget)), "{:?}", one.2);
    assert!(one.2.iter().any(|&r| r == u64::from(budget)), "{:?}", one.2);
    assert!(one.1 == two.1, "lists");
    assert_eq!(one.0, two.0, "state hashes");
    assert_eq!(one.2, two.2, "rays");
}

#[test]
fn the_budget_and_its_cursor_are_in_the_state_hash() {
    let base = world(400, 5);
    let plain = state_hash(&base);
    let mut w = world(400, 5);
    w.set_perception_budget(Some(PerceptionBudget {
        max_rays_per_tick: 100,
    }));
    let budgeted = state_hash(&w);
    assert_ne!(plain, budgeted, "the budget is hashed");
    w.set_perception_budget(Some(PerceptionBudget {
        max_rays_per_tick: 101,
    }));
    assert_ne!(state_hash(&w), budgeted, "its value too");
    w.set_perception_budget(None);
    assert_eq!(state_hash(&w), plain, "no budget: the hash is as before");

    // Once converged (nothing moves), a stage changes nothing but the
    // cursor, and the hash still changes.
    let mut p = Pipeline::new();
    w.set_perception_budget(Some(PerceptionBudget {
        max_rays_per_tick: 150,
    }));
    for _ in 0..200 {
        p.sense(&mut w);
    }
    let (lists_then, cursor, hash) = (lists(&w), w.ray_cursor(), state_hash(&w));
    p.sense(&mut w);
    assert!(lists(&w) == lists_then, "converged");
    assert_ne!(w.ray_cursor(), cursor, "the cursor moved");
    assert_ne!(state_hash(&w), hash, "and the hash saw it");
}
