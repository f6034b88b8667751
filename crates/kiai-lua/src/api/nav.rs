//! The waypoint graph through `kiai.*`: nearest waypoints, A* routes and
//! article 001's next-waypoint choice.

use kiai_core::glam::Vec3;
use kiai_nav::{CostListId, Destination, Heading, NavQuery, PathFilter, SelectOptions, WaypointId};
use mlua::{Function, IntoLuaMulti, LuaString, MultiValue, Scope};

use super::{ApiFunction, Binding, On, Tick, point, rt, xyz};

pub(super) const BINDINGS: &[Binding] = &[
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "nearest_waypoint",
            params: "x: number, y: number, z: number",
            returns: "integer?",
            doc: "The id of the active waypoint nearest to x, y, z, or nil.",
        },
        make: Some(nearest_waypoint),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "waypoint",
            params: "id: integer",
            returns: "number?, number?, number?",
            doc: "The position x, y, z of waypoint `id` (nothing for no waypoint).",
        },
        make: Some(waypoint),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "path",
            params: "from: integer, to: integer, cost_list?: integer",
            returns: "integer[]?, number?",
            doc: "The A* route between two waypoints as ids and its cost (nothing when unreachable).",
        },
        make: Some(path),
    },
    Binding {
        api: ApiFunction {
            on: On::Kiai,
            name: "select",
            params: "at: integer, dest: integer, heading?: \"toward\"|\"away\", cost_list?: integer",
            returns: "integer?",
            doc: "Article 001's next waypoint from `at` toward or away from `dest`, on the agent's random stream.",
        },
        make: Some(select),
    },
];

fn nearest_waypoint<'s, 'e>(
    scope: &'s Scope<'s, 'e>,
    tick: &'e Tick<'_>,
) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |_, (x, y, z): (f64, f64, f64)| {
        let p = point(Some(x), Some(y), Some(z), Vec3::ZERO)?;
        Ok(world
            .nav()
            .and_then(|nav| nav.nearest_waypoint(p, true))
            .map(|w| w.0))
    })
}

fn waypoint<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(move |lua, id: u32| {
        match world.nav().and_then(|nav| nav.pos(WaypointId(id))) {
            Some(p) => xyz(p).into_lua_multi(lua),
            None => Ok(MultiValue::new()),
        }
    })
}

fn path<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
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
    })
}

/// `select`'s heading argument.
fn heading_of(heading: Option<&LuaString>) -> mlua::Result<Heading> {
    match heading.map(LuaString::to_string_lossy) {
        None => Ok(Heading::Toward),
        Some(h) if h == "toward" => Ok(Heading::Toward),
        Some(h) if h == "away" => Ok(Heading::Away),
        Some(h) => Err(rt(format!(
            "heading must be \"toward\" or \"away\", not \"{h}\""
        ))),
    }
}

fn select<'s, 'e>(scope: &'s Scope<'s, 'e>, tick: &'e Tick<'_>) -> mlua::Result<Function> {
    let world = tick.world;
    scope.create_function(
        move |_, (at, dest, heading, list): (u32, u32, Option<LuaString>, Option<u16>)| {
            let Some(nav) = world.nav() else {
                return Ok(None);
            };
            let heading = heading_of(heading.as_ref())?;
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
    )
}
