//! Crate layering: the runtime knows nothing of Lua, RON files or egui.
//!
//! Walks `cargo metadata`'s resolved graph from each runtime crate through
//! its normal (non-dev, non-build) dependencies.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value;

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo metadata: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"))
}

/// Names of every package `root` depends on through normal dependencies.
fn normal_closure(meta: &Value, root: &str) -> BTreeSet<String> {
    let names: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let nodes: BTreeMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let start = names
        .iter()
        .find(|(_, n)| **n == root)
        .map(|(id, _)| *id)
        .unwrap_or_else(|| panic!("no package {root}"));
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(id) = stack.pop() {
        let Some(node) = nodes.get(id) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let normal = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|k| k["kind"].is_null());
            let Some(dep_id) = dep["pkg"].as_str() else {
                continue;
            };
            if normal && seen.insert(names.get(dep_id).copied().unwrap_or(dep_id).to_owned()) {
                stack.push(dep_id);
            }
        }
    }
    seen
}

const FORBIDDEN_IN_RUNTIME: [&str; 8] = [
    "mlua",
    "ron",
    "egui",
    "eframe",
    "kiai-content",
    "kiai-lua",
    "kiai-cli",
    "serde_json",
];

#[test]
fn kiai_core_knows_nothing_of_lua_ron_or_egui() {
    let meta = metadata();
    let deps = normal_closure(&meta, "kiai-core");
    assert!(
        deps.contains("glam"),
        "the walk found kiai-core's dependencies: {deps:?}"
    );
    for f in FORBIDDEN_IN_RUNTIME {
        assert!(!deps.contains(f), "kiai-core depends on {f}");
    }
}

#[test]
fn content_does_not_pull_lua_or_egui() {
    let meta = metadata();
    let deps = normal_closure(&meta, "kiai-content");
    assert!(deps.contains("kiai-core") && deps.contains("ron"));
    for f in ["mlua", "egui", "eframe", "kiai-lua"] {
        assert!(!deps.contains(f), "kiai-content depends on {f}");
    }
}

#[test]
fn lua_sits_above_the_runtime() {
    let meta = metadata();
    let deps = normal_closure(&meta, "kiai-lua");
    assert!(
        deps.contains("kiai-core") && deps.contains("mlua"),
        "{deps:?}"
    );
    // kiai-lua is a runtime add-on: no RON, no CLI, no editor.
    for f in ["kiai-content", "kiai-cli", "ron", "egui", "eframe"] {
        assert!(!deps.contains(f), "kiai-lua depends on {f}");
    }
    for runtime in ["kiai-core", "kiai-nav", "kiai-fog"] {
        assert!(
            !normal_closure(&meta, runtime).contains("kiai-lua"),
            "{runtime} depends on kiai-lua"
        );
    }
}

#[test]
fn the_facade_wires_lua_to_content() {
    let meta = metadata();
    // Scripts meet content in the facade: games, the CLI, the editor and
    // the benchmarks all wire them through `kiai::lua`.
    let facade = normal_closure(&meta, "kiai");
    for needed in ["kiai-core", "kiai-content", "kiai-lua"] {
        assert!(facade.contains(needed), "kiai lacks {needed}: {facade:?}");
    }
    for user in ["kiai-cli", "kiai-editor", "kiai-bench"] {
        assert!(
            normal_closure(&meta, user).contains("kiai"),
            "{user} does not go through the kiai facade"
        );
    }
    for f in ["kiai-cli", "kiai-bench", "egui", "eframe"] {
        assert!(!facade.contains(f), "the kiai facade depends on {f}");
    }
}

#[test]
fn the_editor_is_a_leaf() {
    let meta = metadata();
    let deps = normal_closure(&meta, "kiai-editor");
    for needed in ["kiai-core", "kiai-content", "kiai-lua", "eframe"] {
        assert!(
            deps.contains(needed),
            "kiai-editor lacks {needed}: {deps:?}"
        );
    }
    // Games never pull the editor in: no runtime crate, the CLI or the
    // facade depends on it.
    for other in [
        "kiai-core",
        "kiai-nav",
        "kiai-fog",
        "kiai-content",
        "kiai-lua",
        "kiai-cli",
        "kiai",
    ] {
        assert!(
            !normal_closure(&meta, other).contains("kiai-editor"),
            "{other} depends on kiai-editor"
        );
    }
}

/// The benchmarks' crate and its peers (kiddo, pathfinding, dodgy_2d) are
/// for developers: `kiai bench` runs the separate `kiai-bench` binary.
/// The crates a game links: the runtime, content, Lua and the facade.
const RUNTIME_CRATES: [&str; 6] = [
    "kiai-core",
    "kiai-nav",
    "kiai-fog",
    "kiai-content",
    "kiai-lua",
    "kiai",
];

const BENCHMARK_ONLY: [&str; 4] = ["kiai-bench", "kiddo", "pathfinding", "dodgy_2d"];

#[test]
fn the_shipped_cli_and_the_runtime_link_no_benchmarks() {
    let meta = metadata();
    let cli = normal_closure(&meta, "kiai-cli");
    assert!(
        cli.contains("kiai-content") && cli.contains("kiai-lua"),
        "the walk found kiai-cli's dependencies: {cli:?}"
    );
    for f in BENCHMARK_ONLY {
        assert!(!cli.contains(f), "kiai-cli depends on {f}");
    }
    for runtime in RUNTIME_CRATES {
        let deps = normal_closure(&meta, runtime);
        for f in BENCHMARK_ONLY {
            assert!(!deps.contains(f), "{runtime} depends on {f}");
        }
    }
    assert!(
        normal_closure(&meta, "kiai-bench").contains("pathfinding"),
        "the peers live in kiai-bench"
    );
}

/// Bevy stays in its adapter: no runtime crate, the facade or the CLI
/// learns about it, and the adapter itself needs no renderer or window.
#[test]
fn bevy_lives_only_in_its_adapter() {
    let meta = metadata();
    for crate_ in RUNTIME_CRATES.iter().chain(&["kiai-cli", "kiai-editor"]) {
        let deps = normal_closure(&meta, crate_);
        assert!(
            !deps.iter().any(|d| d.starts_with("bevy")),
            "{crate_} depends on Bevy"
        );
    }
    let adapter = normal_closure(&meta, "kiai-bevy");
    assert!(adapter.contains("kiai") && adapter.contains("bevy_ecs"));
    for f in ["bevy_render", "bevy_winit", "wgpu", "winit", "bevy"] {
        assert!(!adapter.contains(f), "kiai-bevy depends on {f}");
    }
}
