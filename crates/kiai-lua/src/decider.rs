//! [`LuaDecider`]: kiai-core's [`Decider`] backed by Lua scripts.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kiai_core::behaviour::{BehaviourState, Decider, Decision, DefaultDecider, Mind};
use kiai_core::glam::Vec3;
use kiai_core::perception::hearing::Sound;
use kiai_core::perception::{Message, PerceptEvent, Recipient};
use kiai_core::{AgentId, ArchetypeId, World};
use mlua::{Function, Lua, Table, Value};

use crate::api::{self, Action, Tick};
use crate::script::{Limits, Script, ScriptError};

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
    path: Option<PathBuf>,
    script: Option<Script>,
    failures: u64,
    reported: BTreeSet<String>,
}

/// Decides with Lua scripts for the archetypes that have one and with
/// seed 002's [`DefaultDecider`] for everything else.
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
    label_names: Vec<String>,
    spawned: Vec<bool>,
    list: Vec<u32>,
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

/// Code of an intent that goes through the slow path.
const SLOW: i64 = 15;

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
            label_names: vec![String::new()],
            spawned: Vec::new(),
            list: Vec::new(),
            log: Vec::new(),
            script_time: std::time::Duration::ZERO,
        }
    }

    /// Loads `source`, named `file` in errors, into a new sandboxed state.
    pub fn add_script(&mut self, file: &str, source: &str) -> Result<ScriptId, ScriptError> {
        let script = Script::new(file, source, self.limits)?;
        self.slots.push(Slot {
            path: None,
            script: Some(script),
            failures: 0,
            reported: BTreeSet::new(),
        });
        Ok(ScriptId((self.slots.len() - 1) as u32))
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
        let result = std::fs::read_to_string(path)
            .map_err(|e| ScriptError::plain(&file, None, format!("cannot read: {e}")))
            .and_then(|source| Script::new(&file, &source, self.limits));
        let (script, result) = match result {
            Ok(s) => (Some(s), Ok(())),
            Err(e) => (None, Err(e)),
        };
        self.slots.push(Slot {
            path: Some(path.to_owned()),
            script,
            failures: 0,
            reported: BTreeSet::new(),
        });
        (ScriptId((self.slots.len() - 1) as u32), result)
    }

    /// Makes `script` decide for the agents of `archetype`.
    pub fn assign(&mut self, archetype: ArchetypeId, script: ScriptId) {
        let i = archetype.index();
        if self.by_archetype.len() <= i {
            self.by_archetype.resize(i + 1, None);
        }
        self.by_archetype[i] = Some(script.0);
    }

    /// Swaps in new code for `script` between ticks. A syntax or load error
    /// keeps the last good version and is returned (and reported).
    pub fn reload(&mut self, script: ScriptId, source: &str) -> Result<(), ScriptError> {
        let limits = self.limits;
        let Some(slot) = self.slots.get_mut(script.0 as usize) else {
            return Err(ScriptError::plain("?", None, "no such script"));
        };
        let result = match &mut slot.script {
            Some(s) => s.reload(source),
            None => {
                let file = slot
                    .path
                    .as_ref()
                    .map_or_else(|| "?".to_owned(), |p| p.display().to_string());
                Script::new(&file, source, limits).map(|s| slot.script = Some(s))
            }
        };
        if let Err(e) = &result {
            self.reports.push(ScriptReport {
                script,
                tick: 0,
                error: e.clone(),
            });
        }
        result
    }

    /// Re-reads every script loaded from `path` and reloads it (see
    /// [`LuaDecider::reload`]). Returns whether any script uses the file.
    pub fn reload_file(&mut self, path: &Path) -> Result<bool, ScriptError> {
        let ids: Vec<ScriptId> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.path.as_deref().is_some_and(|p| same_file(p, path)))
            .map(|(i, _)| ScriptId(i as u32))
            .collect();
        for &id in &ids {
            let file = path.display().to_string();
            let source = std::fs::read_to_string(path)
                .map_err(|e| ScriptError::plain(&file, None, format!("cannot read: {e}")))?;
            self.reload(id, &source)?;
        }
        Ok(!ids.is_empty())
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

    /// Wall time the last [`Decider::decide`] spent after the default
    /// decision: running the scripts and taking their results. For
    /// benchmarks and profiling; the simulation never reads it.
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

    fn run_slot(&mut self, slot: usize, world: &World, minds: &mut [Mind], out: &mut [Decision]) {
        let a = world.agents();
        self.list.clear();
        for (i, arch) in a.archetypes().iter().enumerate() {
            if self.by_archetype.get(arch.index()).copied().flatten() == Some(slot as u32) {
                self.list.push(i as u32);
            }
        }
        if self.list.is_empty() {
            return;
        }
        let Some(mut script) = self.slots[slot].script.take() else {
            return;
        };
        let mut failures: Vec<ScriptError> = Vec::new();
        let mut intents: Vec<(u32, Intent)> = Vec::new();
        let mut actions: Vec<(u32, Action)> = Vec::new();
        let result = self.run_script(
            &mut script,
            world,
            minds,
            &mut failures,
            &mut intents,
            &mut actions,
        );
        if let Err(e) = result {
            failures.push(ScriptError::from_lua(&script.file, &e));
        }
        let tick = world.tick();
        self.slots[slot].script = Some(script);
        for e in failures {
            self.fail(slot, tick, e);
        }
        self.actions.append(&mut actions);
        for (agent, intent) in intents {
            let label = intent.label.as_deref().map_or(0, |l| self.intern(l));
            out[agent as usize] = intent.decision;
            self.labels[agent as usize] = label;
        }
    }

    /// Runs one script's events and batch for this tick.
    fn run_script(
        &mut self,
        script: &mut Script,
        world: &World,
        minds: &mut [Mind],
        failures: &mut Vec<ScriptError>,
        intents: &mut Vec<(u32, Intent)>,
        actions: &mut Vec<(u32, Action)>,
    ) -> mlua::Result<()> {
        let lua = &script.lua;
        let n = world.agents().len();
        // The batch list, when it changed (agent tables are made once).
        if script.batch_ids != self.list {
            let old = script.batch_ids.len();
            for (k, &i) in self.list.iter().enumerate() {
                script
                    .batch
                    .raw_set(k + 1, agent_table(script, world, i)?)?;
                script.out.raw_set(k + 1, 0)?;
            }
            for k in self.list.len() + 1..=old {
                script.batch.raw_set(k, Value::Nil)?;
                script.out.raw_set(k, Value::Nil)?;
            }
            script.batch_ids.clone_from(&self.list);
        }
        let script: &Script = script;
        let batch = &script.batch;
        let out = &script.out;
        let batch_ids: &[u32] = &script.batch_ids;
        script.ctx.raw_set("tick", world.tick())?;
        script.ctx.raw_set("agents", n)?;
        script.ctx.raw_set("dt", world.config().tick_seconds)?;

        let tick = Tick {
            world,
            minds: RefCell::new(minds),
            actions: RefCell::new(Vec::new()),
            intents: RefCell::new(Vec::new()),
            batch_ids,
            current: Cell::new(None),
            cur: script.cur.clone(),
        };
        let file = script.file.clone();
        let decide_line = script.decide_line();
        lua.scope(|scope| {
            api::install(scope, script, &tick)?;
            let mut seq: i64 = -1;
            let mut call = |f: &Function, agent: u32, args: mlua::MultiValue| -> mlua::Result<()> {
                script.begin_call(seq)?;
                seq -= 1;
                tick.current.set(Some(agent));
                if let Err(e) = f.call::<()>(args) {
                    failures.push(ScriptError::from_lua(&file, &e));
                }
                tick.current.set(None);
                Ok(())
            };
            // on_spawn, the first time the script sees an agent.
            if let Some(f) = &script.hooks.on_spawn {
                for &i in batch_ids {
                    if !self.spawned[i as usize] {
                        self.spawned[i as usize] = true;
                        let t: Table = script.agents.raw_get(i64::from(i) + 1)?;
                        call(f, i, (t,).into_lua_multi_ok(lua)?)?;
                    }
                }
            } else {
                for &i in batch_ids {
                    self.spawned[i as usize] = true;
                }
            }
            // Percept events, in the percepts' order.
            let hooks = &script.hooks;
            if hooks.on_seen.is_some()
                || hooks.on_lost.is_some()
                || hooks.on_heard.is_some()
                || hooks.on_message.is_some()
            {
                let percepts = world.percepts();
                for ev in percepts.events() {
                    let agent = match *ev {
                        PerceptEvent::Gained { agent, .. }
                        | PerceptEvent::Lost { agent, .. }
                        | PerceptEvent::Heard { agent, .. }
                        | PerceptEvent::Message { agent, .. } => agent,
                    };
                    if batch_ids.binary_search(&agent.0).is_err() {
                        continue;
                    }
                    let me: Table = script.agents.raw_get(i64::from(agent.0) + 1)?;
                    let sense_name = |s: u16| api::sense_name(world, agent, usize::from(s));
                    match *ev {
                        PerceptEvent::Gained { sense, target, .. } => {
                            if let Some(f) = &hooks.on_seen {
                                let args =
                                    (me, target.0, sense_name(sense)).into_lua_multi_ok(lua)?;
                                call(f, agent.0, args)?;
                            }
                        }
                        PerceptEvent::Lost { sense, target, .. } => {
                            if let Some(f) = &hooks.on_lost {
                                let args =
                                    (me, target.0, sense_name(sense)).into_lua_multi_ok(lua)?;
                                call(f, agent.0, args)?;
                            }
                        }
                        PerceptEvent::Heard {
                            sense,
                            sound,
                            loudness,
                            ..
                        } => {
                            if let Some(f) = &hooks.on_heard
                                && let Some(s) = percepts.sounds().get(sound as usize)
                            {
                                let source = api::source_handle(s.source, world);
                                let args = (
                                    me,
                                    source,
                                    loudness,
                                    sense_name(sense),
                                    s.tag,
                                    s.position.x,
                                    s.position.y,
                                    s.position.z,
                                )
                                    .into_lua_multi_ok(lua)?;
                                call(f, agent.0, args)?;
                            }
                        }
                        PerceptEvent::Message { message, .. } => {
                            if let Some(f) = &hooks.on_message
                                && let Some(m) = percepts.messages().get(message as usize)
                            {
                                let args = (
                                    me,
                                    m.from.map(|a| a.0),
                                    m.tag,
                                    m.position.x,
                                    m.position.y,
                                    m.position.z,
                                )
                                    .into_lua_multi_ok(lua)?;
                                call(f, agent.0, args)?;
                            }
                        }
                    }
                }
            }
            // decide, batched; a failure at position k restarts at k + 1.
            if let Some(decide) = &hooks.decide {
                let total = batch_ids.len();
                let mut first = 1usize;
                let mut failed: Vec<usize> = Vec::new();
                script.cur.raw_set(2, 0)?;
                while first <= total {
                    script.begin_call(0)?;
                    let r = script.driver.call::<()>((
                        decide.clone(),
                        batch.clone(),
                        first,
                        total,
                        script.ctx.clone(),
                        script.cur.clone(),
                        out.clone(),
                        script.hits.clone(),
                        script.extra[0].clone(),
                        script.extra[1].clone(),
                        script.extra[2].clone(),
                        script.extra[3].clone(),
                        script.extra[4].clone(),
                    ));
                    match r {
                        Ok(()) => break,
                        Err(e) => {
                            let k: i64 = script.cur.raw_get(1).unwrap_or(0);
                            let k = usize::try_from(k).unwrap_or(0);
                            if k < first || k > total {
                                // The driver itself failed (out of memory
                                // between agents): give up for this tick.
                                failures.push(ScriptError::from_lua(&file, &e));
                                failed.extend(first..=total);
                                break;
                            }
                            failures.push(ScriptError::from_lua(&file, &e));
                            failed.push(k);
                            first = k + 1;
                        }
                    }
                }
                script.begin_call(0)?;
                let count: i64 = script.cur.raw_get(2).unwrap_or(0);
                let mut ti = intents_from(
                    out,
                    &script.hits,
                    usize::try_from(count).unwrap_or(0),
                    &script.extra,
                    batch_ids,
                    &failed,
                    world,
                    &file,
                    decide_line,
                    failures,
                )?;
                tick.intents.borrow_mut().append(&mut ti);
            }
            Ok(())
        })?;
        // Intents from set_intent first, then decide's (which win: later
        // entries overwrite earlier ones when applied).
        let mut set = tick.intents.into_inner();
        set.sort_by_key(|(i, _)| *i);
        intents.append(&mut set);
        actions.append(&mut tick.actions.into_inner());
        Ok(())
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || match (a.canonicalize(), b.canonicalize()) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
}

/// A script's intent for one agent.
#[derive(Clone, Debug)]
pub(crate) struct Intent {
    pub(crate) decision: Decision,
    pub(crate) label: Option<String>,
}

trait IntoLuaMultiOk {
    fn into_lua_multi_ok(self, lua: &Lua) -> mlua::Result<mlua::MultiValue>;
}

impl<T: mlua::IntoLuaMulti> IntoLuaMultiOk for T {
    fn into_lua_multi_ok(self, lua: &Lua) -> mlua::Result<mlua::MultiValue> {
        self.into_lua_multi(lua)
    }
}

/// Agent `i`'s table in `script` (`[0]` its index, `id`, `name`, `memory`,
/// the agent methods), made the first time it is asked for and kept.
fn agent_table(script: &Script, world: &World, i: u32) -> mlua::Result<Table> {
    let key = i64::from(i) + 1;
    if let Some(t) = script.agents.raw_get::<Option<Table>>(key)? {
        return Ok(t);
    }
    let lua = &script.lua;
    let t = lua.create_table()?;
    t.raw_set(0, i64::from(i))?;
    t.raw_set("id", i64::from(i))?;
    t.raw_set("name", world.agents().names()[i as usize].as_str())?;
    t.raw_set("memory", lua.create_table()?)?;
    t.set_metatable(Some(script.agent_meta.clone()))?;
    script.agents.raw_set(key, t.clone())?;
    Ok(t)
}

/// Reads the packed results of a batch.
#[allow(clippy::too_many_arguments)]
fn intents_from(
    out: &Table,
    hits: &Table,
    count: usize,
    extra: &[Table; 5],
    batch_ids: &[u32],
    failed: &[usize],
    world: &World,
    file: &str,
    decide_line: Option<u32>,
    failures: &mut Vec<ScriptError>,
) -> mlua::Result<Vec<(u32, Intent)>> {
    let n = world.agents().len();
    let mut intents = Vec::new();
    for j in 1..=count {
        let k: usize = hits.raw_get(j)?;
        // A position whose call failed returned nothing to read.
        let Some(&agent) = batch_ids.get(k.wrapping_sub(1)) else {
            continue;
        };
        if failed.binary_search(&k).is_ok() {
            continue;
        }
        let code: i64 = out.raw_get(k)?;
        if code == 0 {
            continue;
        }
        let parsed = if code == SLOW {
            let v = [
                extra[0].raw_get::<Value>(k)?,
                extra[1].raw_get::<Value>(k)?,
                extra[2].raw_get::<Value>(k)?,
                extra[3].raw_get::<Value>(k)?,
                extra[4].raw_get::<Value>(k)?,
            ];
            for e in extra {
                e.raw_set(k, Value::Nil)?;
            }
            parse_intent(&v, world)
        } else {
            let state = match code & 15 {
                1 => Some(BehaviourState::RandomWalk),
                2 => Some(BehaviourState::Chase),
                3 => Some(BehaviourState::Evade),
                _ => None,
            };
            let target = (code >> 4) - 1;
            match (state, target) {
                (Some(state), -1) => Ok(Intent {
                    decision: Decision {
                        state,
                        target: None,
                        goal: None,
                    },
                    label: None,
                }),
                (Some(state), t) if t >= 0 && (t as usize) < n => Ok(Intent {
                    decision: Decision {
                        state,
                        target: Some(AgentId(t as u32)),
                        goal: None,
                    },
                    label: None,
                }),
                _ => Err(format!("target {target} is not an agent")),
            }
        };
        match parsed {
            Ok(intent) => intents.push((agent, intent)),
            Err(msg) => failures.push(ScriptError::plain(
                file,
                decide_line,
                format!("decide returned an invalid intent: {msg}"),
            )),
        }
    }
    Ok(intents)
}

/// Parses `state, target, x, y, z` or `{state=, target=, goal={x,y,z}}`.
pub(crate) fn parse_intent(v: &[Value; 5], world: &World) -> Result<Intent, String> {
    let (state, target, goal) = match &v[0] {
        Value::Table(t) => {
            let state: Value = t.raw_get("state").map_err(|e| e.to_string())?;
            let target: Value = t.raw_get("target").map_err(|e| e.to_string())?;
            let goal = match t.raw_get::<Value>("goal").map_err(|e| e.to_string())? {
                Value::Nil => None,
                Value::Table(g) => Some(vec3(
                    &g.raw_get::<Value>(1).map_err(|e| e.to_string())?,
                    &g.raw_get::<Value>(2).map_err(|e| e.to_string())?,
                    &g.raw_get::<Value>(3).map_err(|e| e.to_string())?,
                )?),
                other => {
                    return Err(format!(
                        "goal must be {{x, y, z}}, not a {}",
                        other.type_name()
                    ));
                }
            };
            let label: Value = t.raw_get("label").map_err(|e| e.to_string())?;
            let mut intent = build_intent(&state, &target, goal, world)?;
            match label {
                Value::Nil => {}
                Value::String(s) => intent.label = Some(label_text(&s.to_string_lossy())?),
                other => {
                    return Err(format!(
                        "label must be a string, not a {}",
                        other.type_name()
                    ));
                }
            }
            return Ok(intent);
        }
        s => {
            let goal = match (&v[2], &v[3], &v[4]) {
                (Value::Nil, Value::Nil, Value::Nil) => None,
                (x, y, z) => Some(vec3(x, y, z)?),
            };
            (s.clone(), v[1].clone(), goal)
        }
    };
    build_intent(&state, &target, goal, world)
}

fn label_text(s: &str) -> Result<String, String> {
    if s.is_empty() || s.len() > 64 {
        return Err("a state name must have 1 to 64 bytes".into());
    }
    Ok(s.to_owned())
}

fn vec3(x: &Value, y: &Value, z: &Value) -> Result<Vec3, String> {
    let f = |v: &Value| -> Result<f32, String> {
        let n = match v {
            Value::Integer(i) => *i as f64,
            Value::Number(n) => *n,
            other => {
                return Err(format!(
                    "goal coordinates must be numbers, not {}",
                    other.type_name()
                ));
            }
        };
        if n.is_finite() && n.abs() < 1e9 {
            Ok(n as f32)
        } else {
            Err(format!(
                "goal coordinate {n} is not a finite world position"
            ))
        }
    };
    Ok(Vec3::new(f(x)?, f(y)?, f(z)?))
}

fn build_intent(
    state: &Value,
    target: &Value,
    goal: Option<Vec3>,
    world: &World,
) -> Result<Intent, String> {
    let n = world.agents().len();
    let target = match target {
        Value::Nil | Value::Boolean(false) => None,
        Value::Integer(t) if *t >= 0 && (*t as usize) < n => Some(AgentId(*t as u32)),
        Value::Number(t) if t.fract() == 0.0 && *t >= 0.0 && (*t as usize) < n => {
            Some(AgentId(*t as u32))
        }
        Value::Table(t) => match t.raw_get::<Value>(0) {
            Ok(Value::Integer(i)) if i >= 0 && (i as usize) < n => Some(AgentId(i as u32)),
            _ => return Err("target table is not an agent".into()),
        },
        Value::String(s) => {
            let name = s.to_string_lossy();
            Some(
                world
                    .agents()
                    .find(&name)
                    .ok_or_else(|| format!("no agent named `{name}`"))?,
            )
        }
        other => {
            return Err(format!(
                "target must be an agent handle or name, not {other:?}"
            ));
        }
    };
    let name = match state {
        Value::String(s) => s.to_string_lossy(),
        other => {
            return Err(format!(
                "state must be a string, not a {}",
                other.type_name()
            ));
        }
    };
    let (state, label) = match name.as_str() {
        "random_walk" => (BehaviourState::RandomWalk, None),
        "chase" => (BehaviourState::Chase, None),
        "evade" => (BehaviourState::Evade, None),
        custom => {
            let base = if target.is_some() || goal.is_some() {
                BehaviourState::Chase
            } else {
                BehaviourState::RandomWalk
            };
            (base, Some(label_text(custom)?))
        }
    };
    Ok(Intent {
        decision: Decision {
            state,
            target,
            goal,
        },
        label,
    })
}

impl Decider for LuaDecider {
    fn decide(&mut self, world: &World, minds: &mut [Mind], out: &mut [Decision]) {
        self.default.decide(world, minds, out);
        // Measured for benchmarks and profiling only; nothing reads it back
        // into the simulation.
        let start = std::time::Instant::now();
        let n = world.agents().len();
        self.labels.clear();
        self.labels.resize(n, 0);
        self.spawned.resize(n, false);
        for slot in 0..self.slots.len() {
            self.run_slot(slot, world, minds, out);
        }
        self.script_time = start.elapsed();
    }

    fn apply(&mut self, world: &mut World) {
        // Stable: per agent, in the order the script did them.
        self.actions.sort_by_key(|(agent, _)| *agent);
        for (_, action) in self.actions.drain(..) {
            match action {
                Action::Sound(s) => world.emit_sound(s),
                Action::Message(m) => world.send_message(m),
            }
        }
    }
}

/// Helpers for the `Recipient` and `Sound` types used by the API.
pub(crate) fn message(from: u32, to: Recipient, tag: u32, position: Vec3) -> Action {
    Action::Message(Message {
        from: Some(AgentId(from)),
        to,
        tag,
        position,
    })
}

pub(crate) fn sound(from: u32, position: Vec3, volume: f32, tag: u32) -> Action {
    Action::Sound(Sound {
        position,
        volume,
        source: from,
        tag,
    })
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
        let result = Self::eval_in(&script, world, agent, code);
        self.slots[slot].script = Some(script);
        result
    }

    fn eval_in(
        script: &Script,
        world: &World,
        agent: AgentId,
        code: &str,
    ) -> Result<String, ScriptError> {
        let err = |e: mlua::Error| ScriptError::from_lua("repl", &e);
        let lua = &script.lua;
        let i = agent.index() as u32;
        let me = agent_table(script, world, i).map_err(err)?;
        // The agent and the sandbox's globals are seen through read-only
        // views: the REPL cannot change the script's memory or libraries.
        let view: Function = script.api.raw_get("__view").map_err(err)?;
        let env = lua.create_table().map_err(err)?;
        let meta = lua.create_table().map_err(err)?;
        meta.raw_set("__index", view.call::<Value>(lua.globals()).map_err(err)?)
            .map_err(err)?;
        env.set_metatable(Some(meta)).map_err(err)?;
        let view_agent: Function = script.api.raw_get("__view_agent").map_err(err)?;
        env.raw_set("agent", view_agent.call::<Value>(me).map_err(err)?)
            .map_err(err)?;
        let mut minds: Vec<Mind> = world.agents().minds().to_vec();
        let ids = [i];
        let tick = Tick {
            world,
            minds: RefCell::new(&mut minds),
            actions: RefCell::new(Vec::new()),
            intents: RefCell::new(Vec::new()),
            batch_ids: &ids,
            current: Cell::new(Some(i)),
            cur: script.cur.clone(),
        };
        lua.scope(|scope| {
            api::install(scope, script, &tick)?;
            // An expression first (`agent:position()`), else statements.
            let chunk = match lua
                .load(format!("return {code}"))
                .set_name("=repl")
                .set_mode(mlua::chunk::ChunkMode::Text)
                .set_environment(env.clone())
                .into_function()
            {
                Ok(f) => f,
                Err(_) => lua
                    .load(code)
                    .set_name("=repl")
                    .set_mode(mlua::chunk::ChunkMode::Text)
                    .set_environment(env.clone())
                    .into_function()?,
            };
            script.begin_call(i64::MIN + 1)?;
            let values: mlua::MultiValue = chunk.call(())?;
            let tostring: Function = lua.globals().raw_get("tostring")?;
            let mut parts = Vec::new();
            for v in values {
                parts.push(tostring.call::<String>(v)?);
            }
            Ok(parts.join("\t"))
        })
        .map_err(err)
    }
}
