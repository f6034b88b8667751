//! The run: the world and what advances it. A `Run` is the runtime's own
//! `Pipeline` over a `World` built from some content and a seed, with the
//! Rust decider (traced) or kiai-lua's `LuaDecider` and a `ScriptWatcher`
//! over its script files, and, for a what-if's fork, the change made to
//! the world at a tick. It keeps no history: the timeline and the console
//! record what its ticks did (see the parent module).

use std::path::{Path, PathBuf};

use kiai::content::ScriptRef;
use kiai::content::def::ContentDef;
use kiai::lua::{Limits, LuaDecider, Reload, ScriptError, ScriptId, ScriptWatcher};
use kiai_core::{AgentId, ArchetypeId, DecisionTrace, DefaultDecider, Pipeline, Stage, World};

use super::StageMs;
use super::console::ScriptOutput;
use crate::model::breakpoints;

/// A change to the world made after a given number of ticks (a what-if's
/// fork); an error is reported in the console.
pub type Change = Box<dyn FnMut(&mut World) -> Result<(), String>>;

/// The world of some content and seed, and the deciders that tick it.
pub struct Run {
    def: ContentDef,
    /// The archetypes' scripts (files, or text bundled in a pack).
    scripts: Vec<ScriptRef>,
    seed: u64,
    world: World,
    pipeline: Pipeline,
    default: DefaultDecider,
    lua: Option<LuaDecider>,
    watcher: Option<ScriptWatcher>,
    /// Made to the world whenever the run passes the tick, and the
    /// content the world follows from then on (see
    /// [`Sim::change_at`](super::Sim::change_at)).
    change: Option<(u64, Change, ContentDef)>,
    /// The bytes of each script file when the run was built (`None`: it
    /// could not be read), to tell whether a file changed since.
    read: Vec<(PathBuf, Option<Vec<u8>>)>,
}

impl Run {
    /// The world of `def` with `seed` at tick 0, with `scripts` loaded;
    /// and the scripts that did not load (their archetypes decide with the
    /// Rust default until a reload succeeds).
    pub(super) fn build(
        def: &ContentDef,
        scripts: Vec<ScriptRef>,
        seed: u64,
    ) -> Result<(Self, Vec<ScriptError>), String> {
        let world = kiai_content::build_world(def, Some(seed)).map_err(|e| e.to_string())?;
        let read = scripts
            .iter()
            .filter(|s| s.bundled.is_none())
            .map(|s| (s.path.clone(), std::fs::read(&s.path).ok()))
            .collect();
        let (lua, errors) = kiai::lua::decider_for_scripts(&scripts, Limits::default());
        let watcher = lua
            .as_ref()
            .and_then(|l| ScriptWatcher::new(l.script_paths()).ok());
        let run = Self {
            def: def.clone(),
            scripts,
            seed,
            world,
            pipeline: Pipeline::new(),
            default: DefaultDecider::with_traces(),
            lua,
            watcher,
            change: None,
            read,
        };
        Ok((run, errors))
    }

    /// The same content, scripts, seed and change, back at tick 0 (the
    /// scripts read again; their load errors were reported the first
    /// time).
    pub(super) fn restarted(&mut self) -> Result<Self, String> {
        let (mut run, _) = Self::build(&self.def, self.scripts.clone(), self.seed)?;
        run.change = self.change.take();
        Ok(run)
    }

    /// Goes back to `world`, a copy of this run's world at an earlier tick
    /// (the pipeline holds only scratch memory and the Rust decider's
    /// state is recomputed every tick).
    pub(super) fn restore(&mut self, world: World) {
        self.world = world;
        self.pipeline = Pipeline::new();
        self.default = DefaultDecider::with_traces();
    }

    /// The world as of the current tick.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The content the run was built from.
    pub fn def(&self) -> &ContentDef {
        &self.def
    }

    /// The archetypes' scripts the run was built with.
    pub fn scripts(&self) -> &[ScriptRef] {
        &self.scripts
    }

    /// Whether a script file (not one bundled in a pack) reads otherwise
    /// now than when the run was built.
    pub fn scripts_changed(&self) -> bool {
        self.read
            .iter()
            .any(|(path, bytes)| std::fs::read(path).ok() != *bytes)
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

    /// Makes the change of [`Sim::change_at`](super::Sim::change_at) when its
    /// tick is reached; returns why it failed, if it did.
    pub(super) fn make_due_change(&mut self) -> Option<String> {
        match &mut self.change {
            Some((at, change, _)) if self.world.tick() == *at => change(&mut self.world)
                .err()
                .map(|e| format!("the change at tick {at} failed: {e}")),
            _ => None,
        }
    }

    /// Runs one tick: sense → decide → navigate → steer → integrate → fog.
    pub(super) fn run_tick(&mut self) {
        match &mut self.lua {
            Some(lua) => self.pipeline.tick(&mut self.world, lua),
            None => self.pipeline.tick(&mut self.world, &mut self.default),
        }
    }

    /// Milliseconds per stage of the last tick, then its upkeep.
    pub fn stage_ms(&self) -> StageMs {
        let t = self.pipeline.timings();
        let mut ms = [t.upkeep.as_secs_f32() * 1e3; super::TIMED];
        for (v, s) in ms.iter_mut().zip(Stage::ALL) {
            *v = t.get(s).as_secs_f32() * 1e3;
        }
        ms
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

    /// The script deciding the agent in `slot`, by `ScriptId` number.
    pub fn script_id(&self, slot: usize) -> Option<u32> {
        let lua = self.lua.as_ref()?;
        let archetype = *self.world.agents().archetypes().get(slot)?;
        lua.script_of(archetype).map(|id| id.0)
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

    /// What the scripts reported and printed since the last call, and how
    /// often each script deciding an archetype failed so far; `None`
    /// without scripts.
    pub(super) fn take_script_output(&mut self) -> Option<ScriptOutput> {
        let lua = self.lua.as_mut()?;
        let reports = lua.take_reports();
        let log = lua.take_log();
        let scripts: std::collections::BTreeSet<u32> = (0..self.world.archetypes().len())
            .filter_map(|a| lua.script_of(ArchetypeId::from_index(a)))
            .map(|id| id.0)
            .collect();
        let failures = scripts
            .into_iter()
            .map(|k| (k, lua.failures(ScriptId(k))))
            .collect();
        Some(ScriptOutput {
            reports,
            log,
            failures,
        })
    }

    /// Evaluates `code` in the sandbox of the script deciding `agent`, with
    /// `agent` bound to it (see [`LuaDecider::eval`]).
    pub(super) fn eval(&mut self, agent: usize, code: &str) -> Result<String, String> {
        match &mut self.lua {
            Some(lua) => lua
                .eval(&self.world, AgentId::from_index(agent), code)
                .map_err(|e| e.to_string()),
            None => Err("no archetype has a script".to_owned()),
        }
    }

    /// Reloads the scripts whose files changed in content since the last
    /// poll (see [`ScriptWatcher::poll`]).
    pub(super) fn reload_changed(&mut self) -> Vec<Reload> {
        let tick = self.world.tick();
        match (&mut self.watcher, &mut self.lua) {
            (Some(watcher), Some(lua)) => watcher.poll(lua, tick),
            _ => Vec::new(),
        }
    }

    /// Reloads one script file now, changed or not: whether it changed, or
    /// its load error (see [`LuaDecider::reload_file`]).
    pub(super) fn reload(&mut self, path: &Path) -> Result<bool, ScriptError> {
        match &mut self.lua {
            Some(lua) => lua.reload_file(path),
            None => Ok(false),
        }
    }

    /// The script files loaded.
    pub fn script_paths(&self) -> Vec<PathBuf> {
        match &self.lua {
            Some(l) => l.script_paths().map(Path::to_path_buf).collect(),
            None => Vec::new(),
        }
    }

    /// Makes `change` to the world after `at` ticks (again whenever a
    /// replay passes there), turning it into a world of `changed`.
    pub(super) fn change_at(&mut self, at: u64, changed: ContentDef, change: Change) {
        self.change = Some((at, change, changed));
    }

    /// The tick of the change made by
    /// [`Sim::change_at`](super::Sim::change_at), if any.
    pub fn changed_at(&self) -> Option<u64> {
        self.change.as_ref().map(|(at, ..)| *at)
    }

    /// The content the world follows now: the run's, or the changed
    /// content once the change of [`Sim::change_at`](super::Sim::change_at)
    /// was made.
    pub fn def_now(&self) -> &ContentDef {
        match &self.change {
            Some((at, _, changed)) if self.world.tick() > *at => changed,
            _ => &self.def,
        }
    }
}
