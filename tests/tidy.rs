//! The runtime crates where newcomers live most (kiai-core, kiai-fog,
//! kiai-lua: `src/`, `tests/`, `examples/`) stay readable: at most 800
//! lines per file and 100 lines per function, counted on rustfmt's layout
//! from the `fn` line to the closing brace at the same indentation.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 100;

/// The crates checked, relative to the workspace root.
const CRATES: [&str; 3] = ["crates/kiai-core", "crates/kiai-fog", "crates/kiai-lua"];

/// Functions over the limit, each with the reason it stays whole:
/// (file from the workspace root, function, current length). A length may
/// shrink, never grow; an entry whose file is gone is ignored.
const KNOWN_LONG: &[(&str, &str, usize)] = &[];

/// The `.rs` files under `dir`, recursively, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The function declared on `line`, if any: its name and indentation.
fn fn_start(line: &str) -> Option<(&str, usize)> {
    let code = line.trim_start();
    let indent = line.len() - code.len();
    let mut rest = code;
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some((&rest[..end], indent))
}

/// (name, first line (1-based), length in lines) of every function with a body in `text`.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((name, indent)) = fn_start(line) else {
            continue;
        };
        // The signature ends on the first line ending in `{` (a body follows), `;` (no
        // body) or `}` (a body on one line).
        let Some(sig_end) = (i..lines.len()).find(|&j| {
            let l = lines[j].trim_end();
            l.ends_with('{') || l.ends_with(';') || l.ends_with('}')
        }) else {
            continue;
        };
        let l = lines[sig_end].trim_end();
        if l.ends_with(';') {
            continue;
        }
        let close = format!("{}}}", " ".repeat(indent));
        let end = if l.ends_with('}') {
            sig_end
        } else {
            (sig_end + 1..lines.len())
                .find(|&j| lines[j].trim_end() == close)
                .unwrap_or_else(|| panic!("no closing brace for fn {name} at line {}", i + 1))
        };
        out.push((name.to_string(), i + 1, end - i + 1));
    }
    out
}

#[test]
fn files_and_functions_stay_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.as_path();
    let mut files = Vec::new();
    for krate in CRATES {
        for dir in ["src", "tests", "examples"] {
            rust_files(&root.join(krate).join(dir), &mut files);
        }
    }
    assert!(files.len() > 60, "found only {files:?}");
    let mut problems = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path).unwrap();
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            problems.push(format!(
                "{rel}: {n} lines (max {MAX_FILE_LINES}): split it by concept"
            ));
        }
        for (name, line, len) in functions(&text) {
            let allowed = KNOWN_LONG
                .iter()
                .find(|(f, n, _)| *f == rel && *n == name)
                .map_or(MAX_FN_LINES, |k| k.2);
            if len > allowed {
                problems.push(format!(
                    "{rel}:{line}: fn {name} is {len} lines (max {allowed}): split it into \
                     helpers by phase"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_counter_measures_functions_as_written() {
    let text = "\
fn one() {}

pub(crate) fn three(a: u32) -> u32 {
    a
}

trait T {
    fn declared(&self) -> u32;
    fn multi_line(
        &self,
    ) -> u32 {
        1
    }
}
";
    let found = functions(text);
    let names: Vec<(&str, usize, usize)> = found
        .iter()
        .map(|(n, l, len)| (n.as_str(), *l, *len))
        .collect();
    assert_eq!(
        names,
        [("one", 1, 1), ("three", 3, 3), ("multi_line", 9, 5)]
    );
}
