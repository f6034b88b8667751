//! `kiai test`: run scenario files (`*.scenario.ron`) in parallel and
//! report pass/fail per scenario, why each failure failed, and decision
//! coverage; JUnit XML for CI.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use kiai::scenario::{Coverage, Outcome, Why};
use kiai_content::scenario::{Scenario, find_scenarios, name_of};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::junit::{self, Broken};
use crate::output::{REPORTED, outln, print_json};
use crate::sim::with_threads;

/// `kiai test --help`: what the command does.
pub(crate) const LONG_ABOUT: &str = "Run scenario tests: every *.scenario.ron file under the \
    paths (default tests/scenarios), in parallel. A scenario names content, a seed, events and a \
    tick limit, and expectations such as `sees(guard, thief) within 120 ticks`, checked after \
    every tick (docs/scenarios.md). Prints one line per scenario (pass or fail, ticks, \
    milliseconds) and, for each failure, the first failing expectation, its tick and why the \
    agents it names were doing what they did then. Exit status 1 when a scenario fails or does \
    not load.";

/// `kiai test`'s flags.
#[derive(Args)]
pub(crate) struct TestArgs {
    /// Scenario files or directories searched for *.scenario.ron
    /// (default: tests/scenarios).
    paths: Vec<PathBuf>,
    /// Print one JSON object on stdout: {"passed","failed","scenarios":[...],"coverage"}.
    #[arg(long)]
    json: bool,
    /// Also write a JUnit XML report (testsuite/testcase/failure) for CI.
    #[arg(long, value_name = "OUT.xml")]
    junit: Option<PathBuf>,
    /// Run only the scenarios whose name contains NAME.
    #[arg(long, value_name = "NAME")]
    filter: Option<String>,
    /// Run the K-th of N equal shares of the scenarios (sorted by path),
    /// so a CI matrix spreads a suite over machines: 1/3, 2/3, 3/3.
    #[arg(long, value_name = "K/N", value_parser = parse_partition)]
    partition: Option<(usize, usize)>,
    /// Also print decision coverage: per archetype, how often each branch
    /// of the decision logic was taken, and which never were.
    #[arg(long)]
    coverage: bool,
    /// Worker threads (scenarios run in parallel; each is deterministic);
    /// defaults to the number of cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

/// `K/N` (or nextest's `count:K/N`), 1 <= K <= N.
fn parse_partition(text: &str) -> Result<(usize, usize), String> {
    let t = text.strip_prefix("count:").unwrap_or(text);
    let (k, n) = t
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not K/N, e.g. 2/4"))?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("`{k}` is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("K/N needs 1 <= K <= N, not {k}/{n}"));
    }
    Ok((k, n))
}

/// A scenario file, loaded or not.
enum Loaded {
    /// It loaded.
    Ok(Box<Scenario>),
    /// It did not: why.
    Broken(Broken),
}

/// Runs `kiai test`: finds the scenarios, runs them in parallel, writes
/// the JUnit report if asked and prints the results; exit status 1 when
/// one fails or does not load.
pub(crate) fn run(args: &TestArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("tests/scenarios")]
    } else {
        args.paths.clone()
    };
    let files = scenario_files(args, &paths)?;
    let (outcomes, broken) = run_all(args, &files)?;
    let seconds = start.elapsed().as_secs_f64();
    let mut coverage = Coverage::default();
    for o in &outcomes {
        coverage.merge(&o.coverage);
    }
    let passed = outcomes.iter().filter(|o| o.ok).count();
    let failed = outcomes.len() - passed + broken.len();
    if let Some(out) = &args.junit {
        let xml = junit::report(&joined(&paths, " "), &outcomes, &broken, seconds);
        kiai_content::write_atomic(out, xml.as_bytes(), false)
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    if args.json {
        print_json(&to_json(&outcomes, &broken, &coverage))?;
    } else {
        human(args, &outcomes, &broken, &coverage)?;
        outln(&format!(
            "{passed} passed, {failed} failed ({} scenarios, {seconds:.2} s)",
            outcomes.len() + broken.len()
        ))?;
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        REPORTED
    })
}

/// `paths` as text, joined by `separator`.
fn joined(paths: &[PathBuf], separator: &str) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(separator)
}

/// The scenario files under `paths` that `--filter` and `--partition`
/// keep, sorted by path; an error when none is left.
fn scenario_files(args: &TestArgs, paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = find_scenarios(paths).context("cannot list the scenarios")?;
    if let Some(f) = &args.filter {
        files.retain(|p| name_of(&p.display().to_string()).contains(f.as_str()));
    }
    if let Some((k, n)) = args.partition {
        files = files
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, p)| p)
            .collect();
    }
    if files.is_empty() {
        anyhow::bail!(
            "no *.scenario.ron files under {} (after --filter/--partition); docs/scenarios.md shows how to write one",
            joined(paths, ", ")
        );
    }
    Ok(files)
}

/// Loads and runs every file in parallel (a progress bar on a terminal):
/// the outcomes of those that loaded, and those that did not.
fn run_all(args: &TestArgs, files: &[PathBuf]) -> anyhow::Result<(Vec<Outcome>, Vec<Broken>)> {
    let progress = if args.json || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(files.len() as u64)
    };
    let results: Vec<(Loaded, Option<Outcome>)> = with_threads(args.threads, || {
        files
            .par_iter()
            .map(|path| {
                let loaded = load_scenario(path);
                let outcome = match &loaded {
                    Loaded::Ok(s) => Some(kiai::scenario::run(s)),
                    Loaded::Broken(_) => None,
                };
                progress.inc(1);
                (loaded, outcome)
            })
            .collect()
    })?;
    progress.finish_and_clear();
    let mut outcomes = Vec::new();
    let mut broken = Vec::new();
    for (loaded, outcome) in results {
        match (loaded, outcome) {
            (_, Some(o)) => outcomes.push(o),
            (Loaded::Broken(b), None) => broken.push(b),
            (Loaded::Ok(_), None) => {}
        }
    }
    Ok((outcomes, broken))
}

/// The scenario at `path`, or why it does not load.
fn load_scenario(path: &Path) -> Loaded {
    match Scenario::load(path) {
        Ok(s) => Loaded::Ok(Box::new(s)),
        Err(d) => Loaded::Broken(Broken {
            name: name_of(&path.display().to_string()),
            file: path.display().to_string(),
            message: d.to_string(),
        }),
    }
}

/// One agent's "why" as `--json` lists it.
fn why_json(w: &Why) -> Value {
    let senses: serde_json::Map<String, Value> = w
        .senses
        .iter()
        .map(|(s, names)| (s.clone(), json!(names)))
        .collect();
    let rolls: Vec<Value> = w
        .rolls
        .iter()
        .map(|(k, v, t)| json!({"kind": k, "value": v, "threshold": t}))
        .collect();
    json!({
        "agent": w.agent,
        "tick": w.tick,
        "alive": w.alive,
        "state": w.state,
        "target": w.target,
        "decided_by": w.decided_by,
        "options": {"chase": w.chase_option, "evade": w.evade_option},
        "rolls": rolls,
        "position": w.position,
        "facing": w.facing,
        "senses": senses,
    })
}

/// Decision coverage per archetype as `--json` reports it.
fn coverage_json(c: &Coverage) -> Value {
    let map: serde_json::Map<String, Value> = c
        .archetypes
        .iter()
        .map(|(key, a)| {
            let branches: serde_json::Map<String, Value> = a
                .branches
                .iter()
                .map(|(b, n)| (b.clone(), json!(n)))
                .collect();
            (
                key.clone(),
                json!({"branches": branches, "states": a.states, "never": a.never()}),
            )
        })
        .collect();
    Value::Object(map)
}

/// The `--json` object: the counts, every scenario and the coverage.
fn to_json(outcomes: &[Outcome], broken: &[Broken], coverage: &Coverage) -> Value {
    let mut scenarios: Vec<Value> = outcomes
        .iter()
        .map(|o| {
            let failure = match &o.failure {
                Some(f) => json!({
                    "expectation": f.expectation,
                    "line": f.pos.line,
                    "column": f.pos.column,
                    "tick": f.tick,
                    "message": f.message,
                    "why": f.why.iter().map(why_json).collect::<Vec<_>>(),
                }),
                None if o.ok => Value::Null,
                None => json!({"expectation": "", "line": 1, "column": 1, "tick": 0,
                               "message": o.notes.join("; "), "why": []}),
            };
            json!({
                "name": o.name,
                "file": o.file,
                "ok": o.ok,
                "ticks": o.ticks,
                "ms": o.elapsed.as_secs_f64() * 1e3,
                "failure": failure,
            })
        })
        .collect();
    for b in broken {
        scenarios.push(json!({
            "name": b.name, "file": b.file, "ok": false, "ticks": 0, "ms": 0.0,
            "failure": {"expectation": "", "line": 1, "column": 1, "tick": 0,
                        "message": b.message, "why": []},
        }));
    }
    let passed = outcomes.iter().filter(|o| o.ok).count();
    json!({
        "passed": passed,
        "failed": outcomes.len() + broken.len() - passed,
        "scenarios": scenarios,
        "coverage": coverage_json(coverage),
    })
}

/// The human report: a line per scenario, why each failure failed, and
/// the coverage with `--coverage`.
fn human(
    args: &TestArgs,
    outcomes: &[Outcome],
    broken: &[Broken],
    coverage: &Coverage,
) -> anyhow::Result<()> {
    let width = outcomes.iter().map(|o| o.name.len()).max().unwrap_or(0);
    for o in outcomes {
        let mark = if o.ok { "PASS" } else { "FAIL" };
        outln(&format!(
            "{mark}  {:<width$}  {:>7} ticks  {:>9.1} ms",
            o.name,
            o.ticks,
            o.elapsed.as_secs_f64() * 1e3
        ))?;
        if o.ok {
            continue;
        }
        match &o.failure {
            Some(f) => {
                outln(&format!("      {f}"))?;
                for w in &f.why {
                    outln(&format!("      why {w}"))?;
                }
            }
            None => outln(&format!(
                "      the run could not start: {}",
                o.notes.join("; ")
            ))?,
        }
    }
    for b in broken {
        outln(&format!("FAIL  {:<width$}  does not load", b.name))?;
        for line in b.message.lines() {
            outln(&format!("      {line}"))?;
        }
    }
    if args.coverage {
        outln("decision coverage (agent-ticks per branch):")?;
        for (key, a) in &coverage.archetypes {
            let parts: Vec<String> = a
                .branches
                .iter()
                .map(|(b, n)| format!("{b} {n}"))
                .chain(a.states.iter().map(|(s, n)| format!("state {s} {n}")))
                .collect();
            outln(&format!("  {key}: {}", parts.join(", ")))?;
            let never = a.never();
            if !never.is_empty() {
                outln(&format!("    never exercised: {}", never.join(", ")))?;
            }
        }
    }
    Ok(())
}
