//! Simulating content for `run`, `perceive` and `fog`: the flags they
//! share, the world, the worker threads, and ticking with the events
//! schedule applied between ticks.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use kiai_content::Content;
use kiai_content::events::Schedule;
use kiai_core::{DefaultDecider, Pipeline, World};

/// The flags of every command that simulates content.
#[derive(Args)]
pub(crate) struct SimArgs {
    /// Content file (.ron) or exported pack.
    pub(crate) file: PathBuf,
    /// Seed for every random stream; defaults to the file's `seed`.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Worker threads (results are identical at any count); defaults to the
    /// number of cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub(crate) threads: Option<u16>,
    /// Print one JSON object on stdout instead of a summary.
    #[arg(long)]
    pub(crate) json: bool,
    /// Changes to apply on a schedule (spawns, despawns, moves, doors,
    /// blocked links, waypoints, sounds; see docs/cli.md): an event of tick
    /// T is applied after T ticks have run, before the next one.
    #[arg(long, value_name = "EVENTS.ron")]
    pub(crate) events: Option<PathBuf>,
}

/// Runs `f` on a pool of `threads` workers (by default one per core).
/// Inside a pool a tick keeps a thread awake between its parallel passes
/// (`Pipeline::set_threads_awake`); called from the main thread, each
/// pass would wait for a sleeping thread to wake.
pub(crate) fn with_threads<T: Send>(
    threads: Option<u16>,
    f: impl FnOnce() -> T + Send,
) -> anyhow::Result<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, usize::from))
        // The main thread's stack, which `f` ran on before it ran here.
        .stack_size(8 << 20)
        .build()
        .context("cannot start worker threads")?;
    Ok(pool.install(f))
}

/// The world `content` describes, every random stream seeded from `seed`
/// (or the file's seed).
pub(crate) fn world_of(content: &Content, seed: Option<u64>) -> anyhow::Result<World> {
    content.world(seed).context("cannot build the world")
}

/// Applies the events that are due; says on stderr which could not be.
pub(crate) fn apply_events(schedule: &mut Schedule, world: &mut World) {
    for line in schedule.apply_due(world) {
        eprintln!("events: {line}");
    }
}

/// Runs `ticks` ticks with the Rust decider, applying `schedule`'s events
/// before each and after the last; returns the pipeline (to sense again).
pub(crate) fn simulate(world: &mut World, ticks: u64, schedule: &mut Schedule) -> Pipeline {
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    for _ in 0..ticks {
        apply_events(schedule, world);
        pipeline.tick(world, &mut decider);
    }
    apply_events(schedule, world);
    pipeline
}
