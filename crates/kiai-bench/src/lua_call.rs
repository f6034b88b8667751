//! One world query from Lua against the floor: `agent:nearest("eyes")`
//! through kiai-lua's API, and a bare mlua callback taking and returning
//! the same values (the agent's handle, a sense id and a filter code in;
//! a handle and a distance out) on the same patched Lua with the same
//! instruction hook, both called in a Lua loop.

use std::time::Instant;

use kiai::content::ScriptRef;
use kiai::lua::{Limits, LuaDecider};
use kiai_core::{Pipeline, World};
use mlua::{Function, HookTriggers, Lua, VmState};

use crate::{Effort, Scenario};

/// Calls per measurement (within one hook call's instruction budget).
const CALLS: usize = 4_000;

/// The p50 of the scripts' part of a tick (ms) with `decide` = `src` on the
/// light scene, over `ticks` ticks.
fn script_ms(src: &str, ticks: usize) -> Result<f64, String> {
    let mut world: World = crate::lua::light(10_000, 5)?;
    let scripts: Vec<ScriptRef> = world
        .archetypes()
        .iter()
        .enumerate()
        .map(|(index, a)| ScriptRef {
            index,
            archetype: a.name.clone(),
            path: "call.lua".into(),
            bundled: Some(src.to_owned()),
        })
        .collect();
    let (Some(mut lua), errors) = kiai::lua::decider_for_scripts(&scripts, Limits::default())
    else {
        return Err("lua/call: no decider".into());
    };
    if let Some(e) = errors.first() {
        return Err(format!("lua/call: {e}"));
    }
    let mut pipeline = Pipeline::new();
    let mut times = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        pipeline.tick(&mut world, &mut lua);
        times.push(LuaDecider::script_time(&lua).as_secs_f64() * 1e3);
    }
    if let Some(r) = lua.take_reports().first() {
        return Err(format!("lua/call: script failed: {}", r.error));
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// ms for `CALLS` calls of a bare scoped mlua callback with `nearest`'s
/// arguments and results, from a Lua loop (the p50 of `runs`).
fn bare_ms(runs: usize) -> Result<f64, String> {
    let e = |e: mlua::Error| format!("lua/call: {e}");
    let lua = Lua::new();
    let limits = Limits::default();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(limits.check_interval),
        |_, _| Ok(VmState::Continue),
    )
    .map_err(e)?;
    let mut times = Vec::with_capacity(runs);
    lua.scope(|scope| {
        let nearest =
            scope.create_function(|_, (agent, sense, filter): (Option<i64>, i64, i64)| {
                Ok((agent.map(|a| a + sense + filter), Some(2.5f32)))
            })?;
        let run: Function = lua
            .load(
                "local f = ... return function(n) for i = 1, n do local h, d = f(i, 1, 1) end end",
            )
            .call(nearest)?;
        for _ in 0..runs {
            let start = Instant::now();
            run.call::<()>(CALLS)?;
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        Ok(())
    })
    .map_err(e)?;
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// The scenario: ours = `CALLS` `agent:nearest("eyes")` calls from one
/// agent's `decide` (the scripts' part of the tick minus that of a tick
/// whose agents all return nil), peer = the bare callback.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let ticks = if effort.quick { 15 } else { 60 };
    let calls = format!(
        "function decide(agent, ctx) if agent.id == 0 then for i = 1, {CALLS} do \
         local h, d = agent:nearest(\"eyes\") end end end"
    );
    let with = script_ms(&calls, ticks)?;
    let without = script_ms("function decide(agent, ctx) end", ticks)?;
    let ours = (with - without).max(0.0);
    let peer = bare_ms(ticks)?;
    Ok(vec![Scenario {
        name: "lua/one query/agent:nearest vs bare mlua callback".into(),
        ours_ms: ours,
        peer: "bare mlua callback, same arguments".into(),
        peer_ms: peer,
        note: format!(
            "ms for {CALLS} calls from a Lua loop on the light scene (3.5 percepts per agent), \
             p50 over {ticks} ticks: {:.0} ns per agent:nearest(\"eyes\") (the method \
             lookup, kiai-lua's C function resolving the sense id, and the query), {:.0} ns per bare \
             scoped mlua callback taking (handle, sense id, filter) and returning (handle, \
             distance), same Lua and instruction hook",
            ours * 1e6 / CALLS as f64,
            peer * 1e6 / CALLS as f64
        ),
    }])
}
