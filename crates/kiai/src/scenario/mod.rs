//! Scenario tests: run a [`Scenario`] (a `*.scenario.ron` file, see
//! [`kiai_content::scenario`]) and check its expectations after every
//! tick, stopping as soon as every one is decided.
//!
//! ```
//! use kiai::content::scenario::Scenario;
//!
//! let scenario = Scenario::load("../../tests/scenarios/fortress_gate.scenario.ron".as_ref())
//!     .map_err(|d| d.to_string())?;
//! let outcome = kiai::scenario::run(&scenario);
//! assert!(outcome.ok, "{:?}", outcome.failure);
//! # Ok::<(), String>(())
//! ```
//!
//! A game can run its own scenarios from `cargo test` this way; `kiai test`
//! runs whole directories of them in parallel.

mod check;
mod coverage;
mod why;

use std::path::Path;
use std::time::{Duration, Instant};

use kiai_content::Pos;
use kiai_content::expect::{Expectation, Quantifier};
use kiai_content::scenario::Scenario;
use kiai_core::state_hash;

use crate::driver::Driver;
use check::Lookup;
pub use check::Status;
pub use coverage::{ArchetypeCoverage, Coverage, PLUGIN_BRANCH, RUST_BRANCHES, SCRIPT_BRANCH};
pub use why::Why;

/// How one expectation came out.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectationResult {
    /// The expectation as written.
    pub text: String,
    /// Where it is written.
    pub pos: Pos,
    /// Passed, failed, or pending (the run could not start).
    pub status: Status,
}

/// The first expectation that failed (earliest tick, then file order).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The expectation as written.
    pub expectation: String,
    /// The scenario file.
    pub file: String,
    /// Where the expectation is written.
    pub pos: Pos,
    /// The tick it failed at.
    pub tick: u64,
    /// How it failed (`held at tick 57`, `did not hold at any tick from 1
    /// to 120: ...`).
    pub message: String,
    /// The agents it names, at that tick.
    pub why: Vec<Why>,
}

impl std::fmt::Display for Failure {
    /// `file:line:col: `text` message`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: `{}` {}",
            self.file, self.pos.line, self.pos.column, self.expectation, self.message
        )
    }
}

/// How a scenario came out.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The scenario's name.
    pub name: String,
    /// Its file.
    pub file: String,
    /// Whether every expectation held.
    pub ok: bool,
    /// Ticks run (the run stops once every expectation is decided).
    pub ticks: u64,
    /// Wall-clock time of the run (building the world included).
    pub elapsed: Duration,
    /// Every expectation, in file order.
    pub results: Vec<ExpectationResult>,
    /// The first failure, if any.
    pub failure: Option<Failure>,
    /// The decisions the run took.
    pub coverage: Coverage,
    /// The state hash after the last tick run.
    pub hash: u64,
    /// Script errors and events that could not be applied, one line each
    /// (`tick T: ...`).
    pub notes: Vec<String>,
}

/// One expectation being checked.
struct Check<'a> {
    expectation: &'a Expectation,
    pos: Pos,
    first: u64,
    last: u64,
    status: Status,
    why: Vec<Why>,
}

/// Runs `scenario` and checks its expectations after every tick.
pub fn run(scenario: &Scenario) -> Outcome {
    let start = Instant::now();
    let mut checks: Vec<Check<'_>> = scenario
        .expectations
        .iter()
        .map(|l| {
            let (first, last) = l.expectation.window.ticks(scenario.ticks);
            Check {
                expectation: &l.expectation,
                pos: l.pos,
                first,
                last,
                status: Status::Pending,
                why: Vec::new(),
            }
        })
        .collect();
    let mut outcome = Outcome {
        name: scenario.name.clone(),
        file: scenario.file.clone(),
        ok: false,
        ticks: 0,
        elapsed: Duration::ZERO,
        results: Vec::new(),
        failure: None,
        coverage: Coverage::default(),
        hash: 0,
        notes: Vec::new(),
    };
    match scenario.content.world(Some(scenario.seed)) {
        Ok(world) => simulate(scenario, world, &mut checks, &mut outcome),
        Err(e) => outcome.notes.push(format!("cannot build the world: {e}")),
    }
    outcome.results = checks
        .iter()
        .map(|c| ExpectationResult {
            text: c.expectation.text.clone(),
            pos: c.pos,
            status: c.status.clone(),
        })
        .collect();
    outcome.failure = first_failure(scenario, &mut checks);
    outcome.ok =
        outcome.failure.is_none() && checks.iter().all(|c| matches!(c.status, Status::Passed(_)));
    outcome.elapsed = start.elapsed();
    outcome
}

/// Steps the run until every check is decided or the tick limit.
fn simulate(
    scenario: &Scenario,
    world: kiai_core::World,
    checks: &mut [Check<'_>],
    outcome: &mut Outcome,
) {
    let mut run = Driver::new(
        world,
        &scenario.content.scripts(),
        scenario.schedule.clone(),
        true,
    );
    let mut lookup = Lookup::default();
    if let Ok(nav) = scenario.content.nav() {
        for l in &scenario.expectations {
            if let kiai_content::expect::Condition::Reaches { waypoint, .. } =
                l.expectation.condition
                && let Some(w) = nav.waypoint(waypoint)
            {
                lookup.waypoints.insert(waypoint, w);
            }
        }
    }
    let content_name = tidy_path(&scenario.content_path);
    let (mut coverage, keys) = Coverage::for_run(&run, &content_name);
    for t in 1..=scenario.ticks {
        run.step();
        outcome.notes.extend(run.script_errors().iter().cloned());
        outcome.notes.extend(run.skipped_events().iter().cloned());
        coverage.record(&run, &keys);
        let mut pending = false;
        for c in checks.iter_mut() {
            if c.status != Status::Pending {
                continue;
            }
            if t >= c.first {
                decide(c, t, &run, &mut lookup);
            }
            pending |= c.status == Status::Pending;
        }
        outcome.ticks = t;
        if !pending {
            break;
        }
    }
    outcome.hash = state_hash(run.world());
    outcome.coverage = coverage;
}

/// Checks `c` at tick `t`, deciding it when the tick settles it.
fn decide(c: &mut Check<'_>, t: u64, run: &Driver, lookup: &mut Lookup) {
    let e = c.expectation;
    let holds = check::holds(&e.condition, run, lookup);
    let broken = match e.quantifier {
        Quantifier::Exists => !holds && t >= c.last,
        Quantifier::Never => holds,
        Quantifier::Always => !holds,
    };
    if broken {
        let observed = check::observed(&e.condition, run, lookup);
        c.status = Status::Failed(t, check::failure(e, t, c.first, &observed));
        c.why = e.agents().iter().map(|a| Why::of(run, a)).collect();
    } else if (e.quantifier == Quantifier::Exists && holds) || t >= c.last {
        c.status = Status::Passed(t);
    }
}

/// The earliest failure (file order among those of one tick).
fn first_failure(scenario: &Scenario, checks: &mut [Check<'_>]) -> Option<Failure> {
    let c = checks
        .iter_mut()
        .filter(|c| matches!(c.status, Status::Failed(..)))
        .min_by_key(|c| match c.status {
            Status::Failed(t, _) => t,
            _ => u64::MAX,
        })?;
    let Status::Failed(tick, message) = &c.status else {
        return None;
    };
    Some(Failure {
        expectation: c.expectation.text.clone(),
        file: scenario.file.clone(),
        pos: c.pos,
        tick: *tick,
        message: message.clone(),
        why: std::mem::take(&mut c.why),
    })
}

/// `path` without `.` and with `dir/..` folded, as `/`-separated text
/// (`tests/scenarios/../../content/demo/arena.ron` reads
/// `content/demo/arena.ron`).
pub fn tidy_path(path: &Path) -> String {
    kiai_content::lexically_normal(path)
        .to_string_lossy()
        .replace('\\', "/")
}
