//! `kiai perceive`: what each agent senses at a given tick, by sense
//! (who it sees, sorted by name) and what it hears (loudest first).

use std::process::ExitCode;

use clap::Args;
use kiai_core::{AgentId, Archetype, World};
use serde_json::{Map, Value, json};

use crate::load::{load, schedule_of};
use crate::output::{REPORTED, outln, print_json};
use crate::sim::{SimArgs, simulate, with_threads, world_of};

/// `kiai perceive`'s flags.
#[derive(Args)]
pub(crate) struct PerceiveArgs {
    #[command(flatten)]
    sim: SimArgs,
    /// Simulate this many ticks first, then sense (0: the initial positions).
    #[arg(long, default_value_t = 0)]
    tick: u64,
}

/// What one agent sensed.
struct Sensed<'a> {
    /// The agent's name.
    name: &'a str,
    /// Per sense, the names of the agents it sensed (a JSON list).
    senses: Map<String, Value>,
    /// What it heard, loudest first: the loudness and the sound as JSON.
    hears: Vec<(f32, Value)>,
}

/// Runs `kiai perceive`: simulates to `--tick`, senses once more and
/// prints what every agent sensed.
pub(crate) fn run(args: &PerceiveArgs) -> anyhow::Result<ExitCode> {
    let Some(content) = load(&args.sim.file) else {
        return Ok(REPORTED);
    };
    let Some(mut schedule) = schedule_of(args.sim.events.as_deref(), &content) else {
        return Ok(REPORTED);
    };
    let mut world = world_of(&content, args.sim.seed)?;
    with_threads(args.sim.threads, || {
        let mut pipeline = simulate(&mut world, args.tick, &mut schedule);
        pipeline.sense(&mut world);
    })?;
    let report: Vec<Sensed<'_>> = world.agents().ids().map(|id| sensed(&world, id)).collect();
    if args.sim.json {
        print_report_json(world.tick(), report)?;
    } else {
        print_summary(world.tick(), report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What agent `id` sensed when `world` last sensed.
fn sensed(world: &World, id: AgentId) -> Sensed<'_> {
    let agents = world.agents();
    let archetype = &world.archetypes()[agents.archetypes()[id.index()].index()];
    Sensed {
        name: agents.names()[id.index()].as_str(),
        senses: seen(world, id, archetype),
        hears: heard(world, id, archetype),
    }
}

/// Per sense of `archetype`, the sorted names of the agents `id` sensed.
fn seen(world: &World, id: AgentId, archetype: &Archetype) -> Map<String, Value> {
    let names = world.agents().names();
    let mut senses = Map::new();
    for (s, sense) in archetype.senses.iter().enumerate() {
        let mut seen: Vec<&str> = world
            .percepts()
            .sensed(id, s)
            .iter()
            .map(|other| names[other.index()].as_str())
            .collect();
        seen.sort_unstable();
        senses.insert(sense.name.clone(), json!(seen));
    }
    senses
}

/// Everything the hearing senses of `id` heard, loudest first.
fn heard(world: &World, id: AgentId, archetype: &Archetype) -> Vec<(f32, Value)> {
    let names = world.agents().names();
    let mut hears: Vec<(f32, Value)> = Vec::new();
    for (s, sense) in archetype.senses.iter().enumerate() {
        for h in world.percepts().heard(id, s) {
            let Some(sound) = world.percepts().sounds().get(h.sound) else {
                continue;
            };
            let source = names.get(sound.source as usize).map_or("", String::as_str);
            hears.push((
                h.loudness,
                json!({ "source": source, "loudness": h.loudness, "sense": sense.name, "tag": sound.tag }),
            ));
        }
    }
    hears.sort_by(|a, b| b.0.total_cmp(&a.0));
    hears
}

/// The `--json` object: `{"tick", "agents": [{"name", "senses", "hears"}]}`.
fn print_report_json(tick: u64, report: Vec<Sensed<'_>>) -> anyhow::Result<()> {
    let agents: Vec<Value> = report
        .into_iter()
        .map(|a| {
            let hears: Vec<Value> = a.hears.into_iter().map(|(_, h)| h).collect();
            json!({ "name": a.name, "senses": a.senses, "hears": hears })
        })
        .collect();
    print_json(&json!({ "tick": tick, "agents": agents }))
}

/// The human summary: the tick, then one line per agent.
fn print_summary(tick: u64, report: Vec<Sensed<'_>>) -> anyhow::Result<()> {
    outln(&format!("tick {tick}"))?;
    for a in report {
        let parts: Vec<String> = a
            .senses
            .iter()
            .map(|(sense, seen)| {
                let list: Vec<&str> = seen
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                format!("{sense} [{}]", list.join(", "))
            })
            .collect();
        let mut line = format!("{}: {}", a.name, parts.join("; "));
        for (loudness, h) in &a.hears {
            line.push_str(&format!(
                "; hears {} ({loudness:.3})",
                h["source"]
                    .as_str()
                    .filter(|s| !s.is_empty())
                    .unwrap_or("a sound")
            ));
        }
        outln(&line)?;
    }
    Ok(())
}
