//! The console's REPL: Lua evaluated in a script's sandbox, with read-only
//! views of the agent and the libraries, so that nothing typed there can
//! change the run.

use std::cell::{Cell, RefCell};

use kiai_core::behaviour::Mind;
use kiai_core::{AgentId, World};
use mlua::{Function, Value};

use crate::api::{self, Tick};
use crate::script::{Script, ScriptError};
use crate::sensed_lists::SensedLists;

/// Evaluates `code` in `script`'s sandbox with `agent` bound to a read-only
/// view of `agent`'s table (what `LuaDecider::eval` runs).
pub(crate) fn eval_in(
    script: &Script,
    world: &World,
    agent: AgentId,
    code: &str,
) -> Result<String, ScriptError> {
    let err = |e: mlua::Error| ScriptError::from_lua("repl", &e);
    // Frozen, nothing done here (the views included) gives an object its
    // identity as a table key: the order `next` visits keys in later is as
    // if the REPL never ran.
    let freeze: Function = script.api.raw_get("__freeze_keys").map_err(err)?;
    let was: bool = freeze.call(true).map_err(err)?;
    let result = eval_frozen(script, world, agent, code);
    freeze.call::<bool>(was).map_err(err)?;
    result
}

/// [`eval_in`] once key identities are frozen.
fn eval_frozen(
    script: &Script,
    world: &World,
    agent: AgentId,
    code: &str,
) -> Result<String, ScriptError> {
    let err = |e: mlua::Error| ScriptError::from_lua("repl", &e);
    let lua = &script.lua;
    let i = agent.index() as u32;
    let me = script.agent_table(world, i).map_err(err)?;
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
    let sensed = SensedLists::default();
    let hits = RefCell::new(Vec::new());
    let tick = Tick {
        world,
        minds: RefCell::new(&mut minds),
        actions: RefCell::new(Vec::new()),
        intents: RefCell::new(Vec::new()),
        batch_ids: &ids,
        senses: &script.senses,
        sensed: &sensed,
        hits: &hits,
        current: Cell::new(Some(i)),
        cur: script.cur.clone(),
    };
    script.senses.begin_tick();
    let result = lua.scope(|scope| {
        api::install(scope, &script.api_tables(), &tick)?;
        api::run_with(&tick, script.number, || {
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
    });
    result.map_err(err)
}
