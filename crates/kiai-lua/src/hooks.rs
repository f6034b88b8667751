//! The hooks a script may define, described once: the loader takes them by
//! these names (`script.rs`) and the lua-language-server definitions
//! (`lua_defs.rs`) declare them with these signatures.

/// A function a script defines and kiai calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hook {
    /// Its global name (or field of the table the script returns).
    pub name: &'static str,
    /// Its parameters as lua-language-server annotations, separated by
    /// commas outside braces (`agent: kiai.Agent, ctx: kiai.Ctx`).
    pub params: &'static str,
    /// What it may return, as lua-language-server types separated by commas
    /// outside braces; empty when kiai ignores the results.
    pub returns: &'static str,
    /// When it is called, one line.
    pub doc: &'static str,
}

/// Every hook, in the order kiai calls them within a tick (`on_spawn`,
/// the percept events, then `decide`); each is optional.
pub const HOOKS: [Hook; 6] = [
    Hook {
        name: "decide",
        params: "agent: kiai.Agent, ctx: kiai.Ctx",
        returns: "kiai.State|kiai.Intent|nil, kiai.Target?, number?, number?, number?",
        doc: "Every tick, once per agent of the archetype, in agent order: an intent (state, target, x, y, z or a table), or nil to keep the Rust default.",
    },
    Hook {
        name: "on_seen",
        params: "agent: kiai.Agent, other: integer, sense: string",
        returns: "",
        doc: "A sense of the agent started sensing `other` (before decide, same tick).",
    },
    Hook {
        name: "on_lost",
        params: "agent: kiai.Agent, other: integer, sense: string",
        returns: "",
        doc: "A sense of the agent stopped sensing `other`.",
    },
    Hook {
        name: "on_heard",
        params: "agent: kiai.Agent, source: integer?, loudness: number, sense: string, tag: integer, x: number, y: number, z: number",
        returns: "",
        doc: "A hearing sense heard a sound (`source` nil when no agent made it).",
    },
    Hook {
        name: "on_message",
        params: "agent: kiai.Agent, from: integer?, tag: integer, x: number, y: number, z: number",
        returns: "",
        doc: "A message reached the agent.",
    },
    Hook {
        name: "on_spawn",
        params: "agent: kiai.Agent",
        returns: "",
        doc: "The first tick the script sees the agent.",
    },
];
