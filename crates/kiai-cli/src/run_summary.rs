//! What `kiai run` prints once the ticks are done: the summary a person
//! reads, or the one JSON object (`--json`) pipelines read.

use kiai_core::{BehaviourState, TickTimes, World, state_hash};
use serde_json::{Value, json};

use crate::output::{outln, print_json};
use crate::sim::SimArgs;
use crate::timings;

/// How a run went, as measured while it ran.
pub(crate) struct Measured<'a> {
    /// Each agent slot's label from its script's custom state, if any.
    pub(crate) labels: &'a [Option<String>],
    /// Every tick's stage timings.
    pub(crate) times: &'a TickTimes,
    /// Wall-clock milliseconds per tick, the mean.
    pub(crate) ms_per_tick: f64,
}

/// Prints the end of a run of `world` as `sim` asks: the JSON object or
/// the human summary.
pub(crate) fn print(sim: &SimArgs, world: &World, measured: &Measured<'_>) -> anyhow::Result<()> {
    let states = state_counts(world, measured.labels);
    let hash = format!("{:016x}", state_hash(world));
    let learned = learned_weights(world);
    if sim.json {
        let (tick_ms, stage_ms) = timings::json(measured.times);
        let mut out = json!({
            "ticks": world.tick(),
            "agents": world.agents().live_count(),
            "seed": world.config().seed,
            "state_hash": hash,
            "states": states,
            "learned": learned,
            "ms_per_tick": measured.ms_per_tick,
            "tick_ms": tick_ms,
            "stage_ms": stage_ms,
        });
        if let (Some(lod), Some(map)) = (crate::lod::tiers_json(world), out.as_object_mut()) {
            map.insert("lod".to_owned(), lod);
        }
        return print_json(&out);
    }
    outln(&format!(
        "{}: {} ticks, {} agents, seed {}",
        sim.file.display(),
        world.tick(),
        world.agents().live_count(),
        world.config().seed
    ))?;
    outln(&format!("state hash  {hash}"))?;
    let states: Vec<String> = states.iter().map(|(k, v)| format!("{k} {v}")).collect();
    outln(&format!("states      {}", states.join(", ")))?;
    if let Some(line) = crate::lod::tiers_line(world) {
        outln(&line)?;
    }
    for (archetype, w) in &learned {
        outln(&format!(
            "learned     {archetype}: chase {:.2}, evade {:.2} (mean weights)",
            w["chase"].as_f64().unwrap_or(0.0),
            w["evade"].as_f64().unwrap_or(0.0)
        ))?;
    }
    for line in timings::lines(measured.times, measured.ms_per_tick) {
        outln(&line)?;
    }
    Ok(())
}

/// Agents per behaviour state: every built-in state (0 when none), and
/// agents in a script's custom state under its name.
fn state_counts(world: &World, labels: &[Option<String>]) -> serde_json::Map<String, Value> {
    let mut states = serde_json::Map::new();
    for s in BehaviourState::ALL {
        states.insert(s.name().to_owned(), json!(0));
    }
    for id in world.agents().ids() {
        let (i, d) = (id.index(), world.agents().decisions()[id.index()]);
        let name = labels[i].as_deref().unwrap_or(d.state.name());
        let n = states.get(name).and_then(Value::as_u64).unwrap_or(0);
        states.insert(name.to_owned(), json!(n + 1));
    }
    states
}

/// Mean (chase, evade) weights per archetype whose profile learns.
fn learned_weights(world: &World) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    for (i, archetype) in world.archetypes().iter().enumerate() {
        if archetype.profile.is_none_or(|p| p.learning.is_none()) {
            continue;
        }
        let (mut sum, mut n) = ([0.0f64; 2], 0usize);
        for (a, mind) in world
            .agents()
            .archetypes()
            .iter()
            .zip(world.agents().minds())
        {
            if a.index() == i {
                sum[0] += f64::from(mind.weights[0]);
                sum[1] += f64::from(mind.weights[1]);
                n += 1;
            }
        }
        if n > 0 {
            out.insert(
                archetype.name.clone(),
                json!({ "chase": sum[0] / n as f64, "evade": sum[1] / n as f64 }),
            );
        }
    }
    out
}
