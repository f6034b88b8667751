//! Changes to a text as byte ranges and their replacements, and the
//! layout rules for taking entries out of a bracketed value and putting new
//! ones in.
//!
//! An entry alone on its line(s) is removed with its whole lines: the
//! comment lines directly above it (no blank line between) and its trailing
//! `//` comment go with it. Entries sharing a line are cut out with their
//! comma. New entries follow their neighbour: a line of their own at the
//! neighbour's indentation when it has one (on one line when the neighbour
//! is on one line), otherwise inline after it.

use super::node::Node;
use super::render::{self, Force, INDENT, WIDTH};
use crate::format::locate::{Entry, Group};

/// Replace bytes `start..end` of the text by `with` (`start == end`: an
/// insertion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Splice {
    /// First byte replaced.
    pub start: usize,
    /// Byte just past the replaced range.
    pub end: usize,
    /// The new text.
    pub with: String,
}

/// Where a splice cannot go: the caller falls back to a coarser rewrite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unsafe;

/// Applies `splices` to `text`, in order of position (insertions at one
/// position in the order given, before a replacement starting there).
/// Overlapping splices are [`Unsafe`].
pub(crate) fn apply(text: &str, mut splices: Vec<Splice>) -> Result<String, Unsafe> {
    splices.sort_by_key(|s| (s.start, s.end > s.start));
    let grow: usize = splices.iter().map(|s| s.with.len()).sum();
    let mut out = String::with_capacity(text.len() + grow);
    let mut at = 0usize;
    for s in &splices {
        if s.start < at || s.end < s.start {
            return Err(Unsafe);
        }
        out.push_str(text.get(at..s.start).ok_or(Unsafe)?);
        out.push_str(&s.with);
        at = s.end;
    }
    out.push_str(text.get(at..).ok_or(Unsafe)?);
    Ok(out)
}

/// `text` with every line ending `\r\n` (for files written that way).
pub(crate) fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut last = '\0';
    for c in text.chars() {
        if c == '\n' && last != '\r' {
            out.push('\r');
        }
        out.push(c);
        last = c;
    }
    out
}

/// How a new entry is laid out when it gets a line of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// A list item or map entry: on one line like a one-line neighbour,
    /// else one field per line.
    Item,
    /// A struct field: on one line when it fits.
    Field,
    /// A top-level section: a list or map gets one item per line.
    Section,
}

/// An entry to insert: its key text (`name: `, `"guard": ` or nothing)
/// and value.
pub(crate) struct NewEntry<'n> {
    /// Text before the value.
    pub prefix: String,
    /// The value.
    pub node: &'n Node,
    /// How it is laid out on a line of its own.
    pub role: Role,
}

impl NewEntry<'_> {
    fn inline(&self) -> String {
        format!("{}{}", self.prefix, render::inline(self.node))
    }

    /// The entry on lines of its own at `indent` spaces; `tall`: the
    /// neighbour spans several lines.
    fn lines(&self, indent: usize, tall: bool) -> String {
        let col = indent + self.prefix.chars().count();
        let force = match self.role {
            Role::Item if !tall => return self.inline(),
            Role::Item => Force::Vertical,
            Role::Field => Force::Auto,
            Role::Section if matches!(self.node, Node::Seq(_) | Node::Map(_)) => Force::Vertical,
            Role::Section => Force::Auto,
        };
        format!(
            "{}{}",
            self.prefix,
            render::readable(self.node, indent, col, force)
        )
    }
}

/// Byte offset of the start of the line holding `at`.
pub(crate) fn line_start(text: &str, at: usize) -> usize {
    text.get(..at)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// The white space that starts the line holding `at`.
pub(crate) fn indent_at(text: &str, at: usize) -> &str {
    let start = line_start(text, at);
    let line = text.get(start..).unwrap_or_default();
    let n = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..n]
}

/// The column (in characters, from 0) of `at` on its line.
pub(crate) fn column(text: &str, at: usize) -> usize {
    text.get(line_start(text, at)..at)
        .map_or(0, |t| t.chars().count())
}

/// Whether only white space comes before `at` on its line.
fn starts_line(text: &str, at: usize) -> bool {
    text.get(line_start(text, at)..at)
        .is_some_and(|t| t.chars().all(|c| c == ' ' || c == '\t'))
}

/// If the entry ends its line (after it only its comma, spaces and a `//`
/// comment), the byte offset just past that line.
fn line_end_after(text: &str, e: &Entry) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = e.end();
    let skip = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t' | b'\r')) {
            i += 1;
        }
        i
    };
    i = skip(i);
    if let Some(c) = e.comma {
        if c != i {
            return None;
        }
        i = skip(c + 1);
    }
    if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'/') {
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
    }
    match b.get(i) {
        Some(b'\n') => Some(i + 1),
        None => Some(i),
        _ => None,
    }
}

/// The first line of the comment lines directly above the line holding
/// `at` (or that line itself), never above `floor`.
fn block_start(text: &str, at: usize, floor: usize) -> usize {
    let mut start = line_start(text, at);
    while start > floor && start > 0 {
        let above = line_start(text, start - 1);
        if above < floor {
            break;
        }
        let line = text.get(above..start - 1).unwrap_or_default().trim();
        if !line.starts_with("//") {
            break;
        }
        start = above;
    }
    start
}

/// Where the text an entry owns begins and ends when the entry is alone on
/// its lines: its comment lines above, through the end of its last line.
fn own_lines(text: &str, g: &Group, index: usize) -> Option<(usize, usize)> {
    let e = &g.entries[index];
    if !starts_line(text, e.start) {
        return None;
    }
    let end = line_end_after(text, e)?;
    let floor = match index.checked_sub(1) {
        Some(p) => line_end_after(text, &g.entries[p]).unwrap_or(e.start),
        None => g.open + 1,
    };
    Some((block_start(text, e.start, floor), end))
}

/// Splices removing entries `gone` (ascending indices) of `g`.
pub(crate) fn remove(text: &str, g: &Group, gone: &[usize], out: &mut Vec<Splice>) {
    let mut k = 0;
    while k < gone.len() {
        // A run of consecutive entries.
        let a = gone[k];
        let mut b = a;
        while k + 1 < gone.len() && gone[k + 1] == b + 1 {
            k += 1;
            b += 1;
        }
        k += 1;
        let whole = (a..=b)
            .map(|i| own_lines(text, g, i))
            .collect::<Option<Vec<_>>>();
        match whole {
            Some(lines) => {
                for (start, end) in lines {
                    out.push(Splice {
                        start,
                        end,
                        with: String::new(),
                    });
                }
            }
            None => out.push(cut_inline(text, g, a, b)),
        }
    }
}

/// Cuts entries `a..=b` that share lines with others, with one comma.
fn cut_inline(text: &str, g: &Group, a: usize, b: usize) -> Splice {
    let (first, last) = (&g.entries[a], &g.entries[b]);
    let cut = |start, end| Splice {
        start,
        end,
        with: String::new(),
    };
    if let Some(comma) = last.comma {
        let rest = &text[comma + 1..];
        let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let after = &rest[spaces..];
        if after.is_empty() || after.starts_with(['\n', '\r']) || after.starts_with("//") {
            // Nothing follows on the line: cut the space before the entries
            // too, so the previous entry's line ends tidily.
            let start = if starts_line(text, first.start) {
                first.start
            } else {
                text[..first.start].trim_end_matches([' ', '\t']).len()
            };
            return cut(start, comma + 1);
        }
        return cut(first.start, comma + 1 + spaces);
    }
    match a.checked_sub(1) {
        // The last entries: take the comma before them.
        Some(p) => cut(g.entries[p].end(), last.end()),
        None => cut(first.start, last.end()),
    }
}

/// Splices inserting `new` after entry `anchor` of `g` (`None`: before the
/// first entry).
pub(crate) fn insert(
    text: &str,
    g: &Group,
    anchor: Option<usize>,
    new: &[NewEntry<'_>],
    out: &mut Vec<Splice>,
) -> Result<(), Unsafe> {
    if new.is_empty() {
        return Ok(());
    }
    let Some(neighbour) = anchor.or((!g.entries.is_empty()).then_some(0)) else {
        return insert_into_empty(text, g, new, out);
    };
    let e = &g.entries[neighbour];
    let tall = text[e.start..e.end()].contains('\n');
    let indent = indent_at(text, e.start);
    let lines = |out: &mut String| {
        for n in new {
            out.push_str(indent);
            out.push_str(&n.lines(indent.len(), tall));
            out.push_str(",\n");
        }
    };
    match anchor {
        Some(k) => match line_end_after(text, e).filter(|_| starts_line(text, e.start)) {
            Some(at) => {
                if e.comma.is_none() {
                    out.push(Splice {
                        start: e.end(),
                        end: e.end(),
                        with: ",".to_owned(),
                    });
                }
                let mut with = String::new();
                if at == text.len() && !text.ends_with('\n') {
                    with.push('\n');
                }
                lines(&mut with);
                out.push(Splice {
                    start: at,
                    end: at,
                    with,
                });
            }
            None => {
                let with: String = new.iter().map(|n| format!(", {}", n.inline())).collect();
                let at = g.entries[k].end();
                out.push(Splice {
                    start: at,
                    end: at,
                    with,
                });
            }
        },
        None if starts_line(text, e.start) => {
            let at = block_start(text, e.start, g.open + 1);
            let mut with = String::new();
            lines(&mut with);
            out.push(Splice {
                start: at,
                end: at,
                with,
            });
        }
        None => {
            let with: String = new.iter().map(|n| format!("{}, ", n.inline())).collect();
            out.push(Splice {
                start: e.start,
                end: e.start,
                with,
            });
        }
    }
    Ok(())
}

/// Fills `()`, `[]` or `{}`: on one line when it fits (sections always get
/// a line per entry), else one entry per line.
fn insert_into_empty(
    text: &str,
    g: &Group,
    new: &[NewEntry<'_>],
    out: &mut Vec<Splice>,
) -> Result<(), Unsafe> {
    let close = g.close.ok_or(Unsafe)?;
    let inside = text.get(g.open + 1..close).ok_or(Unsafe)?;
    let indent = indent_at(text, g.open).len();
    let one: Vec<String> = new.iter().map(NewEntry::inline).collect();
    let width = column(text, g.open) + 2 + one.iter().map(|s| s.len() + 2).sum::<usize>();
    let section = new.iter().any(|n| n.role == Role::Section) || g.bracket == '(' && indent == 0;
    if inside.trim().is_empty() && width <= WIDTH && !section {
        out.push(Splice {
            start: g.open + 1,
            end: close,
            with: one.join(", "),
        });
        return Ok(());
    }
    let pad = " ".repeat(indent + INDENT);
    let mut with = String::new();
    if inside.trim().is_empty() {
        with.push('\n');
    } else {
        // Keep what is inside (comments) and start on a new line.
        with.push_str(inside.trim_end_matches([' ', '\t']));
        if !with.ends_with('\n') {
            with.push('\n');
        }
    }
    for n in new {
        with.push_str(&pad);
        with.push_str(&n.lines(indent + INDENT, true));
        with.push_str(",\n");
    }
    with.push_str(&" ".repeat(indent));
    out.push(Splice {
        start: g.open + 1,
        end: close,
        with,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_apply_in_order_and_overlaps_are_refused() {
        let s = |start, end, with: &str| Splice {
            start,
            end,
            with: with.to_owned(),
        };
        assert_eq!(
            apply("abcdef", vec![s(4, 5, "E"), s(1, 1, "x"), s(1, 2, "B")]),
            Ok("axBcdEf".to_owned())
        );
        assert_eq!(apply("abcdef", vec![s(1, 4, ""), s(2, 3, "")]), Err(Unsafe));
        assert_eq!(crlf("a\nb\r\nc\n"), "a\r\nb\r\nc\r\n");
    }
}
