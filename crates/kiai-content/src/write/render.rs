//! [`Node`]s as RON text: on one line, or in the readable layout (one
//! entry per line where a value does not fit in [`WIDTH`] columns).
//! Options are written without `Some(...)` (content is read with `ron`'s
//! implicit `Some`).

use super::node::Node;

/// Lines are kept within this many columns where values allow it.
pub(crate) const WIDTH: usize = 100;

/// Spaces per nesting level.
pub(crate) const INDENT: usize = 4;

/// How a value is laid out in the readable layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Force {
    /// On one line when it fits, else one entry per line.
    Auto,
    /// One entry per line (when it has entries).
    Vertical,
    /// One entry per line, and lists and maps among its values too: the
    /// top level of a file, whose sections hold one item per line.
    Sections,
}

/// `node` on one line: `(a: 1, b: [2, 3])`.
pub(crate) fn inline(node: &Node) -> String {
    let mut out = String::new();
    inline_into(node, &mut out);
    out
}

fn inline_into(node: &Node, out: &mut String) {
    match node {
        Node::Atom(text) | Node::Raw(text) => out.push_str(text),
        // Content is read with `ron`'s implicit `Some`: `bounds: (...)`,
        // `profile: "coward"`, as designers write them.
        Node::Some(inner) => inline_into(inner, out),
        Node::Struct { name, fields, .. } => {
            out.push_str(name.unwrap_or(""));
            out.push('(');
            let mut first = true;
            for f in fields {
                if let Some(v) = &f.value {
                    if !first {
                        out.push_str(", ");
                    }
                    first = false;
                    out.push_str(f.name);
                    out.push_str(": ");
                    inline_into(v, out);
                }
            }
            out.push(')');
        }
        Node::Tuple { name, items } => {
            out.push_str(name.unwrap_or(""));
            out.push('(');
            join(items.iter(), out);
            if name.is_none() && items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Node::Seq(items) => {
            out.push('[');
            join(items.iter(), out);
            out.push(']');
        }
        Node::Map(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                inline_into(k, out);
                out.push_str(": ");
                inline_into(v, out);
            }
            out.push('}');
        }
    }
}

fn join<'a>(items: impl Iterator<Item = &'a Node>, out: &mut String) {
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        inline_into(item, out);
    }
}

/// A whole file's value in the readable layout: one section per line at
/// the top, one item per line in each list or map section, and every other
/// value on one line unless it would pass [`WIDTH`] columns.
pub(crate) fn document(node: &Node) -> String {
    let mut text = readable(node, 0, 0, Force::Sections);
    text.push('\n');
    text
}

/// `node` in the readable layout, starting at column `col` (in characters)
/// of a line indented by `indent` spaces.
pub(crate) fn readable(node: &Node, indent: usize, col: usize, force: Force) -> String {
    if force == Force::Auto || !node.has_entries() {
        let one = inline(node);
        if !node.has_entries() || col + one.chars().count() <= WIDTH {
            return one;
        }
    }
    let inner = indent + INDENT;
    let pad = " ".repeat(inner);
    let child = |value: &Node, prefix: &str| {
        let force = match (force, value) {
            (Force::Sections, Node::Seq(_) | Node::Map(_)) => Force::Vertical,
            _ => Force::Auto,
        };
        readable(value, inner, inner + prefix.chars().count(), force)
    };
    let mut out = String::new();
    let mut entry = |prefix: String, value: &Node| {
        out.push_str(&pad);
        let text = child(value, &prefix);
        out.push_str(&prefix);
        out.push_str(&text);
        out.push_str(",\n");
    };
    let (open, close) = match node {
        Node::Some(inner_node) => return readable(inner_node, indent, col, force),
        Node::Struct { name, fields, .. } => {
            for f in fields {
                if let Some(v) = &f.value {
                    entry(format!("{}: ", f.name), v);
                }
            }
            (format!("{}(", name.unwrap_or("")), ')')
        }
        Node::Tuple { name, items } => {
            for item in items {
                entry(String::new(), item);
            }
            (format!("{}(", name.unwrap_or("")), ')')
        }
        Node::Seq(items) => {
            for item in items {
                entry(String::new(), item);
            }
            ("[".to_owned(), ']')
        }
        Node::Map(entries) => {
            for (k, v) in entries {
                entry(format!("{}: ", inline(k)), v);
            }
            ("{".to_owned(), '}')
        }
        Node::Atom(_) | Node::Raw(_) => return inline(node),
    };
    format!("{open}\n{out}{}{close}", " ".repeat(indent))
}

#[cfg(test)]
mod tests {
    use super::super::node::Field;
    use super::*;

    fn atom(s: &str) -> Node {
        Node::Atom(s.to_owned())
    }

    #[test]
    fn short_values_stay_on_one_line_and_long_ones_wrap() {
        let pos = Node::Tuple {
            name: None,
            items: vec![atom("1.0"), atom("0.0"), atom("2.0")],
        };
        let agent = Node::Struct {
            ty: "AgentDef",
            name: None,
            fields: vec![
                Field {
                    name: "name",
                    value: Some(atom("\"g1\"")),
                },
                Field {
                    name: "facing",
                    value: None,
                },
                Field {
                    name: "pos",
                    value: Some(pos.clone()),
                },
            ],
        };
        assert_eq!(inline(&agent), "(name: \"g1\", pos: (1.0, 0.0, 2.0))");
        assert_eq!(readable(&agent, 4, 95, Force::Auto).lines().count(), 4);
        let doc = Node::Struct {
            ty: "ContentDef",
            name: None,
            fields: vec![
                Field {
                    name: "format",
                    value: Some(atom("2")),
                },
                Field {
                    name: "agents",
                    value: Some(Node::Seq(vec![agent])),
                },
            ],
        };
        assert_eq!(
            document(&doc),
            "(\n    format: 2,\n    agents: [\n        (name: \"g1\", pos: (1.0, 0.0, 2.0)),\n    ],\n)\n"
        );
    }
}
