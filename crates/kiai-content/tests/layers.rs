//! kiai-content's top-level modules are layers: each imports only modules
//! of lower layers, never one beside it in its own layer nor one above,
//! and no top-level modules import each other in a circle. Lowest first:
//!
//! | layer | modules | what |
//! |---|---|---|
//! | 0 | `format` | the serde types (`def`), text positions, diagnostics, size limits |
//! | 1 | `read`, `check`, `navgen` | text into definitions (fast reader, `ron`, migration); the rules definitions must keep (validation, lints); generated waypoints read from and merged into definitions |
//! | 2 | `pack`, `write` | the binary pack; the format-preserving text writer |
//! | 3 | `load`, `value_path` | `Content`, a file read and checked (text or pack); single values by path |
//! | 4 | `build`, `save` | world, nav graph and export of content; atomic saves and `migrate_text` |
//! | 5 | `runs` | files of a run: events, scenarios, expectations, recordings |
//!
//! The crate root (`lib.rs`) only re-exports and sees every layer; an
//! import through one of its re-exports (`crate::Content`) counts as an
//! import of the module behind it. Unit tests inside a module keep its
//! layer too. Within each folder, the files import one another one way
//! (through `super::` paths, as the crate writes them). The same order is
//! in the crate docs (`src/lib.rs`), which a test here compares.
//!
//! The import scanner is kiai-tidy's, shared with the other crates'
//! layering tests.

use std::path::{Path, PathBuf};

use kiai_tidy::imports::{ModuleGraph, circles, module_graph};

/// The layer order, lowest first: a module may import only the layers
/// below its own.
const LAYERS: &[&[&str]] = &[
    &["format"],
    &["read", "check", "navgen"],
    &["pack", "write"],
    &["load", "value_path"],
    &["build", "save"],
    &["runs"],
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn modules_import_only_lower_layers() {
    let graph = module_graph(&src());
    assert!(graph.len() >= 10, "found the modules: {graph:?}");
    let mut bad = graph.back_imports(LAYERS);
    bad.extend(graph.peer_imports(LAYERS));
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

#[test]
fn top_level_modules_form_no_circle() {
    let graph = module_graph(&src());
    let found = circles(&graph);
    assert!(found.is_empty(), "import circles: {found:?}");
}

#[test]
fn the_files_of_each_folder_form_no_circle() {
    let mut folders = vec![src()];
    let mut checked = 0;
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                let found = circles(&module_graph(&path));
                assert!(found.is_empty(), "{}: circles {found:?}", path.display());
                folders.push(path);
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "found the folders ({checked})");
}

#[test]
fn the_check_catches_an_import_up_and_a_circle() {
    let graph = ModuleGraph::from_sources(&[
        ("lib.rs", "mod format;\nmod load;\npub use load::Content;"),
        (
            "format/mod.rs",
            "// crate::load in a comment is no import\nuse crate::Content;",
        ),
        ("load.rs", "use crate::format::def::ContentDef;"),
    ]);
    assert_eq!(
        graph.back_imports(&[&["format"], &["load"]]),
        ["format -> load: format/mod.rs:2 imports a higher layer"]
    );
    assert_eq!(
        circles(&graph),
        [vec!["format".to_owned(), "load".to_owned()]]
    );
    let beside = graph.peer_imports(&[&["format", "load"]]);
    assert_eq!(beside.len(), 2, "{beside:?}");
}

#[test]
fn the_crate_docs_list_the_same_layers() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap_or_default();
    for (n, layer) in LAYERS.iter().enumerate() {
        let row = lib
            .lines()
            .find(|l| l.starts_with(&format!("//! | {n} |")))
            .unwrap_or_else(|| panic!("lib.rs has no row for layer {n}"));
        let modules = row.split('|').nth(2).unwrap_or_default();
        for m in *layer {
            assert!(modules.contains(&format!("`{m}`")), "layer {n}: {row}");
        }
        assert_eq!(modules.matches('`').count(), 2 * layer.len(), "{row}");
    }
}
