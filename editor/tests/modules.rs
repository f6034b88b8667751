//! The editor's layering: `model` (the document, commands, the run) knows
//! nothing of egui or of the views and the app; `theme` knows only the
//! model; `views` know the model and the theme but not the app; `app` owns
//! everything. Imports go one way, so there is no import circle between
//! the layers.
//!
//! Reads every source file under `src/` with the shared import scanner
//! (`kiai-tidy`): the top-level modules each one names through `crate::…`
//! (including `use crate::{a, b::c}` groups), `super::…` and the crate
//! root's re-exports, in code and in doc links.

use std::path::Path;

use kiai_tidy::files::{relative, rust_files};
use kiai_tidy::imports::{ModuleGraph, Options, circles, top_module};

/// What each layer may import (besides itself); `app`, `lib.rs` and
/// `main.rs` own everything.
fn allowed(layer: &str) -> Option<&'static [&'static str]> {
    match layer {
        "model" => Some(&["model"]),
        "theme" => Some(&["model", "theme"]),
        "views" => Some(&["model", "theme", "views"]),
        _ => None,
    }
}

/// Every import that breaks the layering, as `file:line (layer) uses
/// crate::module` (`crate::crate` for an item of the crate root itself).
fn wrong_imports(graph: &ModuleGraph) -> Vec<String> {
    graph
        .imports()
        .iter()
        .filter(|i| allowed(&i.from).is_some_and(|ok| !ok.contains(&i.to.as_str())))
        .map(|i| format!("{}:{} ({}) uses crate::{}", i.file, i.line, i.from, i.to))
        .collect()
}

/// Lines of `text` outside comments that mention `word`.
fn code_mentions(text: &str, word: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| l.contains(word))
        .map(str::to_owned)
        .collect()
}

#[test]
fn imports_go_one_way_model_then_theme_then_views_then_app() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // Doc links count: a model doc linking to a view is a view the model
    // knows of.
    let graph = ModuleGraph::read(&src, Options { doc_links: true });
    let mut wrong = wrong_imports(&graph);
    let mut checked = 0;
    for file in rust_files(&src) {
        let rel = relative(&src, &file);
        let Some(layer) = top_module(&rel).filter(|l| allowed(l).is_some()) else {
            continue;
        };
        checked += 1;
        if layer == "model" {
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            for word in ["egui", "eframe"] {
                for line in code_mentions(&text, word) {
                    wrong.push(format!("{rel} (model) mentions {word}: {line}"));
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} files checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(circles(&graph).is_empty(), "{:?}", circles(&graph));
}

#[test]
fn the_import_reader_sees_groups_paths_and_doc_links() {
    let graph = ModuleGraph::from_sources_with(
        &[
            ("lib.rs", "pub use app::App;\n"),
            ("app.rs", "pub struct App;\n"),
            ("theme.rs", ""),
            ("views/mod.rs", ""),
            (
                "model/doc.rs",
                "use crate::{model::{Command, doc}, theme};\n\
                 /// Shown by [`crate::views::Panel`].\n\
                 fn f() -> crate::App { super::super::views::ui() }\n",
            ),
        ],
        Options { doc_links: true },
    );
    assert_eq!(
        wrong_imports(&graph),
        [
            "model/doc.rs:1 (model) uses crate::theme",
            "model/doc.rs:2 (model) uses crate::views",
            "model/doc.rs:3 (model) uses crate::app",
            "model/doc.rs:3 (model) uses crate::views",
        ]
    );
}
