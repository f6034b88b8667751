//! Reads the paths of one source file: every `crate::…`, `self::…` and
//! `super::…` path (and `use` group) in its code, resolved to the
//! top-level module it starts in, plus the names a crate root brings into
//! scope with `use`.

use super::lexer::strip;

/// A token of blanked code.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Open,
    Close,
    Comma,
    Semi,
    Other(u8),
}

/// The tokens of `code` with the byte offset each starts at.
fn tokens(code: &[u8]) -> Vec<(usize, Tok)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let b = code[i];
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
        if ident(b) {
            let n = code[i..].iter().take_while(|&&b| ident(b)).count();
            let word = String::from_utf8_lossy(&code[i..i + n]).into_owned();
            // `r#type` is the identifier `type`.
            out.push((i, Tok::Ident(word.trim_start_matches("r#").to_owned())));
            i += n;
            continue;
        }
        let tok = match b {
            b':' if code.get(i + 1) == Some(&b':') => {
                out.push((i, Tok::Path));
                i += 2;
                continue;
            }
            b'{' => Tok::Open,
            b'}' => Tok::Close,
            b',' => Tok::Comma,
            b';' => Tok::Semi,
            b if b.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b => Tok::Other(b),
        };
        out.push((i, tok));
        i += 1;
    }
    out
}

/// One path read in a file: the 1-based line it starts on and the module
/// path (from the crate root) its first segment resolves to, followed by
/// the segment named after it (`["fog", "FogGrid"]` for
/// `crate::fog::FogGrid`; `["World"]` for `crate::World`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) line: usize,
    pub(crate) segments: Vec<String>,
}

fn ident(toks: &[(usize, Tok)], i: usize) -> Option<&str> {
    match toks.get(i) {
        Some((_, Tok::Ident(w))) => Some(w),
        _ => None,
    }
}

fn is(toks: &[(usize, Tok)], i: usize, t: &Tok) -> bool {
    toks.get(i).is_some_and(|(_, x)| x == t)
}

/// The module path at each token: `base` (the file's own module path)
/// plus the inline `mod name { … }` blocks the token is inside.
fn module_paths(toks: &[(usize, Tok)], base: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::with_capacity(toks.len());
    let mut path = base.to_vec();
    // (depth at which the inline module's block closes)
    let mut open: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    for (i, (_, t)) in toks.iter().enumerate() {
        out.push(path.clone());
        match t {
            Tok::Open => {
                depth += 1;
                if i >= 2
                    && ident(toks, i - 2) == Some("mod")
                    && let Some(name) = ident(toks, i - 1)
                {
                    path.push(name.to_owned());
                    open.push(depth);
                }
            }
            Tok::Close => {
                if open.last() == Some(&depth) {
                    open.pop();
                    path.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    out
}

/// The identifiers heading each item of the group whose `{` is token
/// `open`, and the index of the token after its `}`. Nested groups inside
/// an item (`a::{b, c}`) do not add heads.
fn group_heads(toks: &[(usize, Tok)], open: usize) -> (Vec<(usize, String)>, usize) {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut at_item = true;
    let mut i = open + 1;
    while i < toks.len() {
        match &toks[i].1 {
            Tok::Open => depth += 1,
            Tok::Close if depth == 0 => return (heads, i + 1),
            Tok::Close => depth -= 1,
            Tok::Comma if depth == 0 => at_item = true,
            Tok::Ident(w) if depth == 0 && at_item => {
                heads.push((toks[i].0, w.clone()));
                at_item = false;
            }
            _ if depth == 0 => at_item = false,
            _ => {}
        }
        i += 1;
    }
    (heads, i)
}

/// Every path in `text` that starts with `crate`, `self` or `super`
/// (`$crate` in macros excluded), resolved against `module` (the file's
/// module path from the crate root: `[]` for `lib.rs`, `["fog"]` for
/// `fog.rs` or `fog/mod.rs`, `["fog", "units"]` for `fog/units.rs`).
/// With `doc_links`, the paths inside doc comments count too.
pub(crate) fn crate_paths(text: &str, module: &[String], doc_links: bool) -> Vec<Found> {
    let stripped = strip(text);
    let line_of = |at: usize| {
        text.as_bytes()[..at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    };
    let mut out = Vec::new();
    let toks = tokens(&stripped.code);
    let paths = module_paths(&toks, module);
    read_paths(&toks, &paths, &mut |at, segments| {
        out.push(Found {
            line: line_of(at),
            segments,
        });
    });
    if doc_links {
        for (at, doc) in &stripped.docs {
            let toks = tokens(doc.as_bytes());
            // A doc comment's paths resolve in the item's module; inline
            // modules are not tracked there.
            let paths = vec![module.to_vec(); toks.len()];
            read_paths(&toks, &paths, &mut |off, segments| {
                out.push(Found {
                    line: line_of(at + off),
                    segments,
                });
            });
        }
        out.sort_by_key(|f| f.line);
    }
    out
}

/// Calls `found(offset, segments)` for every `crate`/`self`/`super` path
/// in `toks`.
fn read_paths(
    toks: &[(usize, Tok)],
    paths: &[Vec<String>],
    found: &mut dyn FnMut(usize, Vec<String>),
) {
    let mut i = 0;
    while i < toks.len() {
        let Some(word) = ident(toks, i) else {
            i += 1;
            continue;
        };
        let starts = matches!(word, "crate" | "self" | "super")
            && is(toks, i + 1, &Tok::Path)
            && !(i > 0 && (is(toks, i - 1, &Tok::Path) || is(toks, i - 1, &Tok::Other(b'$'))));
        if !starts {
            i += 1;
            continue;
        }
        let at = toks[i].0;
        let mut base: Vec<String> = match word {
            "crate" => Vec::new(),
            _ => paths[i].clone(),
        };
        let mut j = i;
        while ident(toks, j) == Some("super") && is(toks, j + 1, &Tok::Path) {
            base.pop();
            j += 2;
        }
        if word != "super" {
            j = i + 2;
        }
        if is(toks, j, &Tok::Open) {
            let (heads, next) = group_heads(toks, j);
            for (_, head) in heads {
                let mut segments = base.clone();
                segments.push(head);
                found(at, segments);
            }
            i = next;
        } else {
            let mut segments = base;
            if let Some(name) = ident(toks, j) {
                segments.push(name.to_owned());
            }
            found(at, segments);
            i = j + 1;
        }
    }
}

/// The names a crate root's `use` declarations bring into its scope, with
/// the path each comes from (`pub use fog::{FogGrid, FogEvent as Event}`
/// gives `FogGrid -> [fog, FogGrid]` and `Event -> [fog, FogEvent]`).
/// Globs are not followed.
pub(crate) fn root_uses(text: &str) -> Vec<(String, Vec<String>)> {
    let stripped = strip(text);
    let toks = tokens(&stripped.code);
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].1 {
            Tok::Open => depth += 1,
            Tok::Close => depth = depth.saturating_sub(1),
            Tok::Ident(w) if w == "use" && depth == 0 => {
                i = use_tree(&toks, i + 1, Vec::new(), &mut out);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Reads one use tree from token `i` with the path `prefix` before it,
/// adding its leaves to `out`; returns the index after the tree.
fn use_tree(
    toks: &[(usize, Tok)],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(String, Vec<String>)>,
) -> usize {
    if is(toks, i, &Tok::Path) {
        i += 1; // `use ::std::…`
    }
    loop {
        match toks.get(i).map(|t| &t.1) {
            Some(Tok::Ident(w)) => {
                let w = w.clone();
                i += 1;
                if is(toks, i, &Tok::Path) {
                    if w != "crate" && w != "self" {
                        prefix.push(w);
                    }
                    i += 1;
                    continue;
                }
                let mut name = w.clone();
                if ident(toks, i) == Some("as") {
                    name = ident(toks, i + 1).unwrap_or("_").to_owned();
                    i += 2;
                }
                let mut path = prefix.clone();
                if w != "self" {
                    path.push(w);
                } else if let Some(last) = prefix.last() {
                    name = last.clone();
                }
                if name != "_" {
                    out.push((name, path));
                }
                return i;
            }
            Some(Tok::Open) => {
                i += 1;
                while i < toks.len() && !is(toks, i, &Tok::Close) {
                    i = use_tree(toks, i, prefix.clone(), out);
                    if is(toks, i, &Tok::Comma) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            // `*`, `;` or anything unexpected ends the tree.
            _ => return i + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heads(text: &str, module: &[&str]) -> Vec<(usize, String)> {
        let module: Vec<String> = module.iter().map(|s| (*s).to_owned()).collect();
        crate_paths(text, &module, false)
            .into_iter()
            .map(|f| (f.line, f.segments.join("::")))
            .collect()
    }

    #[test]
    fn paths_groups_and_supers_resolve_from_the_crate_root() {
        let text = "use crate::{model::{Command, doc}, theme};\n\
                    let x = crate::views::ui();\n\
                    use super::{a, b::C};\n\
                    use super::super::top::T;\n\
                    $crate::macro_only();\n\
                    // crate::in_a_comment\n\
                    let s = \"crate::in_a_string\";\n\
                    pub(crate) fn f() { self::g(); }\n\
                    mod tests { use super::*; use super::super::up; }";
        assert_eq!(
            heads(text, &["outer", "inner"]),
            [
                (1, "model".to_owned()),
                (1, "theme".to_owned()),
                (2, "views".to_owned()),
                (3, "outer::a".to_owned()),
                (3, "outer::b".to_owned()),
                (4, "top".to_owned()),
                (8, "outer::inner::g".to_owned()),
                // `use super::*` in `mod tests`: the file's own module.
                (9, "outer::inner".to_owned()),
                (9, "outer::up".to_owned()),
            ]
        );
    }

    #[test]
    fn doc_links_count_only_when_asked() {
        let text = "/// see [`crate::views::x`]\nfn f() {}\n";
        assert!(heads(text, &["model"]).is_empty());
        let found = crate_paths(text, &["model".to_owned()], true);
        assert_eq!(
            found,
            [Found {
                line: 1,
                segments: vec!["views".into()]
            }]
        );
    }

    #[test]
    fn root_uses_name_their_sources() {
        let text = "mod fog;\npub use fog::{FogGrid, events::FogEvent as Event, self};\n\
                    pub use crate::grid::GridSpec;\nuse std::fmt;\npub use unit::*;\n\
                    fn f() { use inner::Hidden; }";
        let got: Vec<(String, String)> = root_uses(text)
            .into_iter()
            .map(|(n, p)| (n, p.join("::")))
            .collect();
        let want = [
            ("FogGrid", "fog::FogGrid"),
            ("Event", "fog::events::FogEvent"),
            ("fog", "fog"),
            ("GridSpec", "grid::GridSpec"),
            ("fmt", "std::fmt"),
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned()));
        assert_eq!(got, want);
    }
}
