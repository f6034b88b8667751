//! The agent itself: where it is, what it is, its last decision, its
//! random stream.

use kiai_core::rng::AgentRng;
use mlua::{Function, Scope, Value};
use rand::RngExt;

use super::{ApiFunction, Binding, On, Tick, handle, lua_id, me, rt, xyz};

pub(super) const BINDINGS: &[Binding] = &[
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "position",
            params: "",
            returns: "number, number, number",
            doc: "The agent's position x, y, z (world units, Y up).",
        },
        make: Some(position),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "facing",
            params: "",
            returns: "number, number, number",
            doc: "The direction the agent faces, a unit vector x, y, z.",
        },
        make: Some(facing),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "velocity",
            params: "",
            returns: "number, number, number",
            doc: "The agent's velocity x, y, z (world units per second).",
        },
        make: Some(velocity),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "state",
            params: "",
            returns: "string",
            doc: "Last tick's behaviour state name (\"random_walk\", \"chase\" or \"evade\").",
        },
        make: Some(state),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "target",
            params: "",
            returns: "integer?",
            doc: "Last tick's target handle, or nil.",
        },
        make: Some(target),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "faction",
            params: "",
            returns: "string",
            doc: "The name of the agent's faction.",
        },
        make: Some(faction),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "archetype",
            params: "",
            returns: "string",
            doc: "The name of the agent's archetype.",
        },
        make: Some(archetype),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "weights",
            params: "",
            returns: "number, number",
            doc: "The agent's learned chase and evade weights.",
        },
        make: Some(weights),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "is_hostile",
            params: "other: integer|string|table",
            returns: "boolean",
            doc: "Whether the agent's faction is hostile to `other`'s (a handle, name or agent).",
        },
        make: Some(is_hostile),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "distance",
            params: "other: integer|string|table",
            returns: "number",
            doc: "The distance to `other` (a handle, name or agent), in world units.",
        },
        make: Some(distance),
    },
    Binding {
        api: ApiFunction {
            on: On::Agent,
            name: "random",
            params: "m?: integer, n?: integer",
            returns: "number",
            doc: "Like `math.random`, from the agent's own deterministic stream.",
        },
        make: Some(agent_random),
    },
    Binding {
        api: ApiFunction {
            on: On::Math,
            name: "random",
            params: "m?: integer, n?: integer",
            returns: "number",
            doc: "A float in [0, 1), or an integer in [1, m] or [m, n], from the running hook's agent's stream.",
        },
        make: Some(math_random),
    },
];

fn position<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| {
        Ok(xyz(world.agents().positions()[me(t, world)?]))
    })
}

fn facing<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| Ok(xyz(world.agents().facings()[me(t, world)?])))
}

fn velocity<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| {
        Ok(xyz(world.agents().velocities()[me(t, world)?]))
    })
}

fn state<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| {
        Ok(world.agents().decisions()[me(t, world)?].state.name())
    })
}

fn target<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| {
        Ok(world.agents().decisions()[me(t, world)?].target.map(lua_id))
    })
}

fn faction<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| {
        let f = world.agents().factions()[me(t, world)?];
        Ok(world.factions().name(f).unwrap_or("").to_owned())
    })
}

fn archetype<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| {
        let a = world.agents().archetypes()[me(t, world)?];
        Ok(world
            .archetype(a)
            .map_or_else(String::new, |a| a.name.clone()))
    })
}

fn weights<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, t: Option<i64>| {
        let i = me(t, world)?;
        let w = tick.minds.borrow()[i].weights;
        Ok((w[0], w[1]))
    })
}

fn is_hostile<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, (t, other): (Option<i64>, Value)| {
        let i = me(t, world)?;
        let o = handle(&other, world).ok_or_else(|| rt("not an agent"))?;
        let f = world.agents().factions();
        Ok(world.factions().is_hostile(f[i], f[o]))
    })
}

fn distance<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, (t, other): (Option<i64>, Value)| {
        let i = me(t, world)?;
        let o = handle(&other, world).ok_or_else(|| rt("not an agent"))?;
        let p = world.agents().positions();
        Ok(p[i].distance(p[o]))
    })
}

fn agent_random<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_, (t, lo, hi): (Option<i64>, Option<i64>, Option<i64>)| {
            let i = me(t, world)?;
            random(&mut tick.minds.borrow_mut()[i].rng, lo, hi)
        },
    )
}

fn math_random<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    scope.create_function(move |_, (lo, hi): (Option<i64>, Option<i64>)| {
        let i = tick
            .current_agent()
            .ok_or_else(|| rt("math.random is only available inside hooks"))?;
        random(&mut tick.minds.borrow_mut()[i].rng, lo, hi)
    })
}

/// `math.random`'s three forms on `rng`.
fn random(rng: &mut AgentRng, m: Option<i64>, n: Option<i64>) -> mlua::Result<Value> {
    Ok(match (m, n) {
        (None, None) => Value::Number(rng.random::<f64>()),
        (Some(hi), None) if hi >= 1 => Value::Integer(rng.random_range(1..=hi)),
        (Some(lo), Some(hi)) if lo <= hi => Value::Integer(rng.random_range(lo..=hi)),
        _ => return Err(rt("bad argument to 'random' (interval is empty)")),
    })
}
