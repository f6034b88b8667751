//! The functions scripts call: agent methods and the `kiai` world table.
//!
//! They are made fresh for each tick inside an [`mlua::Lua::scope`], so they
//! can borrow the world; the Lua-side wrappers in the prelude keep `kiai.*`
//! and `math.random` valid when a script holds on to them.

use std::cell::{Cell, RefCell};

use kiai_core::behaviour::Mind;
use kiai_core::glam::Vec3;
use kiai_core::perception::Recipient;
use kiai_core::perception::hearing::{NO_SOURCE, Sound};
use kiai_core::{AgentId, SenseFilter, Shape, World};
use kiai_nav::{CostListId, Destination, Heading, NavQuery, PathFilter, SelectOptions, WaypointId};
use mlua::{IntoLuaMulti, MultiValue, Scope, Table, Value, Variadic};
use rand::RngExt;

use crate::decider::{Intent, message, parse_intent, sound};
use crate::script::Script;

/// Something a script asked the world to do; applied after the decide stage.
#[derive(Clone, Debug)]
pub(crate) enum Action {
    /// Emit a sound.
    Sound(Sound),
    /// Send a message.
    Message(kiai_core::perception::Message),
}

/// What the scoped functions of one script's tick share.
pub(crate) struct Tick<'w> {
    pub(crate) world: &'w World,
    pub(crate) minds: RefCell<&'w mut [Mind]>,
    pub(crate) actions: RefCell<Vec<(u32, Action)>>,
    pub(crate) intents: RefCell<Vec<(u32, Intent)>>,
    pub(crate) batch_ids: &'w [u32],
    /// The agent of the event hook running now.
    pub(crate) current: Cell<Option<u32>>,
    pub(crate) cur: Table,
}

/// Most actions (messages, sounds) one agent may take per tick.
const MAX_ACTIONS_PER_AGENT: usize = 16;

impl Tick<'_> {
    /// The agent whose hook runs now.
    fn current_agent(&self) -> Option<usize> {
        if let Some(a) = self.current.get() {
            return Some(a as usize);
        }
        let k: i64 = self.cur.raw_get(1).ok()?;
        let k = usize::try_from(k).ok()?;
        self.batch_ids.get(k.checked_sub(1)?).map(|&i| i as usize)
    }

    fn push(&self, agent: usize, action: Action) -> mlua::Result<()> {
        let mut actions = self.actions.borrow_mut();
        let mine = actions
            .iter()
            .rev()
            .take_while(|(a, _)| *a as usize == agent)
            .count();
        if mine >= MAX_ACTIONS_PER_AGENT {
            return Err(mlua::Error::runtime(format!(
                "an agent may send at most {MAX_ACTIONS_PER_AGENT} messages and sounds per tick"
            )));
        }
        actions.push((agent as u32, action));
        Ok(())
    }
}

fn rt(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

/// The agent index stored in an agent table.
fn me(t: &Table, world: &World) -> mlua::Result<usize> {
    let i: i64 = t.raw_get(0)?;
    usize::try_from(i)
        .ok()
        .filter(|&i| i < world.agents().len())
        .ok_or_else(|| rt("not an agent (call methods with `agent:method()`)"))
}

/// An agent from a handle, a name or an agent table.
fn handle(v: &Value, world: &World) -> Option<usize> {
    let n = world.agents().len();
    let i = match v {
        Value::Integer(i) => usize::try_from(*i).ok()?,
        Value::Number(f) if f.fract() == 0.0 && *f >= 0.0 => *f as usize,
        Value::String(s) => world.agents().find(&s.to_string_lossy())?.index(),
        Value::Table(t) => usize::try_from(t.raw_get::<i64>(0).ok()?).ok()?,
        _ => return None,
    };
    (i < n).then_some(i)
}

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
pub(crate) fn source_handle(source: u32, world: &World) -> Option<u32> {
    (source != NO_SOURCE && (source as usize) < world.agents().len()).then_some(source)
}

fn sense_index(world: &World, agent: usize, name: &str) -> mlua::Result<usize> {
    let arch = world
        .archetype(world.agents().archetypes()[agent])
        .ok_or_else(|| rt("agent without archetype"))?;
    arch.sense_index(name)
        .ok_or_else(|| rt(format!("`{}` has no sense called `{name}`", arch.name)))
}

fn tag_of(v: Option<i64>) -> mlua::Result<u32> {
    match v {
        None => Ok(0),
        Some(t) => u32::try_from(t).map_err(|_| rt(format!("tag {t} is not in 0..=4294967295"))),
    }
}

fn point(x: Option<f64>, y: Option<f64>, z: Option<f64>, or: Vec3) -> mlua::Result<Vec3> {
    match (x, y, z) {
        (None, None, None) => Ok(or),
        (Some(x), Some(y), Some(z)) if [x, y, z].iter().all(|c| c.is_finite() && c.abs() < 1e9) => {
            Ok(Vec3::new(x as f32, y as f32, z as f32))
        }
        _ => Err(rt("a position needs three finite numbers x, y, z")),
    }
}

fn random(
    rng: &mut kiai_core::rng::AgentRng,
    m: Option<i64>,
    n: Option<i64>,
) -> mlua::Result<Value> {
    Ok(match (m, n) {
        (None, None) => Value::Number(rng.random::<f64>()),
        (Some(hi), None) if hi >= 1 => Value::Integer(rng.random_range(1..=hi)),
        (Some(lo), Some(hi)) if lo <= hi => Value::Integer(rng.random_range(lo..=hi)),
        _ => return Err(rt("bad argument to 'random' (interval is empty)")),
    })
}

/// Installs this tick's functions into the script's `API` and agent methods.
pub(crate) fn install<'s, 'e, 'w: 'e>(
    scope: &'s Scope<'s, 'e>,
    script: &Script,
    tick: &'e Tick<'w>,
) -> mlua::Result<()> {
    let world: &'e World = tick.world;
    let m = &script.methods;
    let api = &script.api;

    // --- agent methods -------------------------------------------------
    let xyz = |v: Vec3| (v.x, v.y, v.z);
    m.raw_set(
        "position",
        scope.create_function(move |_, t: Table| {
            Ok(xyz(world.agents().positions()[me(&t, world)?]))
        })?,
    )?;
    m.raw_set(
        "facing",
        scope.create_function(move |_, t: Table| {
            Ok(xyz(world.agents().facings()[me(&t, world)?]))
        })?,
    )?;
    m.raw_set(
        "velocity",
        scope.create_function(move |_, t: Table| {
            Ok(xyz(world.agents().velocities()[me(&t, world)?]))
        })?,
    )?;
    m.raw_set(
        "state",
        scope.create_function(move |_, t: Table| {
            Ok(world.agents().decisions()[me(&t, world)?].state.name())
        })?,
    )?;
    m.raw_set(
        "target",
        scope.create_function(move |_, t: Table| {
            Ok(world.agents().decisions()[me(&t, world)?]
                .target
                .map(|a| a.0))
        })?,
    )?;
    m.raw_set(
        "faction",
        scope.create_function(move |_, t: Table| {
            let f = world.agents().factions()[me(&t, world)?];
            Ok(world.factions().name(f).unwrap_or("").to_owned())
        })?,
    )?;
    m.raw_set(
        "archetype",
        scope.create_function(move |_, t: Table| {
            let a = world.agents().archetypes()[me(&t, world)?];
            Ok(world
                .archetype(a)
                .map_or_else(String::new, |a| a.name.clone()))
        })?,
    )?;
    m.raw_set(
        "weights",
        scope.create_function(move |_, t: Table| {
            let i = me(&t, world)?;
            let w = tick.minds.borrow()[i].weights;
            Ok((w[0], w[1]))
        })?,
    )?;
    m.raw_set(
        "sees",
        scope.create_function(move |_, (t, sense): (Table, mlua::LuaString)| {
            let i = me(&t, world)?;
            let s = sense_index(world, i, &sense.to_str()?)?;
            Ok(world.percepts().sensed(AgentId::from_index(i), s).len())
        })?,
    )?;
    m.raw_set(
        "sensed",
        scope.create_function(move |lua, (t, sense): (Table, mlua::LuaString)| {
            let i = me(&t, world)?;
            let s = sense_index(world, i, &sense.to_str()?)?;
            let ids = world.percepts().sensed(AgentId::from_index(i), s);
            lua.create_sequence_from(ids.iter().map(|a| a.0))
        })?,
    )?;
    m.raw_set(
        "nearest",
        scope.create_function(
            move |_, (t, sense, filter): (Table, mlua::LuaString, Option<mlua::LuaString>)| {
                let i = me(&t, world)?;
                let s = sense_index(world, i, &sense.to_str()?)?;
                let want = match filter.as_ref().map(|f| f.as_bytes()) {
                    None => SenseFilter::Hostile,
                    Some(f) if *f == *b"hostile" => SenseFilter::Hostile,
                    Some(f) if *f == *b"friendly" => SenseFilter::Friendly,
                    Some(f) if *f == *b"any" => SenseFilter::All,
                    Some(f) => {
                        return Err(rt(format!(
                            "filter must be \"hostile\", \"friendly\" or \"any\", not \"{}\"",
                            String::from_utf8_lossy(&f)
                        )));
                    }
                };
                let a = world.agents();
                let mine = a.factions()[i];
                // What a sight sense lists already passed its own filter
                // (hearing lists sound sources, unfiltered).
                let sense_def = world
                    .archetype(a.archetypes()[i])
                    .and_then(|arch| arch.senses.get(s));
                let prefiltered = want == SenseFilter::All
                    || sense_def.is_some_and(|d| {
                        d.filter == want && !matches!(d.shape, Shape::Hearing { .. })
                    });
                let p = a.positions()[i];
                let mut best: Option<(f32, u32)> = None;
                for &o in world.percepts().sensed(AgentId::from_index(i), s) {
                    if !prefiltered && !want.passes(world.factions(), mine, a.factions()[o.index()])
                    {
                        continue;
                    }
                    let d = p.distance_squared(a.positions()[o.index()]);
                    if best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, o.0));
                    }
                }
                Ok(match best {
                    Some((d, o)) => (Some(o), Some(d.sqrt())),
                    None => (None, None),
                })
            },
        )?,
    )?;
    m.raw_set(
        "heard",
        scope.create_function(move |lua, (t, sense): (Table, mlua::LuaString)| {
            let i = me(&t, world)?;
            let s = sense_index(world, i, &sense.to_str()?)?;
            let p = world.percepts();
            let Some(h) = p.heard(AgentId::from_index(i), s).first() else {
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
        })?,
    )?;
    m.raw_set(
        "sounds",
        scope.create_function(move |lua, (t, sense): (Table, mlua::LuaString)| {
            let i = me(&t, world)?;
            let s = sense_index(world, i, &sense.to_str()?)?;
            let p = world.percepts();
            let list = lua.create_table()?;
            for h in p.heard(AgentId::from_index(i), s) {
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
        })?,
    )?;
    m.raw_set(
        "messages",
        scope.create_function(move |lua, t: Table| {
            let i = me(&t, world)?;
            let p = world.percepts();
            let list = lua.create_table()?;
            for &k in p.inbox(AgentId::from_index(i)) {
                if let Some(msg) = p.messages().get(k as usize) {
                    let e = lua.create_table()?;
                    e.raw_set("from", msg.from.map(|a| a.0))?;
                    e.raw_set("tag", msg.tag)?;
                    e.raw_set("x", msg.position.x)?;
                    e.raw_set("y", msg.position.y)?;
                    e.raw_set("z", msg.position.z)?;
                    list.raw_push(e)?;
                }
            }
            Ok(list)
        })?,
    )?;
    m.raw_set(
        "remembered",
        scope.create_function(move |lua, (t, target): (Table, Value)| {
            let i = me(&t, world)?;
            let Some(o) = handle(&target, world) else {
                return Ok(MultiValue::new());
            };
            let best = world
                .memory(AgentId::from_index(i))
                .iter()
                .filter(|e| e.target.index() == o)
                .max_by_key(|e| e.tick);
            match best {
                Some(e) => (e.position.x, e.position.y, e.position.z, e.tick).into_lua_multi(lua),
                None => Ok(MultiValue::new()),
            }
        })?,
    )?;
    m.raw_set(
        "is_hostile",
        scope.create_function(move |_, (t, other): (Table, Value)| {
            let i = me(&t, world)?;
            let o = handle(&other, world).ok_or_else(|| rt("not an agent"))?;
            let f = world.agents().factions();
            Ok(world.factions().is_hostile(f[i], f[o]))
        })?,
    )?;
    m.raw_set(
        "distance",
        scope.create_function(move |_, (t, other): (Table, Value)| {
            let i = me(&t, world)?;
            let o = handle(&other, world).ok_or_else(|| rt("not an agent"))?;
            let p = world.agents().positions();
            Ok(p[i].distance(p[o]))
        })?,
    )?;
    m.raw_set(
        "set_intent",
        scope.create_function(move |_, (t, args): (Table, Variadic<Value>)| {
            let i = me(&t, world)?;
            let mut v: [Value; 5] = Default::default();
            for (slot, a) in v.iter_mut().zip(args) {
                *slot = a;
            }
            let intent = parse_intent(&v, world).map_err(rt)?;
            tick.intents.borrow_mut().push((i as u32, intent));
            Ok(())
        })?,
    )?;
    m.raw_set(
        "send",
        scope.create_function(
            move |_,
                  (t, to, tag, x, y, z): (
                Table,
                Value,
                Option<i64>,
                Option<f64>,
                Option<f64>,
                Option<f64>,
            )| {
                let i = me(&t, world)?;
                let o = handle(&to, world).ok_or_else(|| rt("send: no such agent"))?;
                let pos = point(x, y, z, world.agents().positions()[i])?;
                tick.push(
                    i,
                    message(
                        i as u32,
                        Recipient::Agent(AgentId::from_index(o)),
                        tag_of(tag)?,
                        pos,
                    ),
                )
            },
        )?,
    )?;
    m.raw_set(
        "radio",
        scope.create_function(
            move |_,
                  (t, radius, tag, x, y, z): (
                Table,
                f64,
                Option<i64>,
                Option<f64>,
                Option<f64>,
                Option<f64>,
            )| {
                let i = me(&t, world)?;
                if !(0.0..1e9).contains(&radius) {
                    return Err(rt("radio: radius must be a finite number >= 0"));
                }
                let here = world.agents().positions()[i];
                let pos = point(x, y, z, here)?;
                let to = Recipient::Radius {
                    center: here,
                    radius: radius as f32,
                };
                tick.push(i, message(i as u32, to, tag_of(tag)?, pos))
            },
        )?,
    )?;
    m.raw_set(
        "broadcast",
        scope.create_function(
            move |_,
                  (t, tag, x, y, z): (
                Table,
                Option<i64>,
                Option<f64>,
                Option<f64>,
                Option<f64>,
            )| {
                let i = me(&t, world)?;
                let pos = point(x, y, z, world.agents().positions()[i])?;
                let to = Recipient::Faction(world.agents().factions()[i]);
                tick.push(i, message(i as u32, to, tag_of(tag)?, pos))
            },
        )?,
    )?;
    m.raw_set(
        "emit_sound",
        scope.create_function(move |_, (t, volume, tag): (Table, f64, Option<i64>)| {
            let i = me(&t, world)?;
            if !(0.0..1e9).contains(&volume) {
                return Err(rt("emit_sound: volume must be a finite number >= 0"));
            }
            let pos = world.agents().positions()[i];
            tick.push(i, sound(i as u32, pos, volume as f32, tag_of(tag)?))
        })?,
    )?;
    m.raw_set(
        "random",
        scope.create_function(move |_, (t, lo, hi): (Table, Option<i64>, Option<i64>)| {
            let i = me(&t, world)?;
            random(&mut tick.minds.borrow_mut()[i].rng, lo, hi)
        })?,
    )?;

    // --- the world -----------------------------------------------------
    api.raw_set(
        "random",
        scope.create_function(move |_, (lo, hi): (Option<i64>, Option<i64>)| {
            let i = tick
                .current_agent()
                .ok_or_else(|| rt("math.random is only available inside hooks"))?;
            random(&mut tick.minds.borrow_mut()[i].rng, lo, hi)
        })?,
    )?;
    api.raw_set(
        "tick",
        scope.create_function(move |_, ()| Ok(world.tick()))?,
    )?;
    api.raw_set(
        "agent_count",
        scope.create_function(move |_, ()| Ok(world.agents().len()))?,
    )?;
    api.raw_set(
        "find",
        scope.create_function(move |_, name: mlua::LuaString| {
            Ok(world.agents().find(&name.to_str()?).map(|a| a.0))
        })?,
    )?;
    api.raw_set(
        "name",
        scope.create_function(move |_, h: Value| {
            Ok(handle(&h, world).map(|i| world.agents().names()[i].clone()))
        })?,
    )?;
    api.raw_set(
        "position",
        scope.create_function(move |lua, h: Value| match handle(&h, world) {
            Some(i) => xyz(world.agents().positions()[i]).into_lua_multi(lua),
            None => Ok(MultiValue::new()),
        })?,
    )?;
    api.raw_set(
        "faction",
        scope.create_function(move |_, h: Value| {
            Ok(handle(&h, world).and_then(|i| {
                world
                    .factions()
                    .name(world.agents().factions()[i])
                    .map(str::to_owned)
            }))
        })?,
    )?;
    api.raw_set(
        "state",
        scope.create_function(move |_, h: Value| {
            Ok(handle(&h, world).map(|i| world.agents().decisions()[i].state.name()))
        })?,
    )?;
    api.raw_set(
        "is_hostile",
        scope.create_function(move |_, (a, b): (Value, Value)| {
            let (Some(a), Some(b)) = (handle(&a, world), handle(&b, world)) else {
                return Err(rt("is_hostile: not an agent"));
            };
            let f = world.agents().factions();
            Ok(world.factions().is_hostile(f[a], f[b]))
        })?,
    )?;
    api.raw_set(
        "nearest_waypoint",
        scope.create_function(move |_, (x, y, z): (f64, f64, f64)| {
            let p = point(Some(x), Some(y), Some(z), Vec3::ZERO)?;
            Ok(world
                .nav()
                .and_then(|nav| nav.nearest_waypoint(p, true))
                .map(|w| w.0))
        })?,
    )?;
    api.raw_set(
        "waypoint",
        scope.create_function(move |lua, id: u32| {
            match world.nav().and_then(|nav| nav.pos(WaypointId(id))) {
                Some(p) => xyz(p).into_lua_multi(lua),
                None => Ok(MultiValue::new()),
            }
        })?,
    )?;
    api.raw_set(
        "path",
        scope.create_function(move |lua, (from, to, list): (u32, u32, Option<u16>)| {
            let Some(nav) = world.nav() else {
                return Ok(MultiValue::new());
            };
            let list = CostListId(list.unwrap_or(0));
            if !nav.has_cost_list(list) {
                return Err(rt(format!("no cost list {}", list.0)));
            }
            let mut query = NavQuery::new(65_536);
            match nav.find_path(
                WaypointId(from),
                WaypointId(to),
                &PathFilter::new(list),
                &mut query,
            ) {
                Ok(r) if r.is_complete() => {
                    let ids = lua.create_sequence_from(query.path().iter().map(|w| w.0))?;
                    (ids, r.cost).into_lua_multi(lua)
                }
                _ => Ok(MultiValue::new()),
            }
        })?,
    )?;
    api.raw_set(
        "select",
        scope.create_function(
            move |_, (at, dest, heading, list): (u32, u32, Option<mlua::LuaString>, Option<u16>)| {
                let Some(nav) = world.nav() else {
                    return Ok(None);
                };
                let heading = match heading.as_ref().map(|h| h.to_string_lossy()) {
                    None => Heading::Toward,
                    Some(h) if h == "toward" => Heading::Toward,
                    Some(h) if h == "away" => Heading::Away,
                    Some(h) => return Err(rt(format!("heading must be \"toward\" or \"away\", not \"{h}\""))),
                };
                let opts = SelectOptions::new(heading, CostListId(list.unwrap_or(0)));
                let i = tick
                    .current_agent()
                    .ok_or_else(|| rt("kiai.select is only available inside hooks"))?;
                let mut minds = tick.minds.borrow_mut();
                Ok(nav
                    .select_neighbour(
                        WaypointId(at),
                        Destination::Waypoint(WaypointId(dest)),
                        &opts,
                        &mut minds[i].rng,
                    )
                    .map(|w| w.0))
            },
        )?,
    )?;
    Ok(())
}
