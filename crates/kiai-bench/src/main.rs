//! `kiai-bench`: every side-by-side benchmark, as a table or one JSON object.
//!
//! `kiai bench` runs this binary (found next to the `kiai` executable) with
//! the same arguments; `cargo run --release -p kiai-bench -- --json` runs it
//! directly. It counts allocations (the navigation scenarios report them per
//! query), which is why it is a binary of its own: the shipped `kiai` uses
//! the system allocator as it is.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use kiai_bench::{Effort, Scenario};
use serde_json::{Value, json};

/// Counts allocations so the navigation scenarios can report allocations
/// per query.
#[global_allocator]
static ALLOCATOR: kiai_bench::CountingAllocator = kiai_bench::CountingAllocator;

#[derive(Parser)]
#[command(
    name = "kiai-bench",
    version,
    about = "Side-by-side benchmarks: kiai against a peer on the same inputs, with ratios",
    long_about = "Side-by-side benchmarks: kiai against a peer on the same inputs, with ratios \
        (peer_ms / ours_ms; above 1 kiai is faster). A peer that computes a different answer \
        fails the run (exit 1). `kiai bench` runs this binary."
)]
struct Cli {
    /// Shorter runs (seconds instead of minutes); figures are noisier.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object on stdout instead of a table:
    /// {"scenarios":[{"name","ours_ms","peer","peer_ms","ratio","note"}],"quick","build","threads","machine"}.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cfg!(debug_assertions) && !cli.json {
        eprintln!(
            "note: this is a debug build; run `cargo build --release -p kiai-cli -p kiai-bench` \
             and `target/release/kiai bench` for real figures"
        );
    }
    let scenarios = match kiai_bench::all(Effort { quick: cli.quick }) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: benchmark results disagree: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = if cli.json {
        json_report(&scenarios, cli.quick)
    } else {
        table(&scenarios)
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // `kiai-bench | head` closing the pipe early is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the results: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The results as one JSON object and a newline (the CLI contract of
/// `kiai bench --json`).
fn json_report(scenarios: &[Scenario], quick: bool) -> String {
    let list: Vec<Value> = scenarios
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "ours_ms": s.ours_ms,
                "peer": s.peer,
                "peer_ms": s.peer_ms,
                "ratio": s.ratio(),
                "note": s.note,
            })
        })
        .collect();
    let report = json!({
        "scenarios": list,
        "quick": quick,
        "build": if cfg!(debug_assertions) { "debug" } else { "release" },
        "threads": rayon::current_num_threads(),
        "machine": machine(),
    });
    format!("{report}\n")
}

/// The results as a table, then each scenario's note, then the machine.
fn table(scenarios: &[Scenario]) -> String {
    let mut out = format!(
        "{:<36} {:>12} {:>12}  {:>8}  peer\n",
        "scenario", "kiai ms", "peer ms", "ratio"
    );
    for s in scenarios {
        out.push_str(&format!(
            "{:<36} {:>12.4} {:>12.4}  {:>7.1}x  {}\n",
            s.name,
            s.ours_ms,
            s.peer_ms,
            s.ratio(),
            s.peer
        ));
    }
    for s in scenarios {
        out.push_str(&format!("  {}: {}\n", s.name, s.note));
    }
    out.push_str(&format!("machine: {}\n", machine()));
    out
}

/// The CPU model and core count, for recording next to figures.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{model}, {cores} cores")
}
