//! Every source file of kiai-lua (tests included) fits in 800 lines and
//! every function in 100: one concept per file, one screen per function.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 100;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `(name, first line, lines)` of every function with a body in `text`
/// (rustfmt layout: the body closes with `}` at the `fn` line's indent).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(at) = trimmed.find("fn ") else {
            continue;
        };
        let before = &trimmed[..at];
        let is_item = before.split_whitespace().all(|w| {
            [
                "pub",
                "pub(crate)",
                "pub(super)",
                "const",
                "unsafe",
                "async",
                "extern",
            ]
            .contains(&w)
        });
        if !is_item || trimmed.starts_with("//") {
            continue;
        }
        let name: String = trimmed[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // The signature ends at the first line ending in `{` or `;`.
        let Some(open) = (i..lines.len()).find(|&k| {
            let l = lines[k].trim_end();
            l.ends_with('{') || l.ends_with(';') || l.ends_with('}')
        }) else {
            continue;
        };
        let sig_end = lines[open].trim_end();
        if sig_end.ends_with(';') || sig_end.ends_with('}') {
            continue;
        }
        let indent = &line[..line.len() - trimmed.len()];
        let close = format!("{indent}}}");
        if let Some(end) = (open + 1..lines.len()).find(|&k| lines[k].trim_end() == close) {
            out.push((name, i + 1, end - i + 1));
        }
    }
    out
}

#[test]
fn files_and_functions_stay_small() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let shown = file.strip_prefix(root).unwrap_or(file).display();
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            problems.push(format!("{shown}: {n} lines (at most {MAX_FILE_LINES})"));
        }
        for (name, line, len) in functions(&text) {
            if len > MAX_FN_LINES {
                problems.push(format!(
                    "{shown}:{line}: fn {name} has {len} lines (at most {MAX_FN_LINES})"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "split these:\n{}", problems.join("\n"));
}

#[test]
fn the_function_finder_sees_functions() {
    let text = "fn a() {\n    1\n}\n\nimpl X {\n    pub(crate) fn b(\n        x: u8,\n    ) -> u8 {\n        x\n    }\n    fn c();\n}\n";
    assert_eq!(
        functions(text),
        vec![("a".to_owned(), 1, 3), ("b".to_owned(), 6, 5)]
    );
}
