//! The facade's modules import one way, lowest layer first:
//!
//! 1. `lua`: kiai-lua, plus the wiring of content's scripts to archetypes;
//! 2. `driver`: [`kiai::driver::Driver`], one run of content stepped tick
//!    by tick (it uses `lua` for scripted archetypes);
//! 3. what steps a driver: `scenario` (scenario tests) and `fork`
//!    (what-if branches of a recording), which never import each other.
//!
//! No import circle. Read with the shared scanner (`kiai-tidy`), doc links
//! included: the driver's docs name its users in plain backticks.

use std::path::Path;

use kiai_tidy::imports::{ModuleGraph, Options, assert_layered};

/// The layers, lowest first.
const LAYERS: &[&[&str]] = &[&["lua"], &["driver"], &["fork", "scenario"]];

#[test]
fn modules_import_one_way() {
    assert_layered(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        LAYERS,
        Options { doc_links: true },
    );
}

#[test]
fn the_check_catches_the_old_doc_links() {
    let graph = ModuleGraph::from_sources_with(
        &[
            ("lua.rs", ""),
            (
                "driver.rs",
                "//! Scenario tests ([`crate::scenario`]) and forks ([`crate::fork`]).\n",
            ),
            ("fork/mod.rs", "use crate::driver::Driver;\n"),
            ("scenario/mod.rs", "use crate::driver::Driver;\n"),
            ("scenario/check.rs", "fn f(_: &crate::fork::Branch) {}\n"),
        ],
        Options { doc_links: true },
    );
    assert_eq!(
        graph.layer_problems(LAYERS),
        [
            "driver -> fork: driver.rs:1 imports a higher layer",
            "driver -> scenario: driver.rs:1 imports a higher layer",
            "scenario -> fork: scenario/check.rs:1 imports its own layer",
            "circle: driver <-> fork <-> scenario",
        ]
    );
}
