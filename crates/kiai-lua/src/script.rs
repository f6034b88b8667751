//! One script in its own sandboxed Lua state: loading, budgets, hooks.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use kiai_core::World;
use mlua::chunk::ChunkMode;
use mlua::{Function, HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};

use crate::api::ApiTables;
use crate::hooks::HOOKS;
use crate::sense_ids::SenseIds;

/// Resource limits of one script's Lua state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes the state may allocate in total (code, tables, strings).
    pub memory_bytes: usize,
    /// Lua VM instructions one hook call (one agent's `decide`, one event)
    /// may run; memory growth is charged too (1 instruction per 64 bytes).
    pub instructions_per_call: u64,
    /// How often the budget is checked, in instructions (> 0); the budget is
    /// enforced to within this many instructions.
    pub check_interval: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            memory_bytes: 32 * 1024 * 1024,
            instructions_per_call: 200_000,
            // A twentieth of the budget: the hook costs about 120 ns a call,
            // and at 1,000 it ran some 250 times a tick for 10k agents whose
            // `decide` returns nil (a tenth of their scripts' time).
            check_interval: 10_000,
        }
    }
}

/// A script problem: a syntax error, a runtime error, a blown budget or an
/// invalid result. Displays as `script:line: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// The script's path as given.
    pub file: String,
    /// The line, when known (from 1).
    pub line: Option<u32>,
    /// What went wrong, one line, without the `file:line:` prefix.
    pub message: String,
    /// The Lua stack traceback, when there was a stack.
    pub traceback: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.file, line, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ScriptError {}

impl ScriptError {
    /// Builds an error from an mlua error raised while running `file`.
    pub(crate) fn from_lua(file: &str, e: &mlua::Error) -> Self {
        let (text, mut traceback) = flatten(e);
        let mut lines = text.lines();
        let first = lines.next().unwrap_or("error").trim().to_owned();
        let rest: Vec<&str> = lines.collect();
        if traceback.is_empty() && !rest.is_empty() {
            traceback = rest.join("\n");
        }
        let (line, message) = split_location(file, &first);
        Self {
            file: file.to_owned(),
            line,
            message,
            traceback,
        }
    }

    pub(crate) fn plain(file: &str, line: Option<u32>, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            line,
            message: message.into(),
            traceback: String::new(),
        }
    }
}

/// The message and traceback inside an mlua error.
fn flatten(e: &mlua::Error) -> (String, String) {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let (m, t) = flatten(cause);
            (m, if t.is_empty() { traceback.clone() } else { t })
        }
        mlua::Error::WithContext { cause, .. } => flatten(cause),
        mlua::Error::SyntaxError { message, .. } => (message.clone(), String::new()),
        mlua::Error::RuntimeError(m) => match m.split_once("\nstack traceback:") {
            Some((msg, tb)) => (msg.to_owned(), format!("stack traceback:{tb}")),
            None => (m.clone(), String::new()),
        },
        mlua::Error::MemoryError(m) => (format!("out of memory: {m}"), String::new()),
        other => (other.to_string(), String::new()),
    }
}

/// Splits `file:LINE: message` (Lua's error position) into line and message.
fn split_location(file: &str, text: &str) -> (Option<u32>, String) {
    let text = text.trim_start_matches("runtime error: ");
    let text = text.trim_start_matches("syntax error: ");
    if let Some(rest) = text.strip_prefix(file).and_then(|r| r.strip_prefix(':'))
        && let Some((line, msg)) = rest.split_once(':')
        && let Ok(line) = line.trim().parse::<u32>()
    {
        return (Some(line), msg.trim().to_owned());
    }
    (None, text.to_owned())
}

/// Compiles `source` without running it; a syntax error comes back as
/// `file:line: message`. Binary chunks are rejected.
pub fn check_syntax(file: &str, source: &str) -> Result<(), ScriptError> {
    let lua = Lua::new_with(StdLib::NONE, LuaOptions::default())
        .map_err(|e| ScriptError::from_lua(file, &e))?;
    lua.load(source)
        .set_name(format!("@{file}"))
        .set_mode(ChunkMode::Text)
        .into_function()
        .map(|_| ())
        .map_err(|e| ScriptError::from_lua(file, &e))
}

/// Reads and compiles the script at `path` (see [`check_syntax`]); the path
/// is shown as given.
pub fn check_file(path: &Path) -> Result<(), ScriptError> {
    let file = path.display().to_string();
    let source = std::fs::read_to_string(path)
        .map_err(|e| ScriptError::plain(&file, None, format!("cannot read: {e}")))?;
    check_syntax(&file, &source)
}

/// The hook functions a script defines (globals or fields of a returned
/// table).
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub(crate) decide: Option<Function>,
    pub(crate) on_seen: Option<Function>,
    pub(crate) on_lost: Option<Function>,
    pub(crate) on_heard: Option<Function>,
    pub(crate) on_message: Option<Function>,
    pub(crate) on_spawn: Option<Function>,
}

/// A meter key that is no call's (calls are batch positions from 1 up to
/// the batch's size, 0 between them, event numbers below 0, loading
/// `i64::MIN` and the REPL's `i64::MIN + 1`).
const NO_CALL: i64 = i64::MAX;

/// Budget bookkeeping shared with the instruction hook.
#[derive(Clone, Copy, Debug, Default)]
struct Meter {
    key: i64,
    used: u64,
    memory: usize,
}

/// One script's state: a sandboxed Lua VM and the tables the decider reuses.
pub(crate) struct Script {
    pub(crate) file: String,
    pub(crate) lua: Lua,
    pub(crate) hooks: Hooks,
    /// The line where `decide` is defined, for errors about its results
    /// (looked up once: asking Lua makes strings).
    decide_line: Option<u32>,
    pub(crate) driver: Function,
    /// `[1]` = the batch position or event number running now.
    pub(crate) cur: Table,
    /// `[1]` = budget tripped, `[2]` = its message.
    pub(crate) guard: Table,
    /// Per-tick Rust functions (`API.random`, `API.tick`, ...).
    pub(crate) api: Table,
    /// Per-tick Rust functions behind the agent methods, taking the agent's
    /// handle (the prelude's wrappers in `agent_meta.__index` call them).
    pub(crate) host: Table,
    /// The per-tick functions made this tick, in `host` (`true`) or `api`
    /// (see [`crate::api::install`]).
    pub(crate) made: Rc<RefCell<Vec<(bool, &'static str)>>>,
    /// Metatable of agent tables.
    pub(crate) agent_meta: Table,
    /// Sense names as integers.
    pub(crate) senses: SenseIds,
    /// Agent tables by agent index + 1.
    pub(crate) agents: Table,
    /// Agent tables in batch order.
    pub(crate) batch: Table,
    /// Agent indices in batch order.
    pub(crate) batch_ids: Vec<u32>,
    /// The generation of each slot in `batch_ids` when the batch was made.
    pub(crate) batch_generations: Vec<u32>,
    pub(crate) ctx: Table,
    /// Batch positions with packed results (the batch driver's), one per
    /// agent whose `decide` returned something, so a tick of `nil`s reads
    /// nothing back; kept between ticks.
    pub(crate) hits: RefCell<Vec<i64>>,
    pub(crate) extra: [Table; 5],
    /// Lines printed by the script.
    pub(crate) log: Rc<RefCell<Vec<String>>>,
    meter: Rc<Cell<Meter>>,
    /// This state's number, unique in the process (from [`NEXT_NUMBER`]):
    /// the functions made once per state find their tick by it (see
    /// [`crate::api::run_with`]).
    pub(crate) number: u64,
}

/// The agent methods for the prelude, in registry order: `{name, arity}`
/// each.
fn agent_method_list(lua: &Lua) -> mlua::Result<Table> {
    let list = lua.create_table()?;
    for (k, (name, arity)) in crate::api::agent_methods().enumerate() {
        let m = lua.create_sequence_from([name])?;
        m.raw_set(2, arity)?;
        list.raw_set(k + 1, m)?;
    }
    Ok(list)
}

/// The agent tables' metatable: `methods` (the prelude's) with
/// `agent:nearest` made for script state `number` from the prelude's
/// `nearest_parts`, hidden from `getmetatable`.
fn agent_meta(
    lua: &Lua,
    methods: Table,
    nearest_parts: &Table,
    number: u64,
) -> mlua::Result<Table> {
    methods.raw_set(
        "nearest",
        crate::api::make_nearest(lua, nearest_parts, number)?,
    )?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", methods)?;
    meta.raw_set("__metatable", false)?;
    Ok(meta)
}

/// The next script state's number.
static NEXT_NUMBER: AtomicU64 = AtomicU64::new(1);

const PRELUDE: &str = include_str!("prelude.lua");

/// The prelude's chunk name (Lua's `source` of the functions it defines).
const PRELUDE_NAME: &str = "=kiai-prelude";

/// Most lines kept from `print` between drains.
const MAX_LOG: usize = 1000;

impl Script {
    /// The tables [`crate::api::install`] fills each tick.
    pub(crate) fn api_tables(&self) -> ApiTables<'_> {
        ApiTables {
            api: &self.api,
            host: &self.host,
            made: &self.made,
        }
    }

    /// A fresh sandboxed state running `source` (named `file` in errors).
    pub(crate) fn new(file: &str, source: &str, limits: Limits) -> Result<Self, ScriptError> {
        let err = |e: mlua::Error| ScriptError::from_lua(file, &e);
        let lua = Lua::new_with(
            StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::COROUTINE | StdLib::UTF8,
            LuaOptions::default(),
        )
        .map_err(err)?;
        let guard = lua.create_table().map_err(err)?;
        let api = lua.create_table().map_err(err)?;
        let log = Rc::new(RefCell::new(Vec::new()));
        let log_fn = {
            let log = Rc::clone(&log);
            lua.create_function(move |_, line: String| {
                let mut log = log.borrow_mut();
                if log.len() < MAX_LOG {
                    log.push(line);
                }
                Ok(())
            })
            .map_err(err)?
        };
        // Whether a function is the script's own Lua code (not the host's,
        // not the prelude's): the REPL's read-only views refuse to call those.
        let script_fn = lua
            .create_function(|_, f: Function| {
                let info = f.info();
                Ok(info.what != "C" && info.source.as_deref() != Some(PRELUDE_NAME))
            })
            .map_err(err)?;
        let host = lua.create_table().map_err(err)?;
        let kiai_names = lua
            .create_sequence_from(crate::api::kiai_names())
            .map_err(err)?;
        let agent_methods = agent_method_list(&lua).map_err(err)?;
        let (methods, sense_names, nearest_parts): (Table, Table, Table) = lua
            .load(PRELUDE)
            .set_name(PRELUDE_NAME)
            .set_mode(ChunkMode::Text)
            .call((
                guard.clone(),
                api.clone(),
                host.clone(),
                log_fn,
                script_fn,
                kiai_names,
                agent_methods,
            ))
            .map_err(err)?;
        let number = NEXT_NUMBER.fetch_add(1, Ordering::Relaxed);
        let driver = crate::driver::make(&lua, number).map_err(err)?;
        let agent_meta = agent_meta(&lua, methods, &nearest_parts, number).map_err(err)?;
        let t = || lua.create_table();
        let script = Self {
            file: file.to_owned(),
            hooks: Hooks::default(),
            decide_line: None,
            driver,
            cur: t().map_err(err)?,
            guard,
            api,
            host,
            made: Rc::default(),
            agent_meta,
            senses: SenseIds::new(sense_names),
            agents: t().map_err(err)?,
            batch: t().map_err(err)?,
            batch_ids: Vec::new(),
            batch_generations: Vec::new(),
            ctx: t().map_err(err)?,
            hits: RefCell::default(),
            extra: [
                t().map_err(err)?,
                t().map_err(err)?,
                t().map_err(err)?,
                t().map_err(err)?,
                t().map_err(err)?,
            ],
            log,
            meter: Rc::new(Cell::new(Meter::default())),
            number,
            lua,
        };
        script.cur.raw_set(1, 0).map_err(err)?;
        script.install_hook(limits).map_err(err)?;
        script
            .lua
            .set_memory_limit(limits.memory_bytes)
            .map_err(err)?;
        let mut script = script;
        script.reload(source)?;
        Ok(script)
    }

    fn install_hook(&self, limits: Limits) -> mlua::Result<()> {
        let cur = self.cur.clone();
        let guard = self.guard.clone();
        let meter = Rc::clone(&self.meter);
        let interval = u64::from(limits.check_interval.max(1));
        let budget = limits.instructions_per_call;
        let high_water = limits.memory_bytes / 4 * 3;
        self.lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(limits.check_interval.max(1)),
            move |lua, debug| {
                let key: i64 = cur.raw_get(1).unwrap_or(0);
                let mut memory = lua.used_memory();
                // A call met for the first time starts from nothing (before
                // the collection below charges it).
                let mut m = meter.get();
                if m.key != key {
                    m = Meter {
                        key,
                        used: 0,
                        memory,
                    };
                }
                // Near the limit every allocation runs an emergency full
                // collection that the instruction count does not see: collect
                // once here, charge for it, and give up if it stays high.
                let mut full = false;
                if memory > high_water {
                    lua.gc_collect()?;
                    memory = lua.used_memory();
                    full = memory > high_water;
                    m.used += budget / 4;
                }
                m.used += interval + (memory.saturating_sub(m.memory) / 64) as u64;
                m.memory = memory;
                meter.set(m);
                if m.used > budget || full {
                    let source = debug.source();
                    let src = source.short_src.as_deref().unwrap_or("?").to_owned();
                    let line = debug.current_line().unwrap_or(0);
                    let msg = if full {
                        format!("{src}:{line}: memory limit exceeded ({memory} bytes in use)")
                    } else {
                        format!("{src}:{line}: instruction budget of {budget} exceeded")
                    };
                    guard.raw_set(1, true)?;
                    guard.raw_set(2, msg.as_str())?;
                    return Err(mlua::Error::runtime(msg));
                }
                Ok(VmState::Continue)
            },
        )
    }

    /// Starts a new budget for the call numbered `key` (0 for a run of the
    /// batch driver, which numbers each agent's call by its batch position
    /// from 1; event calls negative) and clears a tripped budget.
    ///
    /// Keys repeat from tick to tick (the same agent has the same batch
    /// position), so the meter forgets what it charged before: otherwise an
    /// agent whose calls the hook happened to catch tick after tick would
    /// add them up. Within a driver run, the hook starts each agent's call
    /// afresh when it sees a new key.
    pub(crate) fn begin_call(&self, key: i64) -> mlua::Result<()> {
        self.meter.set(Meter {
            key: NO_CALL,
            used: 0,
            memory: 0,
        });
        self.cur.raw_set(1, key)?;
        self.guard.raw_set(1, Value::Nil)?;
        self.guard.raw_set(2, Value::Nil)?;
        // A call that failed inside a protected call left the count up.
        self.guard
            .raw_get::<Function>("reset_nest")?
            .call::<()>(())?;
        Ok(())
    }

    /// Compiles and runs `source` in a fresh environment and takes its hooks;
    /// on any error the previous version stays.
    pub(crate) fn reload(&mut self, source: &str) -> Result<(), ScriptError> {
        let file = self.file.clone();
        let err = |e: mlua::Error| ScriptError::from_lua(&file, &e);
        let globals = self.lua.globals();
        let env = self.lua.create_table().map_err(err)?;
        let meta = self.lua.create_table().map_err(err)?;
        meta.raw_set("__index", globals).map_err(err)?;
        meta.raw_set("__metatable", false).map_err(err)?;
        env.set_metatable(Some(meta)).map_err(err)?;
        env.raw_set("_G", env.clone()).map_err(err)?;
        let chunk = self
            .lua
            .load(source)
            .set_name(format!("@{}", self.file))
            .set_mode(ChunkMode::Text)
            .set_environment(env.clone())
            .into_function()
            .map_err(err)?;
        self.begin_call(i64::MIN).map_err(err)?;
        let ret: Value = chunk.call(()).map_err(err)?;
        let from = match ret {
            Value::Table(t) => t,
            _ => env,
        };
        let get = |name: &str| -> Result<Option<Function>, ScriptError> {
            match from.raw_get::<Value>(name).map_err(err)? {
                Value::Function(f) => Ok(Some(f)),
                Value::Nil => Ok(None),
                other => Err(ScriptError::plain(
                    &file,
                    None,
                    format!("`{name}` must be a function, not a {}", other.type_name()),
                )),
            }
        };
        let mut found = Vec::with_capacity(HOOKS.len());
        for hook in &HOOKS {
            found.push(get(hook.name)?);
        }
        // In `HOOKS` order: decide, on_seen, on_lost, on_heard, on_message,
        // on_spawn.
        let mut found = found.into_iter();
        let mut next = || found.next().flatten();
        self.hooks = Hooks {
            decide: next(),
            on_seen: next(),
            on_lost: next(),
            on_heard: next(),
            on_message: next(),
            on_spawn: next(),
        };
        self.decide_line = self
            .hooks
            .decide
            .as_ref()
            .and_then(|f| f.info().line_defined.and_then(|l| u32::try_from(l).ok()));
        Ok(())
    }

    /// The line where `decide` is defined, for errors about its results.
    pub(crate) fn decide_line(&self) -> Option<u32> {
        self.decide_line
    }

    /// The table of the agent in slot `i` (`[0]` and `id` its handle as
    /// scripts see it, `name`, `memory`, the agent methods), made the first
    /// time it is asked for and kept while that agent lives.
    pub(crate) fn agent_table(&self, world: &World, i: u32) -> mlua::Result<Table> {
        let key = i64::from(i) + 1;
        let id = crate::handles::lua_id(crate::handles::id(world, i as usize));
        // A slot's table belongs to one agent: a later agent in the slot
        // gets a new one (and a fresh memory).
        if let Some(t) = self.agents.raw_get::<Option<Table>>(key)?
            && t.raw_get::<i64>(0)? == id
        {
            return Ok(t);
        }
        let lua = &self.lua;
        let t = lua.create_table()?;
        t.raw_set(0, id)?;
        t.raw_set("id", id)?;
        t.raw_set("name", world.agents().names()[i as usize].as_str())?;
        t.raw_set("memory", lua.create_table()?)?;
        t.set_metatable(Some(self.agent_meta.clone()))?;
        self.agents.raw_set(key, t.clone())?;
        Ok(t)
    }

    /// Bytes the state uses now.
    pub(crate) fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }
}
