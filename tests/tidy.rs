//! Every crate stays readable: at most 800 lines per file and 100 lines per
//! function in `src/` and `examples/` of every crate (and in `tests/` of
//! kiai-core, kiai-fog and kiai-lua, where newcomers read the runtime's
//! tests), counted by kiai-tidy's counter on rustfmt's layout, from the
//! `fn` line to the closing brace at the same indentation. Files marked
//! `@generated` in their first lines are tables written by a tool and are
//! not counted.
//!
//! What is over a limit today is in [`KNOWN_LONG`], each entry with its
//! reason; an entry is a ceiling (the length may shrink, never grow), and
//! an entry whose file or function is gone is ignored.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::path::{Path, PathBuf};

use kiai_tidy::files::rust_files;
use kiai_tidy::lengths::{Long, MAX_FILE_LINES, MAX_FN_LINES, files_over, functions_over};

/// The crates checked, relative to the workspace root: every member.
const CRATES: &[&str] = &[
    "crates/kiai-core",
    "crates/kiai-nav",
    "crates/kiai-fog",
    "crates/kiai-content",
    "crates/kiai-lua",
    "crates/kiai-bench",
    "crates/kiai-cli",
    "crates/kiai",
    "crates/kiai-bevy",
    "crates/kiai-tidy",
    "editor",
];

/// The crates whose `tests/` are held to the limits too.
const TESTS_TOO: &[&str] = &["crates/kiai-core", "crates/kiai-fog", "crates/kiai-lua"];

/// Files and functions over the limit: (file from the workspace root,
/// function (`""` for the file itself), its current length, why it stays).
/// Empty: every crate is within the limits; an entry needs its reason.
const KNOWN_LONG: &[(&str, &str, usize, &str)] = &[];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file checked.
fn checked_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for krate in CRATES {
        let mut dirs = vec!["src", "examples"];
        if TESTS_TOO.contains(krate) {
            dirs.push("tests");
        }
        for dir in dirs {
            files.extend(rust_files(&root.join(krate).join(dir)));
        }
    }
    files
}

/// The ceiling for `long`: its allow-list entry's length, else the limit.
fn ceiling(long: &Long) -> usize {
    let name = long.function.as_deref().unwrap_or("");
    KNOWN_LONG
        .iter()
        .find(|(f, n, _, _)| *f == long.file && *n == name)
        .map_or(
            if long.function.is_some() {
                MAX_FN_LINES
            } else {
                MAX_FILE_LINES
            },
            |k| k.2,
        )
}

#[test]
fn files_and_functions_stay_short() {
    let root = root();
    let files = checked_files(&root);
    assert!(files.len() > 300, "found only {} files", files.len());
    let mut problems = Vec::new();
    for long in files_over(&root, &files, MAX_FILE_LINES) {
        let max = ceiling(&long);
        if long.lines > max {
            problems.push(format!(
                "{}: {} lines (max {max}): split it by concept",
                long.file, long.lines
            ));
        }
    }
    for long in functions_over(&root, &files, MAX_FN_LINES) {
        let max = ceiling(&long);
        if long.lines > max {
            problems.push(format!(
                "{}:{}: fn {} is {} lines (max {max}): split it into helpers by phase",
                long.file,
                long.line,
                long.function.as_deref().unwrap_or(""),
                long.lines
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_allow_list_entry_says_why() {
    for (file, function, lines, why) in KNOWN_LONG {
        let limit = if function.is_empty() {
            MAX_FILE_LINES
        } else {
            MAX_FN_LINES
        };
        assert!(
            *lines > limit,
            "{file} {function}: {lines} is within the limit"
        );
        assert!(why.len() > 10, "{file} {function}: say why it stays");
    }
}

#[test]
fn every_member_is_checked() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members = manifest
        .split("members = [")
        .nth(1)
        .and_then(|m| m.split(']').next())
        .unwrap();
    for member in members.split(',').map(|m| m.trim().trim_matches('"')) {
        if !member.is_empty() {
            assert!(CRATES.contains(&member), "{member} is not in CRATES");
        }
    }
}
