//! What-if forks: replay a [`Recording`] to a tick, change the live world
//! there ([`apply`]'s rules: archetypes, profiles, factions' hostility,
//! walls and doors, agents' positions), and run the recorded branch and the
//! changed one side by side, reporting where they part ([`Difference`]).
//!
//! ```
//! use kiai::content::recording::Recording;
//! use kiai::fork::{Fork, fork};
//!
//! let content = kiai::content::Content::load("../../content/demo/arena.ron".as_ref())
//!     .map_err(|d| d.to_string())?;
//! let recording = kiai::fork::record(&content, None, &[], 40)?;
//! let request = Fork { at: 20, sets: vec![], ticks: None };
//! let report = fork(&recording, std::path::Path::new("."), &request)?;
//! assert_eq!(report.first_divergent_tick, None);
//! assert_eq!(report.hashes.0, report.hashes.1);
//! # Ok::<(), String>(())
//! ```

pub mod apply;
mod diff;

use std::path::Path;

use kiai_content::events::{EventDef, Schedule};
use kiai_content::recording::Recording;
use kiai_content::{Content, SpanIndex};
use kiai_core::state_hash;

use crate::driver::Driver;
pub use diff::{Branch, Difference};

/// What to fork.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fork {
    /// The tick to change the world at (after this many ticks ran).
    pub at: u64,
    /// `PATH=VALUE` assignments (`archetypes.guard.senses.eyes.shape.range=40`).
    pub sets: Vec<String>,
    /// Ticks to run both branches after `at`; `None`: to the end of the
    /// recording.
    pub ticks: Option<u64>,
}

/// How the branches compare.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The fork's tick.
    pub at: u64,
    /// The tick both branches ran to.
    pub ticks: u64,
    /// The first tick whose state hashes differ, `None` when they never do.
    pub first_divergent_tick: Option<u64>,
    /// The state hashes at the end: (base, fork).
    pub hashes: (u64, u64),
    /// How they differ.
    pub differences: Vec<Difference>,
    /// What was changed at the fork (`archetype guard`).
    pub changed: Vec<String>,
    /// The first tick at which the replayed base branch disagreed with the
    /// recording's hashes (another kiai version, say), if any.
    pub replay_mismatch: Option<u64>,
}

/// Records a run of `content` for `ticks` ticks with `seed` (the
/// content's when `None`) and `events`, as `kiai run --record` does.
pub fn record(
    content: &Content,
    seed: Option<u64>,
    events: &[EventDef],
    ticks: u64,
) -> Result<Recording, String> {
    let seed = seed.unwrap_or(content.seed());
    let def = content.to_def().into_owned();
    let mut recording = Recording::new(def, seed, events.to_vec(), &content.scripts())
        .map_err(|e| e.to_string())?;
    let schedule = Schedule::from_def(
        events,
        &recording.content,
        &content.file,
        &SpanIndex::default(),
    )
    .map_err(|d| d.to_string())?;
    let world = content.world(Some(seed)).map_err(|e| e.to_string())?;
    let mut run = Driver::new(world, &content.scripts(), schedule, false);
    for _ in 0..ticks {
        run.step();
        recording.hashes.push(state_hash(run.world()));
    }
    Ok(recording)
}

/// A run of `recording` from tick 0 (scripts from the recorded text, named
/// under `dir`).
fn replay(recording: &Recording, dir: &Path) -> Result<Driver, String> {
    let schedule = Schedule::from_def(
        &recording.events,
        &recording.content,
        "the recording's events",
        &SpanIndex::default(),
    )
    .map_err(|d| d.to_string())?;
    let world = kiai_content::build_world(&recording.content, Some(recording.seed))
        .map_err(|e| format!("cannot build the recorded world: {e}"))?;
    Ok(Driver::new(
        world,
        &recording.script_refs(dir),
        schedule,
        false,
    ))
}

/// Replays `recording` to `request.at` twice over, changes the second
/// branch and runs both to the end, comparing them after every tick.
pub fn fork(recording: &Recording, dir: &Path, request: &Fork) -> Result<Report, String> {
    let recorded = recording.ticks();
    let ticks = request
        .ticks
        .unwrap_or_else(|| recorded.saturating_sub(request.at));
    if request.at > recorded && request.ticks.is_none() {
        return Err(format!(
            "--at {} is past the recording's end (it has {recorded} ticks); give --ticks N to run on",
            request.at
        ));
    }
    if ticks == 0 {
        return Err(format!(
            "nothing to compare: the recording ends at tick {recorded}; fork earlier or give --ticks N"
        ));
    }
    let changed_def = apply::edited(&recording.content, &request.sets)?;
    let mut base = replay(recording, dir)?;
    let mut fork = replay(recording, dir)?;
    let mut mismatch = None;
    let check = |run: &Driver, mismatch: &mut Option<u64>| {
        let t = run.world().tick();
        let h = state_hash(run.world());
        let recorded = recording.hashes.get((t as usize).wrapping_sub(1)).copied();
        if recorded.is_some_and(|r| r != h) && mismatch.is_none() {
            *mismatch = Some(t);
        }
        h
    };
    for _ in 0..request.at {
        base.step();
        fork.step();
        check(&base, &mut mismatch);
    }
    let changed = apply::apply(fork.world_mut(), &recording.content, &changed_def)?;
    let mut divergence = diff::Divergence::new(base.world());
    let mut hashes = (state_hash(base.world()), state_hash(fork.world()));
    for _ in 0..ticks {
        base.step();
        fork.step();
        hashes = (check(&base, &mut mismatch), state_hash(fork.world()));
        divergence.after_tick(&base, &fork, hashes);
    }
    Ok(Report {
        at: request.at,
        ticks: base.world().tick(),
        first_divergent_tick: divergence.first_divergent_tick,
        hashes,
        differences: divergence.differences(&base, &fork),
        changed,
        replay_mismatch: mismatch,
    })
}
