//! What the agent senses: its named senses' lists, sounds, messages and
//! memory.

use kiai_core::perception::hearing::NO_SOURCE;
use kiai_core::{AgentId, SenseFilter, Shape, World};
use mlua::{Function, IntoLuaMulti, LuaString, MultiValue, Scope, Table, Value};

use super::{ApiFunction, Binding, On, Tick, handle, id, lua_id, me, rt};

pub(super) const BINDINGS: &[Binding] = &[
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "sees",
            params: "sense: string",
            returns: "integer",
            doc: "How many agents the named sense senses now.",
        },
        make: sees,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "sensed",
            params: "sense: string",
            returns: "integer[]",
            doc: "The handles the named sense senses now, ascending (a new table).",
        },
        make: sensed,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "nearest",
            params: "sense: string, filter?: \"hostile\"|\"friendly\"|\"any\"",
            returns: "integer?, number?",
            doc: "Handle and distance of the nearest agent the named sense senses (hostile by default).",
        },
        make: nearest,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "heard",
            params: "sense: string",
            returns: "number?, integer?, number?, number?, number?, integer?",
            doc: "The loudest sound the named sense hears: loudness, source, x, y, z, tag (nothing when silent).",
        },
        make: heard,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "sounds",
            params: "sense: string",
            returns: "{loudness: number, source: integer?, x: number, y: number, z: number, tag: integer}[]",
            doc: "Every sound the named sense hears, loudest first.",
        },
        make: sounds,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "messages",
            params: "",
            returns: "{from: integer?, tag: integer, x: number, y: number, z: number}[]",
            doc: "The messages that reached the agent this tick.",
        },
        make: messages,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "remembered",
            params: "other: integer|string|table",
            returns: "number?, number?, number?, integer?",
            doc: "Where and when a remembering sense last sensed `other`: x, y, z, tick (nothing when never).",
        },
        make: remembered,
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
pub(crate) fn source_handle(source: u32, world: &World) -> Option<i64> {
    (source != NO_SOURCE)
        .then(|| world.agents().id(source as usize))
        .flatten()
        .map(lua_id)
}

/// The index of `agent`'s sense called `name`.
fn sense_index(world: &World, agent: usize, name: &str) -> mlua::Result<usize> {
    let arch = world
        .archetype(world.agents().archetypes()[agent])
        .ok_or_else(|| rt("agent without archetype"))?;
    arch.sense_index(name)
        .ok_or_else(|| rt(format!("`{}` has no sense called `{name}`", arch.name)))
}

/// The agent of table `t` and the index of its sense `sense`.
fn agent_sense(t: &Table, sense: &LuaString, world: &World) -> mlua::Result<(usize, usize)> {
    let i = me(t, world)?;
    Ok((i, sense_index(world, i, &sense.to_str()?)?))
}

fn sees<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, (t, sense): (Table, LuaString)| {
        let (i, s) = agent_sense(&t, &sense, world)?;
        Ok(world.percepts().sensed(id(world, i), s).len())
    })
}

fn sensed<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, (t, sense): (Table, LuaString)| {
        let (i, s) = agent_sense(&t, &sense, world)?;
        let ids = world.percepts().sensed(id(world, i), s);
        lua.create_sequence_from(ids.iter().map(|&a| lua_id(a)))
    })
}

/// `nearest`'s filter argument.
fn filter_of(filter: Option<&LuaString>) -> mlua::Result<SenseFilter> {
    match filter.map(|f| f.as_bytes()) {
        None => Ok(SenseFilter::Hostile),
        Some(f) if *f == *b"hostile" => Ok(SenseFilter::Hostile),
        Some(f) if *f == *b"friendly" => Ok(SenseFilter::Friendly),
        Some(f) if *f == *b"any" => Ok(SenseFilter::All),
        Some(f) => Err(rt(format!(
            "filter must be \"hostile\", \"friendly\" or \"any\", not \"{}\"",
            String::from_utf8_lossy(&f)
        ))),
    }
}

/// The nearest agent sense `s` of agent `i` senses that passes `want`, and
/// its distance.
fn nearest_of(world: &World, i: usize, s: usize, want: SenseFilter) -> Option<(i64, f32)> {
    let a = world.agents();
    let mine = a.factions()[i];
    // What a sight sense lists already passed its own filter (hearing lists
    // sound sources, unfiltered).
    let sense_def = world
        .archetype(a.archetypes()[i])
        .and_then(|arch| arch.senses.get(s));
    let prefiltered = want == SenseFilter::All
        || sense_def.is_some_and(|d| d.filter == want && !matches!(d.shape, Shape::Hearing { .. }));
    let p = a.positions()[i];
    let mut best: Option<(f32, i64)> = None;
    for &o in world.percepts().sensed(id(world, i), s) {
        if !prefiltered && !want.passes(world.factions(), mine, a.factions()[o.index()]) {
            continue;
        }
        let d = p.distance_squared(a.positions()[o.index()]);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, lua_id(o)));
        }
    }
    best.map(|(d, o)| (o, d.sqrt()))
}

fn nearest<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_, (t, sense, filter): (Table, LuaString, Option<LuaString>)| {
            let (i, s) = agent_sense(&t, &sense, world)?;
            let want = filter_of(filter.as_ref())?;
            Ok(match nearest_of(world, i, s, want) {
                Some((o, d)) => (Some(o), Some(d)),
                None => (None, None),
            })
        },
    )
}

fn heard<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, (t, sense): (Table, LuaString)| {
        let (i, s) = agent_sense(&t, &sense, world)?;
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
    scope.create_function(move |lua, (t, sense): (Table, LuaString)| {
        let (i, s) = agent_sense(&t, &sense, world)?;
        let p = world.percepts();
        let list = lua.create_table()?;
        for h in p.heard(id(world, i), s) {
            if let Some(snd) = p.sounds().get(h.sound) {
                let e = lua.create_table()?;
                e.raw_set("loudness", h.loudness)?;
                e.raw_set("source", source_handle(snd.source, world))?;
                e.raw_set("x", snd.position.x)?;
                e.raw_set("y", snd.position.y)?;
                e.raw_set("z", snd.position.z)?;
                e.raw_set("tag", snd.tag)?;
                list.raw_push(e)?;
            }
        }
        Ok(list)
    })
}

fn messages<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, t: Table| {
        let i = me(&t, world)?;
        let p = world.percepts();
        let list = lua.create_table()?;
        for &k in p.inbox(id(world, i)) {
            if let Some(msg) = p.messages().get(k as usize) {
                let e = lua.create_table()?;
                e.raw_set("from", msg.from.map(lua_id))?;
                e.raw_set("tag", msg.tag)?;
                e.raw_set("x", msg.position.x)?;
                e.raw_set("y", msg.position.y)?;
                e.raw_set("z", msg.position.z)?;
                list.raw_push(e)?;
            }
        }
        Ok(list)
    })
}

fn remembered<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, (t, target): (Table, Value)| {
        let i = me(&t, world)?;
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
