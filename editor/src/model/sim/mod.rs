//! The simulation inside the editor: the runtime's own `Pipeline` over a
//! `World` built from the document, played time-boxed on the UI thread,
//! recorded, and replayed exactly by re-simulating from the seed.
//!
//! A run is fully determined by the content, the seed and the tick count
//! (the editor feeds no other input while playing; edits apply on reset),
//! so the recording is the content, the seed and the state hash after
//! every tick: seeking re-simulates (from the current tick when seeking
//! forward, from tick 0 when seeking back) and checks each hash on the way.
//!
//! A [`Sim`] holds three things, each in its own file, and plays them
//! together:
//! - `run.rs`: the [`Run`], the world and what advances it (pipeline,
//!   deciders, script watcher, a what-if's change);
//! - `timeline.rs`: the [`Timeline`], what every tick left behind (state
//!   hashes, agent states, snapshots for seeking back);
//! - `console.rs`: the [`Console`], the Lua console's lines and the
//!   scripts' failures.

mod console;
mod run;
mod timeline;

use std::path::Path;
use std::time::{Duration, Instant};

use kiai::content::def::ContentDef;
use kiai::content::{Content, ScriptRef};
use kiai_core::{World, state_hash};

pub use console::{Console, ConsoleLine, LineKind};
pub use run::{Change, Run};
pub use timeline::{MAX_SNAPSHOTS, SNAPSHOT_EVERY, Timeline};

use super::breakpoints::{self, Breakpoints, Hit, TickReport};

/// Wall-clock time the simulation may use per frame while playing.
pub const FRAME_BUDGET: Duration = Duration::from_millis(8);

/// Slowest and fastest play speeds (× real time).
pub const SPEEDS: std::ops::RangeInclusive<f32> = 0.1..=8.0;

/// Ticks of per-stage timings kept for the plot.
pub const TIMING_WINDOW: usize = 600;

/// Milliseconds per stage of one tick, in the order of
/// [`kiai_core::Stage::ALL`] (the order a tick runs them), then the tick's
/// upkeep (its work outside the stages): their sum is the whole tick.
pub type StageMs = [f32; TIMED];

/// Parts of a tick the Timings tab plots: every stage, then the upkeep.
pub const TIMED: usize = kiai_core::Stage::ALL.len() + 1;

/// The names of [`StageMs`]'s entries, as `kiai run` prints them.
pub fn timed_names() -> [&'static str; TIMED] {
    let mut names = [kiai_core::StageTimings::UPKEEP; TIMED];
    for (name, stage) in names.iter_mut().zip(kiai_core::Stage::ALL) {
        *name = stage.name();
    }
    names
}

/// A recorded run: enough to replay it exactly. The format is shared with
/// `kiai run --record` and `kiai fork` (`kiai_content::recording`).
pub use kiai_content::recording::Recording;

static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A live simulation of the document: the run, its timeline and its
/// console, played or paused.
pub struct Sim {
    run: Run,
    timeline: Timeline,
    /// The Lua console and the scripts' failures.
    pub console: Console,
    /// Playing (ticks advance with real time) or paused.
    pub playing: bool,
    /// Play speed, × real time, within [`SPEEDS`].
    pub speed: f32,
    owed: f64,
    /// Why the run stopped by itself last (a breakpoint or "step to the
    /// next event"); cleared when it plays or steps again.
    pub hit: Option<Hit>,
    /// Per-stage timings of the last [`TIMING_WINDOW`] ticks simulated.
    pub timings: std::collections::VecDeque<(u64, StageMs)>,
    /// Whether the run was built from the map (not from a recording or a
    /// pack): only such a run follows the map's edits.
    from_map: bool,
    /// A number no other `Sim` of this process has.
    id: u64,
    /// Every agent's decision before the last tick (breakpoints name the
    /// old target).
    decisions_before: Vec<kiai_core::Decision>,
    /// The tick and the values of the memory keys breakpoints watch, by
    /// (breakpoint, agent slot), as of that tick.
    watched: (u64, std::collections::BTreeMap<(usize, usize), String>),
}

impl Sim {
    /// A run of `def` with `seed`; scripts are files resolved against `dir`
    /// (the document's directory).
    pub fn new(def: &ContentDef, dir: &Path, seed: u64) -> Result<Self, String> {
        // Absolute, so the console names scripts by a path that works from
        // anywhere (a document opened as `map.ron` has the directory "").
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let scripts = kiai::lua::document_scripts(def, &dir);
        let mut sim = Self::build(def, scripts, seed, Timeline::default())?;
        sim.from_map = true;
        Ok(sim)
    }

    /// A run of loaded `content` (a content file or a pack, with the
    /// scripts it bundles) with `seed`.
    pub fn from_content(content: &Content, seed: u64) -> Result<Self, String> {
        Self::build(
            &content.to_def(),
            content.scripts(),
            seed,
            Timeline::default(),
        )
    }

    /// A run replaying `recording` (scripts from its recorded text, or the
    /// files under `dir` for a first-format recording): its hashes are
    /// checked as ticks are simulated again ([`Timeline::mismatch`]). A
    /// recording with events (`kiai run --events --record`) is refused:
    /// the editor's run does not apply events.
    pub fn from_recording(recording: &Recording, dir: &Path) -> Result<Self, String> {
        if !recording.events.is_empty() {
            return Err(format!(
                "this recording changes the world while it runs ({} events); the editor cannot \
                 replay events: `kiai fork RECORDING --at TICK` replays it",
                recording.events.len()
            ));
        }
        // States are recomputed when the ticks are replayed.
        Self::build(
            &recording.content,
            recording.script_refs(dir),
            recording.seed,
            Timeline::replaying(recording.hashes.clone()),
        )
    }

    /// A run of `def` with `scripts` and `seed` at tick 0, recording
    /// into `timeline`; the scripts that did not load are told in the
    /// console.
    fn build(
        def: &ContentDef,
        scripts: Vec<ScriptRef>,
        seed: u64,
        timeline: Timeline,
    ) -> Result<Self, String> {
        let (run, errors) = Run::build(def, scripts, seed)?;
        let mut sim = Self {
            run,
            timeline,
            console: Console::default(),
            playing: false,
            speed: 1.0,
            owed: 0.0,
            hit: None,
            timings: Default::default(),
            from_map: false,
            watched: (0, Default::default()),
            decisions_before: Vec::new(),
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        };
        for e in &errors {
            sim.console.error(e, 0);
        }
        sim.timeline
            .snapshot(sim.run.world(), sim.run.has_scripts());
        Ok(sim)
    }

    /// A number no other run of this process has (a reset makes a new
    /// one), for caches of what was computed from a run.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Whether the run was built from the map (`false` for a recording
    /// opened or a what-if's fork): only such a run follows its edits.
    pub fn from_map(&self) -> bool {
        self.from_map
    }

    /// Whether the run is not of `def` as it is now, or a script file
    /// changed since the run was built: Play at tick 0 builds it again.
    pub fn is_stale(&self, def: &ContentDef) -> bool {
        self.run.def() != def || self.run.scripts_changed()
    }

    /// The world, its deciders and the content it follows.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// What the ticks reached so far left behind.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// The world as of the current tick (the run's).
    pub fn world(&self) -> &World {
        self.run.world()
    }

    /// Ticks simulated so far (the world's tick).
    pub fn tick(&self) -> u64 {
        self.run.tick()
    }

    /// Runs one tick: reloads changed scripts first (and makes the change
    /// of [`Sim::change_at`] when its tick is reached), then sense →
    /// decide → navigate → steer → integrate → fog, and records the
    /// result.
    pub fn step(&mut self) {
        self.reload_changed();
        if let Some(e) = self.run.make_due_change() {
            self.console.info(e, self.run.tick());
        }
        self.decisions_before.clear();
        self.decisions_before
            .extend_from_slice(self.run.world().agents().decisions());
        self.run.run_tick();
        let tick = self.run.tick();
        self.console.collect(self.run.take_script_output(), tick);
        self.timings.push_back((tick, self.run.stage_ms()));
        while self.timings.len() > TIMING_WINDOW {
            self.timings.pop_front();
        }
        let world = self.run.world();
        self.timeline.snapshot(world, self.run.has_scripts());
        let run = &self.run;
        self.timeline
            .record(tick, state_hash(world), world.agents().len(), |i| {
                run.state_name(i)
            });
    }

    /// What the last tick did, for breakpoints.
    pub fn check(&self, breakpoints: &Breakpoints) -> Option<Hit> {
        self.with_report(|report| breakpoints.check(report))
    }

    /// The first memory key watched by a breakpoint whose value the last
    /// tick changed (the values are remembered each tick played; after a
    /// step, a seek or a reset the first tick only remembers them).
    fn check_memory(&mut self, breakpoints: &Breakpoints) -> Option<Hit> {
        if !breakpoints
            .0
            .iter()
            .any(|b| b.enabled && b.memory.is_some())
        {
            return None;
        }
        let tick = self.run.tick();
        let fresh = self.watched.0 + 1 != tick;
        let mut now = std::collections::BTreeMap::new();
        let mut hit = None;
        for (k, b) in breakpoints.0.iter().enumerate() {
            let Some(key) = b.memory.as_deref().filter(|_| b.enabled) else {
                continue;
            };
            let code =
                super::memory::dump(&format!("agent.memory[{}]", super::memory::lua_string(key)));
            for slot in 0..self.run.world().agents().len() {
                let world = self.run.world();
                if !world.agents().alive()[slot]
                    || !breakpoints::watches(b, world, slot)
                    || self.run.script_id(slot).is_none()
                {
                    continue;
                }
                let value = self.run.eval(slot, &code).unwrap_or_else(|e| e);
                if let Some(old) = self.watched.1.get(&(k, slot))
                    && !fresh
                    && hit.is_none()
                    && *old != value
                {
                    hit = Some(Hit {
                        tick,
                        agent: slot,
                        name: breakpoints::name_of(self.run.world(), slot),
                        cause: format!(
                            "memory `{key}` changed: {} -> {}",
                            super::memory::summary(old),
                            super::memory::summary(&value)
                        ),
                        breakpoint: Some(k),
                    });
                }
                now.insert((k, slot), value);
            }
        }
        self.watched = (tick, now);
        hit
    }

    /// What the agent in `slot` remembers now: `root` (a Lua expression,
    /// `agent.memory`) as [`memory::dump`](super::memory::dump) writes it,
    /// read in its script's sandbox without changing the run.
    pub fn memory_text(&mut self, slot: usize, root: &str) -> Result<String, String> {
        self.run.eval(slot, &super::memory::dump(root))
    }

    /// The first thing the last tick did to the agent in `slot`, in words.
    pub fn event_of(&self, slot: usize) -> Option<String> {
        self.with_report(|report| breakpoints::event_of(report, slot))
    }

    /// `f` of what the last tick did.
    fn with_report<T>(&self, f: impl FnOnce(&TickReport<'_>) -> T) -> T {
        let script_of = |slot: usize| self.run.script_id(slot);
        let state_of = |slot: usize, tick: u64| self.timeline.state_name_at(slot, tick);
        let decision_before = |slot: usize| self.decisions_before.get(slot).copied();
        f(&TickReport {
            world: self.run.world(),
            failures: self.console.tick_failures(),
            script_of: &script_of,
            state_of: &state_of,
            decision_before: &decision_before,
        })
    }

    /// Steps until the agent in `slot` has an event (a decision change, a
    /// percept gained or lost, a sound, a message, a script failure), at
    /// most `max_ticks` ticks or `budget` of wall time. Returns why it
    /// stopped, or how far it went.
    pub fn step_to_event(
        &mut self,
        slot: usize,
        max_ticks: u64,
        budget: Duration,
    ) -> Result<Hit, String> {
        self.playing = false;
        let start = Instant::now();
        for _ in 0..max_ticks {
            self.step();
            if let Some(cause) = self.event_of(slot) {
                let world = self.run.world();
                let hit = Hit {
                    tick: world.tick(),
                    agent: slot,
                    name: world
                        .agents()
                        .names()
                        .get(slot)
                        .cloned()
                        .unwrap_or_default(),
                    cause,
                    breakpoint: None,
                };
                self.hit = Some(hit.clone());
                return Ok(hit);
            }
            if start.elapsed() >= budget {
                break;
            }
        }
        Err(format!(
            "nothing happened to it up to tick {}",
            self.run.tick()
        ))
    }

    /// Evaluates `code` in the sandbox of the script deciding `agent`, with
    /// `agent` bound to it (see [`kiai::lua::LuaDecider::eval`]); the
    /// result or the error goes to the console as well.
    pub fn eval(&mut self, agent: usize, code: &str) -> Result<String, String> {
        let result = self.run.eval(agent, code);
        self.console.evaluated(code, &result, self.run.world());
        result
    }

    /// Reloads the scripts whose files changed in content since the last
    /// tick (see [`kiai::lua::ScriptWatcher::poll`]): one console line per
    /// effective change, `reloaded` or the load error.
    pub fn reload_changed(&mut self) {
        let tick = self.run.tick();
        for r in self.run.reload_changed() {
            match &r.result {
                Ok(()) => self.console.info(
                    format!("reloaded {} at tick {tick}", r.path.display()),
                    tick,
                ),
                Err(e) => self.console.error(e, tick),
            }
        }
    }

    /// Reloads one script file now, changed or not.
    pub fn reload(&mut self, path: &Path) {
        let tick = self.run.tick();
        match self.run.reload(path) {
            Ok(true) => self
                .console
                .info(format!("reloaded {} at tick {tick}", path.display()), tick),
            Ok(false) => {}
            Err(e) => self.console.error(&e, tick),
        }
    }

    /// Reloads every script (the console's button).
    pub fn reload_all(&mut self) {
        for p in self.run.script_paths() {
            self.reload(&p);
        }
    }

    /// Advances by real time `dt` (seconds) at the play speed, running at
    /// most `budget` of wall-clock time; ticks that do not fit are dropped
    /// (the run slows down rather than the UI). A tick that hits one of
    /// `breakpoints` pauses the run there ([`Sim::hit`] says why). Returns
    /// ticks run.
    pub fn advance(&mut self, dt: f32, budget: Duration, breakpoints: &Breakpoints) -> u32 {
        if !self.playing {
            return 0;
        }
        self.hit = None;
        let tick_seconds = self.run.def().tick_seconds.max(1e-4) as f64;
        self.owed +=
            dt as f64 * self.speed.clamp(*SPEEDS.start(), *SPEEDS.end()) as f64 / tick_seconds;
        let start = Instant::now();
        let mut ran = 0;
        while self.owed >= 1.0 {
            self.owed -= 1.0;
            self.step();
            ran += 1;
            if let Some(hit) = self
                .check(breakpoints)
                .or_else(|| self.check_memory(breakpoints))
            {
                self.hit = Some(hit);
                self.playing = false;
                self.owed = 0.0;
                break;
            }
            if start.elapsed() >= budget {
                self.owed = self.owed.min(1.0);
                break;
            }
        }
        ran
    }

    /// Goes to tick `tick` exactly: forward by simulating; backward from
    /// the latest snapshot before it (a copy of the world then) or, for
    /// scripted runs, by rebuilding the run from the content and seed;
    /// then simulating to `tick`. The timeline and the console's lines
    /// stay: a replay checks the hashes recorded.
    pub fn seek(&mut self, tick: u64) -> Result<(), String> {
        if tick < self.run.tick() {
            match self.timeline.snapshot_before(tick) {
                Some(world) if !self.run.has_scripts() => self.run.restore(world),
                _ => {
                    self.run = self.run.restarted()?;
                    self.console.forget_failures();
                    self.owed = 0.0;
                    self.hit = None;
                    self.timings.clear();
                }
            }
        }
        while self.run.tick() < tick {
            self.step();
        }
        Ok(())
    }

    /// The recording of this run, with the text of its scripts (a script
    /// file that cannot be read any more is left out: the replay then
    /// reads the file, as for the first recording format).
    pub fn recording(&self) -> Recording {
        let (def, seed) = (self.run.def(), self.run.seed());
        let mut r = Recording::new(def.clone(), seed, Vec::new(), self.run.scripts())
            .unwrap_or_else(|_| Recording {
                format: kiai_content::recording::RECORDING_FORMAT,
                content: def.clone(),
                seed,
                events: Vec::new(),
                scripts: Vec::new(),
                hashes: Vec::new(),
            });
        r.hashes = self.timeline.hashes().to_vec();
        r
    }

    /// Makes this run another branch from tick `at` on: `change` is made
    /// to the world after `at` ticks (again whenever a replay passes
    /// there), turning it into a world of `changed`, and what the timeline
    /// recorded after `at` is dropped (it is the other branch's).
    pub fn change_at(&mut self, at: u64, changed: ContentDef, change: Change) {
        self.timeline.branch_at(at);
        self.run.change_at(at, changed, change);
    }
}

/// Writes `recording` to `path` atomically (RON).
pub fn save_recording(path: &Path, recording: &Recording) -> Result<(), String> {
    recording.save(path).map_err(|e| e.to_string())
}

/// Reads a recording written by [`save_recording`] or `kiai run --record`.
pub fn load_recording(path: &Path) -> Result<Recording, String> {
    Recording::load(path).map_err(|e| e.to_string())
}
