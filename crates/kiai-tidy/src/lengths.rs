//! The tidy length counter: lines per file and per function.
//!
//! A function is counted on rustfmt's layout, from its `fn` line to the
//! closing brace at the `fn` line's indentation (a one-line body counts
//! one). Declarations without a body (`fn f();` in a trait) are not
//! functions here. Files whose first five lines say `@generated` (tables
//! written by a tool) are not counted.

use std::path::{Path, PathBuf};

use crate::files::relative;

/// The most lines a file may have.
pub const MAX_FILE_LINES: usize = 800;

/// The most lines a function may have.
pub const MAX_FN_LINES: usize = 100;

/// A function with a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Its `fn` line, 1-based.
    pub line: usize,
    /// Its length in lines, `fn` line and closing brace included.
    pub lines: usize,
}

/// A file or function over a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Long {
    /// The file, relative to the root given, with `/` separators.
    pub file: String,
    /// The function, or `None` for the file itself.
    pub function: Option<String>,
    /// The 1-based line the function starts on (1 for a file).
    pub line: usize,
    /// Its length in lines.
    pub lines: usize,
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

/// Every function with a body in `text`. Panics, naming it, on a function
/// whose closing brace is not at its `fn` line's indentation (not
/// rustfmt's layout).
pub fn functions(text: &str) -> Vec<Function> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((name, indent)) = fn_start(line) else {
            continue;
        };
        // The signature ends on the first line ending in `{` (a body
        // follows), `;` (no body) or `}` (a body on one line).
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
        out.push(Function {
            name: name.to_owned(),
            line: i + 1,
            lines: end - i + 1,
        });
    }
    out
}

/// Whether `text` is a generated table (`@generated` in its first five
/// lines).
pub fn is_generated(text: &str) -> bool {
    text.lines().take(5).any(|l| l.contains("@generated"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files of `files` longer than `max` lines, named relative to `root`.
pub fn files_over(root: &Path, files: &[PathBuf], max: usize) -> Vec<Long> {
    let mut out = Vec::new();
    for path in files {
        let text = read(path);
        let lines = text.lines().count();
        if lines > max && !is_generated(&text) {
            out.push(Long {
                file: relative(root, path),
                function: None,
                line: 1,
                lines,
            });
        }
    }
    out
}

/// The functions in `files` longer than `max` lines, named relative to
/// `root`.
pub fn functions_over(root: &Path, files: &[PathBuf], max: usize) -> Vec<Long> {
    let mut out = Vec::new();
    for path in files {
        let text = read(path);
        if is_generated(&text) {
            continue;
        }
        for f in functions(&text) {
            if f.lines > max {
                out.push(Long {
                    file: relative(root, path),
                    function: Some(f.name),
                    line: f.line,
                    lines: f.lines,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let found: Vec<(String, usize, usize)> = functions(text)
            .into_iter()
            .map(|f| (f.name, f.line, f.lines))
            .collect();
        let want = [("one", 1, 1), ("three", 3, 3), ("multi_line", 9, 5)];
        assert_eq!(found, want.map(|(n, l, len)| (n.to_owned(), l, len)));
    }

    #[test]
    fn generated_tables_are_marked_at_the_top() {
        assert!(is_generated(
            "//! Lua definitions.\n// @generated by kiai lua-defs\n"
        ));
        assert!(!is_generated("fn f() {}\n"));
    }
}
