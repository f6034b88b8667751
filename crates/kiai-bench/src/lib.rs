//! # kiai-bench — side-by-side benchmarks
//!
//! Each [`Scenario`] times kiai and a peer (another crate, or the article's own
//! algorithm) on the same inputs in the same run, checks that both computed
//! the same answer, and reports milliseconds for each. The `kiai-bench`
//! binary (which `kiai bench` runs) prints them; BENCHMARKS.md records them
//! with the machine they ran on.
//!
//! Everything a benchmark needs beyond kiai itself lives here and nowhere
//! else: the peers (kiddo, rstar, petgraph's A*, pathfinding, dodgy_2d) and
//! the [`CountingAllocator`]. The shipped `kiai` binary does not link this crate.
//!
//! Timings use the wall clock, which is fine here: benchmarks observe the
//! simulation, they never feed time into it.

use std::time::Instant;

mod alloc;
pub mod avoid_stage;
pub mod avoidance;
pub mod content;
pub mod fog;
pub mod lod;
pub mod lua;
pub mod lua_call;
pub mod nav;
pub mod navgen;
pub mod perception;
pub mod runtime;
pub mod sense_floor;
pub mod tick;
pub mod walkers;

pub use alloc::{CountingAllocator, allocations};

/// One benchmark result: kiai against a peer on identical inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Short name, e.g. `"perception/all-pairs/10k"`.
    pub name: String,
    /// kiai's time, milliseconds (the unit of the figure is in `note`).
    pub ours_ms: f64,
    /// What kiai is compared against, e.g. `"article 000 all-pairs"`.
    pub peer: String,
    /// The peer's time, milliseconds, same unit as `ours_ms`.
    pub peer_ms: f64,
    /// What was measured, and any figure beside the times.
    pub note: String,
}

impl std::fmt::Display for Scenario {
    /// One result as the scenario examples print it: name, both times, the
    /// ratio, then the note on its own line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:<48} kiai {:>9.3} ms   {} {:>9.3} ms   ratio {:.2}\n  {}",
            self.name,
            self.ours_ms,
            self.peer,
            self.peer_ms,
            self.ratio(),
            self.note
        )
    }
}

/// Prints each scenario of one group (what the scenario examples do with
/// `--quick` or without); exits 1 with the message when the group fails.
pub fn print_group(scenarios: impl FnOnce(Effort) -> Result<Vec<Scenario>, String> + Send) {
    let quick = std::env::args().any(|a| a == "--quick");
    match in_pool(|| scenarios(Effort { quick })).and_then(|r| r) {
        Ok(list) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            for s in list {
                // A closed pipe (`| head`) ends the listing, quietly.
                if writeln!(out, "{s}").is_err() {
                    return;
                }
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

impl Scenario {
    /// `peer_ms / ours_ms`: above 1 kiai is faster.
    pub fn ratio(&self) -> f64 {
        if self.ours_ms > 0.0 {
            self.peer_ms / self.ours_ms
        } else {
            f64::INFINITY
        }
    }
}

/// How long to measure: `quick` for CI and smoke runs, full for the figures
/// in BENCHMARKS.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Shorter runs with fewer repetitions.
    pub quick: bool,
}

impl Effort {
    /// Repetitions of a measurement whose single run takes about `est_ms`.
    pub fn reps(&self, est_ms: f64) -> usize {
        let budget_ms = if self.quick { 150.0 } else { 1500.0 };
        ((budget_ms / est_ms.max(0.001)) as usize).clamp(3, 1000)
    }
}

/// Median wall time of `f` in milliseconds over `reps` runs after one
/// warm-up run.
pub fn median_ms(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Median wall times in milliseconds of contenders `0..count`, where
/// `run(k)` runs contender `k` once: run in turn (one of each per round,
/// `reps` rounds after one warm-up round), so that every contender sees the
/// same machine load.
pub fn medians_interleaved(reps: usize, count: usize, mut run: impl FnMut(usize)) -> Vec<f64> {
    for k in 0..count {
        run(k);
    }
    let mut times = vec![Vec::with_capacity(reps); count];
    for _ in 0..reps.max(1) {
        for (k, t) in times.iter_mut().enumerate() {
            let start = Instant::now();
            run(k);
            t.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    times
        .iter_mut()
        .map(|t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect()
}

/// Time of one run of `f` in milliseconds (for estimating repetitions).
pub fn once_ms(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

/// Every scenario kiai knows, in a stable order. Fails when kiai and a peer
/// disagree on a result.
///
/// Allocation counts in notes are real only when the binary installs
/// [`CountingAllocator`] as its global allocator (the `kiai-bench` binary
/// does).
pub fn all(effort: Effort) -> Result<Vec<Scenario>, String> {
    in_pool(|| every_group(effort)).and_then(|r| r)
}

/// Runs `f` inside a rayon pool of one thread per core, as `kiai run`
/// ticks: a tick keeps a thread awake between its parallel passes only
/// inside a pool (`Pipeline::set_threads_awake`). Scenarios
/// that compare thread counts build their own pools inside it.
fn in_pool<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    Ok(pool.install(f))
}

fn every_group(effort: Effort) -> Result<Vec<Scenario>, String> {
    let mut out = perception::scenarios(effort)?;
    out.extend(sense_floor::scenarios(effort)?);
    out.extend(tick::scenarios(effort)?);
    out.extend(runtime::scenarios(effort)?);
    out.extend(content::scenarios(effort)?);
    out.extend(lua::scenarios(effort)?);
    out.extend(lua_call::scenarios(effort)?);
    out.extend(nav::scenarios(effort)?);
    out.extend(navgen::scenarios(effort)?);
    out.extend(walkers::scenarios(effort)?);
    out.extend(fog::scenarios(effort)?);
    out.extend(avoidance::scenarios(effort)?);
    out.extend(avoid_stage::scenarios(effort)?);
    out.extend(lod::scenarios(effort)?);
    Ok(out)
}
