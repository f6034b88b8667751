//! One script's part of a tick, phase by phase: sync the batch with the
//! agents it decides for, run `on_spawn` and the percept event hooks, run
//! `decide` for the whole batch (restarting after a failing agent), and
//! read the results back.

use std::cell::{Cell, RefCell};

use kiai_core::behaviour::Mind;
use kiai_core::{AgentId, EventKind, World};
use mlua::{Function, IntoLuaMulti, MultiValue, Table, Value};

use crate::ScriptError;
use crate::api::{self, Action, Tick};
use crate::driver::POSITION_BITS;
use crate::handles;
use crate::intent::{Intent, SLOW, parse_intent, unpack};
use crate::script::Script;
use crate::sensed_lists::SensedLists;

/// What one script's tick produced, in the order it happened.
#[derive(Default)]
pub(crate) struct Outcome {
    /// Failed hook calls and invalid results.
    pub(crate) failures: Vec<ScriptError>,
    /// Intents by agent: `set_intent`'s first (by agent), then `decide`'s.
    pub(crate) intents: Vec<(u32, Intent)>,
    /// Messages and sounds, in the order the script made them.
    pub(crate) actions: Vec<(u32, Action)>,
}

/// Runs `script`'s events and batch for this tick over the agents in
/// `list` (ascending slots), its sense queries reading `sensed`; `spawned`
/// holds, per slot, the handle (bits plus one, 0 for none) of the agent
/// `on_spawn` already ran for. An error returned is one of the host's (the
/// state ran out of memory between calls); what the script did before it
/// is in `out`.
pub(crate) fn run_script(
    script: &mut Script,
    list: &[u32],
    spawned: &mut [u64],
    world: &World,
    sensed: &SensedLists,
    minds: &mut [Mind],
    out: &mut Outcome,
) -> mlua::Result<()> {
    let changed = sync_batch(script, list, world)?;
    let script: &Script = script;
    script.senses.begin_tick();
    script.ctx.raw_set("tick", world.tick())?;
    script.ctx.raw_set("agents", world.agents().len())?;
    script.ctx.raw_set("dt", world.config().tick_seconds)?;
    let tick = Tick {
        world,
        minds: RefCell::new(minds),
        actions: RefCell::new(Vec::new()),
        // The caller's buffer (empty; its memory is kept between ticks).
        intents: RefCell::new(std::mem::take(&mut out.intents)),
        batch_ids: &script.batch_ids,
        senses: &script.senses,
        sensed,
        hits: &script.hits,
        current: Cell::new(None),
        cur: script.cur.clone(),
    };
    let decide_line = script.decide_line();
    script.lua.scope(|scope| {
        api::install(scope, &script.api_tables(), &tick)?;
        api::run_with(&tick, script.number, || {
            let mut calls = Calls {
                script,
                tick: &tick,
                seq: -1,
                failures: &mut out.failures,
            };
            if changed {
                spawn_events(&mut calls, spawned)?;
            }
            percept_events(&mut calls)?;
            decide_batch(script, &tick, decide_line, &mut out.failures)
        })
    })?;
    // Intents from set_intent first, then decide's (which win: later
    // entries overwrite earlier ones when applied). Decide's come in batch
    // order, ascending, so without set_intent there is nothing to sort.
    let mut all = tick.intents.into_inner();
    if !all.is_sorted_by_key(|(i, _)| *i) {
        all.sort_by_key(|(i, _)| *i);
    }
    out.intents = all;
    out.actions.append(&mut tick.actions.into_inner());
    Ok(())
}

/// Makes the batch tables hold `list`'s agents, when it changed (agent
/// tables are made once). Returns whether it changed: only then can an
/// agent be new to the script.
fn sync_batch(script: &mut Script, list: &[u32], world: &World) -> mlua::Result<bool> {
    let generations = world.agents();
    let same_agents = script.batch_ids == list
        && list
            .iter()
            .zip(&script.batch_generations)
            .all(|(&i, &g)| generations.generation_of(i as usize) == g);
    if same_agents {
        return Ok(false);
    }
    let old = script.batch_ids.len();
    for (k, &i) in list.iter().enumerate() {
        script.batch.raw_set(k + 1, script.agent_table(world, i)?)?;
    }
    for k in list.len() + 1..=old {
        script.batch.raw_set(k, Value::Nil)?;
    }
    script.batch_ids.clear();
    script.batch_ids.extend_from_slice(list);
    script.batch_generations.clear();
    script.batch_generations.extend(
        list.iter()
            .map(|&i| world.agents().generation_of(i as usize)),
    );
    Ok(true)
}

/// Event hook calls of one tick: each gets its own budget and runs as its
/// agent (for `math.random`); a failing call is recorded and the next one
/// runs.
struct Calls<'a, 'w> {
    script: &'a Script,
    tick: &'a Tick<'w>,
    /// Budget key of the next call (event calls count down from -1).
    seq: i64,
    failures: &'a mut Vec<ScriptError>,
}

impl Calls<'_, '_> {
    fn call(&mut self, f: &Function, agent: u32, args: MultiValue) -> mlua::Result<()> {
        self.script.begin_call(self.seq)?;
        self.seq -= 1;
        self.tick.current.set(Some(agent));
        if let Err(e) = f.call::<()>(args) {
            self.failures
                .push(ScriptError::from_lua(&self.script.file, &e));
        }
        self.tick.current.set(None);
        Ok(())
    }
}

/// `on_spawn`, the first time the script sees each agent.
fn spawn_events(calls: &mut Calls<'_, '_>, spawned: &mut [u64]) -> mlua::Result<()> {
    let script = calls.script;
    let world = calls.tick.world;
    let seen = |i: u32| handles::id(world, i as usize).to_bits().wrapping_add(1);
    let Some(f) = &script.hooks.on_spawn else {
        for &i in &script.batch_ids {
            spawned[i as usize] = seen(i);
        }
        return Ok(());
    };
    for &i in &script.batch_ids {
        if spawned[i as usize] != seen(i) {
            spawned[i as usize] = seen(i);
            let t: Table = script.agents.raw_get(i64::from(i) + 1)?;
            calls.call(f, i, (t,).into_lua_multi(&script.lua)?)?;
        }
    }
    Ok(())
}

/// `on_seen`, `on_lost`, `on_heard` and `on_message` of the batch's agents,
/// in the percepts' order.
fn percept_events(calls: &mut Calls<'_, '_>) -> mlua::Result<()> {
    let script = calls.script;
    let hooks = &script.hooks;
    if hooks.on_seen.is_none()
        && hooks.on_lost.is_none()
        && hooks.on_heard.is_none()
        && hooks.on_message.is_none()
    {
        return Ok(());
    }
    for ev in calls.tick.world.percept_events() {
        let Some(agent) = ev.agent() else {
            continue;
        };
        if script.batch_ids.binary_search(&agent.slot()).is_err() {
            continue;
        }
        let me: Table = script.agents.raw_get(i64::from(agent.slot()) + 1)?;
        if let Some((f, args)) = event_call(script, calls.tick.world, &ev, agent, me)? {
            calls.call(f, agent.slot(), args)?;
        }
    }
    Ok(())
}

/// The hook `ev` (a percept event of `agent`) calls and its arguments, if
/// the script has that hook (`me` is the agent's table).
fn event_call<'a>(
    script: &'a Script,
    world: &World,
    ev: &EventKind,
    agent: AgentId,
    me: Table,
) -> mlua::Result<Option<(&'a Function, MultiValue)>> {
    let lua = &script.lua;
    let hooks = &script.hooks;
    let sense_name = |s: u16| api::sense_name(world, agent, usize::from(s));
    let hook = match *ev {
        EventKind::Gained { .. } => &hooks.on_seen,
        EventKind::Lost { .. } => &hooks.on_lost,
        EventKind::Heard { .. } => &hooks.on_heard,
        EventKind::Message { .. } => &hooks.on_message,
        _ => &None,
    };
    let Some(f) = hook else {
        return Ok(None);
    };
    let args = match *ev {
        EventKind::Gained { sense, target, .. } | EventKind::Lost { sense, target, .. } => {
            (me, handles::lua_id(target), sense_name(sense)).into_lua_multi(lua)?
        }
        EventKind::Heard {
            sense,
            source,
            position: p,
            tag,
            loudness,
            ..
        } => {
            let source = source.map(handles::lua_id);
            (me, source, loudness, sense_name(sense), tag, p.x, p.y, p.z).into_lua_multi(lua)?
        }
        EventKind::Message {
            from,
            tag,
            position: p,
            ..
        } => (me, from.map(handles::lua_id), tag, p.x, p.y, p.z).into_lua_multi(lua)?,
        _ => return Ok(None),
    };
    Ok(Some((f, args)))
}

/// `decide` for the whole batch, then its results.
fn decide_batch(
    script: &Script,
    tick: &Tick<'_>,
    decide_line: Option<u32>,
    failures: &mut Vec<ScriptError>,
) -> mlua::Result<()> {
    let Some(decide) = &script.hooks.decide else {
        return Ok(());
    };
    tick.hits.borrow_mut().clear();
    let failed = run_driver(script, decide, failures)?;
    script.begin_call(0)?;
    let mut intents = tick.intents.borrow_mut();
    let hits = tick.hits.borrow();
    read_back(
        script,
        (&hits, &failed, decide_line),
        tick.world,
        &mut intents,
        failures,
    )
}

/// Runs the batch driver (driver.rs); a failure at position k restarts it
/// at k + 1. Returns the positions whose call failed.
fn run_driver(
    script: &Script,
    decide: &Function,
    failures: &mut Vec<ScriptError>,
) -> mlua::Result<Vec<usize>> {
    let total = script.batch_ids.len();
    let mut first = 1usize;
    let mut failed: Vec<usize> = Vec::new();
    while first <= total {
        script.begin_call(0)?;
        let r = script.driver.call::<()>((
            decide.clone(),
            script.batch.clone(),
            first,
            total,
            script.ctx.clone(),
            script.cur.clone(),
            script.extra[0].clone(),
            script.extra[1].clone(),
            script.extra[2].clone(),
            script.extra[3].clone(),
            script.extra[4].clone(),
        ));
        let Err(e) = r else { break };
        failures.push(ScriptError::from_lua(&script.file, &e));
        let k: i64 = script.cur.raw_get(1).unwrap_or(0);
        let k = usize::try_from(k).unwrap_or(0);
        if k < first || k > total {
            // The driver failed outside any agent's call (before its first,
            // e.g. out of memory passing its arguments): give up for this
            // tick.
            failed.extend(first..=total);
            break;
        }
        failed.push(k);
        first = k + 1;
    }
    Ok(failed)
}

/// Reads the batch's results: `hits`, each a batch position times
/// 2^[`POSITION_BITS`] plus a packed result (driver.rs), except the
/// positions in `failed` (ascending). Invalid ones become failures, placed
/// at `decide_line` (where `decide` is defined).
fn read_back(
    script: &Script,
    (hits, failed, decide_line): (&[i64], &[usize], Option<u32>),
    world: &World,
    intents: &mut Vec<(u32, Intent)>,
    failures: &mut Vec<ScriptError>,
) -> mlua::Result<()> {
    for &v in hits {
        let (k, code) = (
            usize::try_from(v >> POSITION_BITS).unwrap_or(0),
            v & ((1 << POSITION_BITS) - 1),
        );
        let Some(&agent) = script.batch_ids.get(k.wrapping_sub(1)) else {
            continue;
        };
        if failed.binary_search(&k).is_ok() || code == 0 {
            continue;
        }
        let parsed = if code == SLOW {
            parse_intent(&take_extra(script, k)?, world)
        } else {
            unpack(code, world)
        };
        match parsed {
            Ok(intent) => intents.push((agent, intent)),
            Err(msg) => failures.push(ScriptError::plain(
                &script.file,
                decide_line,
                format!("decide returned an invalid intent: {msg}"),
            )),
        }
    }
    Ok(())
}

/// The slow-path values the driver left at position `k`, cleared.
fn take_extra(script: &Script, k: usize) -> mlua::Result<[Value; 5]> {
    let extra = &script.extra;
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
    Ok(v)
}
