//! The runtime inside a game: a tick with agents coming and going against
//! the same scene without churn, and the copy-in / copy-out of Driven
//! bodies against the tick they feed.

use kiai_core::glam::Vec3;
use kiai_core::{AgentId, AgentSpawn, BodyMode, DefaultDecider, Pipeline, World, state_hash};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::tick::battle;
use crate::{Effort, Scenario, allocations, medians_interleaved};

/// Agents in both scenes.
const AGENTS: usize = 10_000;

/// Despawns `count` random live agents of `world` and spawns as many new
/// ones (same archetypes and factions, random places): a battle's losses
/// and reinforcements between two ticks.
fn churn(world: &mut World, rng: &mut ChaCha8Rng, count: usize, side: f32) {
    let mut gone = Vec::with_capacity(count);
    for _ in 0..count {
        let live = world.agents().live_count();
        let slots = world.agents().len();
        if live == 0 {
            break;
        }
        // Pick a random live slot (a few draws at most: slots are mostly live).
        loop {
            let i = rng.random_range(0..slots);
            if let Some(id) = world.agents().id(i)
                && !gone.contains(&id)
            {
                gone.push(id);
                break;
            }
        }
    }
    for &id in &gone {
        let (archetype, faction) = (
            world.agents().archetypes()[id.index()],
            world.agents().factions()[id.index()],
        );
        // Every handle was live when picked, and each is picked once.
        let _ = world.despawn(id);
        let spawn = AgentSpawn {
            name: String::new(),
            archetype,
            faction,
            position: Vec3::new(
                rng.random_range(0.0..side),
                0.0,
                rng.random_range(0.0..side),
            ),
            facing: Vec3::X,
        };
        let _ = world.spawn(spawn);
    }
}

/// Ticks of warm-up and of measurement.
fn ticks(effort: Effort) -> (usize, usize) {
    if effort.quick { (10, 30) } else { (30, 200) }
}

/// A battle of 10k agents with 1% of them despawned and respawned before
/// every tick, against the same battle without churn, ticked in turn.
fn churn_scenario(effort: Effort) -> Result<Scenario, String> {
    let (warmup, reps) = ticks(effort);
    let mut worlds = [battle(AGENTS, 5)?, battle(AGENTS, 5)?];
    let side = worlds[0]
        .config()
        .bounds
        .map_or(100.0, |b| b.max.x - b.min.x);
    let mut pipelines = [Pipeline::new(), Pipeline::new()];
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let per_tick = AGENTS / 100;
    for _ in 0..warmup {
        churn(&mut worlds[1], &mut rng, per_tick, side);
        for k in 0..2 {
            pipelines[k].tick(&mut worlds[k], &mut DefaultDecider::default());
        }
    }
    let before = allocations();
    let times = medians_interleaved(reps, 2, |k| {
        if k == 1 {
            churn(&mut worlds[1], &mut rng, per_tick, side);
        }
        pipelines[k].tick(&mut worlds[k], &mut DefaultDecider::default());
    });
    let per_tick_allocs = (allocations() - before) / (2 * reps as u64 + 2);
    let slots = worlds[1].agents().len();
    Ok(Scenario {
        name: "runtime/churn 1%/10k agents".into(),
        ours_ms: times[1],
        peer: "the same battle without churn".into(),
        peer_ms: times[0],
        note: format!(
            "median ms per tick over {reps} ticks after {warmup}, ticked in turn; ours \
             despawns {per_tick} random agents and spawns as many before every tick \
             (slots reused: {slots} slots for {AGENTS} agents at the end); ratio = static / \
             churn (goal >= 0.83, i.e. churn <= 1.2x the static tick); about \
             {per_tick_allocs} allocations per tick and world; state hash with churn \
             {:016x}",
            state_hash(&worlds[1])
        ),
    })
}

/// The game's side of Driven bodies: read what steering wants into the
/// game's own arrays (`game`: velocities, facings), move the bodies (here:
/// half the wanted velocity, a slow controller), write them back. Returns
/// a checksum so the work is not optimised away.
fn sync_bodies(world: &mut World, dt: f32, game: &mut (Vec<Vec3>, Vec<Vec3>)) -> f32 {
    let (moved, facings) = game;
    moved.clear();
    moved.extend(world.desired_velocities().iter().map(|v| *v * 0.5));
    facings.clear();
    facings.extend_from_slice(world.desired_facings());
    let mut sum = 0.0;
    for (p, v) in world.positions_mut().iter_mut().zip(moved.iter()) {
        *p += *v * dt;
        sum += p.x;
    }
    world.velocities_mut().copy_from_slice(moved);
    world.facings_mut().copy_from_slice(facings);
    sum
}

/// 10k Driven bodies: the copy-in / copy-out a game does between ticks,
/// against the tick itself.
fn driven_scenario(effort: Effort) -> Result<Scenario, String> {
    let (warmup, reps) = ticks(effort);
    let mut world = battle(AGENTS, 6)?;
    for i in 0..world.agents().len() {
        let id = AgentId::from_index(i);
        world
            .set_body_mode(id, BodyMode::Driven)
            .map_err(|e| e.to_string())?;
    }
    let dt = world.config().tick_seconds;
    let mut pipeline = Pipeline::new();
    let mut game = (Vec::new(), Vec::new());
    for _ in 0..warmup {
        pipeline.tick(&mut world, &mut DefaultDecider::default());
        sync_bodies(&mut world, dt, &mut game);
    }
    let mut checksum = 0.0;
    let times = medians_interleaved(reps, 2, |k| {
        if k == 0 {
            checksum += sync_bodies(&mut world, dt, &mut game);
        } else {
            pipeline.tick(&mut world, &mut DefaultDecider::default());
        }
    });
    Ok(Scenario {
        name: "runtime/driven bodies sync/10k agents".into(),
        ours_ms: times[0],
        peer: "the tick they feed".into(),
        peer_ms: times[1],
        note: format!(
            "median ms over {reps} rounds after {warmup}: ours = reading 10k desired \
             velocities and facings, moving the bodies and writing positions, velocities \
             and facings back through the slices; peer = the full tick of the same world; \
             ratio = tick / sync (goal >= 20, i.e. sync <= 5% of the tick); checksum \
             {checksum:.1}"
        ),
    })
}

/// Churn against a static scene, and Driven bodies' sync against the tick.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    Ok(vec![churn_scenario(effort)?, driven_scenario(effort)?])
}
