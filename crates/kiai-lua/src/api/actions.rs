//! What the agent does: intents, messages and sounds. Messages and sounds
//! are queued and applied after the decide stage, in agent order.

use kiai_core::AgentId;
use kiai_core::glam::Vec3;
use kiai_core::perception::hearing::Sound;
use kiai_core::perception::{Message, Recipient};
use mlua::{Function, Scope, Table, Value, Variadic};

use super::{ApiFunction, Binding, On, Tick, handle, me, point, rt};
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
        make: set_intent,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "send",
            params: "to: integer|string|table, tag?: integer, x?: number, y?: number, z?: number",
            returns: "",
            doc: "Action: a message to one agent, at the sender's position unless x, y, z are given.",
        },
        make: send,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "radio",
            params: "radius: number, tag?: integer, x?: number, y?: number, z?: number",
            returns: "",
            doc: "Action: a message to every agent within `radius` world units.",
        },
        make: radio,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "broadcast",
            params: "tag?: integer, x?: number, y?: number, z?: number",
            returns: "",
            doc: "Action: a message to every agent of the sender's faction.",
        },
        make: broadcast,
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "emit_sound",
            params: "volume: number, tag?: integer",
            returns: "",
            doc: "Action: a sound of `volume` at the agent's position.",
        },
        make: emit_sound,
    },
];

/// Something a script asked the world to do; applied after the decide stage.
#[derive(Clone, Debug)]
pub(crate) enum Action {
    /// Emit a sound.
    Sound(Sound),
    /// Send a message.
    Message(Message),
}

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
            "an agent may send at most {MAX_ACTIONS_PER_AGENT} messages and sounds per tick"
        )));
    }
    actions.push((agent as u32, action));
    Ok(())
}

/// A message from agent `from`.
fn message(from: usize, to: Recipient, tag: u32, position: Vec3) -> Action {
    Action::Message(Message {
        from: Some(AgentId::from_index(from)),
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
    scope.create_function(move |_, (t, args): (Table, Variadic<Value>)| {
        let i = me(&t, world)?;
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
            let to = Recipient::Agent(AgentId::from_index(o));
            push(tick, i, message(i, to, tag_of(tag)?, pos))
        },
    )
}

fn radio<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
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
            push(tick, i, message(i, to, tag_of(tag)?, pos))
        },
    )
}

fn broadcast<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_, (t, tag, x, y, z): (Table, Option<i64>, Option<f64>, Option<f64>, Option<f64>)| {
            let i = me(&t, world)?;
            let pos = point(x, y, z, world.agents().positions()[i])?;
            let to = Recipient::Faction(world.agents().factions()[i]);
            push(tick, i, message(i, to, tag_of(tag)?, pos))
        },
    )
}

fn emit_sound<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, (t, volume, tag): (Table, f64, Option<i64>)| {
        let i = me(&t, world)?;
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
    })
}
