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
            let mut starts = BTreeMap::new();
            record(&self.text, &syntax(&self.text), "", &mut starts);
            starts
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

/// One value of a RON text as written: where it is and, for bracketed
/// values, its entries. Offsets are in bytes into the scanned text; `end`
/// is just past the value (before any white space or comment after it).
#[derive(Clone, Debug)]
pub(crate) struct Syn {
    /// Byte offset of the value's first character (the name of
    /// `Name(...)` and `Some(...)`).
    pub start: usize,
    /// Byte offset just past the value.
    pub end: usize,
    /// Line and column of `start`.
    pub pos: Pos,
    /// What kind of value it is.
    pub kind: SynKind,
}

/// The kinds of [`Syn`] values.
#[derive(Clone, Debug)]
pub(crate) enum SynKind {
    /// A number, string, identifier or anything else without brackets.
    Atom,
    /// `Some(value)`.
    Some(Box<Syn>),
    /// `(...)`, `Name(...)`, `[...]` or `{...}`.
    Group(Group),
}

/// A bracketed value and its entries.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// `(`, `[` or `{`.
    pub bracket: char,
    /// Byte offset of the opening bracket.
    pub open: usize,
    /// Byte offset of the closing bracket (`None`: the text ends first).
    pub close: Option<usize>,
    /// The entries, in text order.
    pub entries: Vec<Entry>,
}

/// One entry of a [`Group`]: a field, a map entry or an element.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    /// Byte offset where the entry starts (its field name, key or value).
    pub start: usize,
    /// What names the entry.
    pub key: Key,
    /// The entry's value (a map entry without `:` has only its key, kept
    /// here with [`Key::Element`]).
    pub value: Syn,
    /// Byte offset of the comma after the entry, if any.
    pub comma: Option<usize>,
}

/// What names an [`Entry`].
#[derive(Clone, Debug)]
pub(crate) enum Key {
    /// A list or tuple element (or, in a map, a key without a value).
    Element,
    /// A struct field: the byte range of its name.
    Field(usize, usize),
    /// A map key.
    Map(Box<Syn>),
}

impl Entry {
    /// Byte offset just past the entry's value.
    pub(crate) fn end(&self) -> usize {
        self.value.end
    }
}

/// The syntax tree of `text`: its one top-level value (scanned tolerantly:
/// any text gives a tree, and the scan always terminates).
pub(crate) fn syntax(text: &str) -> Syn {
    let mut s = Scanner {
        text,
        byte: 0,
        line: 1,
        column: 1,
    };
    s.skip_trivia();
    s.value(0)
}

/// Records where every value of `syn` starts, by path (the first value
/// found at a path wins).
fn record(text: &str, syn: &Syn, path: &str, out: &mut BTreeMap<String, Pos>) {
    out.entry(path.to_owned()).or_insert(syn.pos);
    record_children(text, syn, path, out);
}

/// Records the values inside `syn` (not `syn` itself) under `path`.
fn record_children(text: &str, syn: &Syn, path: &str, out: &mut BTreeMap<String, Pos>) {
    match &syn.kind {
        SynKind::Atom => {}
        // `Some(value)`: the value keeps the option's path.
        SynKind::Some(inner) => record(text, inner, path, out),
        SynKind::Group(g) => match g.bracket {
            '(' => {
                let mut element = 0usize;
                for e in &g.entries {
                    match e.key {
                        Key::Field(a, b) => {
                            let name = text.get(a..b).unwrap_or_default();
                            record(text, &e.value, &join_field(path, name), out);
                        }
                        _ => {
                            record(text, &e.value, &format!("{path}[{element}]"), out);
                            element += 1;
                        }
                    }
                }
            }
            '[' => {
                for (i, e) in g.entries.iter().enumerate() {
                    record(text, &e.value, &format!("{path}[{i}]"), out);
                }
            }
            _ => {
                for (i, e) in g.entries.iter().enumerate() {
                    let entry = format!("{path}{{{i}}}");
                    match &e.key {
                        Key::Map(key) => {
                            // The entry's position is its key's.
                            record(text, key, &format!("{entry}#key"), out);
                            out.entry(entry.clone()).or_insert(key.pos);
                            record(text, &e.value, &format!("{entry}#value"), out);
                            // Children of a map value are addressed as
                            // `map{i}.field`, not `map{i}#value.field`.
                            record_children(text, &e.value, &entry, out);
                        }
                        _ => {
                            record(text, &e.value, &format!("{entry}#key"), out);
                            out.entry(entry).or_insert(e.value.pos);
                        }
                    }
                }
            }
        },
    }
}

/// Walks the text character by character (decoded in place: no copy of
/// the text), keeping the byte offset and the line and column.
struct Scanner<'t> {
    text: &'t str,
    byte: usize,
    line: u32,
    column: u32,
}
impl Scanner<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.byte..).unwrap_or_default()
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.rest().chars().nth(offset)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.byte += c.len_utf8();
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

    /// Scans one value and the trivia after it.
    fn value(&mut self, depth: usize) -> Syn {
        let start = self.byte;
        let pos = self.pos();
        if depth > MAX_DEPTH {
            self.byte = self.text.len();
            return Syn {
                start,
                end: self.byte,
                pos,
                kind: SynKind::Atom,
            };
        }
        let mut end = None;
        let kind = match self.peek() {
            Some('(') => SynKind::Group(self.parens(depth)),
            Some('[') => SynKind::Group(self.list(depth)),
            Some('{') => SynKind::Group(self.map(depth)),
            Some('"') => {
                self.string();
                SynKind::Atom
            }
            Some('\'') => {
                self.char_literal();
                SynKind::Atom
            }
            Some('r') if matches!(self.peek_at(1), Some('#' | '"')) => {
                self.raw_string();
                SynKind::Atom
            }
            Some('b') if self.peek_at(1) == Some('"') => {
                self.bump();
                self.string();
                SynKind::Atom
            }
            Some(c) if is_ident_start(c) => {
                let is_some = self.ident() == "Some";
                let name_end = self.byte;
                self.skip_trivia();
                if self.peek() != Some('(') {
                    end = Some(name_end);
                    SynKind::Atom
                } else if is_some {
                    // `Some(value)`: one value, not a list of entries.
                    self.bump();
                    self.skip_trivia();
                    let inner = self.value(depth + 1);
                    if self.peek() == Some(')') {
                        self.bump();
                    }
                    SynKind::Some(Box::new(inner))
                } else {
                    SynKind::Group(self.parens(depth))
                }
            }
            Some(_) => {
                // Number (or anything else): consume one token.
                let begin = self.byte;
                while matches!(self.peek(), Some(c) if c.is_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'))
                {
                    self.bump();
                }
                if self.byte == begin {
                    self.bump();
                }
                SynKind::Atom
            }
            None => SynKind::Atom,
        };
        let end = end.unwrap_or(self.byte);
        self.skip_trivia();
        Syn {
            start,
            end,
            pos,
            kind,
        }
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

    /// Scans comma-separated entries up to `close` into a group, calling
    /// `entry` for each; always makes progress.
    fn items(&mut self, close: char, mut entry: impl FnMut(&mut Self) -> Entry) -> Group {
        let open = self.byte;
        let bracket = self.bump().unwrap_or(close);
        self.skip_trivia();
        let mut group = Group {
            bracket,
            open,
            close: None,
            entries: Vec::new(),
        };
        loop {
            match self.peek() {
                None => return group,
                Some(c) if c == close => {
                    group.close = Some(self.byte);
                    self.bump();
                    return group;
                }
                Some(',') => {
                    if let Some(last) = group.entries.last_mut()
                        && last.comma.is_none()
                    {
                        last.comma = Some(self.byte);
                    }
                    self.bump();
                    self.skip_trivia();
                    continue;
                }
                _ => {}
            }
            let before = self.byte;
            let e = entry(self);
            group.entries.push(e);
            if self.byte == before {
                self.bump();
            }
        }
    }

    /// `( ... )`: a struct (`name: value, ...`) or a tuple (`value, ...`).
    fn parens(&mut self, depth: usize) -> Group {
        self.items(')', |s| {
            let start = s.byte;
            let key = match s.field_name() {
                Some(field_end) => Key::Field(start, field_end),
                None => Key::Element,
            };
            Entry {
                start,
                key,
                value: s.value(depth + 1),
                comma: None,
            }
        })
    }

    /// If the cursor is at `ident :` (not `ident ::`), consumes it and returns
    /// the byte offset just past the identifier.
    fn field_name(&mut self) -> Option<usize> {
        let c = self.peek()?;
        if !is_ident_start(c) {
            return None;
        }
        let mut ahead = self
            .rest()
            .chars()
            .skip_while(|&c| is_ident_continue(c))
            .skip_while(|c| c.is_whitespace());
        if ahead.next() == Some(':') && ahead.next() != Some(':') {
            self.ident();
            let end = self.byte;
            self.skip_trivia();
            self.bump();
            self.skip_trivia();
            Some(end)
        } else {
            None
        }
    }

    fn list(&mut self, depth: usize) -> Group {
        self.items(']', |s| Entry {
            start: s.byte,
            key: Key::Element,
            value: s.value(depth + 1),
            comma: None,
        })
    }

    fn map(&mut self, depth: usize) -> Group {
        self.items('}', |s| {
            let start = s.byte;
            let key = s.value(depth + 1);
            if s.peek() == Some(':') {
                s.bump();
                s.skip_trivia();
                Entry {
                    start,
                    key: Key::Map(Box::new(key)),
                    value: s.value(depth + 1),
                    comma: None,
                }
            } else {
                Entry {
                    start,
                    key: Key::Element,
                    value: key,
                    comma: None,
                }
            }
        })
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
