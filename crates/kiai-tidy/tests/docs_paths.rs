//! The docs name files that exist: every path in backticks in README.md,
//! ARCHITECTURE.md, BENCHMARKS.md and docs/*.md (a word ending in `.rs`,
//! `.ron`, `.lua` or `/`) must be a file or folder of the repository,
//! relative to its root or to the page, or, for a path given inside a
//! crate (`data/route_queue.rs`, `navigate/`), the end of one.
//! Placeholders (`FILE.ron`, `*.scenario.ron`) are not paths.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kiai_tidy::files::workspace_root;

/// Every file and folder of the repository (without build output and
/// git's own), as `/`-separated paths from the root.
fn repository(root: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if name.starts_with('.') || name == "target" {
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                out.insert(format!("{rel}/"));
                stack.push(path);
            } else {
                out.insert(rel);
            }
        }
    }
    out
}

/// The pages checked.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md"]
        .iter()
        .map(|p| root.join(p))
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The words of `text`'s inline code spans (outside fenced blocks) that
/// look like paths, with their line numbers.
fn paths_in(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (k, span) in line.split('`').enumerate() {
            if k % 2 == 0 {
                continue;
            }
            for word in span.split_whitespace() {
                let word = word.trim_end_matches([',', ';', ':', ')', '.']);
                let word = word.trim_start_matches(['(', '"']);
                if looks_like_path(word) {
                    out.push((n + 1, word.to_string()));
                }
            }
        }
    }
    out
}

/// Files the docs tell the reader to make.
const EXAMPLES: &[&str] = &["mymap.ron"];

/// A word ending in `.rs`, `.ron`, `.lua` or `/`, made of path
/// characters, that is not a placeholder.
fn looks_like_path(word: &str) -> bool {
    let path_chars = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
    let kind = [".rs", ".ron", ".lua"].iter().any(|e| word.ends_with(e))
        || (word.ends_with('/') && word.len() > 1 && !word.starts_with("//"));
    let stem = word
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .split('.')
        .next()
        .unwrap_or("");
    // FILE.ron, OUT.jsonl, EVENTS.ron: what the reader fills in; `.ron`:
    // an extension; the walkthrough's map is the reader's own file.
    let placeholder = stem.is_empty()
        || stem.chars().all(|c| !c.is_ascii_lowercase())
        || EXAMPLES.contains(&word);
    path_chars && kind && !placeholder && !word.contains("://")
}

/// Whether `word`, named on `page`, is a path of the repository.
fn exists(repo: &BTreeSet<String>, root: &Path, page: &Path, word: &str) -> bool {
    let here = page.parent().unwrap().strip_prefix(root).unwrap();
    let mut candidates = vec![word.to_string()];
    if !here.as_os_str().is_empty() {
        candidates.push(format!("{}/{word}", here.to_string_lossy()));
    }
    let normal = |p: &str| p.trim_start_matches("./").replace("/./", "/");
    if candidates.iter().any(|c| repo.contains(&normal(c))) {
        return true;
    }
    // A path inside a crate or folder: the end of a repository path.
    let tail = format!("/{}", word.trim_start_matches("./"));
    repo.iter().any(|p| p.ends_with(&tail))
}

#[test]
fn every_path_the_docs_name_exists() {
    let root = workspace_root();
    let repo = repository(&root);
    let mut missing = Vec::new();
    let mut checked = 0;
    for page in pages(&root) {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .to_string();
        for (line, word) in paths_in(&text) {
            checked += 1;
            if !exists(&repo, &root, &page, &word) {
                missing.push(format!("{name}:{line}: `{word}` does not exist"));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "{} paths in the docs name nothing (fix the path, or the page):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_check_catches_a_moved_file() {
    let root = workspace_root();
    let repo = repository(&root);
    let page = root.join("ARCHITECTURE.md");
    let found = paths_in("see `perception/grid.rs` and `data/agent_grid.rs`, not `FILE.ron`");
    let words: Vec<&str> = found.iter().map(|(_, w)| w.as_str()).collect();
    assert_eq!(words, ["perception/grid.rs", "data/agent_grid.rs"]);
    assert!(!exists(&repo, &root, &page, "perception/grid.rs"));
    assert!(exists(&repo, &root, &page, "data/agent_grid.rs"));
}
