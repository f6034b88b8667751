//! "What if…": fork the recorded run at a tick with changes made in the
//! editor, and compare the branches.
//!
//! While a what-if is open, the document's edits (the inspector's, the
//! map's handles) are the fork's changes: they are made to the document as
//! usual, so every view edits them as it edits anything, and each is an
//! undo step; undo stops where the what-if began. The changes are the
//! `PATH=VALUE` assignments between the document then and now
//! (`kiai_content::value_path::diff`), which `kiai::fork` applies to the
//! recording at the fork's tick by its own rules, on a background thread.
//! Leaving puts the document back as it was (history included) unless the
//! user keeps the changes; saving and exporting wait until then.
//!
//! Once run, the map can show either branch: the fork's is a [`Sim`] of
//! the recording with `kiai::fork::apply`'s change made at the fork's tick
//! ([`Sim::change_at`]), swapped in for the base run while it is shown,
//! so scrubbing, selecting and the Why tab follow it.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Instant;

use kiai::content::def::ContentDef;
pub use kiai::fork::Branch;
use kiai::fork::{Difference, Fork, Report};

use super::command::WhatIfCommand;
use super::doc::{Document, Mark};
use super::sim::Sim;

/// What a what-if is doing.
#[derive(Debug)]
pub enum Outcome {
    /// Waiting for Run.
    Idle,
    /// The fork runs on a background thread.
    Running {
        /// Where the report arrives.
        rx: mpsc::Receiver<Result<Report, String>>,
        /// When it started.
        started: Instant,
        /// What it runs (the tick and the assignments).
        request: Fork,
    },
    /// The branches, compared.
    Done {
        /// The report of `kiai::fork`.
        report: Report,
        /// What ran.
        request: Fork,
    },
    /// Why the fork could not run, and what to do.
    Failed(String),
}

/// An open what-if.
pub struct WhatIf {
    /// The fork's tick: the world is changed after this many ticks.
    pub at: u64,
    /// The document when the what-if began (the changes are the edits
    /// since; leaving without keeping them restores it).
    before: ContentDef,
    mark: Mark,
    /// Whether the run was built from the document as it was when the
    /// what-if began (false: earlier edits, made without a reset, are in
    /// neither branch).
    pub run_matches: bool,
    /// The changes as `PATH=VALUE`, or why they cannot be said so, for
    /// the document revision `revision`.
    changes: Result<Vec<String>, String>,
    revision: u64,
    /// The fork's state.
    pub outcome: Outcome,
    /// Whether the document had unsaved changes when the what-if began
    /// (the editor's title says so meanwhile).
    pub was_dirty: bool,
    /// The branch the map shows (the model's run is that branch's).
    pub showing: Branch,
    /// The run not shown: the base while the fork is shown, else the
    /// fork's run once made.
    hidden: Option<Sim>,
}

/// Why "What if…" cannot start now, if it cannot (no run, nothing
/// recorded).
pub fn unavailable(sim: Option<&Sim>) -> Option<String> {
    match sim {
        None => Some("What if… forks the recorded run: play or step first".to_owned()),
        Some(s) if s.timeline().recorded() == 0 => {
            Some("nothing recorded yet: play or step first, then What if…".to_owned())
        }
        Some(_) => None,
    }
}

impl WhatIf {
    /// A what-if forking at `at`, starting from the document as it is.
    pub fn new(at: u64, doc: &Document, sim: &Sim) -> Self {
        Self {
            at,
            before: doc.def().clone(),
            mark: doc.mark(),
            run_matches: sim.run().def() == doc.def(),
            changes: Ok(Vec::new()),
            revision: doc.revision(),
            outcome: Outcome::Idle,
            was_dirty: doc.is_dirty(),
            showing: Branch::Base,
            hidden: None,
        }
    }

    /// The changes as `PATH=VALUE` (`archetypes.guard.senses.eyes.shape.range=30.0`),
    /// as of the last [`WhatIf::refresh`].
    pub fn changes(&self) -> Result<&[String], &str> {
        match &self.changes {
            Ok(c) => Ok(c),
            Err(e) => Err(e),
        }
    }

    /// Recomputes the changes when the document changed.
    pub fn refresh(&mut self, doc: &Document) {
        if doc.revision() == self.revision {
            return;
        }
        self.revision = doc.revision();
        self.changes = kiai::content::value_path::diff(&self.before, doc.def())
            .map_err(|e| format!("the edits cannot be written as changes: {e}"));
    }

    /// Whether undo may take back the document's last step (not past the
    /// what-if's start).
    pub fn may_undo(&self, doc: &Document) -> bool {
        doc.undo_len() > self.mark.steps()
    }

    /// Puts `doc` back as it was when the what-if began.
    pub fn restore(&self, doc: &mut Document) {
        doc.rewind(self.mark, &self.before);
    }

    /// The fork this what-if would run now.
    pub fn request(&self) -> Result<Fork, String> {
        let sets = self.changes.clone()?;
        Ok(Fork {
            at: self.at,
            sets,
            ticks: None,
        })
    }

    /// Whether the result on screen is for the tick and changes as they
    /// are now.
    pub fn is_current(&self) -> bool {
        // Compared in place: this runs every frame the bar is drawn.
        match (&self.outcome, &self.changes) {
            (Outcome::Done { request, .. }, Ok(sets)) => {
                request.at == self.at && request.ticks.is_none() && request.sets == *sets
            }
            _ => false,
        }
    }

    /// Starts the fork of `sim`'s recording (scripts named under `dir`) on
    /// a background thread; refuses, saying what to do, when there is
    /// nothing after the fork's tick to compare.
    pub fn run(&mut self, sim: &Sim, dir: PathBuf) {
        let recorded = sim.timeline().recorded();
        if self.at >= recorded {
            self.outcome = Outcome::Failed(format!(
                "nothing to compare after tick {}: the recording ends at tick {recorded}; set \
                 the fork's tick earlier, or play on past it first",
                self.at
            ));
            return;
        }
        let request = match self.request() {
            Ok(r) => r,
            Err(e) => {
                self.outcome = Outcome::Failed(e);
                return;
            }
        };
        let recording = sim.recording();
        let (tx, rx) = mpsc::channel();
        let job = request.clone();
        let spawned = std::thread::Builder::new()
            .name("kiai-what-if".into())
            .spawn(move || {
                let _ = tx.send(kiai::fork::fork(&recording, &dir, &job));
            });
        self.outcome = match spawned {
            Ok(_) => Outcome::Running {
                rx,
                started: Instant::now(),
                request,
            },
            Err(e) => Outcome::Failed(format!("cannot start the fork: {e}")),
        };
    }

    /// Collects a finished fork. Returns whether one is still running.
    pub fn poll(&mut self) -> bool {
        let Outcome::Running { rx, request, .. } = &self.outcome else {
            return false;
        };
        let next = match rx.try_recv() {
            Err(mpsc::TryRecvError::Empty) => return true,
            Ok(Ok(report)) => Outcome::Done {
                report,
                request: request.clone(),
            },
            Ok(Err(e)) => Outcome::Failed(advice(&e)),
            Err(mpsc::TryRecvError::Disconnected) => {
                Outcome::Failed("the fork stopped without a result; try Run again".to_owned())
            }
        };
        self.outcome = next;
        false
    }

    /// The report of the last fork run, if it finished.
    pub fn report(&self) -> Option<&Report> {
        match &self.outcome {
            Outcome::Done { report, .. } => Some(report),
            _ => None,
        }
    }
}

/// `kiai::fork`'s refusal, with what to do about it in the editor.
fn advice(error: &str) -> String {
    let error = error.replace("--set ", "");
    format!("{error}. Undo that edit (Ctrl+Z) or Cancel")
}

/// One line of the differences between the branches: the tick (none for
/// the counts at the end), the agent it is about, and the words.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The tick it happened at (`None`: at the end).
    pub tick: Option<u64>,
    /// The agent it is about.
    pub agent: Option<String>,
    /// What differs, in words.
    pub text: String,
}

/// `difference` in words, as `kiai fork` prints it but with the states
/// in words (`random walk`), as the rest of the editor writes them.
pub fn line(difference: &Difference) -> Line {
    let (tick, agent) = match difference {
        Difference::State { agent, tick, .. } | Difference::Sees { agent, tick, .. } => {
            (Some(*tick), Some(agent.clone()))
        }
        Difference::Count { .. } => (None, None),
    };
    Line {
        tick,
        agent,
        text: difference.describe(|state| state.replace('_', " ")),
    }
}

/// Applies a what-if command to `model`.
pub(super) fn apply(model: &mut super::Model, command: WhatIfCommand) {
    match command {
        WhatIfCommand::Open => open(model),
        WhatIfCommand::At(tick) => {
            drop_fork(model);
            if let Some(w) = &mut model.what_if {
                w.at = tick;
            }
        }
        WhatIfCommand::Show(branch) => {
            if let Err(e) = show(model, branch) {
                model.say(e);
            }
        }
        WhatIfCommand::Run => {
            drop_fork(model);
            let dir = model.dir();
            match (&mut model.what_if, &model.sim) {
                (Some(w), Some(sim)) => {
                    w.refresh(&model.doc);
                    w.run(sim, dir);
                }
                (Some(w), None) => {
                    w.outcome = Outcome::Failed(
                        "the run is gone: Cancel, play or step, then What if… again".to_owned(),
                    );
                }
                (None, _) => {}
            }
        }
        WhatIfCommand::Leave { keep } => leave(model, keep),
    }
}

/// Opens a what-if at the run's tick (paused there).
fn open(model: &mut super::Model) {
    if model.what_if.is_some() {
        model.say("What if… is open already: its bar is under the timeline");
        return;
    }
    if let Some(why) = unavailable(model.sim.as_ref()) {
        model.say(why);
        return;
    }
    let Some(sim) = &mut model.sim else { return };
    sim.playing = false;
    let at = sim.tick();
    model.what_if = Some(WhatIf::new(at, &model.doc, sim));
    model.say(format!(
        "What if… at tick {at}: edit the map or the inspector, then Run"
    ));
}

/// Leaves the what-if (if one is open), restoring the document unless
/// `keep`.
pub fn leave(model: &mut super::Model, keep: bool) {
    drop_fork(model);
    let Some(w) = model.what_if.take() else {
        return;
    };
    if keep {
        model.say("the what-if's edits are now the map's (not saved yet)");
    } else {
        w.restore(&mut model.doc);
        model.selection.prune(model.doc.def());
        model.say("What if… closed: the map is as it was");
    }
}

/// Shows `branch` on the map: the fork's run is made the first time (the
/// recording replayed with the fork's change at its tick), and the run
/// shown goes to the tick the other one was at.
fn show(model: &mut super::Model, branch: Branch) -> Result<(), String> {
    let dir = model.dir();
    let (Some(w), Some(shown)) = (&mut model.what_if, &mut model.sim) else {
        return Ok(());
    };
    if w.showing == branch {
        return Ok(());
    }
    let tick = shown.tick();
    let mut next = match (w.hidden.take(), branch) {
        (Some(sim), _) => sim,
        (None, Branch::Fork) => fork_run(w, shown, &dir)?,
        (None, Branch::Base) => return Err("the base run is gone".to_owned()),
    };
    next.speed = shown.speed;
    shown.playing = false;
    next.seek(tick)?;
    w.hidden = model.sim.replace(next);
    w.showing = branch;
    Ok(())
}

/// The fork's run: the base's recording, changed at the fork's tick by
/// `kiai::fork::apply` as the fork that ran was.
fn fork_run(w: &WhatIf, base: &Sim, dir: &std::path::Path) -> Result<Sim, String> {
    let request = match &w.outcome {
        Outcome::Done { request, .. } if w.is_current() => request,
        _ => return Err("Run the fork first: the map shows its run once it ran".to_owned()),
    };
    let recording = base.recording();
    let old = recording.content.clone();
    let new = kiai::fork::apply::edited(&old, &request.sets)?;
    let mut sim = Sim::from_recording(&recording, dir)?;
    let changed = new.clone();
    sim.change_at(
        request.at,
        changed,
        Box::new(move |world| kiai::fork::apply::apply(world, &old, &new).map(|_| ())),
    );
    Ok(sim)
}

/// Shows the base run again and forgets the fork's (after Run, a new
/// tick, leaving: it is no longer the fork on screen).
fn drop_fork(model: &mut super::Model) {
    let _ = show(model, Branch::Base);
    if let Some(w) = &mut model.what_if {
        w.hidden = None;
    }
}

/// The base run: the model's, or the hidden one while the fork is shown.
pub fn base(model: &super::Model) -> Option<&Sim> {
    match &model.what_if {
        Some(w) if w.showing == Branch::Fork => w.hidden.as_ref(),
        _ => model.sim.as_ref(),
    }
}

/// Shows the base again when the fork on screen is no longer the one the
/// edits and tick describe.
pub(super) fn follow_edits(model: &mut super::Model) {
    let stale = model
        .what_if
        .as_ref()
        .is_some_and(|w| w.showing == Branch::Fork && !w.is_current());
    if stale {
        drop_fork(model);
        model.say("edited since the last run: the map shows the base; Run again to compare");
    }
}
