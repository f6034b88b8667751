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
use kiai::lua::{Limits, LuaDecider, ScriptWatcher};
use kiai_core::{
    AgentId, BehaviourState, DecisionTrace, DefaultDecider, Pipeline, World, state_hash,
};

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

/// Milliseconds per stage of one tick: sense, decide, steer, integrate,
/// fog.
pub type StageMs = [f32; 5];

/// A recorded run: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Recording {
    /// Recording format version (1).
    pub format: u32,
    /// The content the run was built from.
    pub content: ContentDef,
    /// The seed of every random stream.
    pub seed: u64,
    /// State hash after each tick (`hashes[t]` after tick `t + 1`).
    pub hashes: Vec<u64>,
}

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
    /// Behaviour state code of every agent after each tick reached:
    /// `states[t][agent]`.
    pub states: Vec<Vec<u8>>,
    /// Per-stage timings of the last [`TIMING_WINDOW`] ticks simulated.
    pub timings: std::collections::VecDeque<(u64, StageMs)>,
    /// The Lua console.
    pub console: Vec<ConsoleLine>,
    /// A replay found a hash different from the recording (tick).
    pub mismatch: Option<u64>,
    snapshots: std::collections::BTreeMap<u64, World>,
    snapshot_every: u64,
}

fn stage_ms(p: &Pipeline) -> StageMs {
    let t = p.timings();
    let ms = |d: Duration| d.as_secs_f32() * 1e3;
    [
        ms(t.sense),
        ms(t.decide),
        ms(t.steer),
        ms(t.integrate),
        ms(t.fog),
    ]
}

impl Sim {
    /// A run of `def` with `seed`; scripts are files resolved against `dir`
    /// (the document's directory).
    pub fn new(def: &ContentDef, dir: &Path, seed: u64) -> Result<Self, String> {
        Self::build(def, kiai::lua::document_scripts(def, dir), seed)
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
            timings: Default::default(),
            console: Vec::new(),
            mismatch: None,
            snapshots: Default::default(),
            snapshot_every: SNAPSHOT_EVERY,
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
        let at = Some((PathBuf::from(&e.file), e.line));
        self.console.push(ConsoleLine {
            tick,
            kind: LineKind::Error,
            text: e.to_string(),
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

    /// Runs one tick: reloads changed scripts first, then sense → decide →
    /// navigate → steer → integrate → fog, and records the result.
    pub fn step(&mut self) {
        self.reload_changed();
        match &mut self.lua {
            Some(lua) => self.pipeline.tick(&mut self.world, lua),
            None => self.pipeline.tick(&mut self.world, &mut self.default),
        }
        let tick = self.world.tick();
        if let Some(lua) = &mut self.lua {
            let reports = lua.take_reports();
            let log = lua.take_log();
            for r in reports {
                self.report(&r.error, r.tick);
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
            self.states.push(
                self.world
                    .agents()
                    .decisions()
                    .iter()
                    .map(|d| d.state.code())
                    .collect(),
            );
        }
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
            Ok(v) => (LineKind::Log, format!("> {code}\n{v}")),
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
    /// (the run slows down rather than the UI). Returns ticks run.
    pub fn advance(&mut self, dt: f32, budget: Duration) -> u32 {
        if !self.playing {
            return 0;
        }
        let tick_seconds = self.def.tick_seconds.max(1e-4) as f64;
        self.owed +=
            dt as f64 * self.speed.clamp(*SPEEDS.start(), *SPEEDS.end()) as f64 / tick_seconds;
        let start = Instant::now();
        let mut ran = 0;
        while self.owed >= 1.0 {
            self.owed -= 1.0;
            self.step();
            ran += 1;
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
                    let snapshots = std::mem::take(&mut self.snapshots);
                    let (playing, speed, mismatch, every) =
                        (self.playing, self.speed, self.mismatch, self.snapshot_every);
                    *self = Sim::build(&self.def.clone(), self.scripts.clone(), self.seed)?;
                    self.console = console;
                    self.hashes = hashes;
                    self.states = states;
                    self.snapshots = snapshots;
                    self.snapshot_every = every;
                    self.playing = playing;
                    self.speed = speed;
                    self.mismatch = mismatch;
                }
            }
        }
        while self.world.tick() < tick {
            self.step();
        }
        Ok(())
    }

    /// The recording of this run.
    pub fn recording(&self) -> Recording {
        Recording {
            format: 1,
            content: self.def.clone(),
            seed: self.seed,
            hashes: self.hashes.clone(),
        }
    }

    /// A run replaying `recording`: its hashes are checked as ticks are
    /// simulated again ([`Sim::mismatch`]).
    pub fn from_recording(recording: &Recording, dir: &Path) -> Result<Self, String> {
        let mut sim = Sim::new(&recording.content, dir, recording.seed)?;
        sim.hashes = recording.hashes.clone();
        // States are recomputed when the ticks are replayed.
        sim.states = Vec::new();
        Ok(sim)
    }

    /// Ticks recorded (the timeline's length).
    pub fn recorded(&self) -> u64 {
        self.hashes.len() as u64
    }

    /// The behaviour state of `agent` after tick `tick` (1-based), if
    /// reached.
    pub fn state_at(&self, tick: u64, agent: usize) -> Option<BehaviourState> {
        let code = *self.states.get(tick.checked_sub(1)? as usize)?.get(agent)?;
        BehaviourState::ALL.into_iter().find(|s| s.code() == code)
    }
}

/// Writes `recording` to `path` atomically (RON).
pub fn save_recording(path: &Path, recording: &Recording) -> Result<(), String> {
    let text = ron::ser::to_string_pretty(recording, ron::ser::PrettyConfig::default())
        .map_err(|e| e.to_string())?;
    kiai_content::write_atomic(path, text.as_bytes(), true).map_err(|e| e.to_string())
}

/// Reads a recording written by [`save_recording`].
pub fn load_recording(path: &Path) -> Result<Recording, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let r: Recording = ron::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if r.format != 1 {
        return Err(format!(
            "{}: unsupported recording format {}",
            path.display(),
            r.format
        ));
    }
    Ok(r)
}

/// One line of `kiai run --trace`: why one agent decided what it did.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct TraceLine {
    /// The tick decided (0-based: the first tick is 0).
    pub tick: u64,
    /// Agent name.
    pub agent: String,
    /// Chosen state name.
    pub state: String,
    /// Target agent name.
    pub target: Option<String>,
    /// Who decided.
    pub decided_by: String,
}

/// Reads a `kiai run --trace` file: (tick, agent) → line.
pub fn load_trace(
    path: &Path,
) -> Result<std::collections::BTreeMap<(u64, String), TraceLine>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::collections::BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let t: TraceLine =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        out.insert((t.tick, t.agent.clone()), t);
    }
    Ok(out)
}
