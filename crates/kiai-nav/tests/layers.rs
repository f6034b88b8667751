//! kiai-nav's modules import one way, lowest layer first:
//!
//! 0. `segment`: the distance from a point to a segment, which `navgen`
//!    measures clearance with;
//! 1. what needs nothing of the crate but `segment`: `ids`, `heap` (the open lists and
//!    their keys), `point_grid`, `spatial`, `smooth`, and `alt` (the
//!    landmark tables as searches read them), `navgen` (waypoints
//!    generated from walls);
//! 2. `error`;
//! 3. `graph`: the editable graph;
//! 4. `frozen`: the compact graph searches run on;
//! 5. what reads the frozen graph: `query` (A*), `select` (article 001's
//!    selection), `changes`, `clearance`, and `connect` (auto-connect, on
//!    the editable graph);
//! 6. `field`: distance fields, which take a search's filter;
//! 7. `landmarks`: picking the landmarks and filling the tables, which
//!    freezing a graph does.
//!
//! A module imports only lower layers (never its own layer's other
//! modules), so there is no import circle. Read with the shared scanner
//! (`kiai-tidy`).

use std::path::Path;

use kiai_tidy::imports::{ModuleGraph, Options, assert_layered};

/// The layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["segment"],
    &[
        "ids",
        "heap",
        "point_grid",
        "spatial",
        "smooth",
        "alt",
        "navgen",
    ],
    &["error"],
    &["graph"],
    &["frozen"],
    &["query", "select", "changes", "clearance", "connect"],
    &["field"],
    &["landmarks"],
];

#[test]
fn modules_import_one_way() {
    assert_layered(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        LAYERS,
        Options::default(),
    );
}

#[test]
fn the_check_catches_the_old_circle() {
    // Before the tables moved to `alt` and the keys to `heap`: the frozen
    // graph held the landmarks, whose builder read the frozen graph.
    let graph = ModuleGraph::from_layers(
        LAYERS,
        &[
            ("frozen.rs", "use crate::landmarks::Landmarks;\n"),
            ("landmarks.rs", "use crate::frozen::NavGraph;\n"),
        ],
        Options::default(),
    );
    assert_eq!(
        graph.layer_problems(LAYERS),
        [
            "frozen -> landmarks: frozen.rs:1 imports a higher layer",
            "circle: frozen <-> landmarks",
        ]
    );
}
