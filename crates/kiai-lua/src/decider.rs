//! [`LuaDecider`]: kiai-core's [`Decider`] backed by Lua scripts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kiai_core::behaviour::{Decider, Decision, DefaultDecider, Mind};
use kiai_core::{AgentId, ArchetypeId, Deferred, World};

use crate::api::Action;
use crate::intent::Intent;
use crate::run::{Outcome, run_script};
use crate::script::{Limits, Script, ScriptError};
use crate::sensed_lists::SensedLists;
use crate::source::{self, Version};

/// Index of a script loaded into a [`LuaDecider`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScriptId(pub u32);

/// A script problem reported once (later identical failures are only
/// counted, see [`LuaDecider::failures`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptReport {
    /// Which script.
    pub script: ScriptId,
    /// The tick at which it first happened.
    pub tick: u64,
    /// What happened (`script:line: message` and a traceback).
    pub error: ScriptError,
}

struct Slot {
    /// The script's name in errors (its path as given, for a file).
    file: String,
    /// The file it was loaded from, if any.
    path: Option<PathBuf>,
    /// The version of the code last read or given (`None`: a file that
    /// has not been read).
    version: Option<Version>,
    script: Option<Script>,
    failures: u64,
    reported: BTreeSet<String>,
}

/// Decides with Lua scripts for the archetypes that have one and with
/// article 002's [`DefaultDecider`] for everything else.
///
/// Every agent first gets the default decision; then each script runs once
/// per tick over its agents in index order (events first, then one batched
/// `decide` call). A `decide` that returns `nil`, fails, exceeds a budget or
/// returns an invalid intent leaves the default decision in place; the
/// failure is reported once and counted. Sounds and messages scripts send
/// are applied after the decide stage, in agent order.
pub struct LuaDecider {
    default: DefaultDecider,
    limits: Limits,
    slots: Vec<Slot>,
    by_archetype: Vec<Option<u32>>,
    reports: Vec<ScriptReport>,
    actions: Vec<(u32, Action)>,
    labels: Vec<u16>,
    /// Per agent, whether its script's `decide` gave the decision this tick.
    scripted: Vec<bool>,
    label_names: Vec<String>,
    spawned: Vec<u64>,
    list: Vec<u32>,
    /// What the agents' senses list, located for the scripts' queries.
    sensed: SensedLists,
    /// A script's intents of one tick (empty between; its memory is kept,
    /// so a tick of 10k decisions allocates nothing).
    intents: Vec<(u32, Intent)>,
    log: Vec<String>,
    script_time: std::time::Duration,
}

impl std::fmt::Debug for LuaDecider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LuaDecider")
            .field("scripts", &self.slots.len())
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Default for LuaDecider {
    fn default() -> Self {
        Self::new(Limits::default())
    }
}

impl LuaDecider {
    /// A decider without scripts (it then decides exactly like the default).
    pub fn new(limits: Limits) -> Self {
        Self {
            default: DefaultDecider::default(),
            limits,
            slots: Vec::new(),
            by_archetype: Vec::new(),
            reports: Vec::new(),
            actions: Vec::new(),
            labels: Vec::new(),
            scripted: Vec::new(),
            label_names: vec![String::new()],
            spawned: Vec::new(),
            list: Vec::new(),
            sensed: SensedLists::default(),
            intents: Vec::new(),
            log: Vec::new(),
            script_time: std::time::Duration::ZERO,
        }
    }

    /// Loads `source`, named `file` in errors, into a new sandboxed state.
    pub fn add_script(&mut self, file: &str, source: &str) -> Result<ScriptId, ScriptError> {
        let script = Script::new(file, source, self.limits)?;
        Ok(self.push_slot(file, None, Version::of(source), Some(script)))
    }

    /// Loads `source`, named `file` in errors, into a new sandboxed state.
    /// Unlike [`LuaDecider::add_script`], the slot is made even when it does
    /// not compile, so that [`LuaDecider::reload`] can bring it in later;
    /// its agents use the default meanwhile.
    pub fn load_source(&mut self, file: &str, source: &str) -> (ScriptId, Result<(), ScriptError>) {
        let (script, result) = split(Script::new(file, source, self.limits));
        (
            self.push_slot(file, None, Version::of(source), script),
            result,
        )
    }

    /// Loads the script file at `path` (or returns the one already loaded
    /// from it). When it does not compile, the slot is still made, so that
    /// [`LuaDecider::reload_file`] can bring it in later; its agents use the
    /// default meanwhile.
    pub fn load_file(&mut self, path: &Path) -> (ScriptId, Result<(), ScriptError>) {
        if let Some(i) = self
            .slots
            .iter()
            .position(|s| s.path.as_deref() == Some(path))
        {
            return (ScriptId(i as u32), Ok(()));
        }
        let file = path.display().to_string();
        let (version, source) = source::read(path);
        let (script, result) =
            split(source.and_then(|source| Script::new(&file, &source, self.limits)));
        let id = self.push_slot(&file, Some(path.to_owned()), version, script);
        (id, result)
    }

    fn push_slot(
        &mut self,
        file: &str,
        path: Option<PathBuf>,
        version: Version,
        script: Option<Script>,
    ) -> ScriptId {
        self.slots.push(Slot {
            file: file.to_owned(),
            path,
            version: Some(version),
            script,
            failures: 0,
            reported: BTreeSet::new(),
        });
        ScriptId((self.slots.len() - 1) as u32)
    }

    /// Makes `script` decide for the agents of `archetype`.
    pub fn assign(&mut self, archetype: ArchetypeId, script: ScriptId) {
        let i = archetype.index();
        if self.by_archetype.len() <= i {
            self.by_archetype.resize(i + 1, None);
        }
        self.by_archetype[i] = Some(script.0);
    }

    /// Swaps in new code for `script` between ticks; its agents' memory is
    /// kept, and errors the new code makes are reported afresh. A syntax or
    /// load error keeps the last good version and is returned (not added to
    /// [`LuaDecider::take_reports`]: the caller knows the tick).
    pub fn reload(&mut self, script: ScriptId, source: &str) -> Result<(), ScriptError> {
        let limits = self.limits;
        let Some(slot) = self.slots.get_mut(script.0 as usize) else {
            return Err(ScriptError::plain("?", None, "no such script"));
        };
        slot.version = Some(Version::of(source));
        match &mut slot.script {
            Some(s) => s.reload(source)?,
            None => slot.script = Some(Script::new(&slot.file, source, limits)?),
        }
        slot.reported.clear();
        Ok(())
    }

    /// Re-reads every script loaded from `path` and reloads it (see
    /// [`LuaDecider::reload`]), changed or not. Returns whether any script
    /// uses the file.
    pub fn reload_file(&mut self, path: &Path) -> Result<bool, ScriptError> {
        let ids = self.loaded_from(path);
        if ids.is_empty() {
            return Ok(false);
        }
        let (version, source) = source::read(path);
        for &id in &ids {
            self.slots[id.0 as usize].version = Some(version.clone());
        }
        let source = source?;
        for &id in &ids {
            self.reload(id, &source)?;
        }
        Ok(true)
    }

    /// Reloads the scripts loaded from `path` whose last read version
    /// differs from the file's bytes now (see [`LuaDecider::reload`]).
    /// `None` when nothing changed (or no script uses the file); else the
    /// reload's result — a file that stays broken is not read into a
    /// script again, so its error comes back only once.
    pub fn reload_file_if_changed(&mut self, path: &Path) -> Option<Result<(), ScriptError>> {
        let ids = self.loaded_from(path);
        if ids.is_empty() {
            return None;
        }
        let (version, source) = source::read(path);
        let changed: Vec<ScriptId> = ids
            .into_iter()
            .filter(|id| self.slots[id.0 as usize].version.as_ref() != Some(&version))
            .collect();
        if changed.is_empty() {
            return None;
        }
        for &id in &changed {
            self.slots[id.0 as usize].version = Some(version.clone());
        }
        let source = match source {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        let mut result = Ok(());
        for &id in &changed {
            if let Err(e) = self.reload(id, &source) {
                result = Err(e);
            }
        }
        Some(result)
    }

    /// The scripts loaded from the file at `path`.
    fn loaded_from(&self, path: &Path) -> Vec<ScriptId> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.path.as_deref().is_some_and(|p| same_file(p, path)))
            .map(|(i, _)| ScriptId(i as u32))
            .collect()
    }

    /// The files scripts were loaded from.
    pub fn script_paths(&self) -> impl Iterator<Item = &Path> {
        self.slots.iter().filter_map(|s| s.path.as_deref())
    }

    /// Whether any archetype has a script.
    pub fn has_scripts(&self) -> bool {
        self.by_archetype.iter().any(Option::is_some)
    }

    /// Reports not yet taken, oldest first.
    pub fn take_reports(&mut self) -> Vec<ScriptReport> {
        std::mem::take(&mut self.reports)
    }

    /// Lines scripts printed since the last call.
    pub fn take_log(&mut self) -> Vec<String> {
        for slot in &self.slots {
            if let Some(s) = &slot.script {
                self.log.append(&mut s.log.borrow_mut());
            }
        }
        std::mem::take(&mut self.log)
    }

    /// How many hook calls of `script` failed so far (errors, budgets,
    /// invalid results).
    pub fn failures(&self, script: ScriptId) -> u64 {
        self.slots.get(script.0 as usize).map_or(0, |s| s.failures)
    }

    /// The custom state name (`"investigate"`) a script gave `agent` this
    /// tick, if any.
    pub fn label(&self, agent: AgentId) -> Option<&str> {
        let l = *self.labels.get(agent.index())?;
        (l != 0).then(|| self.label_names[l as usize].as_str())
    }

    /// Every agent slot's label as an index into [`LuaDecider::label_names`]
    /// (0: none), for copying all labels at once.
    pub fn label_indices(&self) -> &[u16] {
        &self.labels
    }

    /// The labels scripts gave so far; index 0 is the empty "no label".
    pub fn label_names(&self) -> &[String] {
        &self.label_names
    }

    /// Whether `agent`'s script decided it this tick (its `decide` returned
    /// an intent); otherwise the default decider did (see
    /// [`LuaDecider::traces`]).
    pub fn decided_by_script(&self, agent: AgentId) -> bool {
        self.scripted.get(agent.index()).copied().unwrap_or(false)
    }

    /// Records why the default decider decided what it did for every agent
    /// (its [`DecisionTrace`](kiai_core::behaviour::DecisionTrace)s), also
    /// under scripts, for tests and coverage.
    pub fn with_traces(mut self) -> Self {
        self.default = DefaultDecider::with_traces();
        self
    }

    /// The default decider's traces of the last tick, by agent (empty
    /// unless made [`LuaDecider::with_traces`]); for an agent its script
    /// decided ([`LuaDecider::decided_by_script`]) the trace is what the
    /// default would have done.
    pub fn traces(&self) -> &[kiai_core::behaviour::DecisionTrace] {
        self.default.traces()
    }

    /// Wall time the last [`Decider::decide`] spent running the scripts
    /// and taking their results (the default decision for the agents no
    /// script decided comes after, not counted). For benchmarks and
    /// profiling; the simulation never reads it.
    pub fn script_time(&self) -> std::time::Duration {
        self.script_time
    }

    /// Bytes the script's state uses.
    pub fn used_memory(&self, script: ScriptId) -> usize {
        self.slots
            .get(script.0 as usize)
            .and_then(|s| s.script.as_ref())
            .map_or(0, Script::used_memory)
    }

    fn intern(&mut self, label: &str) -> u16 {
        if let Some(i) = self.label_names.iter().position(|l| l == label) {
            return i as u16;
        }
        if self.label_names.len() >= usize::from(u16::MAX) {
            return 0;
        }
        self.label_names.push(label.to_owned());
        (self.label_names.len() - 1) as u16
    }

    fn fail(&mut self, slot: usize, tick: u64, error: ScriptError) {
        let s = &mut self.slots[slot];
        s.failures += 1;
        if s.reported.len() < 64 && s.reported.insert(error.to_string()) {
            self.reports.push(ScriptReport {
                script: ScriptId(slot as u32),
                tick,
                error,
            });
        }
    }

    /// Runs script `slot` for this tick over the agents of the archetypes
    /// it decides, and takes its results.
    fn run_slot(
        &mut self,
        slot: usize,
        world: &World,
        (minds, out): (&mut [Mind], &mut [Decision]),
        sensed: &SensedLists,
    ) {
        let a = world.agents();
        let mine = |arch: &ArchetypeId| {
            self.by_archetype.get(arch.index()).copied().flatten() == Some(slot as u32)
        };
        self.list.clear();
        let agents = a.archetypes().iter().zip(a.alive()).zip(a.body_modes());
        let thinking = world.thinking();
        for (i, ((arch, &alive), body)) in agents.enumerate() {
            // Free slots and bodies the game alone moves are not decided;
            // nor are agents whose decision is held this tick (tick level
            // of detail): their hooks run when they next think.
            let thinks = thinking.is_none_or(|t| t[i]);
            if alive && body.is_steered() && mine(arch) && thinks {
                self.list.push(i as u32);
            }
        }
        if self.list.is_empty() {
            return;
        }
        let Some(mut script) = self.slots[slot].script.take() else {
            return;
        };
        let mut outcome = Outcome {
            intents: std::mem::take(&mut self.intents),
            ..Outcome::default()
        };
        let result = run_script(
            &mut script,
            &self.list,
            &mut self.spawned,
            world,
            sensed,
            minds,
            &mut outcome,
        );
        if let Err(e) = result {
            outcome
                .failures
                .push(ScriptError::from_lua(&script.file, &e));
        }
        let tick = world.tick();
        self.slots[slot].script = Some(script);
        for e in outcome.failures {
            self.fail(slot, tick, e);
        }
        self.actions.append(&mut outcome.actions);
        for (agent, intent) in outcome.intents.drain(..) {
            let label = intent.label.as_deref().map_or(0, |l| self.intern(l));
            out[agent as usize] = intent.decision;
            self.labels[agent as usize] = label;
            self.scripted[agent as usize] = true;
        }
    }
}

/// A loaded script, or the error that kept it from loading.
fn split(result: Result<Script, ScriptError>) -> (Option<Script>, Result<(), ScriptError>) {
    match result {
        Ok(s) => (Some(s), Ok(())),
        Err(e) => (None, Err(e)),
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || match (a.canonicalize(), b.canonicalize()) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
}

impl Decider for LuaDecider {
    fn decide(&mut self, world: &World, minds: &mut [Mind], out: &mut [Decision]) {
        // Measured for benchmarks and profiling only; nothing reads it back
        // into the simulation.
        let start = std::time::Instant::now();
        let n = world.agents().len();
        self.labels.clear();
        self.labels.resize(n, 0);
        // The forecast for foreseeing the default's targets below.
        let scripted_last = self.scripted.iter().filter(|&&s| s).count();
        self.scripted.clear();
        self.scripted.resize(n, false);
        self.spawned.resize(n, 0);
        self.sensed.begin_tick();
        // The scripts run on this thread; meanwhile another thread works
        // out the nearest agent each sense lists ahead of their queries
        // and copies the sensed lists into agent order, each when it pays
        // (until the scripts are done), and then what the default decision
        // reads of the world (with one thread or few agents, the copy is
        // made first, here, and nothing is worked out ahead).
        let mut default = std::mem::take(&mut self.default);
        self.sensed.prepare_ahead(world);
        let sensed = std::mem::take(&mut self.sensed);
        let copy = sensed.copy_pays(world).then(|| sensed.copy_elsewhere());
        let ahead = sensed.ahead();
        let first = move || {
            ahead.fill(world);
            if let Some(copy) = copy {
                copy.make(world);
            }
        };
        // Worth it when the default is expected to decide many agents: the
        // scripts decided at most half of them last tick.
        let foresee = scripted_last * 2 <= n;
        // Whether they were is the next `decide_unless`'s to find out.
        let _ = default.foresee_while(world, (foresee, first), || {
            for slot in 0..self.slots.len() {
                self.run_slot(slot, world, (minds, out), &sensed);
            }
            sensed.ahead().stop();
            self.script_time = start.elapsed();
        });
        self.default = default;
        self.sensed = sensed;
        // The default decision only where no script decided: a script's
        // agent draws none of the default's rolls and learns nothing from
        // it that tick (and the work is not done twice).
        self.default
            .decide_unless(world, minds, out, &self.scripted, self.sensed.built());
    }

    fn apply(&mut self, world: &mut World) {
        // Stable: per agent, in the order the script did them.
        self.actions.sort_by_key(|(agent, _)| *agent);
        for (_, action) in self.actions.drain(..) {
            match action {
                Action::Sound(s) => world.emit_sound(s),
                Action::Message(m) => world.send_message(m),
                Action::Spawn(s) => world.defer(Deferred::Spawn(s)),
                Action::Despawn(a) => world.defer(Deferred::Despawn(a)),
            }
        }
    }
}

/// Lookups for tools (the editor's why-inspector and console).
impl LuaDecider {
    /// The script deciding `archetype`, if any.
    pub fn script_of(&self, archetype: ArchetypeId) -> Option<ScriptId> {
        self.by_archetype
            .get(archetype.index())
            .copied()
            .flatten()
            .map(ScriptId)
    }

    /// The file `script` was loaded from (`None` for a script added from
    /// text).
    pub fn script_path(&self, script: ScriptId) -> Option<&Path> {
        self.slots.get(script.0 as usize)?.path.as_deref()
    }

    /// Evaluates `code` (an expression, or statements) in the sandbox of
    /// the script deciding `agent`'s archetype, with `agent` bound to that
    /// agent's table and its methods live on `world` as it is now, under
    /// the script's instruction and memory budgets. Returns the values it
    /// produced, printed as `tostring` does, separated by tabs.
    ///
    /// Nothing leaks into the run: globals it sets land in a scratch
    /// environment (reads fall through to the sandbox), the agent's table
    /// (with its `memory`) and the sandbox's libraries are read-only views
    /// (a write is an error saying so; reads are raw, so no metamethod of
    /// the script runs, and the script's own functions found there refuse
    /// to run), and sounds, messages, intents and random draws it makes are
    /// discarded (draws come from a copy of the agent's stream). A tool's
    /// REPL uses it.
    pub fn eval(
        &mut self,
        world: &World,
        agent: AgentId,
        code: &str,
    ) -> Result<String, ScriptError> {
        let plain = |m: &str| ScriptError::plain("repl", None, m);
        let archetype = *world
            .agents()
            .archetypes()
            .get(agent.index())
            .ok_or_else(|| plain("no such agent"))?;
        let slot = self
            .script_of(archetype)
            .ok_or_else(|| plain("this agent's archetype has no script"))?
            .0 as usize;
        let script = self.slots[slot]
            .script
            .take()
            .ok_or_else(|| plain("the script failed to load"))?;
        let result = crate::repl::eval_in(&script, world, agent, code);
        self.slots[slot].script = Some(script);
        result
    }
}
