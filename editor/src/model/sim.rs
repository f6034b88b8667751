//! The simulation inside the editor: the runtime's own `Pipeline` over a
//! `World` built from the document, played time-boxed on the UI thread,
//! recorded, and replayed exactly by re-simulating from the seed.
//!
//! A run is fully determined by the content, the seed and the tick count
//! (the editor feeds no other input while playing; edits apply on reset),
//! so the recording is the content, the seed and the state hash after
//! every tick: seeking re-simulates (from the current tick when seeking
//! forward, from tick 0 when seeking back) and checks each hash on the way.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kiai::content::def::ContentDef;
use kiai::content::{Content, ScriptRef};
use kiai::lua::{Limits, LuaDecider, ScriptId, ScriptWatcher};
use kiai_core::{AgentId, DecisionTrace, DefaultDecider, Pipeline, Stage, World, state_hash};

use super::breakpoints::{self, Breakpoints, Hit, ScriptFailure, TickReport};

/// Wall-clock time the simulation may use per frame while playing.
pub const FRAME_BUDGET: Duration = Duration::from_millis(8);

/// Slowest and fastest play speeds (× real time).
pub const SPEEDS: std::ops::RangeInclusive<f32> = 0.1..=8.0;

/// A snapshot of the world is kept every this many ticks (runs without
/// scripts: a Lua state cannot be copied, so scripted runs replay from tick
/// 0).
pub const SNAPSHOT_EVERY: u64 = 25;

/// Most snapshots kept; beyond it every other one is dropped and the
/// spacing doubles.
pub const MAX_SNAPSHOTS: usize = 64;

/// Ticks of per-stage timings kept for the plot.
pub const TIMING_WINDOW: usize = 600;

/// What a console line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A script error (the agent fell back to the Rust decider).
    Error,
    /// A script's `print`.
    Log,
    /// The editor's own messages (reloads, seeks).
    Info,
}

/// One line of the Lua console.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsoleLine {
    /// The tick it happened at.
    pub tick: u64,
    /// What it is.
    pub kind: LineKind,
    /// The text (for errors: `file:line: message`).
    pub text: String,
    /// The traceback of an error, if any.
    pub traceback: String,
    /// The script file and line it points at, when known.
    pub at: Option<(PathBuf, Option<u32>)>,
}

/// Milliseconds per stage of one tick, in the order of [`Stage::ALL`]
/// (the order a tick runs them).
pub type StageMs = [f32; 8];

/// A change to the world made after a given number of ticks (a what-if's
/// fork); an error is reported in the console.
pub type Change = Box<dyn FnMut(&mut World) -> Result<(), String>>;

/// A recorded run: enough to replay it exactly. The format is shared with
/// `kiai run --record` and `kiai fork` (`kiai_content::recording`).
pub use kiai_content::recording::Recording;

/// A live simulation of the document.
pub struct Sim {
    def: ContentDef,
    /// The archetypes' scripts (files, or text bundled in a pack).
    scripts: Vec<ScriptRef>,
    seed: u64,
    world: World,
    pipeline: Pipeline,
    default: DefaultDecider,
    lua: Option<LuaDecider>,
    watcher: Option<ScriptWatcher>,
    /// Playing (ticks advance with real time) or paused.
    pub playing: bool,
    /// Play speed, × real time, within [`SPEEDS`].
    pub speed: f32,
    owed: f64,
    /// State hash after each tick ever reached in this run.
    pub hashes: Vec<u64>,
    /// The state of every agent after each tick reached, as an index
    /// into [`Sim::state_names`]: `states[t][agent]`.
    pub states: Vec<Vec<u8>>,
    /// Names of the states agents were in so far: the runtime's three
    /// (`random walk`, `chase`, `evade`), then the labels scripts gave, in
    /// the order they first appeared.
    state_names: Vec<String>,
    /// Failures counted so far per script (by `ScriptId` number).
    failures: std::collections::BTreeMap<u32, u64>,
    /// The last error each script reported.
    last_error: std::collections::BTreeMap<u32, String>,
    /// Scripts that failed during the last tick.
    pub tick_failures: Vec<ScriptFailure>,
    /// Why the run stopped by itself last (a breakpoint or "step to the
    /// next event"); cleared when it plays or steps again.
    pub hit: Option<Hit>,
    /// Per-stage timings of the last [`TIMING_WINDOW`] ticks simulated.
    pub timings: std::collections::VecDeque<(u64, StageMs)>,
    /// The Lua console.
    pub console: Vec<ConsoleLine>,
    /// A replay found a hash different from the recording (tick).
    pub mismatch: Option<u64>,
    snapshots: std::collections::BTreeMap<u64, World>,
    snapshot_every: u64,
    /// Made to the world whenever the run passes the tick, and the
    /// content the world follows from then on (see [`Sim::change_at`]).
    change: Option<(u64, Change, ContentDef)>,
}

fn stage_ms(p: &Pipeline) -> StageMs {
    Stage::ALL.map(|s| p.timings().get(s).as_secs_f32() * 1e3)
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
        Self::build(def, kiai::lua::document_scripts(def, &dir), seed)
    }

    /// A run of loaded `content` (a content file or a pack, with the
    /// scripts it bundles) with `seed`.
    pub fn from_content(content: &Content, seed: u64) -> Result<Self, String> {
        Self::build(&content.to_def(), content.scripts(), seed)
    }

    fn build(def: &ContentDef, scripts: Vec<ScriptRef>, seed: u64) -> Result<Self, String> {
        let world = kiai_content::build_world(def, Some(seed)).map_err(|e| e.to_string())?;
        let mut sim = Self {
            def: def.clone(),
            scripts,
            seed,
            world,
            pipeline: Pipeline::new(),
            default: DefaultDecider::with_traces(),
            lua: None,
            watcher: None,
            playing: false,
            speed: 1.0,
            owed: 0.0,
            hashes: Vec::new(),
            states: Vec::new(),
            state_names: kiai_core::BehaviourState::ALL
                .iter()
                .map(|s| breakpoints::state_words(*s))
                .collect(),
            failures: Default::default(),
            last_error: Default::default(),
            tick_failures: Vec::new(),
            hit: None,
            timings: Default::default(),
            console: Vec::new(),
            mismatch: None,
            snapshots: Default::default(),
            snapshot_every: SNAPSHOT_EVERY,
            change: None,
        };
        sim.load_scripts();
        sim.snapshot();
        Ok(sim)
    }

    fn load_scripts(&mut self) {
        let (lua, errors) = kiai::lua::decider_for_scripts(&self.scripts, Limits::default());
        for e in &errors {
            self.report(e, 0);
        }
        self.watcher = lua
            .as_ref()
            .and_then(|l| ScriptWatcher::new(l.script_paths()).ok());
        self.lua = lua;
    }

    fn report(&mut self, e: &kiai::lua::ScriptError, tick: u64) {
        let file = super::files::tidy(Path::new(&e.file));
        let at = Some((file.clone(), e.line));
        let text = match e.line {
            Some(line) => format!("{}:{line}: {}", file.display(), e.message),
            None => format!("{}: {}", file.display(), e.message),
        };
        self.console.push(ConsoleLine {
            tick,
            kind: LineKind::Error,
            text,
            traceback: e.traceback.clone(),
            at,
        });
    }

    fn info(&mut self, text: String) {
        let tick = self.world.tick();
        self.console.push(ConsoleLine {
            tick,
            kind: LineKind::Info,
            text,
            traceback: String::new(),
            at: None,
        });
    }

    /// The world as of the current tick.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The content the run was built from.
    pub fn def(&self) -> &ContentDef {
        &self.def
    }

    /// The seed of the run.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Ticks simulated so far (the world's tick).
    pub fn tick(&self) -> u64 {
        self.world.tick()
    }

    /// Whether archetypes are decided by Lua scripts.
    pub fn has_scripts(&self) -> bool {
        self.lua.is_some()
    }

    /// Why agent `agent` decided what it did in the last tick (the Rust
    /// decider's trace; `None` before the first tick or when a script
    /// decided it).
    pub fn trace(&self, agent: usize) -> Option<&DecisionTrace> {
        if self.lua.as_ref().is_some_and(|l| {
            let archetype = self.world.agents().archetypes()[agent];
            l.script_of(archetype).is_some()
        }) {
            return None;
        }
        self.default.traces().get(agent)
    }

    /// The label a script gave agent `agent`'s state, if any.
    pub fn script_label(&self, agent: usize) -> Option<&str> {
        self.lua.as_ref()?.label(AgentId::from_index(agent))
    }

    /// The script deciding agent `agent`'s archetype, if any.
    pub fn script_of(&self, agent: usize) -> Option<PathBuf> {
        let lua = self.lua.as_ref()?;
        let archetype = *self.world.agents().archetypes().get(agent)?;
        lua.script_of(archetype)
            .and_then(|id| lua.script_path(id).map(Path::to_path_buf))
    }

    /// Runs one tick: reloads changed scripts first (and makes the change
    /// of [`Sim::change_at`] when its tick is reached), then sense →
    /// decide → navigate → steer → integrate → fog, and records the
    /// result.
    pub fn step(&mut self) {
        self.reload_changed();
        let failed = match &mut self.change {
            Some((at, change, _)) if self.world.tick() == *at => change(&mut self.world)
                .err()
                .map(|e| format!("the change at tick {at} failed: {e}")),
            _ => None,
        };
        if let Some(e) = failed {
            self.info(e);
        }
        match &mut self.lua {
            Some(lua) => self.pipeline.tick(&mut self.world, lua),
            None => self.pipeline.tick(&mut self.world, &mut self.default),
        }
        let tick = self.world.tick();
        self.collect_script_output(tick);
        self.timings.push_back((tick, stage_ms(&self.pipeline)));
        while self.timings.len() > TIMING_WINDOW {
            self.timings.pop_front();
        }
        self.snapshot();
        let hash = state_hash(&self.world);
        let index = (tick - 1) as usize;
        if index < self.hashes.len() {
            if self.hashes[index] != hash && self.mismatch.is_none() {
                self.mismatch = Some(tick);
            }
        } else {
            self.hashes.push(hash);
        }
        if index >= self.states.len() {
            let row = (0..self.world.agents().len())
                .map(|i| self.state_code(i))
                .collect();
            self.states.push(row);
        }
    }

    /// The state of agent `slot` now as an index into the state names,
    /// interning a script's label the first time it appears.
    fn state_code(&mut self, slot: usize) -> u8 {
        let label = self
            .lua
            .as_ref()
            .and_then(|l| l.label(AgentId::from_index(slot)))
            .map(str::to_owned);
        let name = match label {
            Some(l) => l.replace('_', " "),
            None => {
                let d = self.world.agents().decisions()[slot];
                breakpoints::state_words(d.state)
            }
        };
        let k = match self.state_names.iter().position(|n| *n == name) {
            Some(k) => k,
            None if self.state_names.len() < usize::from(u8::MAX) => {
                self.state_names.push(name);
                self.state_names.len() - 1
            }
            None => 0,
        };
        k as u8
    }

    /// Takes the scripts' reports and prints of the last tick into the
    /// console and finds the scripts whose failure count grew.
    fn collect_script_output(&mut self, tick: u64) {
        self.tick_failures.clear();
        let Some(lua) = &mut self.lua else { return };
        let reports = lua.take_reports();
        let log = lua.take_log();
        let scripts: std::collections::BTreeSet<u32> = (0..self.world.archetypes().len())
            .filter_map(|a| lua.script_of(kiai_core::ArchetypeId::from_index(a)))
            .map(|id| id.0)
            .collect();
        let counts: Vec<(u32, u64)> = scripts
            .into_iter()
            .map(|k| (k, lua.failures(ScriptId(k))))
            .collect();
        for r in &reports {
            self.last_error.insert(r.script.0, r.error.to_string());
        }
        for (k, n) in counts {
            let before = self.failures.insert(k, n).unwrap_or(0);
            if n > before {
                let error = self
                    .last_error
                    .get(&k)
                    .cloned()
                    .unwrap_or_else(|| "failed".to_owned());
                self.tick_failures.push(ScriptFailure { script: k, error });
            }
        }
        // Numbered like the transport bar and the prints: the ticks run
        // (the script saw `ctx.tick` one less during this tick).
        for r in reports {
            self.report(&r.error, tick);
        }
        for text in log {
            self.console.push(ConsoleLine {
                tick,
                kind: LineKind::Log,
                text,
                traceback: String::new(),
                at: None,
            });
        }
    }

    /// The script deciding the agent in `slot`, by `ScriptId` number.
    pub fn script_id(&self, slot: usize) -> Option<u32> {
        let lua = self.lua.as_ref()?;
        let archetype = *self.world.agents().archetypes().get(slot)?;
        lua.script_of(archetype).map(|id| id.0)
    }

    /// What the last tick did, for breakpoints.
    pub fn check(&self, breakpoints: &Breakpoints) -> Option<Hit> {
        let script_of = |slot: usize| self.script_id(slot);
        let state_of = |slot: usize, tick: u64| self.state_name_at(slot, tick);
        breakpoints.check(&TickReport {
            world: &self.world,
            failures: &self.tick_failures,
            script_of: &script_of,
            state_of: &state_of,
        })
    }

    /// The first thing the last tick did to the agent in `slot`, in words.
    pub fn event_of(&self, slot: usize) -> Option<String> {
        let script_of = |s: usize| self.script_id(s);
        let state_of = |slot: usize, tick: u64| self.state_name_at(slot, tick);
        breakpoints::event_of(
            &TickReport {
                world: &self.world,
                failures: &self.tick_failures,
                script_of: &script_of,
                state_of: &state_of,
            },
            slot,
        )
    }

    /// Names of the states agents were in so far (see
    /// [`Sim::states`]).
    pub fn state_names(&self) -> &[String] {
        &self.state_names
    }

    /// The state of the agent in `slot` now: its script's label, else the
    /// runtime's state, in words (`investigate`, `random walk`).
    pub fn state_name(&self, slot: usize) -> String {
        match self.script_label(slot) {
            Some(l) => l.replace('_', " "),
            None => self
                .world
                .agents()
                .decisions()
                .get(slot)
                .map_or_else(String::new, |d| breakpoints::state_words(d.state)),
        }
    }

    /// The index of state `name` in [`Sim::state_names`], if it appeared.
    pub fn state_index(&self, name: &str) -> Option<usize> {
        self.state_names.iter().position(|n| n == name)
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
                let hit = Hit {
                    tick: self.world.tick(),
                    agent: slot,
                    name: self
                        .world
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
            self.world.tick()
        ))
    }

    /// Evaluates `code` in the sandbox of the script deciding `agent`, with
    /// `agent` bound to it (see [`LuaDecider::eval`]); the result or the
    /// error goes to the console as well.
    pub fn eval(&mut self, agent: usize, code: &str) -> Result<String, String> {
        let tick = self.world.tick();
        let result = match &mut self.lua {
            Some(lua) => lua
                .eval(&self.world, AgentId::from_index(agent), code)
                .map_err(|e| e.to_string()),
            None => Err("no archetype has a script".to_owned()),
        };
        let (kind, text) = match &result {
            Ok(v) => (
                LineKind::Log,
                format!("> {code}\n{v}{}", handle_names(&self.world, code, v)),
            ),
            Err(e) => (LineKind::Error, format!("> {code}\n{e}")),
        };
        self.console.push(ConsoleLine {
            tick,
            kind,
            text,
            traceback: String::new(),
            at: None,
        });
        result
    }

    fn snapshot(&mut self) {
        let tick = self.world.tick();
        if self.lua.is_some()
            || !tick.is_multiple_of(self.snapshot_every)
            || self.snapshots.contains_key(&tick)
        {
            return;
        }
        self.snapshots.insert(tick, self.world.clone());
        if self.snapshots.len() > MAX_SNAPSHOTS {
            self.snapshot_every *= 2;
            let every = self.snapshot_every;
            self.snapshots.retain(|t, _| t.is_multiple_of(every));
        }
    }

    /// Snapshots held (ticks), for tools and tests.
    pub fn snapshot_ticks(&self) -> Vec<u64> {
        self.snapshots.keys().copied().collect()
    }

    /// Reloads the scripts whose files changed in content since the last
    /// tick (see [`ScriptWatcher::poll`]): one console line per effective
    /// change, `reloaded` or the load error.
    pub fn reload_changed(&mut self) {
        let tick = self.world.tick();
        let (Some(watcher), Some(lua)) = (&mut self.watcher, &mut self.lua) else {
            return;
        };
        for r in watcher.poll(lua, tick) {
            match &r.result {
                Ok(()) => self.info(format!("reloaded {} at tick {tick}", r.path.display())),
                Err(e) => self.report(e, tick),
            }
        }
    }

    /// Reloads one script file now, changed or not.
    pub fn reload(&mut self, path: &Path) {
        let tick = self.world.tick();
        let Some(lua) = &mut self.lua else { return };
        match lua.reload_file(path) {
            Ok(true) => self.info(format!("reloaded {} at tick {tick}", path.display())),
            Ok(false) => {}
            Err(e) => self.report(&e, tick),
        }
    }

    /// Reloads every script (the console's button).
    pub fn reload_all(&mut self) {
        let paths: Vec<PathBuf> = match &self.lua {
            Some(l) => l.script_paths().map(Path::to_path_buf).collect(),
            None => return,
        };
        for p in paths {
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
        let tick_seconds = self.def.tick_seconds.max(1e-4) as f64;
        self.owed +=
            dt as f64 * self.speed.clamp(*SPEEDS.start(), *SPEEDS.end()) as f64 / tick_seconds;
        let start = Instant::now();
        let mut ran = 0;
        while self.owed >= 1.0 {
            self.owed -= 1.0;
            self.step();
            ran += 1;
            if let Some(hit) = self.check(breakpoints) {
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
    /// the latest snapshot before it (a copy of the world then; the
    /// pipeline holds only scratch memory and the Rust decider's state is
    /// recomputed every tick) or, for scripted runs, by rebuilding from the
    /// content and seed; then simulating to `tick`.
    pub fn seek(&mut self, tick: u64) -> Result<(), String> {
        if tick < self.world.tick() {
            let snapshot = self
                .snapshots
                .range(..tick.max(1))
                .next_back()
                .map(|(_, w)| w.clone());
            match snapshot {
                Some(world) if self.lua.is_none() => {
                    self.world = world;
                    self.pipeline = Pipeline::new();
                    self.default = DefaultDecider::with_traces();
                }
                _ => {
                    let console = std::mem::take(&mut self.console);
                    let hashes = std::mem::take(&mut self.hashes);
                    let states = std::mem::take(&mut self.states);
                    let names = std::mem::take(&mut self.state_names);
                    let snapshots = std::mem::take(&mut self.snapshots);
                    let (playing, speed, mismatch, every) =
                        (self.playing, self.speed, self.mismatch, self.snapshot_every);
                    let change = self.change.take();
                    *self = Sim::build(&self.def.clone(), self.scripts.clone(), self.seed)?;
                    self.console = console;
                    self.hashes = hashes;
                    self.states = states;
                    self.state_names = names;
                    self.snapshots = snapshots;
                    self.snapshot_every = every;
                    self.playing = playing;
                    self.speed = speed;
                    self.mismatch = mismatch;
                    self.change = change;
                }
            }
        }
        while self.world.tick() < tick {
            self.step();
        }
        Ok(())
    }

    /// The recording of this run, with the text of its scripts (a script
    /// file that cannot be read any more is left out: the replay then
    /// reads the file, as for the first recording format).
    pub fn recording(&self) -> Recording {
        let mut r = Recording::new(self.def.clone(), self.seed, Vec::new(), &self.scripts)
            .unwrap_or_else(|_| Recording {
                format: kiai_content::recording::RECORDING_FORMAT,
                content: self.def.clone(),
                seed: self.seed,
                events: Vec::new(),
                scripts: Vec::new(),
                hashes: Vec::new(),
            });
        r.hashes = self.hashes.clone();
        r
    }

    /// A run replaying `recording` (scripts from its recorded text, or the
    /// files under `dir` for a first-format recording): its hashes are
    /// checked as ticks are simulated again ([`Sim::mismatch`]). A
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
        let mut sim = Self::build(
            &recording.content,
            recording.script_refs(dir),
            recording.seed,
        )?;
        sim.hashes = recording.hashes.clone();
        // States are recomputed when the ticks are replayed.
        sim.states = Vec::new();
        Ok(sim)
    }

    /// Makes this run another branch from tick `at` on: `change` is made
    /// to the world after `at` ticks (again whenever a replay passes
    /// there), turning it into a world of `changed`, and the hashes
    /// recorded after `at` are dropped (they are the other branch's).
    pub fn change_at(&mut self, at: u64, changed: ContentDef, change: Change) {
        self.hashes.truncate(at as usize);
        self.states.truncate(at as usize);
        self.mismatch = self.mismatch.filter(|t| *t <= at);
        self.change = Some((at, change, changed));
    }

    /// The tick of the change made by [`Sim::change_at`], if any.
    pub fn changed_at(&self) -> Option<u64> {
        self.change.as_ref().map(|(at, ..)| *at)
    }

    /// The content the world follows now: the run's, or the changed
    /// content once the change of [`Sim::change_at`] was made.
    pub fn def_now(&self) -> &ContentDef {
        match &self.change {
            Some((at, _, changed)) if self.world.tick() > *at => changed,
            _ => &self.def,
        }
    }

    /// Ticks recorded (the timeline's length).
    pub fn recorded(&self) -> u64 {
        self.hashes.len() as u64
    }

    /// The name of the state of the agent in `slot` after tick `tick`
    /// (script names included), if recorded.
    pub fn state_name_at(&self, slot: usize, tick: u64) -> Option<String> {
        let k = self.state_at(tick, slot)?;
        self.state_names.get(k).cloned()
    }

    /// The state of `agent` after tick `tick` (1-based), as an index into
    /// [`Sim::state_names`], if reached.
    pub fn state_at(&self, tick: u64, agent: usize) -> Option<usize> {
        let code = *self.states.get(tick.checked_sub(1)? as usize)?.get(agent)?;
        Some(usize::from(code))
    }
}

/// For REPL results of code that asks for agents (`nearest`, `sensed`,
/// `target`, `find`, `.id`): the names of the live agents whose handles
/// appear in `result`, as `  (3 = guard_2)`; empty otherwise.
fn handle_names(world: &World, code: &str, result: &str) -> String {
    const ASKS: [&str; 5] = ["nearest", "sensed", "target", "find", ".id"];
    if !ASKS.iter().any(|a| code.contains(a)) {
        return String::new();
    }
    let mut named = Vec::new();
    for token in result.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')) {
        let Ok(handle) = token.parse::<u64>() else {
            continue;
        };
        let slot = (handle & 0xffff_ffff) as usize;
        let generation = (handle >> 32) as u32;
        let agents = world.agents();
        if slot < agents.len()
            && agents.alive()[slot]
            && agents.generation_of(slot) == generation
            && !named.iter().any(|(h, _)| *h == handle)
        {
            named.push((handle, agents.names()[slot].clone()));
        }
    }
    if named.is_empty() {
        return String::new();
    }
    let list: Vec<String> = named.iter().map(|(h, n)| format!("{h} = {n}")).collect();
    format!("  ({})", list.join(", "))
}

/// Writes `recording` to `path` atomically (RON).
pub fn save_recording(path: &Path, recording: &Recording) -> Result<(), String> {
    recording.save(path).map_err(|e| e.to_string())
}

/// Reads a recording written by [`save_recording`] or `kiai run --record`.
pub fn load_recording(path: &Path) -> Result<Recording, String> {
    Recording::load(path).map_err(|e| e.to_string())
}
