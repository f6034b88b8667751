//! What the agent does: intents, messages, sounds, and agents joining and
//! leaving the world. Messages and sounds are queued and applied after the
//! decide stage, in agent order; spawns and despawns are queued for the end
//! of the tick (`World::defer`), so a tick always sees one world.

use kiai_core::glam::Vec3;
use kiai_core::perception::hearing::Sound;
use kiai_core::perception::{Message, Recipient};
use kiai_core::{AgentId, AgentSpawn, World};
use mlua::{Function, Scope, Value, Variadic};

use super::{ApiFunction, Binding, On, Tick, handle, id, me, point, rt};
use crate::intent::parse_intent;

pub(super) const BINDINGS: &[Binding] = &[
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "set_intent",
            params: "state: string|table, target?: integer|string|table, x?: number, y?: number, z?: number",
            returns: "",
            doc: "An intent (the same forms as decide's results) used when decide returns nil.",
        },
        make: Some(set_intent),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "send",
            params: "to: integer|string|table, tag?: integer, x?: number, y?: number, z?: number",
            returns: "",
            doc: "Action: a message to one agent, at the sender's position unless x, y, z are given.",
        },
        make: Some(send),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "radio",
            params: "radius: number, tag?: integer, x?: number, y?: number, z?: number",
            returns: "",
            doc: "Action: a message to every agent within `radius` world units.",
        },
        make: Some(radio),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "broadcast",
            params: "tag?: integer, x?: number, y?: number, z?: number",
            returns: "",
            doc: "Action: a message to every agent of the sender's faction.",
        },
        make: Some(broadcast),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "emit_sound",
            params: "volume: number, tag?: integer",
            returns: "",
            doc: "Action: a sound of `volume` at the agent's position.",
        },
        make: Some(emit_sound),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "despawn",
            params: "",
            returns: "",
            doc: "Action: the agent leaves the world at the end of the tick; its handle then names nobody.",
        },
        make: Some(despawn),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "spawn",
            params: "archetype: string, faction: string, x: number, y: number, z: number, name?: string",
            returns: "",
            doc: "Action: a new agent joins the world at the end of the tick (its on_spawn runs the next tick).",
        },
        make: Some(spawn),
    },
];

/// Something a script asked the world to do; applied after the decide stage.
#[derive(Clone, Debug)]
pub(crate) enum Action {
    /// Emit a sound.
    Sound(Sound),
    /// Send a message.
    Message(Message),
    /// Spawn an agent at the end of the tick.
    Spawn(AgentSpawn),
    /// Despawn an agent at the end of the tick.
    Despawn(AgentId),
}

/// Optional `x, y, z` after a method's other arguments.
type Xyz = (Option<f64>, Option<f64>, Option<f64>);

/// Most actions (messages, sounds) one agent may take per tick.
const MAX_ACTIONS_PER_AGENT: usize = 16;

/// Queues `action` of `agent`, within [`MAX_ACTIONS_PER_AGENT`].
fn push(tick: &Tick<'_>, agent: usize, action: Action) -> mlua::Result<()> {
    let mut actions = tick.actions.borrow_mut();
    let mine = actions
        .iter()
        .rev()
        .take_while(|(a, _)| *a as usize == agent)
        .count();
    if mine >= MAX_ACTIONS_PER_AGENT {
        return Err(rt(format!(
            "an agent may take at most {MAX_ACTIONS_PER_AGENT} actions (messages, sounds, spawns) per tick"
        )));
    }
    actions.push((agent as u32, action));
    Ok(())
}

/// A message from agent `from` (its slot).
fn message(world: &World, from: usize, to: Recipient, tag: u32, position: Vec3) -> Action {
    Action::Message(Message {
        from: Some(id(world, from)),
        to,
        tag,
        position,
    })
}

fn tag_of(v: Option<i64>) -> mlua::Result<u32> {
    match v {
        None => Ok(0),
        Some(t) => u32::try_from(t).map_err(|_| rt(format!("tag {t} is not in 0..=4294967295"))),
    }
}

fn set_intent<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, (t, args): (Option<i64>, Variadic<Value>)| {
        let i = me(t, world)?;
        let mut v: [Value; 5] = Default::default();
        for (slot, a) in v.iter_mut().zip(args) {
            *slot = a;
        }
        let intent = parse_intent(&v, world).map_err(rt)?;
        tick.intents.borrow_mut().push((i as u32, intent));
        Ok(())
    })
}

fn send<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_, (t, to, tag, (x, y, z)): (Option<i64>, Value, Option<i64>, Xyz)| {
            let i = me(t, world)?;
            let o = handle(&to, world).ok_or_else(|| rt("send: no such agent"))?;
            let pos = point(x, y, z, world.agents().positions()[i])?;
            let to = Recipient::Agent(id(world, o));
            push(tick, i, message(world, i, to, tag_of(tag)?, pos))
        },
    )
}

fn radio<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_, (t, radius, tag, (x, y, z)): (Option<i64>, f64, Option<i64>, Xyz)| {
            let i = me(t, world)?;
            if !(0.0..1e9).contains(&radius) {
                return Err(rt("radio: radius must be a finite number >= 0"));
            }
            let here = world.agents().positions()[i];
            let pos = point(x, y, z, here)?;
            let to = Recipient::Radius {
                center: here,
                radius: radius as f32,
            };
            push(tick, i, message(world, i, to, tag_of(tag)?, pos))
        },
    )
}

fn broadcast<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_, (t, tag, (x, y, z)): (Option<i64>, Option<i64>, Xyz)| {
            let i = me(t, world)?;
            let pos = point(x, y, z, world.agents().positions()[i])?;
            let to = Recipient::Faction(world.agents().factions()[i]);
            push(tick, i, message(world, i, to, tag_of(tag)?, pos))
        },
    )
}

fn emit_sound<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_, (t, volume, tag): (Option<i64>, f64, Option<i64>)| {
            let i = me(t, world)?;
            if !(0.0..1e9).contains(&volume) {
                return Err(rt("emit_sound: volume must be a finite number >= 0"));
            }
            let sound = Sound {
                position: world.agents().positions()[i],
                volume: volume as f32,
                source: i as u32,
                tag: tag_of(tag)?,
            };
            push(tick, i, Action::Sound(sound))
        },
    )
}

fn despawn<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| {
        let i = me(t, world)?;
        push(tick, i, Action::Despawn(id(world, i)))
    })
}

fn spawn<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_,
              (archetype, faction, x, y, z, name): (
            String,
            String,
            f64,
            f64,
            f64,
            Option<String>,
        )| {
            let i = tick
                .current_agent()
                .ok_or_else(|| rt("spawn: only from a hook of an agent"))?;
            let arch = world
                .archetypes()
                .iter()
                .position(|a| a.name == archetype)
                .ok_or_else(|| rt(format!("spawn: no archetype `{archetype}`")))?;
            let faction_id = world
                .factions()
                .find(&faction)
                .ok_or_else(|| rt(format!("spawn: no faction `{faction}`")))?;
            let position = point(Some(x), Some(y), Some(z), Vec3::ZERO)?;
            let n = tick.actions.borrow().len();
            let name = name.unwrap_or_else(|| format!("{archetype}@{}.{i}.{n}", world.tick()));
            let spawn = AgentSpawn {
                name,
                archetype: kiai_core::ArchetypeId::from_index(arch),
                faction: faction_id,
                position,
                facing: Vec3::X,
            };
            push(tick, i, Action::Spawn(spawn))
        },
    )
}
