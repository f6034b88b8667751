//! Where each value of a RON text starts, by path.
//!
//! serde hands us values without positions, so after a successful parse this
//! scanner walks the same text once and records the line and column at which
//! every value begins, keyed by a path such as `agents[3].archetype` (list
//! index), `bounds.min[0]` (tuple element) or `archetypes{1}.senses[0]`
//! (entry 1 of a map; the entry's position is its key's). Enum and struct
//! names (`Sphere(radius: 8.0)`, `Some(...)`) do not add a path segment.
//!
//! The scanner never panics and always terminates, whatever the input.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// A 1-based line and column (in characters), as editors count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
}

/// Deepest nesting the scanner follows (RON itself stops at 128).
const MAX_DEPTH: usize = 256;

/// Start positions of the values of one RON text, by path.
///
/// The text is scanned lazily, on the first question: valid content, which
/// needs no positions, never pays for the scan.
#[derive(Clone, Debug, Default)]
pub struct SpanIndex {
    text: Arc<str>,
    starts: OnceLock<BTreeMap<String, Pos>>,
}

impl SpanIndex {
    /// An index of `text` (scanned when first asked).
    pub fn new(text: &str) -> Self {
        Self {
            text: Arc::from(text),
            starts: OnceLock::new(),
        }
    }

    fn starts(&self) -> &BTreeMap<String, Pos> {
        self.starts.get_or_init(|| {
            let mut s = Scanner {
                chars: self.text.chars().collect(),
                at: 0,
                line: 1,
                column: 1,
                starts: BTreeMap::new(),
            };
            s.skip_trivia();
            s.value(String::new(), 0);
            s.starts
        })
    }

    /// Where the value at `path` starts; falls back to the closest enclosing
    /// value that was found, then to 1:1.
    pub fn pos(&self, path: &str) -> Pos {
        let mut p = path;
        loop {
            if let Some(pos) = self.starts().get(p) {
                return *pos;
            }
            match p.rfind(['.', '[', '{']) {
                Some(cut) => p = &p[..cut],
                None => {
                    return self
                        .starts()
                        .get("")
                        .copied()
                        .unwrap_or(Pos { line: 1, column: 1 });
                }
            }
        }
    }

    /// The deepest user-facing path of a value starting exactly at `pos`
    /// (map entries print as `archetypes{1}`), if any value starts there.
    pub fn path_at(&self, pos: Pos) -> Option<&str> {
        self.starts()
            .iter()
            .filter(|(path, start)| **start == pos && !path.is_empty() && !path.contains('#'))
            .map(|(path, _)| path.as_str())
            .max_by_key(|path| path.len())
    }

    /// Whether the text contains a value at `path`.
    pub fn contains(&self, path: &str) -> bool {
        self.starts().contains_key(path)
    }
}

struct Scanner {
    chars: Vec<char>,
    at: usize,
    line: u32,
    column: u32,
    starts: BTreeMap<String, Pos>,
}

impl Scanner {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.at + offset).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }

    fn skip_trivia(&mut self) {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while !matches!(self.peek(), None | Some('\n')) {
                        self.bump();
                    }
                }
                (Some('/'), Some('*')) => {
                    self.bump();
                    self.bump();
                    let mut depth = 1;
                    while depth > 0 {
                        match (self.peek(), self.peek_at(1)) {
                            (None, _) => return,
                            (Some('*'), Some('/')) => {
                                depth -= 1;
                                self.bump();
                                self.bump();
                            }
                            (Some('/'), Some('*')) => {
                                depth += 1;
                                self.bump();
                                self.bump();
                            }
                            _ => {
                                self.bump();
                            }
                        }
                    }
                }
                _ => return,
            }
        }
    }

    fn record(&mut self, path: &str) {
        let pos = self.pos();
        self.starts.entry(path.to_owned()).or_insert(pos);
    }

    /// Scans one value whose path is `path`.
    fn value(&mut self, path: String, depth: usize) {
        self.record(&path);
        if depth > MAX_DEPTH {
            self.at = self.chars.len();
            return;
        }
        match self.peek() {
            Some('(') => self.parens(&path, depth),
            Some('[') => self.list(&path, depth),
            Some('{') => self.map(&path, depth),
            Some('"') => self.string(),
            Some('\'') => self.char_literal(),
            Some('r') if matches!(self.peek_at(1), Some('#' | '"')) => self.raw_string(),
            Some('b') if self.peek_at(1) == Some('"') => {
                self.bump();
                self.string();
            }
            Some(c) if is_ident_start(c) => {
                let name = self.ident();
                self.skip_trivia();
                if self.peek() == Some('(') {
                    if name == "Some" {
                        // `Some(value)`: the value keeps the option's path.
                        self.bump();
                        self.skip_trivia();
                        self.value(path, depth + 1);
                        if self.peek() == Some(')') {
                            self.bump();
                        }
                    } else {
                        self.parens(&path, depth);
                    }
                }
            }
            Some(_) => {
                // Number (or anything else): consume one token.
                let start = self.at;
                while matches!(self.peek(), Some(c) if c.is_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'))
                {
                    self.bump();
                }
                if self.at == start {
                    self.bump();
                }
            }
            None => {}
        }
        self.skip_trivia();
    }

    fn ident(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if is_ident_continue(c) {
                s.push(c);
                self.bump();
            } else {
                break;
            }
        }
        s
    }

    /// Scans comma-separated items up to `close`, calling `item` with the
    /// item's ordinal for each; always makes progress.
    fn items(&mut self, close: char, mut item: impl FnMut(&mut Self, usize)) {
        self.bump();
        self.skip_trivia();
        let mut n = 0usize;
        loop {
            match self.peek() {
                None => return,
                Some(c) if c == close => {
                    self.bump();
                    return;
                }
                Some(',') => {
                    self.bump();
                    self.skip_trivia();
                    continue;
                }
                _ => {}
            }
            let before = self.at;
            item(self, n);
            n += 1;
            if self.at == before {
                self.bump();
            }
        }
    }

    /// `( ... )`: a struct (`name: value, ...`) or a tuple (`value, ...`).
    fn parens(&mut self, path: &str, depth: usize) {
        let mut element = 0usize;
        self.items(')', |s, _| {
            if let Some(field) = s.field_name() {
                s.value(join_field(path, &field), depth + 1);
            } else {
                s.value(format!("{path}[{element}]"), depth + 1);
                element += 1;
            }
        });
    }

    /// If the cursor is at `ident :` (not `ident ::`), consumes it and returns
    /// the identifier.
    fn field_name(&mut self) -> Option<String> {
        let c = self.peek()?;
        if !is_ident_start(c) {
            return None;
        }
        let mut k = self.at;
        while self.chars.get(k).is_some_and(|&c| is_ident_continue(c)) {
            k += 1;
        }
        let mut m = k;
        while self.chars.get(m).is_some_and(|c| c.is_whitespace()) {
            m += 1;
        }
        if self.chars.get(m) == Some(&':') && self.chars.get(m + 1) != Some(&':') {
            let name = self.ident();
            self.skip_trivia();
            self.bump();
            self.skip_trivia();
            Some(name)
        } else {
            None
        }
    }

    fn list(&mut self, path: &str, depth: usize) {
        self.items(']', |s, i| s.value(format!("{path}[{i}]"), depth + 1));
    }

    fn map(&mut self, path: &str, depth: usize) {
        self.items('}', |s, entry| {
            let entry_path = format!("{path}{{{entry}}}");
            // The entry's position is its key's.
            s.value(format!("{entry_path}#key"), depth + 1);
            if let Some(key_pos) = s.starts.get(&format!("{entry_path}#key")).copied() {
                s.starts.entry(entry_path.clone()).or_insert(key_pos);
            }
            if s.peek() == Some(':') {
                s.bump();
                s.skip_trivia();
                s.value(format!("{entry_path}#value"), depth + 1);
                s.alias_value_children(&entry_path);
            }
        });
    }

    /// Children of a map value are addressed as `map{i}.field`, not
    /// `map{i}#value.field`: rewrite the keys just recorded.
    fn alias_value_children(&mut self, entry_path: &str) {
        let prefix = format!("{entry_path}#value");
        let moved: Vec<(String, Pos)> = self
            .starts
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .filter(|(k, _)| k.len() > prefix.len())
            .map(|(k, v)| (format!("{entry_path}{}", &k[prefix.len()..]), *v))
            .collect();
        for (k, v) in moved {
            self.starts.entry(k).or_insert(v);
        }
    }

    fn string(&mut self) {
        self.bump();
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                '"' => return,
                _ => {}
            }
        }
    }

    fn raw_string(&mut self) {
        self.bump();
        let mut hashes = 0usize;
        while self.peek() == Some('#') {
            hashes += 1;
            self.bump();
        }
        if self.peek() != Some('"') {
            return;
        }
        self.bump();
        while let Some(c) = self.bump() {
            if c == '"' {
                let mut n = 0;
                while n < hashes && self.peek() == Some('#') {
                    n += 1;
                    self.bump();
                }
                if n == hashes {
                    return;
                }
            }
        }
    }

    fn char_literal(&mut self) {
        self.bump();
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                '\'' => return,
                _ => {}
            }
        }
    }
}

fn join_field(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_owned()
    } else {
        format!("{path}.{field}")
    }
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_continue(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"(
    format: 1, // comment (with parens
    /* block ( */ bounds: Some((min: (-1.0, 0.0, -1.0), max: (1.0, 1.0, 1.0))),
    archetypes: {
        "guard": (senses: [(name: "eyes", shape: Cone(range: 30.0, fov_deg: 120.0))]),
        "r\"aw": (),
    },
    agents: [(name: "a", pos: (0.0, 0.0, 0.0)), (name: "b", archetype: "gaurd")],
)"#;

    fn at(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    #[test]
    fn records_fields_elements_and_entries() {
        let idx = SpanIndex::new(TEXT);
        assert_eq!(idx.pos("format"), at(2, 13));
        assert_eq!(idx.pos("bounds.min[2]"), at(3, 50));
        assert_eq!(idx.pos("archetypes{0}"), at(5, 9));
        assert_eq!(idx.pos("archetypes{0}.senses[0].shape"), at(5, 50));
        assert_eq!(idx.pos("archetypes{0}.senses[0].shape.fov_deg"), at(5, 77));
        assert_eq!(idx.pos("archetypes{1}"), at(6, 9));
        assert_eq!(idx.pos("agents[1].archetype"), at(8, 72));
    }

    #[test]
    fn missing_paths_fall_back_to_the_parent() {
        let idx = SpanIndex::new(TEXT);
        assert_eq!(idx.pos("agents[1].facing"), idx.pos("agents[1]"));
        assert_eq!(idx.pos("nothing.here"), at(1, 1));
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "(",
            "((((",
            "{\"a\"",
            "r###\"",
            "'\\",
            "[,,,]",
            "(a: (b: c: d",
            "/* /* */",
        ] {
            let _ = SpanIndex::new(text);
        }
    }
}
