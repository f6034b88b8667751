//! kiai-fog's modules import one way, lowest layer first:
//!
//! 1. the vocabulary, which imports nothing: `faction`, `grid`, `template`;
//! 2. `occupancy`: which units stand where (and `NONE`, the "no slot"
//!    sentinel everything above uses);
//! 3. `storage`: the per-tile counters and masks, which tell the occupancy;
//! 4. `spans`: row-span differences applied to the storage;
//! 5. what is stamped: `unit` (the descriptions and the grid's per-unit
//!    record), `moves` (the template cache) and `shadows` (occlusion);
//! 6. `error` (names units, factions, grids and templates) and
//!    `unit_index`;
//! 7. `fog`: the grid, [`kiai_fog::FogGrid`], which sees everything.
//!
//! A module imports only lower layers (never its own layer's other
//! modules), so there is no import circle. Read with the shared scanner
//! (`kiai-tidy`), doc links included: a lower module's docs name higher
//! items in plain backticks, without a link.

use std::path::Path;

use kiai_tidy::imports::{ModuleGraph, Options, assert_layered};

/// The layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["faction", "grid", "template"],
    &["occupancy"],
    &["storage"],
    &["spans"],
    &["moves", "shadows", "unit"],
    &["error", "unit_index"],
    &["fog"],
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
fn the_check_catches_an_import_up_and_a_circle() {
    let graph = ModuleGraph::from_layers(
        LAYERS,
        &[
            // The constant back in `unit`: occupancy -> unit -> spans -> occupancy.
            ("occupancy.rs", "use crate::unit::NONE;\n"),
            ("unit.rs", "use crate::spans::AbsSpan;\n"),
            ("spans.rs", "use crate::occupancy::Occupancy;\n"),
            ("grid.rs", "/// See [`crate::FogGrid::states`].\n"),
            ("lib.rs", "pub use fog::FogGrid;\n"),
        ],
        Options { doc_links: true },
    );
    assert_eq!(
        graph.layer_problems(LAYERS),
        [
            "grid -> fog: grid.rs:1 imports a higher layer",
            "occupancy -> unit: occupancy.rs:1 imports a higher layer",
            "circle: occupancy <-> spans <-> unit",
        ]
    );
}
