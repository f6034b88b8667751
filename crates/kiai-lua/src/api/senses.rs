//! What the agent senses: its named senses' lists, sounds, messages and
//! memory.

use kiai_core::perception::hearing::NO_SOURCE;
use kiai_core::{AgentId, SenseFilter, Shape, World};
use mlua::{Function, IntoLuaMulti, MultiValue, Scope, Table, Value};

use super::{ApiFunction, Binding, On, Tick, handle, id, lua_id, me, rt};
use crate::nearest_ahead::nearest_in;

pub(super) const BINDINGS: &[Binding] = &[
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "sees",
            params: "sense: string|integer",
            returns: "integer",
            doc: "How many agents the named sense senses now.",
        },
        make: Some(sees),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "sensed",
            params: "sense: string|integer, into?: integer[]",
            returns: "integer[]",
            doc: "The handles the named sense senses now, ascending (written into `into` when given, else a new table).",
        },
        make: Some(sensed),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "nearest",
            params: "sense: string|integer, filter?: \"hostile\"|\"friendly\"|\"any\"",
            returns: "integer?, number?",
            doc: "Handle and distance of the nearest agent the named sense senses (hostile by default).",
        },
        // One raw C function per script state, not made per tick
        // (raw_nearest.rs).
        make: None,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "heard",
            params: "sense: string|integer",
            returns: "number?, integer?, number?, number?, number?, integer?",
            doc: "The loudest sound the named sense hears: loudness, source, x, y, z, tag (nothing when silent).",
        },
        make: Some(heard),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "sounds",
            params: "sense: string|integer, into?: table",
            returns: "{loudness: number, source: integer?, x: number, y: number, z: number, tag: integer}[]",
            doc: "Every sound the named sense hears, loudest first (written into `into` and its entry tables when given).",
        },
        make: Some(sounds),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "messages",
            params: "into?: table",
            returns: "{from: integer?, tag: integer, x: number, y: number, z: number}[]",
            doc: "The messages that reached the agent this tick (written into `into` and its entry tables when given).",
        },
        make: Some(messages),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "remembered",
            params: "other: integer|string|table",
            returns: "number?, number?, number?, integer?",
            doc: "Where and when a remembering sense last sensed `other`: x, y, z, tick (nothing when never).",
        },
        make: Some(remembered),
    },
];

/// The name of sense `sense` of `agent`.
pub(crate) fn sense_name(world: &World, agent: AgentId, sense: usize) -> String {
    world
        .agents()
        .archetypes()
        .get(agent.index())
        .and_then(|a| world.archetype(*a))
        .and_then(|a| a.senses.get(sense))
        .map_or_else(String::new, |s| s.name.clone())
}

/// The handle of a sound's source, `None` when no agent made it.
fn source_handle(source: u32, world: &World) -> Option<i64> {
    (source != NO_SOURCE)
        .then(|| world.agents().id(source as usize))
        .flatten()
        .map(lua_id)
}

/// The agent of handle `t` and the index of its sense with id `sense` (an
/// id the prelude gave the sense's name).
pub(super) fn agent_sense(
    t: Option<i64>,
    sense: i64,
    tick: &Tick<'_>,
) -> mlua::Result<(usize, usize)> {
    let i = me(t, tick.world)?;
    Ok((i, tick.senses.index(tick.world, i, sense)?))
}

fn sees<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, (t, sense): (Option<i64>, i64)| {
        let (i, s) = agent_sense(t, sense, tick)?;
        Ok(tick.sensed.of(world, id(world, i), s).len())
    })
}

fn sensed<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |lua, (t, sense, into): (Option<i64>, i64, Option<Table>)| {
            let (i, s) = agent_sense(t, sense, tick)?;
            let ids = tick.sensed.of(world, id(world, i), s);
            let list = reuse(lua, into, ids.len())?;
            for (k, &a) in ids.iter().enumerate() {
                list.raw_set(k + 1, lua_id(a))?;
            }
            finish(list, ids.len())
        },
    )
}

/// The table to fill with up to `n` results: `into`, or a new table.
fn reuse(lua: &mlua::Lua, into: Option<Table>, n: usize) -> mlua::Result<Table> {
    match into {
        Some(t) => Ok(t),
        None => lua.create_table_with_capacity(n, 0),
    }
}

/// `list` with its first `n` entries filled: the rest (left from an
/// earlier fill) removed.
fn finish(list: Table, n: usize) -> mlua::Result<Table> {
    for k in (n + 1..=list.raw_len()).rev() {
        list.raw_set(k, Value::Nil)?;
    }
    Ok(list)
}

/// Entry `k` of `list`: the table already there, or a new one put there.
fn entry(lua: &mlua::Lua, list: &Table, k: usize) -> mlua::Result<Table> {
    if let Value::Table(e) = list.raw_get(k)? {
        return Ok(e);
    }
    let e = lua.create_table_with_capacity(0, 6)?;
    list.raw_set(k, &e)?;
    Ok(e)
}

/// `nearest`'s filter: 1 hostile, 2 friendly, 3 any (the prelude turns
/// the names into these).
pub(super) fn filter_of(filter: i64) -> mlua::Result<SenseFilter> {
    match filter {
        1 => Ok(SenseFilter::Hostile),
        2 => Ok(SenseFilter::Friendly),
        3 => Ok(SenseFilter::All),
        f => Err(rt(format!(
            "filter must be \"hostile\", \"friendly\" or \"any\", not {f}"
        ))),
    }
}

/// The nearest agent sense `s` of agent `i` senses that passes `want`, and
/// its distance.
pub(super) fn nearest_of(
    tick: &Tick<'_>,
    i: usize,
    s: usize,
    want: SenseFilter,
) -> Option<(i64, f32)> {
    let world = tick.world;
    let a = world.agents();
    let mine = a.factions()[i];
    // What a sight sense lists already passed its own filter (hearing lists
    // sound sources, unfiltered).
    let sense_def = world
        .archetype(a.archetypes()[i])
        .and_then(|arch| arch.senses.get(s));
    let prefiltered = want == SenseFilter::All
        || sense_def.is_some_and(|d| d.filter == want && !matches!(d.shape, Shape::Hearing { .. }));
    if prefiltered {
        let found = tick.sensed.nearest(world, id(world, i), s);
        return found.map(|(o, d)| (lua_id(o), d));
    }
    let passing = tick
        .sensed
        .of(world, id(world, i), s)
        .iter()
        .copied()
        .filter(|o| want.passes(world.factions(), mine, a.factions()[o.index()]));
    nearest_in(passing, a.positions()[i], a.positions()).map(|(o, d)| (lua_id(o), d))
}

fn heard<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, (t, sense): (Option<i64>, i64)| {
        let (i, s) = agent_sense(t, sense, tick)?;
        let p = world.percepts();
        let Some(h) = p.heard(id(world, i), s).first() else {
            return Ok(MultiValue::new());
        };
        let Some(snd) = p.sounds().get(h.sound) else {
            return Ok(MultiValue::new());
        };
        let src = source_handle(snd.source, world);
        (
            h.loudness,
            src,
            snd.position.x,
            snd.position.y,
            snd.position.z,
            snd.tag,
        )
            .into_lua_multi(lua)
    })
}

fn sounds<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |lua, (t, sense, into): (Option<i64>, i64, Option<Table>)| {
            let (i, s) = agent_sense(t, sense, tick)?;
            let p = world.percepts();
            let heard = p.heard(id(world, i), s);
            let list = reuse(lua, into, heard.len())?;
            let mut k = 0;
            for h in heard {
                if let Some(snd) = p.sounds().get(h.sound) {
                    k += 1;
                    let e = entry(lua, &list, k)?;
                    e.raw_set("loudness", h.loudness)?;
                    e.raw_set("source", source_handle(snd.source, world))?;
                    e.raw_set("x", snd.position.x)?;
                    e.raw_set("y", snd.position.y)?;
                    e.raw_set("z", snd.position.z)?;
                    e.raw_set("tag", snd.tag)?;
                }
            }
            finish(list, k)
        },
    )
}

fn messages<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, (t, into): (Option<i64>, Option<Table>)| {
        let i = me(t, world)?;
        let p = world.percepts();
        let inbox = p.inbox(id(world, i));
        let list = reuse(lua, into, inbox.len())?;
        let mut n = 0;
        for &k in inbox {
            if let Some(msg) = p.messages().get(k as usize) {
                n += 1;
                let e = entry(lua, &list, n)?;
                e.raw_set("from", msg.from.map(lua_id))?;
                e.raw_set("tag", msg.tag)?;
                e.raw_set("x", msg.position.x)?;
                e.raw_set("y", msg.position.y)?;
                e.raw_set("z", msg.position.z)?;
            }
        }
        finish(list, n)
    })
}

fn remembered<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, (t, target): (Option<i64>, Value)| {
        let i = me(t, world)?;
        let Some(o) = handle(&target, world) else {
            return Ok(MultiValue::new());
        };
        let best = world
            .memory(id(world, i))
            .iter()
            .filter(|e| e.target.index() == o)
            .max_by_key(|e| e.tick);
        match best {
            Some(e) => (e.position.x, e.position.y, e.position.z, e.tick).into_lua_multi(lua),
            None => Ok(MultiValue::new()),
        }
    })
}
