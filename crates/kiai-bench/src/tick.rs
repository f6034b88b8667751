//! The whole tick (sense, decide, steer, integrate, fog) on a 10k-agent
//! battle, at 2 threads against the same run at 1 thread.

use kiai_core::fog::GridSpec;
use kiai_core::glam::Vec3;
use kiai_core::{
    AgentSpawn, Archetype, Avoidance, DefaultDecider, FogSettings, Movement, Pipeline, Profile,
    Sense, SenseFilter, Shape, Sight, Stage, World, WorldConfig, state_hash,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Effort, Scenario};

/// Two hostile factions of `n / 2` walkers each on a square sized for about
/// 30 agents within eye range; berserker and coward profiles; fog of war on
/// 2-unit tiles.
pub fn battle(n: usize, seed: u64) -> Result<World, String> {
    battle_with(n, seed, None)
}

/// [`battle`] with every agent avoiding the others with `avoidance`
/// (radius 0.5).
pub fn battle_with(n: usize, seed: u64, avoidance: Option<Avoidance>) -> Result<World, String> {
    let senses = battle_senses();
    let sight = Sight {
        radius: 12.0,
        flashlight_fov_deg: None,
    };
    let (mut world, side) = armies(n, seed, senses, Some(sight), avoidance)?;
    let tiles = (side / 2.0).ceil() as u32;
    world
        .enable_fog(&FogSettings {
            grid: GridSpec::new(tiles, tiles, 2.0),
            directions: 16,
            occlusion: false,
            blocking: Vec::new(),
        })
        .map_err(|e| e.to_string())?;
    Ok(world)
}

/// The battle's senses: a hostile-only sphere of radius 8 (`"radar"`) and
/// cone of range 15 and 120° (`"eyes"`).
pub fn battle_senses() -> Vec<Sense> {
    let sense = |name: &str, shape| Sense {
        name: name.into(),
        shape,
        filter: SenseFilter::Hostile,
        occluded: false,
        lose_range: None,
        memory_ticks: 0,
    };
    vec![
        sense("radar", Shape::Sphere { radius: 8.0 }),
        sense(
            "eyes",
            Shape::Cone {
                range: 15.0,
                fov_deg: 120.0,
            },
        ),
    ]
}

/// The battle's armies without fog: two hostile factions ("red", "blue") of
/// `n / 2` walkers each, uniform on a square sized for about 30 agents
/// within 15 units, with berserker and coward profiles, every archetype
/// with `senses`, `sight` and `avoidance`. Returns the world and the
/// square's side (world units).
pub fn armies(
    n: usize,
    seed: u64,
    senses: Vec<Sense>,
    sight: Option<Sight>,
    avoidance: Option<Avoidance>,
) -> Result<(World, f32), String> {
    let side = (n as f32 * std::f32::consts::PI * 15.0 * 15.0 / 30.0).sqrt();
    let err = |e: kiai_core::WorldError| e.to_string();
    let mut world = World::new(WorldConfig {
        seed,
        tick_seconds: 0.1,
        bounds: Some(kiai_core::Aabb {
            min: Vec3::ZERO,
            max: Vec3::new(side, 2.0, side),
        }),
    });
    let red = world.factions_mut().add("red").map_err(|e| e.to_string())?;
    let blue = world
        .factions_mut()
        .add("blue")
        .map_err(|e| e.to_string())?;
    world.factions_mut().set_hostile(red, blue);
    world.factions_mut().set_hostile(blue, red);
    let walker = Movement::Walker {
        min_speed: 0.5,
        max_speed: 2.0,
        direction_change_factor: 20,
        planar: true,
    };
    let archetypes = [(8.0, 2.0), (2.0, 8.0)]
        .iter()
        .enumerate()
        .map(|(i, &(chase, evade))| {
            world.add_archetype(Archetype {
                name: format!("a{i}"),
                senses: senses.clone(),
                movement: walker,
                sight,
                avoidance,
                profile: Some(Profile {
                    chase,
                    evade,
                    use_profile: 100.0,
                    keep_decision: 90.0,
                    learning: None,
                }),
                ..Archetype::default()
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..n {
        let faction = if i % 2 == 0 { red } else { blue };
        world
            .spawn(AgentSpawn {
                name: format!("u{i}"),
                archetype: archetypes[(i / 2) % 2],
                faction,
                position: Vec3::new(
                    rng.random_range(0.0..side),
                    0.0,
                    rng.random_range(0.0..side),
                ),
                facing: Vec3::new(
                    rng.random_range(-1.0..1.0),
                    0.0,
                    rng.random_range(-1.0..1.0),
                ),
            })
            .map_err(err)?;
    }
    Ok((world, side))
}

/// One battle on its own rayon pool.
struct Side {
    pool: rayon::ThreadPool,
    world: World,
    pipeline: Pipeline,
    decider: DefaultDecider,
    /// Wall time of each measured tick, ms.
    times: Vec<f64>,
    /// Per stage (in [`Stage::ALL`] order), its time in each measured
    /// tick, ms.
    stages: Vec<Vec<f64>>,
}

impl Side {
    fn new(n: usize, threads: usize) -> Result<Self, String> {
        Ok(Self {
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?,
            world: battle(n, 5)?,
            pipeline: Pipeline::new(),
            decider: DefaultDecider::default(),
            times: Vec::new(),
            stages: vec![Vec::new(); Stage::ALL.len()],
        })
    }

    /// Ticks `count` times on its pool; records the times when `measure`.
    fn ticks(&mut self, count: usize, measure: bool) {
        let Self {
            pool,
            world,
            pipeline,
            decider,
            times,
            stages,
        } = self;
        pool.install(|| {
            for _ in 0..count {
                pipeline.tick(world, decider);
                if measure {
                    let t = pipeline.timings();
                    times.push(t.total().as_secs_f64() * 1e3);
                    for (v, stage) in stages.iter_mut().zip(Stage::ALL) {
                        v.push(t.get(stage).as_secs_f64() * 1e3);
                    }
                }
            }
        });
    }
}

/// Ticks per turn: the 2-thread and the 1-thread battle take turns, so
/// that both see the same machine (a drifting machine otherwise biases the
/// ratio by as much as the goal's margin).
const TURN: usize = 10;

/// One side's measurements: sorted per-tick wall times (ms), the p50 of
/// each stage (ms, in [`Stage::ALL`] order) and the final state hash.
struct Measured {
    times: Vec<f64>,
    stage_p50: Vec<f64>,
    hash: u64,
}

/// The battle on 2 and on 1 thread, in turns of [`TURN`] ticks, `ticks`
/// ticks measured after `warmup`.
fn run(n: usize, warmup: usize, ticks: usize) -> Result<[Measured; 2], String> {
    let mut sides = [Side::new(n, 2)?, Side::new(n, 1)?];
    for side in &mut sides {
        side.ticks(warmup, false);
    }
    let mut done = 0;
    while done < ticks {
        let count = TURN.min(ticks - done);
        for side in &mut sides {
            side.ticks(count, true);
        }
        done += count;
    }
    Ok(sides.map(|mut s| {
        s.times.sort_by(f64::total_cmp);
        let stage_p50 = s
            .stages
            .iter_mut()
            .map(|v| {
                v.sort_by(f64::total_cmp);
                percentile(v, 0.5)
            })
            .collect();
        Measured {
            stage_p50,
            hash: state_hash(&s.world),
            times: s.times,
        }
    }))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or(0.0)
}

/// Where the second thread's speed-up is lost: each stage's p50 on 1 and
/// on 2 threads and their ratio, and the time that does not halve (2 x
/// the 2-thread time minus the 1-thread time; serial work counts whole).
/// Stages under 0.05 ms on 1 thread are left out.
fn stage_speed_ups(one: &[f64], two: &[f64]) -> String {
    let mut lost = 0.0;
    let stages: Vec<String> = Stage::ALL
        .iter()
        .zip(one.iter().zip(two))
        .filter(|(_, (t1, _))| **t1 >= 0.05)
        .map(|(stage, (&t1, &t2))| {
            lost += (2.0 * t2 - t1).max(0.0);
            format!(
                "{} {t1:.2} -> {t2:.2} ms ({:.2}x)",
                stage.name(),
                t1 / t2.max(1e-9)
            )
        })
        .collect();
    format!(
        "p50 per stage, 1 -> 2 threads: {}; {lost:.2} ms per tick does not halve",
        stages.join(", ")
    )
}

/// p50 and p99 of a full tick at 10k agents, 2 threads vs 1 thread.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let n = 10_000;
    let (warmup, ticks) = if effort.quick { (10, 40) } else { (30, 300) };
    let [two, one] = run(n, warmup, ticks)?;
    let (t2, h2, t1, h1) = (&two.times, two.hash, &one.times, one.hash);
    if h1 != h2 {
        return Err(format!(
            "tick/10k: state hash differs at 1 and 2 threads ({h1:016x} vs {h2:016x})"
        ));
    }
    let note = |p: &str| {
        format!(
            "{p} ms per full tick (sense, decide, steer, integrate, fog and the upkeep) over {ticks} ticks after \
             {warmup}; {n} walkers in 2 hostile factions, sphere + cone, profiles with hysteresis, \
             fog of war; ours = 2 threads, peer = the same run on 1 thread, in turns of {TURN} \
             ticks (ratio = speed-up); \
             identical state hash {h2:016x}; {}",
            stage_speed_ups(&one.stage_p50, &two.stage_p50)
        )
    };
    Ok(vec![
        Scenario {
            name: "tick/10k agents/p50".into(),
            ours_ms: percentile(t2, 0.5),
            peer: "kiai on 1 thread".into(),
            peer_ms: percentile(t1, 0.5),
            note: note("p50"),
        },
        Scenario {
            name: "tick/10k agents/p99".into(),
            ours_ms: percentile(t2, 0.99),
            peer: "kiai on 1 thread".into(),
            peer_ms: percentile(t1, 0.99),
            note: note("p99"),
        },
    ])
}
