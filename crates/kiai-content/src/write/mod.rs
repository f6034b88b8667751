//! Writing content as text: a file's own text kept, only what changed
//! rewritten.
//!
//! [`to_ron_preserving`] takes the text a file had and the content as it is
//! now, compares the two value by value (`Node`s) and edits the text only
//! where they differ, at the places the syntax tree of the text
//! (`format/locate.rs`) gives:
//!
//! - a changed value is replaced in place (its line keeps its layout,
//!   comments and neighbours);
//! - a new item (agent, waypoint, map entry, field that now differs from
//!   its default) is added after its neighbour, in its neighbour's style:
//!   its own line at the same indentation, or inline;
//! - a removed item goes with the comment lines directly above it and its
//!   trailing comment; a field set back to its default is taken out;
//! - fields the text leaves out stay out while they hold their default;
//!   comments, order and layout of everything else are kept byte for byte,
//!   and content that did not change gives back the text unchanged.
//!
//! The result is checked: it must read back to exactly the new content. If
//! the fine edits cannot be placed or do not read back, changed items are
//! rewritten whole, then changed sections, and at last the whole file (in
//! the readable layout of [`to_ron`], keeping the comments around it).
//! New files get the readable layout: one item per line, values wrapped at
//! 100 columns, no defaults written out.

mod align;
mod defaults;
mod node;
mod render;
mod splice;

use std::fmt;

use crate::format::def::ContentDef;
use crate::format::locate::{Group, Key, Syn, SynKind, syntax};
use crate::read::migrate::{peek_format, v1};
pub(crate) use node::{Field, Node};
pub(crate) use render::inline;
use splice::{NewEntry, Role, Splice, Unsafe};

/// How much of the original text a save kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Only the changed values were rewritten; everything else, comments
    /// included, is as it was.
    Kept,
    /// Changed items (an agent, a waypoint, an archetype) were rewritten
    /// whole; the rest is as it was.
    ItemsRewritten,
    /// Changed sections (`agents`, `archetypes`, ...) were rewritten whole;
    /// the rest is as it was.
    SectionsRewritten,
    /// The whole file was written anew in the readable layout; only the
    /// comments before and after it were kept.
    Rewritten,
    /// There was no original text (or it did not parse): a new file in the
    /// readable layout.
    New,
}

/// Text written by [`to_ron_preserving`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The new text; it reads back to exactly the content given.
    pub text: String,
    /// How much of the original it kept.
    pub layout: Layout,
}

/// Content that cannot be written as text that reads back to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// What went wrong, in one line.
    pub message: String,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WriteError {}

impl From<node::NodeError> for WriteError {
    fn from(e: node::NodeError) -> Self {
        WriteError { message: e.0 }
    }
}

/// Content as RON text in the readable layout: sections one per line, one
/// item per line in each list and map, other values on one line unless
/// they pass 100 columns (then one field per line), fields that hold their
/// default left out. Parsing the result gives back the same [`ContentDef`].
pub fn to_ron(def: &ContentDef) -> Result<String, ron::Error> {
    let node = Node::of(def).map_err(|e| ron::Error::Message(e.0))?;
    Ok(render::document(&node))
}

/// `def` as the text of a file that held `original`, keeping everything of
/// `original` but what changed (see the [module documentation](self)).
/// `original` may be of an older format version (a migration rewrites its
/// values in place) or may not parse at all (then the file is written anew).
/// The result always reads back to exactly `def`.
pub fn to_ron_preserving(original: &str, def: &ContentDef) -> Result<Written, WriteError> {
    let current = peek_format(original) == Some(u64::from(crate::format::def::FORMAT_VERSION));
    if current && crate::read::parse::parse_as::<ContentDef>(original, "").is_ok_and(|d| d == *def)
    {
        return Ok(Written {
            text: original.to_owned(),
            layout: Layout::Kept,
        });
    }
    let new = Node::of(def)?;
    let Some(old) = base(original) else {
        return fresh("", "", &new, Layout::New, def);
    };
    if old == new {
        return Ok(Written {
            text: original.to_owned(),
            layout: Layout::Kept,
        });
    }
    let tree = syntax(original);
    for (depth, layout) in [
        (usize::MAX, Layout::Kept),
        (2, Layout::ItemsRewritten),
        (1, Layout::SectionsRewritten),
    ] {
        let mut w = Writer {
            text: original,
            splices: Vec::new(),
            depth,
            unsafe_edit: false,
        };
        w.value(&old, &new, &tree, 0);
        if w.unsafe_edit {
            continue;
        }
        if original.contains("\r\n") {
            // New lines end as the file's lines do.
            for s in &mut w.splices {
                s.with = splice::crlf(&s.with);
            }
        }
        if let Ok(text) = splice::apply(original, w.splices)
            && reads_back(&text, def, &new)
        {
            return Ok(Written { text, layout });
        }
    }
    let lead = &original[..tree.start.min(original.len())];
    let trail = original.get(tree.end..).unwrap_or_default();
    fresh(lead, trail, &new, Layout::Rewritten, def)
}

/// The whole file anew between the comments `lead` and `trail` (dropped if
/// the result would not read back with them).
fn fresh(
    lead: &str,
    trail: &str,
    new: &Node,
    layout: Layout,
    def: &ContentDef,
) -> Result<Written, WriteError> {
    let body = render::document(new);
    let trail = trail.trim_start_matches([' ', '\t', '\r', '\n']);
    let with_comments = format!("{lead}{}{trail}", body.trim_end_matches('\n'));
    let with_comments = if with_comments.ends_with('\n') {
        with_comments
    } else {
        with_comments + "\n"
    };
    for text in [with_comments, body] {
        if reads_back(&text, def, new) {
            return Ok(Written { text, layout });
        }
    }
    Err(WriteError {
        message: "the content cannot be written as RON that reads back to it".to_owned(),
    })
}

/// The values of `text` as its own format version wrote them, if it parses.
fn base(text: &str) -> Option<Node> {
    match peek_format(text) {
        Some(1) => Node::of(&crate::read::parse::parse_as::<v1::ContentDefV1>(text, "").ok()?).ok(),
        _ => Node::of(&crate::read::parse::parse_as::<ContentDef>(text, "").ok()?).ok(),
    }
}

/// Whether `text` parses to exactly `def` (whose tree is `node`: content
/// holding NaN is compared by text, since NaN equals nothing).
fn reads_back(text: &str, def: &ContentDef, node: &Node) -> bool {
    crate::read::parse::parse(text, "")
        .is_ok_and(|back| back == *def || Node::of(&back).is_ok_and(|n| &n == node))
}

/// Collects the splices turning the text of `old` into the text of `new`.
struct Writer<'t> {
    text: &'t str,
    splices: Vec<Splice>,
    /// Values at this depth (0: the file, 1: its sections, 2: their items)
    /// are rewritten whole when they changed.
    depth: usize,
    /// An edit could not be placed.
    unsafe_edit: bool,
}

impl Writer<'_> {
    /// Edits the text `syn` of `old` (at `depth`) into `new`.
    fn value(&mut self, old: &Node, new: &Node, syn: &Syn, depth: usize) {
        if old == new {
            return;
        }
        if depth >= self.depth {
            self.replace(syn, new, depth);
            return;
        }
        let group = match &syn.kind {
            SynKind::Group(g) => Some(g),
            _ => None,
        };
        let done = match (old, new, group) {
            (Node::Some(o), Node::Some(n), _) => {
                match &syn.kind {
                    SynKind::Some(inner) => self.value(o, n, inner, depth),
                    // `Some` left implicit: the text is the value itself.
                    _ => self.value(o, n, syn, depth),
                }
                true
            }
            (
                Node::Struct {
                    ty: t,
                    name: a,
                    fields: of,
                },
                Node::Struct {
                    ty: u,
                    name: b,
                    fields: nf,
                },
                Some(g),
            ) if t == u && a == b && g.bracket == '(' => self.fields(of, nf, g, depth),
            (Node::Tuple { name: a, items: oi }, Node::Tuple { name: b, items: ni }, Some(g))
                if a == b
                    && oi.len() == ni.len()
                    && g.entries.len() == oi.len()
                    && g.entries.iter().all(|e| matches!(e.key, Key::Element)) =>
            {
                for ((o, n), e) in oi.iter().zip(ni).zip(&g.entries) {
                    self.value(o, n, &e.value, depth + 1);
                }
                true
            }
            (Node::Seq(o), Node::Seq(n), Some(g)) if g.bracket == '[' => self.list(o, n, g, depth),
            (Node::Map(o), Node::Map(n), Some(g)) if g.bracket == '{' => self.map(o, n, g, depth),
            _ => false,
        };
        if !done {
            self.replace(syn, new, depth);
        }
    }

    /// Replaces the whole text of `syn` by `new`, on one line if `syn` was,
    /// else in the readable layout at its indentation.
    fn replace(&mut self, syn: &Syn, new: &Node, depth: usize) {
        let Some(old) = self.text.get(syn.start..syn.end) else {
            self.unsafe_edit = true;
            return;
        };
        let with = if old.contains('\n') && new.has_entries() {
            let indent = splice::indent_at(self.text, syn.start).len();
            let col = splice::column(self.text, syn.start);
            let force = if depth <= 1 {
                render::Force::Vertical
            } else {
                render::Force::Auto
            };
            render::readable(new, indent, col, force)
        } else {
            render::inline(new)
        };
        self.splices.push(Splice {
            start: syn.start,
            end: syn.end,
            with,
        });
    }

    /// Struct fields: by name; the text's order is kept, new fields go
    /// after the field declared before them. False when the text is not a
    /// struct's.
    fn fields(&mut self, old: &[Field], new: &[Field], g: &Group, depth: usize) -> bool {
        let names: Option<Vec<&str>> = g
            .entries
            .iter()
            .map(|e| match e.key {
                Key::Field(a, b) => self.text.get(a..b),
                _ => None,
            })
            .collect();
        let Some(names) = names else {
            return false;
        };
        let mut gone = Vec::new();
        let mut inserts: Vec<(Option<usize>, NewEntry<'_>)> = Vec::new();
        let mut anchor = None;
        for f in new {
            let at = names.iter().position(|n| *n == f.name);
            let was = old
                .iter()
                .find(|o| o.name == f.name)
                .and_then(|o| o.value.as_ref());
            match (&f.value, at) {
                // Set back to its default: taken out. (A default the text
                // spells out and that did not change stays.)
                (None, Some(i)) if was.is_some() => gone.push(i),
                (None, _) => {}
                (Some(n), Some(i)) => {
                    let e = &g.entries[i];
                    match was {
                        Some(o) => self.value(o, n, &e.value, depth + 1),
                        None => self.replace(&e.value, n, depth + 1),
                    }
                    anchor = Some(i);
                }
                (Some(n), None) if was == Some(n) => {}
                (Some(n), None) => inserts.push((
                    anchor,
                    NewEntry {
                        prefix: format!("{}: ", f.name),
                        node: n,
                        role: if depth == 0 {
                            Role::Section
                        } else {
                            Role::Field
                        },
                    },
                )),
            }
        }
        // Fields the new content does not have at all.
        gone.extend(
            names
                .iter()
                .enumerate()
                .filter(|(_, n)| !new.iter().any(|f| f.name == **n))
                .map(|(i, _)| i),
        );
        self.finish(g, gone, inserts);
        true
    }

    /// List items, aligned by identity (a waypoint's id, a named item's
    /// name, otherwise the whole item). False when the text does not hold
    /// the old items.
    fn list(&mut self, old: &[Node], new: &[Node], g: &Group, depth: usize) -> bool {
        if g.entries.len() != old.len() || g.entries.iter().any(|e| !matches!(e.key, Key::Element))
        {
            return false;
        }
        // Equal items at both ends need nothing (and no keys).
        let head = old.iter().zip(new).take_while(|(o, n)| o == n).count();
        let tail = old[head..]
            .iter()
            .rev()
            .zip(new[head..].iter().rev())
            .take_while(|(o, n)| o == n)
            .count();
        let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
        let keys = |items: &[Node]| items.iter().map(identity).collect::<Vec<_>>();
        let mut gone = Vec::new();
        let mut inserts = Vec::new();
        let mut anchor = head.checked_sub(1);
        for step in align::align(&keys(old_mid), &keys(new_mid)) {
            match step {
                align::Step::Keep(i, j) => {
                    let (i, j) = (head + i, head + j);
                    self.value(&old[i], &new[j], &g.entries[i].value, depth + 1);
                    anchor = Some(i);
                }
                align::Step::Delete(i) => gone.push(head + i),
                align::Step::Insert(j) => inserts.push((
                    anchor,
                    NewEntry {
                        prefix: String::new(),
                        node: &new[head + j],
                        role: Role::Item,
                    },
                )),
            }
        }
        self.finish(g, gone, inserts);
        true
    }

    /// Map entries, aligned by key. False when the text does not hold the
    /// old entries.
    fn map(&mut self, old: &[(Node, Node)], new: &[(Node, Node)], g: &Group, depth: usize) -> bool {
        let keys: Option<Vec<&Syn>> = g
            .entries
            .iter()
            .map(|e| match &e.key {
                Key::Map(k) => Some(&**k),
                _ => None,
            })
            .collect();
        let Some(key_syns) = keys.filter(|k| k.len() == old.len()) else {
            return false;
        };
        let text_of = |entries: &[(Node, Node)]| {
            entries
                .iter()
                .map(|(k, _)| render::inline(k))
                .collect::<Vec<_>>()
        };
        let mut gone = Vec::new();
        let mut inserts = Vec::new();
        let mut anchor = None;
        for step in align::align(&text_of(old), &text_of(new)) {
            match step {
                align::Step::Keep(i, j) => {
                    let (ok, ov) = &old[i];
                    let (nk, nv) = &new[j];
                    if ok != nk {
                        self.replace(key_syns[i], nk, depth + 1);
                    }
                    self.value(ov, nv, &g.entries[i].value, depth + 1);
                    anchor = Some(i);
                }
                align::Step::Delete(i) => gone.push(i),
                align::Step::Insert(j) => inserts.push((
                    anchor,
                    NewEntry {
                        prefix: format!("{}: ", render::inline(&new[j].0)),
                        node: &new[j].1,
                        role: Role::Item,
                    },
                )),
            }
        }
        self.finish(g, gone, inserts);
        true
    }

    /// Removes entries `gone` of `g` and inserts `inserts` (grouped by
    /// anchor, in order).
    fn finish(
        &mut self,
        g: &Group,
        mut gone: Vec<usize>,
        inserts: Vec<(Option<usize>, NewEntry<'_>)>,
    ) {
        gone.sort_unstable();
        gone.dedup();
        splice::remove(self.text, g, &gone, &mut self.splices);
        let mut rest = inserts.into_iter().peekable();
        while let Some((anchor, first)) = rest.next() {
            let mut batch = vec![first];
            while let Some((_, next)) = rest.next_if(|(a, _)| *a == anchor) {
                batch.push(next);
            }
            if splice::insert(self.text, g, anchor, &batch, &mut self.splices) == Err(Unsafe) {
                self.unsafe_edit = true;
            }
        }
    }
}

/// What identifies a list item across edits: a waypoint's `id`, else a
/// `name`, else the whole item.
fn identity(item: &Node) -> String {
    for key in ["id", "name"] {
        if let Some(Field { value: Some(v), .. }) = item.field(key) {
            return format!("{key}={}", render::inline(v));
        }
    }
    render::inline(item)
}

#[cfg(test)]
mod tests {
    use crate::format::def::ContentDef;
    use crate::read::fast::tests::{agrees, by_ron, corpus};

    /// What `kiai` itself writes takes the fast reader's path (and reads
    /// the same as with `ron`) unless a string needs an escape or a float
    /// is not finite.
    #[test]
    fn saved_content_takes_the_fast_path() -> Result<(), ron::Error> {
        let mut saved = 0;
        for text in corpus() {
            if let Some(def) = by_ron::<ContentDef>(&text) {
                let pretty = super::to_ron(&def)?;
                let plain =
                    !pretty.contains('\\') && !pretty.contains("inf") && !pretty.contains("NaN");
                let fast = agrees::<ContentDef>(&pretty);
                assert!(fast || !plain, "saved text not read fast:\n{pretty}");
                saved += usize::from(fast);
            }
        }
        assert!(saved >= 5, "only {saved} saved files took the fast path");
        Ok(())
    }
}
