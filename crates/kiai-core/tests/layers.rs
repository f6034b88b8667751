//! kiai-core's modules import one way: the data layer imports nothing but
//! itself; the world imports data (and the `par` helper); each stage
//! imports data and the world (and the `par` helper), never another stage;
//! only the pipeline (and the crate root, `hash`) sees every stage. The
//! stage list in the crate docs and in ARCHITECTURE.md is the pipeline's.
//! Any other top-level module (`hash`, `tick_times`, …) sees everything,
//! and no two modules import each other round. Read by the shared import
//! scanner (`kiai-tidy`): code only, so a doc link up
//! (`[World::set_goal](crate::World::set_goal)` in `data`) is fine, while
//! a `crate::World` in code is the world's.

use std::path::Path;

use kiai_core::Stage;
use kiai_tidy::imports::{ModuleGraph, ROOT, circles, module_graph};

/// The top-level modules that are stages of the tick.
const STAGES: [&str; 7] = [
    "perception",
    "behaviour",
    "navigate",
    "steering",
    "integrate",
    "noise",
    "fog_update",
];

/// The layer of a top-level module, and what it may import (besides
/// itself).
fn allowed(module: &str) -> Option<&'static [&'static str]> {
    match module {
        "data" => Some(&[]),
        "par" => Some(&[]),
        "world" => Some(&["data", "par"]),
        m if STAGES.contains(&m) => Some(&["data", "world", "par"]),
        // The pipeline, the crate root and the state hash see everything.
        _ => None,
    }
}

/// Every import that breaks the layering, as `file:line (module) imports
/// module`. Items the crate root defines itself are not a layer.
fn violations(graph: &ModuleGraph) -> Vec<String> {
    let mut out = Vec::new();
    for i in graph.imports() {
        let Some(ok) = allowed(&i.from) else {
            continue;
        };
        if i.to != ROOT && !ok.contains(&i.to.as_str()) {
            out.push(format!(
                "{}:{} ({}) imports {}",
                i.file, i.line, i.from, i.to
            ));
        }
    }
    out
}

#[test]
fn modules_import_one_way() {
    let graph = module_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    for module in STAGES.iter().chain(&["data", "par", "world", "pipeline"]) {
        assert!(graph.contains_key(*module), "no module {module}");
    }
    let bad = violations(&graph);
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
    assert!(circles(&graph).is_empty(), "{:?}", circles(&graph));
}

#[test]
fn the_check_catches_a_data_module_importing_a_stage() {
    let graph = ModuleGraph::from_sources(&[
        ("lib.rs", "mod world;\npub use world::World;\n"),
        (
            "world/mod.rs",
            "use crate::data::Agents;\npub struct World;\n",
        ),
        (
            "data/decision.rs",
            "use crate::steering::SteerInput;\n// crate::pipeline in a comment\n",
        ),
        ("data/agents.rs", "fn f(w: &crate::World) {}\n"),
        (
            "navigate.rs",
            "use crate::{data::Movement, perception::Percepts};\n",
        ),
        (
            "integrate.rs",
            "use crate::data::RayScratch;\nuse crate::world::World;\n",
        ),
        ("perception/mod.rs", ""),
        ("steering/mod.rs", ""),
    ]);
    assert_eq!(
        violations(&graph),
        [
            "data/agents.rs:1 (data) imports world",
            "data/decision.rs:1 (data) imports steering",
            "navigate.rs:1 (navigate) imports perception",
        ]
    );
}

/// The stage names in `text` after `marker`, as an arrow chain
/// (`sense -> decide -> ...`, `→` too).
fn chain_after(text: &str, marker: &str) -> Vec<String> {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` not found"));
    let line = text[at + marker.len()..].lines().next().unwrap_or("");
    line.replace('→', "->")
        .split("->")
        .map(|s| {
            s.trim()
                .trim_matches(|c: char| !c.is_ascii_alphabetic())
                .to_owned()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

#[test]
fn docs_list_the_pipelines_stages() {
    let want: Vec<String> = Stage::ALL.iter().map(|s| s.name().to_owned()).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap_or_default();
    assert_eq!(chain_after(&lib, "//! The stages: "), want, "src/lib.rs");
    let arch = std::fs::read_to_string(root.join("../../ARCHITECTURE.md")).unwrap_or_default();
    assert_eq!(chain_after(&arch, "The stages: "), want, "ARCHITECTURE.md");
}
