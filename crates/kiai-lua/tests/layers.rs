//! kiai-lua's modules import one way, lowest layer first:
//!
//! 1. `handles` (an agent as scripts see it, one integer; host errors as
//!    Lua errors), `hooks` (the hooks a script may define) and
//!    `nearest_ahead` (each sense's nearest listed agent, worked out on
//!    another thread): they import nothing;
//! 2. `intent` (what a script decides, parsed), `sense_ids` (sense
//!    names as integers) and `sensed_lists` (the tick's sensed lists in
//!    agent order);
//! 3. `api`: the functions scripts call, one registry, and the tick
//!    running on this thread (`api::running`);
//! 4. `driver`: the batch driver, which runs `decide` over a batch;
//! 5. `script` (one sandboxed Lua state: the prelude, budgets, hooks) and
//!    `lua_defs` (the registry and hooks as lua-language-server
//!    definitions);
//! 6. what runs scripts: `run` (one tick of one script), `repl` (the
//!    console's read-only evaluation) and `source` (script versions);
//! 7. `decider`: [`kiai_lua::LuaDecider`], which owns the scripts;
//! 8. `watch`: hot reload of a decider's files.
//!
//! A module imports only lower layers (never its own layer's other
//! modules), so there is no import circle. Read with the shared scanner
//! (`kiai-tidy`), doc links included: a lower module's docs name higher
//! items in plain backticks, without a link.

use std::path::Path;

use kiai_tidy::imports::{ModuleGraph, Options, assert_layered};

/// The layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["handles", "hooks", "nearest_ahead"],
    &["intent", "sense_ids", "sensed_lists"],
    &["api"],
    &["driver"],
    &["lua_defs", "script"],
    &["repl", "run", "source"],
    &["decider"],
    &["watch"],
];

#[test]
fn modules_import_one_way() {
    assert_layered(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        LAYERS,
        Options { doc_links: true },
    );
}

#[test]
fn the_check_catches_the_old_circle() {
    let graph = ModuleGraph::from_layers(
        LAYERS,
        &[
            // As before `handles`: the helpers lived in `api`, which imported the
            // script state that needed the registry.
            ("api.rs", "use crate::script::Script;\n"),
            ("intent.rs", "fn f() { crate::api::live(w, t); }\n"),
            ("script.rs", "use crate::sense_ids::SenseIds;\n"),
            ("sense_ids.rs", "use crate::api::rt;\n"),
        ],
        Options { doc_links: true },
    );
    assert_eq!(
        graph.layer_problems(LAYERS),
        [
            "api -> script: api.rs:1 imports a higher layer",
            "intent -> api: intent.rs:1 imports a higher layer",
            "sense_ids -> api: sense_ids.rs:1 imports a higher layer",
            "circle: api <-> script <-> sense_ids",
        ]
    );
}
