//! lua-language-server definitions for the script API, generated from the
//! registry that installs the functions ([`crate::api_functions`]) and the
//! hook list ([`crate::HOOKS`]), so the editor's view of the API cannot
//! drift from what scripts get. `kiai lua-defs` writes them.

use std::fmt::Write as _;

use crate::api::top_level;
use crate::{On, api_functions, hooks::HOOKS};

/// The types the definitions declare besides the functions: the agent's
/// fields, `ctx`, intents.
const TYPES: &str = r#"---An agent as a script sees it: a table kept for the agent's whole life
---(methods below).
---@class kiai.Agent
---@field id integer The agent's handle: its slot, plus its slot's generation times 2^32.
---@field name string The agent's name.
---@field memory table A table kept across ticks (and reloads) for this agent.
local Agent = {}

---What `decide` gets besides the agent.
---@class kiai.Ctx
---@field tick integer The tick being decided (the first is 0).
---@field agents integer The number of agent slots.
---@field dt number Seconds per tick.

---A behaviour state: a built-in one, or a custom name (1 to 64 bytes) that moves
---like "chase" when it has a target or goal and like "random_walk" otherwise.
---@alias kiai.State "random_walk"|"chase"|"evade"|string

---An agent given to the API: its handle, its name or its table.
---@alias kiai.Target integer|string|kiai.Agent

---An intent spelled out as a table (what `decide` may return).
---@class kiai.Intent
---@field state kiai.State
---@field target? kiai.Target
---@field goal? number[] A position {x, y, z} to move to (chase) or flee from (evade).
---@field label? string The name the state is reported under.

---The world, by handle or name.
---@class kiai
kiai = {}
"#;

/// The `---@meta` definition file for lua-language-server: classes for the
/// agent, `ctx` and intents, every function of the API registry with its
/// parameters, results and doc, and every hook's signature.
pub fn lua_defs() -> String {
    let mut out = String::from(
        "---@meta kiai\n\
         -- kiai's script API for lua-language-server, written by `kiai lua-defs`\n\
         -- from the registry that installs the functions: regenerate, do not edit.\n\n",
    );
    out.push_str(TYPES);
    for f in api_functions() {
        let owner = match f.on {
            On::Agent => "function Agent:",
            On::Kiai => "function kiai.",
            On::Math => "function math.",
        };
        function(&mut out, owner, f.name, f.params, f.returns, f.doc);
    }
    out.push_str("\n-- Hooks: define any of these as globals (or return a table of them).\n");
    for h in &HOOKS {
        function(&mut out, "function ", h.name, h.params, h.returns, h.doc);
    }
    out
}

/// One annotated function stub: the doc, `---@param` and `---@return` lines,
/// then `<owner><name>(<params>) end`.
fn function(out: &mut String, owner: &str, name: &str, params: &str, returns: &str, doc: &str) {
    let _ = writeln!(out, "\n---{doc}");
    let mut names = Vec::new();
    for p in top_level(params) {
        let (pname, ty) = p.split_once(": ").unwrap_or((p, "any"));
        let _ = writeln!(out, "---@param {pname} {ty}");
        names.push(pname.trim_end_matches('?'));
    }
    for r in top_level(returns) {
        let _ = writeln!(out, "---@return {r}");
    }
    let _ = writeln!(out, "{owner}{name}({}) end", names.join(", "));
}
