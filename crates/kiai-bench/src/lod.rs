//! Tick level of detail on a 100k-agent battle: the same battle with
//! Mass-like tiers around one point of interest against it without tiers,
//! in one run; and how even the staggered ticks are (max against mean).

use kiai_core::glam::Vec3;
use kiai_core::{AgentId, Avoidance, DefaultDecider, LodTier, Pipeline, World};

use crate::{Effort, Scenario};

/// Unreal Mass's default LOD distances and periods at 10 ticks a second:
/// every tick within 50 units, every 0.5 s to 100, every 1 s to 300, every
/// 1.5 s beyond.
pub fn mass_tiers() -> Vec<LodTier> {
    vec![
        LodTier::new(Some(50.0), 1),
        LodTier::new(Some(100.0), 5),
        LodTier::new(Some(300.0), 10),
        LodTier::new(None, 15),
    ]
}

/// The tick benchmark's armies (two hostile factions, sphere + cone,
/// profiles), every agent avoiding the others, no fog; with `tiers` on
/// every archetype and one point of interest in the middle.
pub fn battle(n: usize, seed: u64, tiers: &[LodTier]) -> Result<World, String> {
    let senses = crate::tick::battle_senses();
    let avoidance = Some(Avoidance::default());
    let (mut world, side) = crate::tick::armies(n, seed, senses, None, avoidance)?;
    for (k, archetype) in world.archetypes().to_vec().into_iter().enumerate() {
        let id = kiai_core::ArchetypeId::from_index(k);
        let lod = tiers.to_vec();
        world
            .set_archetype(id, kiai_core::Archetype { lod, ..archetype })
            .map_err(|e| e.to_string())?;
    }
    world.set_interest_points([Vec3::new(side / 2.0, 0.0, side / 2.0)]);
    Ok(world)
}

/// One run's per-tick wall times (ms, in tick order), the mean number of
/// agents that thought per tick and the mean time of each stage.
struct Run {
    times: Vec<f64>,
    thinking: f64,
    /// The most agents that thought in one tick.
    max_thinking: f64,
    /// Mean time of each stage, ms, as text.
    stages: String,
}

/// One contender: its world, pipeline and decider, and what it measured.
struct Contender {
    world: World,
    pipeline: Pipeline,
    decider: DefaultDecider,
    times: Vec<f64>,
    /// Agents that thought, per measured tick.
    thinking: Vec<usize>,
    total: kiai_core::StageTimings,
}

impl Contender {
    fn new(world: World) -> Self {
        Self {
            world,
            pipeline: Pipeline::new(),
            decider: DefaultDecider::default(),
            times: Vec::new(),
            thinking: Vec::new(),
            total: kiai_core::StageTimings::default(),
        }
    }

    /// One tick; measured unless `warm`.
    fn tick(&mut self, warm: bool) {
        self.pipeline.tick(&mut self.world, &mut self.decider);
        if warm {
            return;
        }
        let t = self.pipeline.timings();
        self.times.push(t.total().as_secs_f64() * 1e3);
        self.total.add(t);
        let ids: Vec<AgentId> = self.world.agents().ids().collect();
        let thinking = ids.iter().filter(|&&a| self.world.thinks(a)).count();
        self.thinking.push(thinking);
    }

    fn into_run(self) -> Run {
        let ticks = self.times.len().max(1);
        let stages = kiai_core::Stage::ALL
            .iter()
            .map(|&s| {
                let ms = self.total.get(s).as_secs_f64() * 1e3 / ticks as f64;
                format!("{} {ms:.1}", s.name())
            })
            .collect::<Vec<_>>()
            .join(", ");
        let thinking: Vec<f64> = self.thinking.iter().map(|&n| n as f64).collect();
        Run {
            thinking: mean(&thinking),
            max_thinking: max(&thinking),
            times: self.times,
            stages,
        }
    }
}

/// Both worlds in turns of [`TURN`] ticks, so that both see the same
/// machine (tick by tick, each would start every tick on caches the other
/// filled): `warmup` ticks, then `ticks` measured ones. Returns (tiered,
/// untiered).
fn run(tiered: World, full: World, warmup: usize, ticks: usize) -> (Run, Run) {
    let (mut a, mut b) = (Contender::new(tiered), Contender::new(full));
    for turn in 0..(warmup + ticks).div_ceil(TURN) {
        for c in [&mut a, &mut b] {
            for t in turn * TURN..((turn + 1) * TURN).min(warmup + ticks) {
                c.tick(t < warmup);
            }
        }
    }
    (a.into_run(), b.into_run())
}

/// Ticks each world runs before the other takes its turn: the slowest
/// tier's period.
const TURN: usize = 15;

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(0.0, f64::max)
}

/// The 100k battle with and without tiers (mean tick), and the tiered
/// run's max tick against its mean.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let n = 100_000;
    // Whole periods of the slowest tier (15 ticks).
    let (warmup, ticks) = if effort.quick { (15, 30) } else { (30, 150) };
    let (lod, full) = run(
        battle(n, 5, &mass_tiers())?,
        battle(n, 5, &[])?,
        warmup,
        ticks,
    );
    let note = format!(
        "ms per tick over {ticks} ticks after {warmup}, both battles in turns of 15 ticks; {n} walkers in 2 hostile factions, \
         sphere + cone, profiles, avoidance (ORCA), no fog; ours = tiers every tick within 50, \
         every 5 ticks to 100, 10 to 300, 15 beyond, one point of interest in the middle \
         ({:.0} agents thinking per tick on average; mean ms per stage: {}); peer = the same \
         battle without tiers ({})",
        lod.thinking, lod.stages, full.stages
    );
    Ok(vec![
        Scenario {
            name: "lod/100k battle/mean tick".into(),
            ours_ms: mean(&lod.times),
            peer: "no LOD".into(),
            peer_ms: mean(&full.times),
            note: note.clone(),
        },
        Scenario {
            name: "lod/100k battle/max tick".into(),
            ours_ms: max(&lod.times),
            peer: "no LOD".into(),
            peer_ms: max(&full.times),
            note: format!(
                "{note}; the tiered run's max tick is {:.2}x its mean (staggering); the most \
                 agents thinking in one tick {:.2}x the mean (what the stagger decides, apart \
                 from the machine's spikes)",
                max(&lod.times) / mean(&lod.times),
                lod.max_thinking / lod.thinking.max(1.0)
            ),
        },
    ])
}
