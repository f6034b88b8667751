//! Values of content by path: `archetypes.guard.senses.eyes.shape.range`.
//!
//! A [`ValuePath`] is a dotted list of steps from the top of a content file:
//! a field name (`seed`, `shape`, `range`), a map key (`archetypes.guard`,
//! `profiles.coward`), a list item by name for lists of named items
//! (`agents.g1`, `factions.red`, `senses.eyes`), a waypoint by id
//! (`waypoints.3`) and any other item by index (`links.0`, `pos.1`). An
//! option that is set is stepped through (`profiles.balanced.learning.rate`).
//! A step that needs dots or spaces is quoted: `archetypes."big guard".noise`.
//!
//! [`set`] replaces the value at a path by RON text, typed by the content's
//! own serde types, so a wrong type is refused with `ron`'s reason; [`get`]
//! reads it. `kiai set` edits files with them; the same syntax works
//! wherever a tool takes `PATH=VALUE` ([`parse_assignment`]). [`diff`]
//! goes the other way: the assignments between two contents.
//!
//! ```
//! use kiai_content::value_path::{ValuePath, get, set};
//!
//! let mut def = kiai_content::parse(
//!     r#"(format: 2, agents: [(name: "g1", archetype: "a", faction: "f", pos: (0.0, 0.0, 0.0))])"#,
//!     "level.ron",
//! )?;
//! let pos: ValuePath = "agents.g1.pos".parse()?;
//! set(&mut def, &pos, "(1.0, 0.0, 2.0)")?;
//! assert_eq!(def.agents[0].pos, (1.0, 0.0, 2.0));
//! assert_eq!(get(&def, &pos)?.as_deref(), Some("(1.0, 0.0, 2.0)"));
//! let typo = set(&mut def, &"agents.g1.pso".parse()?, "(0.0, 0.0, 0.0)").unwrap_err();
//! assert!(typo.message.contains("did you mean `pos`?"), "{typo}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod diff;

use std::fmt;
use std::str::FromStr;

use crate::format::def::ContentDef;
use crate::format::diag::did_you_mean;
use crate::write::{Field, Node, inline};

pub use diff::diff;

/// Most names listed in an error as the valid ones.
const LISTED: usize = 12;

/// A parsed dotted path to one value of the content.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValuePath {
    steps: Vec<String>,
}

/// A path that does not name a value, or a value that does not fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    /// The path as given.
    pub path: String,
    /// What is wrong, with the valid names nearby as hints.
    pub message: String,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.path, self.message)
    }
}

impl std::error::Error for PathError {}

impl ValuePath {
    /// The steps of the path, unquoted.
    pub fn steps(&self) -> &[String] {
        &self.steps
    }

    fn error(&self, message: impl Into<String>) -> PathError {
        PathError {
            path: self.to_string(),
            message: message.into(),
        }
    }

    /// The first `n` steps, as the user would write them.
    fn prefix(&self, n: usize) -> String {
        ValuePath {
            steps: self.steps[..n].to_vec(),
        }
        .to_string()
    }
}

impl fmt::Display for ValuePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            if s.is_empty() || s.contains(['.', ' ', '"', '=', '\\']) {
                write!(f, "\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))?;
            } else {
                f.write_str(s)?;
            }
        }
        Ok(())
    }
}

impl FromStr for ValuePath {
    type Err = PathError;

    /// Parses `a.b."c.d".3`; fails on an empty path or step and on an
    /// unterminated quote.
    fn from_str(text: &str) -> Result<Self, PathError> {
        let bad = |message: &str| PathError {
            path: text.to_owned(),
            message: message.to_owned(),
        };
        let mut steps = Vec::new();
        let mut chars = text.chars().peekable();
        loop {
            let mut step = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                loop {
                    match chars.next() {
                        None => return Err(bad("a quoted step is not closed with `\"`")),
                        Some('"') => break,
                        Some('\\') => step.extend(chars.next()),
                        Some(c) => step.push(c),
                    }
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c == '.' {
                        break;
                    }
                    step.push(c);
                    chars.next();
                }
                let trimmed = step.trim();
                if trimmed.is_empty() {
                    return Err(bad(
                        "empty step; write steps separated by dots, e.g. `agents.g1.pos`",
                    ));
                }
                step = trimmed.to_owned();
            }
            steps.push(step);
            match chars.next() {
                None => return Ok(ValuePath { steps }),
                Some('.') => {}
                Some(c) => return Err(bad(&format!("unexpected `{c}` after a quoted step"))),
            }
        }
    }
}

/// Splits `PATH=VALUE` at the first `=` outside quotes.
pub fn parse_assignment(text: &str) -> Result<(ValuePath, String), PathError> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '=' if !quoted => {
                let path: ValuePath = text[..i].parse()?;
                let value = text[i + 1..].trim();
                if value.is_empty() {
                    return Err(path.error("no value after `=`; give a RON value, e.g. `seed=7`"));
                }
                return Ok((path, value.to_owned()));
            }
            _ => {}
        }
    }
    Err(PathError {
        path: text.to_owned(),
        message: "expected PATH=VALUE, e.g. `seed=7` or `agents.g1.pos=(1.0, 0.0, 2.0)`".to_owned(),
    })
}

/// One step taken through a [`Node`] tree.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Into a set option.
    Inner,
    /// Field `.0` of a struct.
    Field(usize),
    /// Item `.0` of a list or tuple.
    Item(usize),
    /// The value of map entry `.0`.
    Entry(usize),
}

/// The value at `path` as RON text; `None` when it is a field left at its
/// default (not written in the file).
pub fn get(def: &ContentDef, path: &ValuePath) -> Result<Option<String>, PathError> {
    let root = Node::of(def).map_err(|e| path.error(e.0))?;
    let steps = resolve(&root, path)?;
    Ok(slot(&root, &steps).map(inline))
}

/// Sets the value at `path` to `value`, RON text of the value's type (a
/// number, a string in quotes, `(1.0, 0.0, 2.0)`, `Cone(range: 40.0,
/// fov_deg: 90.0)`, `None`). Fails, leaving `def` as it was, when the path
/// names no value or the text is not one value of that type. The content
/// is not validated here (a range of -1 is accepted): callers validate the
/// result as a whole.
pub fn set(def: &mut ContentDef, path: &ValuePath, value: &str) -> Result<(), PathError> {
    let root = Node::of(def).map_err(|e| path.error(e.0))?;
    let steps = resolve(&root, path)?;
    if path.steps == ["format"] {
        return Err(path
            .error("the format version is not set by hand; `kiai migrate` rewrites older files"));
    }
    let current = slot(&root, &steps).map(inline);
    let mut edited = root.clone();
    put(
        &mut edited,
        &steps,
        Some(Node::Raw(value.trim().to_owned())),
    );
    let text = inline(&edited);
    let parsed = crate::read::parse::parse_as::<ContentDef>(&text, "VALUE").map_err(|d| {
        let why = d.0.first().map_or_else(String::new, |d| d.message.clone());
        path.error(format!(
            "`{value}` is not a value of this kind ({why}); expected {}",
            match &current {
                Some(c) => format!("a value like the current one, `{c}`"),
                None => "a value of the field's type (it holds its default now)".to_owned(),
            }
        ))
    })?;
    // The text must have been one value: nothing but the slot may differ.
    let back = Node::of(&parsed).map_err(|e| path.error(e.0))?;
    let mut expected = root;
    put(&mut expected, &steps, slot(&back, &steps).cloned());
    if expected != back {
        return Err(path.error(format!("`{value}` is not one RON value")));
    }
    *def = parsed;
    Ok(())
}

/// The steps `path` takes through `root`.
fn resolve(root: &Node, path: &ValuePath) -> Result<Vec<Step>, PathError> {
    let mut node = root;
    let mut steps = Vec::new();
    for (k, name) in path.steps.iter().enumerate() {
        while let Node::Some(inner) = node {
            steps.push(Step::Inner);
            node = inner;
        }
        let here = || match k {
            0 => "the content file".to_owned(),
            _ => format!("`{}`", path.prefix(k)),
        };
        let (step, next) = match node {
            Node::Struct {
                name: variant,
                fields,
                ..
            } => {
                let i = fields.iter().position(|f| f.name == name).ok_or_else(|| {
                    let what = variant.map_or_else(here, |v| format!("{} (`{v}`)", here()));
                    path.error(unknown(
                        &format!("{what} has no field `{name}`"),
                        name,
                        fields.iter().map(|f| f.name.to_owned()),
                    ))
                })?;
                (Step::Field(i), fields[i].value.as_ref())
            }
            Node::Map(entries) => {
                let key = Node::of(name.as_str()).map_err(|e| path.error(e.0))?;
                let i = entries.iter().position(|(k, _)| *k == key).ok_or_else(|| {
                    path.error(unknown(
                        &format!("{} has no entry `{name}`", here()),
                        name,
                        entries.iter().map(|(k, _)| unquote(k)),
                    ))
                })?;
                (Step::Entry(i), Some(&entries[i].1))
            }
            Node::Seq(items) => {
                let i = item(items, name).map_err(|m| path.error(format!("{}: {m}", here())))?;
                (Step::Item(i), Some(&items[i]))
            }
            Node::Tuple { items, .. } => {
                let i = name
                    .parse::<usize>()
                    .ok()
                    .filter(|i| *i < items.len())
                    .ok_or_else(|| {
                        path.error(format!(
                            "{} has {} elements; `{name}` is not one of 0 to {}",
                            here(),
                            items.len(),
                            items.len().saturating_sub(1)
                        ))
                    })?;
                (Step::Item(i), Some(&items[i]))
            }
            other => {
                return Err(path.error(format!(
                    "{} is a single value (`{}`); it has no `{name}`",
                    here(),
                    inline(other)
                )));
            }
        };
        steps.push(step);
        match next {
            Some(n) => node = n,
            None if k + 1 == path.steps.len() => {}
            None => {
                return Err(path.error(format!(
                    "`{}` is not set (it holds its default), so nothing inside it can be \
                     set; set it whole, e.g. `{}=...`",
                    path.prefix(k + 1),
                    path.prefix(k + 1)
                )));
            }
        }
    }
    Ok(steps)
}

/// "`message`; did you mean `x`? Valid here: a, b, c"
fn unknown(message: &str, wrong: &str, valid: impl Iterator<Item = String>) -> String {
    let valid: Vec<String> = valid.collect();
    let mut out = message.to_owned();
    let close = did_you_mean(wrong, valid.iter().map(String::as_str));
    if let Some(close) = close {
        out.push_str(&format!("; did you mean `{close}`?"));
    }
    if !valid.is_empty() {
        let mut list = valid[..valid.len().min(LISTED)].join(", ");
        if valid.len() > LISTED {
            list.push_str(&format!(" and {} more", valid.len() - LISTED));
        }
        out.push_str(&match close {
            Some(_) => format!(" Valid here: {list}"),
            None => format!("; valid here: {list}"),
        });
    }
    out
}

/// A string atom's text without quotes (other nodes as RON).
fn unquote(node: &Node) -> String {
    let text = inline(node);
    ron::from_str::<String>(&text).unwrap_or(text)
}

/// The index of the item `name` names: a waypoint by `id`, a named item by
/// `name` (or, failing that, by index), anything else by index.
fn item(items: &[Node], name: &str) -> Result<usize, String> {
    let field = |item: &Node, key: &str| match item.field(key) {
        Some(Field { value: Some(v), .. }) => Some(unquote(v)),
        _ => None,
    };
    if items.first().is_some_and(|i| i.field("id").is_some()) {
        let ids: Vec<String> = items.iter().filter_map(|i| field(i, "id")).collect();
        return ids.iter().position(|id| id == name).ok_or_else(|| {
            unknown(
                &format!("no item with id `{name}`"),
                name,
                ids.iter().cloned(),
            )
        });
    }
    if items.first().is_some_and(|i| i.field("name").is_some()) {
        // Positions among all items: unnamed ones (walls) count too.
        let named: Vec<Option<String>> = items.iter().map(|i| field(i, "name")).collect();
        if let Some(i) = named.iter().position(|n| n.as_deref() == Some(name)) {
            return Ok(i);
        }
        let names: Vec<String> = named.into_iter().flatten().collect();
        if let Some(i) = name.parse::<usize>().ok().filter(|i| *i < items.len()) {
            return Ok(i);
        }
        return Err(unknown(
            &format!("no item named `{name}`"),
            name,
            names.into_iter(),
        ));
    }
    name.parse::<usize>()
        .ok()
        .filter(|i| *i < items.len())
        .ok_or_else(|| match items.len() {
            0 => "the list is empty".to_owned(),
            n => format!("`{name}` is not an index of its {n} items (0 to {})", n - 1),
        })
}

/// The value the steps lead to (`None`: a field at its default).
fn slot<'n>(root: &'n Node, steps: &[Step]) -> Option<&'n Node> {
    let mut node = root;
    for step in steps {
        node = match (step, node) {
            (Step::Inner, Node::Some(inner)) => inner,
            (Step::Field(i), Node::Struct { fields, .. }) => fields.get(*i)?.value.as_ref()?,
            (Step::Item(i), Node::Seq(items) | Node::Tuple { items, .. }) => items.get(*i)?,
            (Step::Entry(i), Node::Map(entries)) => &entries.get(*i)?.1,
            _ => return None,
        };
    }
    Some(node)
}

/// Puts `value` where the steps lead (`None` for a field: its default).
fn put(root: &mut Node, steps: &[Step], value: Option<Node>) {
    let Some((last, path)) = steps.split_last() else {
        if let Some(v) = value {
            *root = v;
        }
        return;
    };
    let mut node = root;
    for step in path {
        let next = match (step, node) {
            (Step::Inner, Node::Some(inner)) => &mut **inner,
            (Step::Field(i), Node::Struct { fields, .. }) => {
                match fields.get_mut(*i).and_then(|f| f.value.as_mut()) {
                    Some(v) => v,
                    None => return,
                }
            }
            (Step::Item(i), Node::Seq(items) | Node::Tuple { items, .. }) => {
                match items.get_mut(*i) {
                    Some(v) => v,
                    None => return,
                }
            }
            (Step::Entry(i), Node::Map(entries)) => match entries.get_mut(*i) {
                Some(e) => &mut e.1,
                None => return,
            },
            _ => return,
        };
        node = next;
    }
    match (last, node) {
        (Step::Field(i), Node::Struct { fields, .. }) => {
            if let Some(f) = fields.get_mut(*i) {
                f.value = value;
            }
        }
        (Step::Item(i), Node::Seq(items) | Node::Tuple { items, .. }) => {
            if let (Some(slot), Some(v)) = (items.get_mut(*i), value) {
                *slot = v;
            }
        }
        (Step::Entry(i), Node::Map(entries)) => {
            if let (Some(e), Some(v)) = (entries.get_mut(*i), value) {
                e.1 = v;
            }
        }
        (Step::Inner, Node::Some(inner)) => {
            if let Some(v) = value {
                **inner = v;
            }
        }
        _ => {}
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::*;

    const TEXT: &str = r#"(
        format: 2,
        seed: 3,
        factions: [(name: "red")],
        waypoints: [(id: 3, pos: (0.0, 0.0, 0.0)), (id: 7, pos: (1.0, 0.0, 0.0))],
        links: [(from: 3, to: 7)],
        profiles: {"coward": (chase: 2, evade: 8), "wise": (chase: 1, evade: 1, learning: Some((rate: 0.5)))},
        archetypes: {"guard": (senses: [(name: "eyes", shape: Cone(range: 18.0, fov_deg: 110.0))])},
        agents: [(name: "g1", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0))],
    )"#;

    fn def() -> ContentDef {
        crate::read::parse::parse(TEXT, "t").unwrap_or_else(|e| panic!("{e}"))
    }

    fn path(p: &str) -> ValuePath {
        p.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn every_kind_of_step_reaches_its_value() -> Result<(), PathError> {
        let mut d = def();
        set(
            &mut d,
            &path("archetypes.guard.senses.eyes.shape.range"),
            "40",
        )?;
        set(&mut d, &path("agents.g1.pos"), "(1.0, 0.0, 2.0)")?;
        set(&mut d, &path("waypoints.7.active"), "false")?;
        set(&mut d, &path("profiles.coward.evade"), "9")?;
        set(&mut d, &path("profiles.wise.learning.rate"), "0.25")?;
        set(&mut d, &path("links.0.two_way"), "true")?;
        set(&mut d, &path("agents.g1.pos.1"), "5.0")?;
        set(&mut d, &path("seed"), "7")?;
        assert_eq!(
            get(&d, &path("archetypes.guard.senses.eyes.shape.range"))?.as_deref(),
            Some("40.0")
        );
        assert_eq!(d.agents[0].pos, (1.0, 5.0, 2.0));
        assert!(!d.waypoints[1].active && d.waypoints[0].active);
        assert_eq!(d.profiles.get("coward").and_then(|p| p.evade), Some(9.0));
        assert!(d.links[0].two_way);
        assert_eq!(d.seed, 7);
        // A field at its default reads as none and can be set.
        assert_eq!(get(&d, &path("agents.g1.facing"))?, None);
        set(&mut d, &path("agents.g1.facing"), "(0.0, 0.0, 1.0)")?;
        assert_eq!(d.agents[0].facing, (0.0, 0.0, 1.0));
        Ok(())
    }

    #[test]
    fn unknown_steps_and_wrong_values_are_refused_with_hints() {
        let d = def();
        let err = |p: &str, v: &str| {
            let mut copy = d.clone();
            let e = set(&mut copy, &path(p), v).unwrap_err();
            assert_eq!(copy, d, "unchanged on error");
            e.to_string()
        };
        let e = err("archetypes.gaurd.noise", "1.0");
        assert!(
            e.contains("has no entry `gaurd`; did you mean `guard`?"),
            "{e}"
        );
        let e = err("archetypes.guard.senses.eyes.shape.rnage", "1.0");
        assert!(
            e.contains("(`Cone`) has no field `rnage`; did you mean `range`?"),
            "{e}"
        );
        assert!(e.contains("Valid here: range, fov_deg"), "{e}");
        let e = err("waypoints.4.active", "true");
        assert!(e.contains("no item with id `4`"), "{e}");
        let e = err("no_such_field.x", "1");
        assert!(
            e.contains("the content file has no field `no_such_field`"),
            "{e}"
        );
        let e = err("agents.g1.pos", "\"far\"");
        assert!(
            e.contains("expected a value like the current one, `(0.0, 0.0, 0.0)`"),
            "{e}"
        );
        let e = err("agents.g1.pos", "(1.0, 0.0, 2.0)), (name: \"x\"");
        assert!(e.starts_with("`agents.g1.pos`: "), "{e}");
        let e = err("seed.x", "1");
        assert!(e.contains("`seed` is a single value (`3`)"), "{e}");
        let e = err("agents.g1.facing.0", "1.0");
        assert!(
            e.contains("set it whole, e.g. `agents.g1.facing=...`"),
            "{e}"
        );
        let e = err("format", "3");
        assert!(e.contains("kiai migrate"), "{e}");
    }

    #[test]
    fn a_named_item_after_unnamed_ones_is_found_where_it_is() {
        let mut d = crate::read::parse::parse(
            r#"(format: 2, walls: [
                (from: (0.0, 0.0), to: (1.0, 0.0), height: 2.0),
                (name: Some("door"), from: (0.0, 5.0), to: (1.0, 5.0), height: 2.0),
            ])"#,
            "t",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        set(&mut d, &path("walls.door.height"), "7.0").unwrap_or_else(|e| panic!("{e}"));
        set(&mut d, &path("walls.0.height"), "3.0").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((d.walls[0].height, d.walls[1].height), (3.0, 7.0));
    }

    #[test]
    fn paths_quote_steps_with_dots_and_assignments_split_at_the_first_equals() {
        let p = path(r#"archetypes."big.guard".noise"#);
        assert_eq!(p.steps(), ["archetypes", "big.guard", "noise"]);
        assert_eq!(p.to_string(), r#"archetypes."big.guard".noise"#);
        let (p, v) = parse_assignment(r#"agents."a=b".pos=(1.0, 0.0, 2.0)"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.steps(), ["agents", "a=b", "pos"]);
        assert_eq!(v, "(1.0, 0.0, 2.0)");
        assert!(parse_assignment("seed").is_err());
        assert!(parse_assignment("seed=").is_err());
        assert!("a..b".parse::<ValuePath>().is_err());
        assert!("\"a".parse::<ValuePath>().is_err());
    }
}
