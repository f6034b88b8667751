//! kiai-core's modules import one way: the data layer imports nothing but
//! itself; the world imports data; each stage imports data and the world
//! (and the `par` helper), never another stage; only the pipeline (and the
//! crate root, `hash`) sees every stage. The stage list in the crate docs
//! and in ARCHITECTURE.md is the pipeline's.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kiai_core::Stage;

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
        "world" => Some(&["data"]),
        m if STAGES.contains(&m) => Some(&["data", "world", "par"]),
        // The pipeline, the crate root and the state hash see everything.
        _ => None,
    }
}

/// The top-level modules a source text names through `crate::` paths,
/// outside comments (grouped imports `crate::{a, b::c}` included).
fn crate_paths(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    if let Some(name) = first_segment(item.trim()) {
                        found.insert(name);
                    }
                }
            } else if let Some(name) = first_segment(rest) {
                found.insert(name);
            }
        }
    }
    found
}

fn first_segment(path: &str) -> Option<String> {
    let name: String = path
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The top-level module a file under `src` belongs to.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_owned()
}

/// Every import that breaks the layering, as `file: imports module`.
fn violations(files: &[(String, String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, module, source) in files {
        let Some(ok) = allowed(module) else {
            continue;
        };
        for used in crate_paths(source) {
            let known = used == *module || ok.contains(&used.as_str());
            // Re-exports at the crate root (`crate::World`) and doc links
            // are not modules; only module names count.
            let is_module = allowed(&used).is_some() || used == "pipeline" || used == "hash";
            if is_module && !known {
                out.push(format!("{name} ({module}) imports {used}"));
            }
        }
    }
    out
}

fn crate_files() -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    sources(&src)
        .into_iter()
        .map(|f| {
            let source = std::fs::read_to_string(&f).unwrap_or_default();
            let name = f.strip_prefix(&src).unwrap_or(&f).display().to_string();
            (name, module_of(&src, &f), source)
        })
        .collect()
}

#[test]
fn modules_import_one_way() {
    let files = crate_files();
    assert!(files.len() > 20, "found the sources");
    let bad = violations(&files);
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

#[test]
fn the_check_catches_a_data_module_importing_a_stage() {
    let files = vec![
        (
            "data/decision.rs".to_owned(),
            "data".to_owned(),
            "use crate::steering::SteerInput;\n// crate::pipeline in a comment\n".to_owned(),
        ),
        (
            "navigate.rs".to_owned(),
            "navigate".to_owned(),
            "use crate::{data::Movement, perception::Percepts};\n".to_owned(),
        ),
        (
            "integrate.rs".to_owned(),
            "integrate".to_owned(),
            "use crate::data::RayScratch;\nuse crate::world::World;\n".to_owned(),
        ),
    ];
    assert_eq!(
        violations(&files),
        [
            "data/decision.rs (data) imports steering",
            "navigate.rs (navigate) imports perception",
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
