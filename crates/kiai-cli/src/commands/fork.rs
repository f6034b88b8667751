//! `kiai fork`: what would have happened if... Replays a recording to a
//! tick, changes the live world there and runs both branches side by side
//! (`kiai::fork`). `kiai run --record` writes the recordings
//! (`recording.rs`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use kiai::fork::{Difference, Fork, Report};
use kiai_content::recording::Recording;
use serde_json::{Value, json};

use crate::output::{outln, print_json};
use crate::sim::with_threads;

/// `kiai fork --help`: what the command does.
pub(crate) const LONG_ABOUT: &str = "Replay a recording (written by `kiai run --record` or the \
    editor) to tick TICK, change the live world there with --set PATH=VALUE (the PATH syntax of \
    `kiai set`), and run the recorded branch and the changed one side by side. Reports the first \
    tick their state hashes differ, each agent whose state differs (first tick), who sensed whom \
    in one branch only, and the states counted at the end.\n\n\
    A running world takes changes to archetypes (senses, movement fields, profile, noise, ...), \
    profiles, factions' hostility, walls and doors, and agents' pos and facing; anything else is \
    refused with exit status 1. Without --set the branches never part.";

/// `kiai fork --help`: examples.
pub(crate) const EXAMPLES: &str = "Examples:\n  \
    kiai run content/demo/arena.ron --ticks 300 --record run.kiairec\n  \
    kiai fork run.kiairec --at 100 --set archetypes.guard.senses.eyes.shape.range=45\n  \
    kiai fork run.kiairec --at 100 --set 'agents.blue_scout_16.pos=(0.0, 0.0, 0.0)' --json\n  \
    kiai fork run.kiairec --at 100 --set archetypes.guard.senses.eyes.lose_range=60 \
    --set archetypes.guard.senses.eyes.shape.range=50 --ticks 50";

/// `kiai fork`'s flags.
#[derive(Args)]
pub(crate) struct ForkArgs {
    /// The recording (.kiairec).
    recording: PathBuf,
    /// The tick to change the world at (after this many ticks ran).
    #[arg(long, value_name = "TICK")]
    at: u64,
    /// A change at TICK, PATH=VALUE as for `kiai set`; repeat for several,
    /// applied in order.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    sets: Vec<String>,
    /// Ticks to run both branches after TICK (default: to the recording's
    /// end).
    #[arg(long, value_name = "N")]
    ticks: Option<u64>,
    /// Worker threads (results are identical at any count); defaults to
    /// the number of cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Print one JSON object on stdout instead of a summary.
    #[arg(long)]
    json: bool,
}

/// Runs `kiai fork`: replays, forks, and prints the report.
pub(crate) fn run(args: &ForkArgs) -> anyhow::Result<ExitCode> {
    let recording = Recording::load(&args.recording)?;
    // Scripts come from the recorded text; their names read as next to it.
    let dir = args
        .recording
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let request = Fork {
        at: args.at,
        sets: args.sets.clone(),
        ticks: args.ticks,
    };
    let report = with_threads(args.threads, || {
        kiai::fork::fork(&recording, &dir, &request)
    })?
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(t) = report.replay_mismatch {
        eprintln!(
            "warning: the replay differs from the recording from tick {t} on (recorded by another \
             kiai version?); both branches are this kiai's"
        );
    }
    if args.json {
        print_json(&to_json(&report))?;
    } else {
        summary(args, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The report as `--json` prints it.
fn to_json(r: &Report) -> Value {
    let differences: Vec<Value> = r.differences.iter().map(difference_json).collect();
    json!({
        "at": r.at,
        "ticks": r.ticks,
        "first_divergent_tick": r.first_divergent_tick,
        "hashes": {"base": format!("{:016x}", r.hashes.0), "fork": format!("{:016x}", r.hashes.1)},
        "differences": differences,
        "changed": r.changed,
        "replay_mismatch": r.replay_mismatch,
    })
}

/// One difference as `--json` lists it.
fn difference_json(d: &Difference) -> Value {
    match d {
        Difference::State {
            agent,
            tick,
            base,
            fork,
        } => json!({"kind": "state", "agent": agent, "tick": tick, "base": base, "fork": fork}),
        Difference::Sees {
            agent,
            target,
            sense,
            branch,
            tick,
        } => json!({
            "kind": "sees", "agent": agent, "target": target, "sense": sense,
            "branch": branch.name(), "tick": tick,
        }),
        Difference::Count { state, base, fork } => {
            json!({"kind": "count", "state": state, "base": base, "fork": fork})
        }
    }
}

/// Most difference lines the summary prints.
const SHOWN: usize = 40;

/// The human summary: the fork, the first divergent tick and the
/// differences (at most [`SHOWN`] besides the end counts).
fn summary(args: &ForkArgs, r: &Report) -> anyhow::Result<()> {
    let changed = if r.changed.is_empty() {
        "no change".to_owned()
    } else {
        r.changed.join(", ")
    };
    outln(&format!(
        "{}: fork at tick {} ({changed}), both branches to tick {}",
        args.recording.display(),
        r.at,
        r.ticks
    ))?;
    match r.first_divergent_tick {
        None => outln(&format!(
            "no divergence: identical state hashes to tick {} ({:016x})",
            r.ticks, r.hashes.0
        ))?,
        Some(t) => outln(&format!(
            "first divergent tick {t}; state hashes at tick {}: base {:016x}, fork {:016x}",
            r.ticks, r.hashes.0, r.hashes.1
        ))?,
    }
    // The end counts are few and always shown; the rest up to SHOWN lines.
    let (counts, rest): (Vec<&Difference>, Vec<&Difference>) = r
        .differences
        .iter()
        .partition(|d| matches!(d, Difference::Count { .. }));
    let mut lines: Vec<String> = Vec::new();
    for d in rest.iter().take(SHOWN).chain(&counts) {
        let text = d.describe(str::to_owned);
        lines.push(match d {
            Difference::State { tick, .. } | Difference::Sees { tick, .. } => {
                format!("  tick {tick:<6} {text}")
            }
            Difference::Count { .. } => format!("  at end      {text}"),
        });
    }
    if rest.len() > SHOWN {
        lines.insert(
            SHOWN,
            format!(
                "  ... and {} more (--json lists them all)",
                rest.len() - SHOWN
            ),
        );
    }
    for line in &lines {
        outln(line)?;
    }
    Ok(())
}
