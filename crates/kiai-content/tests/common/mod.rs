//! What the writer's tests share: the demo files and the comment lines of a
//! text, with the lines each item owns.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // each test file uses some

use std::path::{Path, PathBuf};

/// The repository root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every demo (`content/demo/*.ron`) and the format-1 village migrated by
/// `migrate_text`: (name, text).
pub(crate) fn demos() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(root().join("content/demo"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    assert!(out.len() >= 5, "{out:?}");
    let v1 = std::fs::read_to_string(root().join("tests/data/village_v1.ron")).unwrap();
    let migrated = kiai_content::migrate::migrate_text(&v1, "village_v1.ron").unwrap();
    out.push(("village_v1.ron migrated".to_owned(), migrated.text));
    out
}

/// Indices (from 0) of the lines holding a `//` comment.
pub(crate) fn comment_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains("//"))
        .map(|(i, _)| i)
        .collect()
}

/// The lines (from 0) an item starting on 1-based line `line` owns when it
/// is removed: that line (with its trailing comment) and the comment lines
/// directly above it.
pub(crate) fn owned_lines(text: &str, line: u32) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let at = line as usize - 1;
    let mut out = vec![at];
    let mut i = at;
    while i > 0 && lines[i - 1].trim_start().starts_with("//") {
        i -= 1;
        out.push(i);
    }
    out
}

/// Comment lines of `before` (not in `except`) missing from `after`,
/// compared as whole lines and counted (a line that occurs twice must
/// survive twice).
pub(crate) fn lost_comments(before: &str, after: &str, except: &[usize]) -> Vec<String> {
    let mut have: Vec<&str> = after.lines().filter(|l| l.contains("//")).collect();
    let mut lost = Vec::new();
    let lines: Vec<&str> = before.lines().collect();
    for i in comment_lines(before) {
        if except.contains(&i) {
            continue;
        }
        match have.iter().position(|l| *l == lines[i]) {
            Some(p) => {
                have.remove(p);
            }
            None => lost.push(lines[i].to_owned()),
        }
    }
    lost
}

/// The lines that differ between two texts of the same line count, as
/// (index, before, after).
pub(crate) fn changed_lines<'a>(before: &'a str, after: &'a str) -> Vec<(usize, &'a str, &'a str)> {
    let (a, b): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    assert_eq!(
        a.len(),
        b.len(),
        "line count changed:\n--- before\n{before}\n--- after\n{after}"
    );
    a.iter()
        .zip(&b)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| (i, *x, *y))
        .collect()
}
