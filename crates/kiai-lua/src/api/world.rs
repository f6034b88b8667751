//! The world through `kiai.*`: the tick, the agents by handle or name.

use mlua::{Function, IntoLuaMulti, LuaString, MultiValue, Scope, Value};

use super::{ApiFunction, Binding, On, Tick, handle, lua_id, rt, xyz};

pub(super) const BINDINGS: &[Binding] = &[
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "tick",
            params: "",
            returns: "integer",
            doc: "The tick being decided (the first is 0).",
        },
        make: Some(world_tick),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "agent_count",
            params: "",
            returns: "integer",
            doc: "The number of agents in the world.",
        },
        make: Some(agent_count),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "find",
            params: "name: string",
            returns: "integer?",
            doc: "The handle of the agent called `name`, or nil.",
        },
        make: Some(find),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "name",
            params: "h: integer|string|table",
            returns: "string?",
            doc: "The name of an agent, or nil.",
        },
        make: Some(name),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "position",
            params: "h: integer|string|table",
            returns: "number?, number?, number?",
            doc: "An agent's position x, y, z (nothing for no agent).",
        },
        make: Some(position),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "faction",
            params: "h: integer|string|table",
            returns: "string?",
            doc: "The name of an agent's faction, or nil.",
        },
        make: Some(faction),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "state",
            params: "h: integer|string|table",
            returns: "string?",
            doc: "An agent's behaviour state name as of last tick, or nil.",
        },
        make: Some(state),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "is_hostile",
            params: "a: integer|string|table, b: integer|string|table",
            returns: "boolean",
            doc: "Whether the faction of `a` is hostile to the faction of `b`.",
        },
        make: Some(is_hostile),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "sense",
            params: "name: string",
            returns: "integer",
            doc: "A small integer for the sense called `name`, to pass instead of the name (resolve once, at load: `local EYES = kiai.sense(\"eyes\")`).",
        },
        // The prelude's, in Lua: it works outside hooks too.
        make: None,
    },
];

fn world_tick<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, ()| Ok(world.tick()))
}

fn agent_count<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, ()| Ok(world.agents().len()))
}

fn find<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, name: LuaString| {
        Ok(world.agents().find(&name.to_str()?).map(lua_id))
    })
}

fn name<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, h: Value| {
        Ok(handle(&h, world).map(|i| world.agents().names()[i].clone()))
    })
}

fn position<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, h: Value| match handle(&h, world) {
        Some(i) => xyz(world.agents().positions()[i]).into_lua_multi(lua),
        None => Ok(MultiValue::new()),
    })
}

fn faction<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, h: Value| {
        Ok(handle(&h, world).and_then(|i| {
            world
                .factions()
                .name(world.agents().factions()[i])
                .map(str::to_owned)
        }))
    })
}

fn state<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, h: Value| {
        Ok(handle(&h, world).map(|i| world.agents().decisions()[i].state.name()))
    })
}

fn is_hostile<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, (a, b): (Value, Value)| {
        let (Some(a), Some(b)) = (handle(&a, world), handle(&b, world)) else {
            return Err(rt("is_hostile: not an agent"));
        };
        let f = world.agents().factions();
        Ok(world.factions().is_hostile(f[a], f[b]))
    })
}
