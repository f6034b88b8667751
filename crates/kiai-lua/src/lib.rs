//! # kiai-lua — sandboxed Lua deciders and hooks
//!
//! Designers and modders override what agents of an archetype decide with a
//! Lua 5.4 script. [`LuaDecider`] implements kiai-core's
//! [`Decider`](kiai_core::Decider): every agent first gets article 002's default
//! decision, then each script runs once per tick over its agents, in index
//! order, and may replace it. A script that errors, runs past its
//! instruction budget, runs out of memory or returns garbage leaves the
//! default in place for that agent and tick; the error is reported once as
//! `script:line: message`. Scripts run in a sandbox (no files, no OS, no
//! `load`, no bytecode) with `math.random` drawing from the agent's own
//! deterministic stream. The API is in `docs/lua-api.md`; [`api_functions`]
//! lists every function scripts can call with its signature, [`HOOKS`] every
//! hook, and [`lua_defs`] turns both into lua-language-server definitions.
//!
//! ```
//! use kiai_core::{AgentId, ArchetypeId, Pipeline};
//! use kiai_lua::LuaDecider;
//!
//! let content = kiai_content::Content::from_str(r#"(
//!     format: 2,
//!     factions: [(name: "red")],
//!     archetypes: { "guard": () },
//!     agents: [(name: "g1", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0))],
//! )"#, "level.ron")?;
//! let mut world = content.world(None)?;
//!
//! let mut decider = LuaDecider::default();
//! let script = decider.add_script(
//!     "guard.lua",
//!     r#"function decide(agent, ctx) return "investigate" end"#,
//! )?;
//! decider.assign(ArchetypeId(0), script);
//! Pipeline::new().tick(&mut world, &mut decider);
//! assert_eq!(decider.label(AgentId::from_index(0)), Some("investigate"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod api;
mod decider;
mod driver;
mod handles;
mod hooks;
mod intent;
mod lua_defs;
mod nearest_ahead;
mod repl;
mod run;
mod script;
mod sense_ids;
mod sensed_lists;
mod source;
pub mod watch;

pub use api::{ApiFunction, On, api_functions};
pub use decider::{LuaDecider, ScriptId, ScriptReport};
pub use hooks::{HOOKS, Hook};
pub use lua_defs::lua_defs;
pub use script::{Limits, ScriptError, check_file, check_syntax};
pub use watch::{Reload, ScriptWatcher};
