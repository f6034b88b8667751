//! The functions scripts call: agent methods and the `kiai` world table.
//!
//! Every function is one [`Binding`] in the registry ([`bindings`]): where
//! scripts find it, its Lua-side signature, a one-line doc and the Rust that
//! makes it. The bindings are grouped by subject, one file each under
//! `api/`; adding a function is adding one entry to one of their tables
//! (the prelude's `kiai.*` wrappers are made from the registry too).
//!
//! The functions are made fresh for each tick inside an
//! [`mlua::Lua::scope`], so they can borrow the world; the Lua-side wrappers
//! in the prelude keep `kiai.*` and `math.random` valid when a script holds
//! on to them. `agent:nearest` is the exception: one C function per script
//! state (`raw_nearest`), which finds the tick through `running`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use kiai_core::behaviour::Mind;
use kiai_core::glam::Vec3;
use kiai_core::{AgentId, World};
use mlua::{Function, Scope, Table, Value};

use crate::handles::{id, live, lua_id, rt};
use crate::intent::Intent;
use crate::sense_ids::SenseIds;
use crate::sensed_lists::SensedLists;

mod actions;
mod agent;
mod nav;
mod raw_nearest;
mod running;
mod senses;
mod world;

pub(crate) use actions::Action;
pub(crate) use raw_nearest::make as make_nearest;
pub(crate) use running::{catch, run_with, with_tick};
pub(crate) use senses::sense_name;

/// Where scripts find a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum On {
    /// A method of agent tables: `agent:name(...)`.
    Agent,
    /// A field of the `kiai` table: `kiai.name(...)`.
    Kiai,
    /// A field of the `math` library (the prelude's own wrapper calls it).
    Math,
}

/// Makes one function for one script's tick.
pub(crate) type Make =
    for<'s, 'e, 'w> fn(&'s Scope<'s, 'e>, &'e Tick<'w>) -> mlua::Result<Function>;

/// One function scripts can call, described once: the description and the
/// Rust that makes it.
pub(crate) struct Binding {
    /// What scripts see.
    pub(crate) api: ApiFunction,
    /// Makes it for one tick; `None` for a function made otherwise: by the
    /// prelude in Lua (it needs no world, and works outside hooks too), or
    /// `agent:nearest`, one C function per script state (`raw_nearest`).
    pub(crate) make: Option<Make>,
}

/// A function scripts can call, described for tools (a lua-language-server
/// definition file, documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiFunction {
    /// Where scripts find it.
    pub on: On,
    /// Its name there.
    pub name: &'static str,
    /// Its parameters (after `agent` for methods) as lua-language-server
    /// annotations, separated by commas outside braces:
    /// `sense: string, filter?: "hostile"|"any"`; empty for none.
    pub params: &'static str,
    /// Its results as lua-language-server types, separated by commas
    /// outside braces (`integer?, number?`); empty when it returns nothing.
    pub returns: &'static str,
    /// What it does, one line.
    pub doc: &'static str,
}

/// Every function scripts can call (agent methods, `kiai.*`, `math.random`),
/// grouped by subject; each name is unique within its table.
pub fn api_functions() -> impl Iterator<Item = ApiFunction> {
    bindings().map(|b| b.api)
}

/// Every function scripts can call, by subject, in install order.
pub(crate) fn bindings() -> impl Iterator<Item = &'static Binding> {
    [
        agent::BINDINGS,
        senses::BINDINGS,
        actions::BINDINGS,
        world::BINDINGS,
        nav::BINDINGS,
    ]
    .into_iter()
    .flatten()
}

/// The names of the `kiai.*` functions the host makes, in registry order
/// (the prelude makes a wrapper for each).
pub(crate) fn kiai_names() -> impl Iterator<Item = &'static str> {
    bindings()
        .filter(|b| b.api.on == On::Kiai && b.make.is_some())
        .map(|b| b.api.name)
}

/// The agent methods the host makes per tick, in registry order, with how
/// many arguments each takes after the agent (the prelude makes a wrapper
/// of that arity for each, which passes the agent's handle instead of its
/// table; `nearest`, made once per state, is not among them).
pub(crate) fn agent_methods() -> impl Iterator<Item = (&'static str, usize)> {
    bindings()
        .filter(|b| b.api.on == On::Agent && b.make.is_some())
        .map(|b| (b.api.name, top_level(b.api.params).len()))
}

/// `s` split at the commas outside braces, brackets and parentheses, each
/// part trimmed; empty parts are dropped.
pub(crate) fn top_level(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut from) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(s[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(s[from..].trim());
    parts.retain(|p| !p.is_empty());
    parts
}

/// What the scoped functions of one script's tick share.
pub(crate) struct Tick<'w> {
    pub(crate) world: &'w World,
    pub(crate) minds: RefCell<&'w mut [Mind]>,
    pub(crate) actions: RefCell<Vec<(u32, Action)>>,
    pub(crate) intents: RefCell<Vec<(u32, Intent)>>,
    pub(crate) batch_ids: &'w [u32],
    /// Sense names as integers (the prelude's ids).
    pub(crate) senses: &'w SenseIds,
    /// What the agents' senses list (shared by the tick's scripts).
    pub(crate) sensed: &'w SensedLists,
    /// The batch driver's hits (see `driver`): batch position and packed
    /// result of each agent whose `decide` returned something.
    pub(crate) hits: &'w RefCell<Vec<i64>>,
    /// The agent of the event hook running now.
    pub(crate) current: Cell<Option<u32>>,
    pub(crate) cur: Table,
}

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
}

/// The tables of one script's state that [`install`] fills.
pub(crate) struct ApiTables<'a> {
    /// The script's `API` table (the `kiai.*` functions' home).
    pub(crate) api: &'a Table,
    /// Its table of agent methods, which take the agent's handle.
    pub(crate) host: &'a Table,
    /// The functions made this tick, in `host` (`true`) or `api`.
    pub(crate) made: &'a Rc<RefCell<Vec<(bool, &'static str)>>>,
}

/// Installs this tick's functions into the script's `API` and agent
/// methods, on demand: the prelude gives both tables an `__index` that
/// calls `API.__make(on_agent, name)`, which makes that function for this
/// tick and stores it. Most scripts call a handful of the registry's
/// functions; making every one of them each tick cost more than a whole
/// batch of `decide`s that return `nil`. The functions made last tick
/// (invalid once its scope ended) are removed first.
/// The functions made once per script state (`agent:nearest`, the batch
/// driver) find the tick through [`run_with`], which the caller runs the
/// scripts in.
pub(crate) fn install<'s, 'e, 'w: 'e>(
    scope: &'s Scope<'s, 'e>,
    tables: &ApiTables,
    tick: &'e Tick<'w>,
) -> mlua::Result<()> {
    let (host, api) = (tables.host.clone(), tables.api.clone());
    for (on_agent, name) in tables.made.borrow_mut().drain(..) {
        let table = if on_agent { &host } else { &api };
        table.raw_set(name, Value::Nil)?;
    }
    let made = Rc::clone(tables.made);
    let make = scope.create_function(move |_, (on_agent, name): (bool, mlua::LuaString)| {
        let name = name.to_str()?;
        let found = bindings().find(|b| {
            (b.api.on == On::Agent) == on_agent && b.api.name == &*name && b.make.is_some()
        });
        let Some((binding, make)) = found.and_then(|b| Some((b, b.make?))) else {
            return Ok(None);
        };
        let f = make(scope, tick)?;
        let table = if on_agent { &host } else { &api };
        table.raw_set(binding.api.name, &f)?;
        made.borrow_mut().push((on_agent, binding.api.name));
        Ok(Some(f))
    })?;
    tables.api.raw_set("__make", make)
}

/// A position as Lua's three results.
fn xyz(v: Vec3) -> (f32, f32, f32) {
    (v.x, v.y, v.z)
}

/// The error of a method called on something that is no agent.
const NOT_AN_AGENT: &str = "not an agent (call methods with `agent:method()`)";

/// The slot of the agent whose handle a method got (the prelude's method
/// wrappers pass `agent[0]`: nil when the method was not called on an
/// agent).
fn me(bits: Option<i64>, world: &World) -> mlua::Result<usize> {
    let bits = bits.ok_or_else(|| rt(NOT_AN_AGENT))?;
    live(world, bits)
        .map(AgentId::index)
        .ok_or_else(|| rt("this agent has left the world"))
}

/// The slot of a live agent given as a handle, a name or an agent table
/// (`None` for one that left the world).
fn handle(v: &Value, world: &World) -> Option<usize> {
    let id = match v {
        Value::Integer(i) => live(world, *i)?,
        Value::Number(f) if f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e18 => live(world, *f as i64)?,
        Value::String(s) => world.agents().find(&s.to_string_lossy())?,
        Value::Table(t) => live(world, t.raw_get::<i64>(0).ok()?)?,
        _ => return None,
    };
    Some(id.index())
}

/// A position from optional `x, y, z` (all three or none: then `or`).
fn point(x: Option<f64>, y: Option<f64>, z: Option<f64>, or: Vec3) -> mlua::Result<Vec3> {
    match (x, y, z) {
        (None, None, None) => Ok(or),
        (Some(x), Some(y), Some(z)) if [x, y, z].iter().all(|c| c.is_finite() && c.abs() < 1e9) => {
            Ok(Vec3::new(x as f32, y as f32, z as f32))
        }
        _ => Err(rt("a position needs three finite numbers x, y, z")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_is_named_once_per_table() {
        let mut seen = std::collections::BTreeSet::new();
        for b in api_functions() {
            let table = if b.on == On::Agent { "agent" } else { "api" };
            assert!(seen.insert((table, b.name)), "{} twice", b.name);
        }
        assert!(seen.len() >= 30, "{}", seen.len());
    }

    #[test]
    fn signatures_are_annotations_and_docs_are_one_line() {
        let ident =
            |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        // A type: no top-level `name:` (table shapes keep theirs in braces).
        let is_type = |t: &str| !t.is_empty() && top_level(t).len() == 1 && !t.starts_with(':');
        for b in api_functions() {
            assert!(ident(b.name), "{}", b.name);
            for r in top_level(b.returns) {
                let bare = r.split(['{', '[']).next().unwrap_or(r);
                assert!(is_type(r) && !bare.contains(':'), "{}: `{r}`", b.name);
            }
            for p in top_level(b.params) {
                let (name, ty) = p
                    .split_once(": ")
                    .unwrap_or_else(|| panic!("{}: `{p}` is not `name: type`", b.name));
                let name = name.strip_suffix('?').unwrap_or(name);
                assert!(ident(name) && is_type(ty), "{}: `{p}`", b.name);
            }
            assert!(
                !b.doc.is_empty() && !b.doc.contains('\n') && b.doc.ends_with('.'),
                "{}: {:?}",
                b.name,
                b.doc
            );
        }
    }

    #[test]
    fn the_lua_api_doc_lists_every_function() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/lua-api.md");
        let doc = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for b in api_functions() {
            let spelled = match b.on {
                On::Agent => format!("agent:{}(", b.name),
                On::Kiai => format!("kiai.{}(", b.name),
                On::Math => format!("math.{}", b.name),
            };
            assert!(doc.contains(&spelled), "docs/lua-api.md lacks {spelled}");
        }
    }
}
