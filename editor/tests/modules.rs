//! The editor's layering: `model` (the document, commands, the run) knows
//! nothing of egui or of the views and the app; `theme` knows only the
//! model; `views` know the model and the theme but not the app; `app` owns
//! everything. Imports go one way, so there is no import circle between
//! the layers.
//!
//! Reads every source file under `src/` and lists the top-level modules
//! each one names through `crate::…` (including `use crate::{a, b::c}`
//! groups).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
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

/// The identifiers at the top level of a `{a, b::c, d::{e}}` group that
/// starts right after `text`'s opening brace.
fn group_heads(text: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    let mut at_start = true;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_start = true,
            c if depth == 0 && at_start && (c.is_alphanumeric() || c == '_') => current.push(c),
            _ if depth == 0 && at_start && !current.is_empty() => {
                heads.push(std::mem::take(&mut current));
                at_start = false;
            }
            _ => {}
        }
    }
    if !current.is_empty() {
        heads.push(current);
    }
    heads
}

/// The top-level modules `text` names through `crate::`.
fn crate_modules(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        // `kiai_editor::crate::` cannot occur; skip `$crate::` in macros.
        if text[..at].ends_with('$') {
            continue;
        }
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            out.extend(group_heads(group));
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// The layer a file belongs to: the first directory or file under `src/`.
fn layer(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_owned()
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
    let allowed = |layer: &str| -> Option<&'static [&'static str]> {
        match layer {
            "model" => Some(&["model"]),
            "theme" => Some(&["model", "theme"]),
            "views" => Some(&["model", "theme", "views"]),
            _ => None, // app, lib.rs and main.rs own everything
        }
    };
    let mut wrong = Vec::new();
    let mut checked = 0;
    for file in sources(&src) {
        let layer = layer(&src, &file);
        let Some(allowed) = allowed(&layer) else {
            continue;
        };
        checked += 1;
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for module in crate_modules(&text) {
            if !allowed.contains(&module.as_str()) {
                wrong.push(format!("{} ({layer}) uses crate::{module}", file.display()));
            }
        }
        if layer == "model" {
            for word in ["egui", "eframe"] {
                for line in code_mentions(&text, word) {
                    wrong.push(format!(
                        "{} (model) mentions {word}: {line}",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} files checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_import_reader_sees_groups_and_paths() {
    let text = "use crate::{model::{Command, doc}, theme};\nlet x = crate::views::ui();";
    let found: Vec<String> = crate_modules(text).into_iter().collect();
    assert_eq!(found, ["model", "theme", "views"]);
}
