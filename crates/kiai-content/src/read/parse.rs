//! Reading content text into definitions: the fast reader where it can,
//! `ron` otherwise and for every error (with its exact position), the
//! nesting pre-check, and older format versions through [`migrate`].
//!
//! [`migrate`]: super::migrate

use ron::error::{Error as RonError, SpannedError};
use ron::extensions::Extensions;

use super::migrate::{Change, MigrationError, migrate_v1, peek_format, v1};
use crate::format::def::{ContentDef, FORMAT_VERSION, unsupported};
use crate::format::diag::{Diagnostic, Diagnostics, hint};
use crate::format::limits::MAX_NESTING;
use crate::format::locate::{Pos, SpanIndex};

/// Parsed definitions in the newest format.
pub(crate) struct Parsed {
    pub(crate) def: ContentDef,
    pub(crate) from: Option<u32>,
    pub(crate) changes: Vec<Change>,
    pub(crate) errors: Vec<MigrationError>,
}

/// Parses `text` of any supported version (by its `format`), migrating it
/// to the newest; syntax, type and version errors are returned as `Err`.
///
/// The nesting check comes first, then the version, then the parse; the
/// fast reader may skip the nesting check only where it provably passes.
pub(crate) fn parse_any(text: &str, file: &str, spans: &SpanIndex) -> Result<Parsed, Diagnostics> {
    match peek_format(text) {
        Some(1) => {
            let m = migrate_v1(parse_as::<v1::ContentDefV1>(text, file)?);
            Ok(Parsed {
                def: m.def,
                from: Some(1),
                changes: m.changes,
                errors: m.errors,
            })
        }
        Some(v) if v != u64::from(FORMAT_VERSION) => {
            check_nesting(text, file)?;
            Err(Diagnostics(vec![Diagnostic::error(
                file,
                spans.pos("format"),
                unsupported(v),
            )]))
        }
        _ => Ok(Parsed {
            def: parse_as::<ContentDef>(text, file)?,
            from: None,
            changes: Vec::new(),
            errors: Vec::new(),
        }),
    }
}

/// Parses `text` (any supported version, migrated to the newest) without
/// validating it.
pub fn parse(text: &str, file: &str) -> Result<ContentDef, Diagnostics> {
    let spans = SpanIndex::new(text);
    let parsed = parse_any(text, file, &spans)?;
    if !parsed.errors.is_empty() {
        return Err(Diagnostics(super::migrate::diagnostics(
            &parsed.errors,
            &spans,
            file,
        )));
    }
    Ok(parsed.def)
}

/// Deserializes `text` as `T`: through the fast reader when the text is in
/// its plain subset and valid, otherwise (and for every error) through `ron`,
/// whose diagnostics carry the exact position.
///
/// The nesting pre-check runs first unless the fast reader succeeded on text
/// whose comments hold no brackets or quotes: its nesting then stays within
/// the reader's limit, far below [`MAX_NESTING`].
pub(crate) fn parse_as<T: serde::de::DeserializeOwned>(
    text: &str,
    file: &str,
) -> Result<T, Diagnostics> {
    if let Some(read) = super::fast::from_str(text)
        && (!read.brackets_in_comments || too_deep(text).is_none())
    {
        return Ok(read.value);
    }
    check_nesting(text, file)?;
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .from_str::<T>(text)
        .map_err(|e| {
            let mut d = from_ron(&e, file);
            if names_a_value(&e.code)
                && let Some((field, at)) = field_at(text, &d)
            {
                d.message = format!("`{field}`: {}", d.message);
                d.column = at.column;
                if field == "costs" && d.message.contains("expected opening `{`") {
                    d.message.push_str(&format!(
                        "; format {FORMAT_VERSION} names the cost lists (`costs: {{\"vehicle\": 2.5}}`); `kiai migrate` rewrites format-1 files"
                    ));
                }
            }
            Diagnostics(vec![d])
        })
}

/// Whether a parse error is about one value's type (so naming the field
/// helps) rather than about syntax.
fn names_a_value(e: &RonError) -> bool {
    matches!(
        e,
        RonError::ExpectedInteger
            | RonError::ExpectedFloat
            | RonError::ExpectedString
            | RonError::ExpectedBoolean
            | RonError::ExpectedArray
            | RonError::ExpectedMap
            | RonError::ExpectedOption
            | RonError::ExpectedStructLike
            | RonError::ExpectedNamedStructLike(_)
            | RonError::ExpectedUnit
            | RonError::ExpectedChar
            | RonError::InvalidValueForType { .. }
            | RonError::ExpectedDifferentLength { .. }
            | RonError::IntegerOutOfBounds
    )
}

/// The name of the field whose value starts at the diagnostic's position
/// (after any white space there), and where that value starts.
fn field_at(text: &str, d: &Diagnostic) -> Option<(String, Pos)> {
    let line = text.lines().nth(d.line.checked_sub(1)? as usize)?;
    let skipped = line
        .chars()
        .skip(d.column.checked_sub(1)? as usize)
        .take_while(|c| c.is_whitespace())
        .count();
    let at = Pos {
        line: d.line,
        column: d.column + skipped as u32,
    };
    let spans = SpanIndex::new(text);
    let path = spans.path_at(at)?;
    let last = path.rsplit('.').next()?;
    let name = last.split(['[', '{']).next()?;
    (!name.is_empty()).then(|| (name.to_owned(), at))
}

/// The nesting error of `text`, if it nests deeper than [`MAX_NESTING`].
fn check_nesting(text: &str, file: &str) -> Result<(), Diagnostics> {
    match too_deep(text) {
        Some(pos) => Err(Diagnostics(vec![Diagnostic::error(
            file,
            pos,
            format!("nesting deeper than {MAX_NESTING} levels"),
        )])),
        None => Ok(()),
    }
}

/// The position just past `text`.
pub(crate) fn end_of(text: &str) -> Pos {
    let line = 1 + text.matches('\n').count();
    let column = 1 + text.rsplit('\n').next().map_or(0, |l| l.chars().count());
    Pos {
        line: line as u32,
        column: column as u32,
    }
}

/// Where bracket nesting (outside strings and comments) first exceeds
/// [`MAX_NESTING`], if it does. A cheap pre-pass so that a hostile file
/// cannot exhaust the stack of any later stage.
fn too_deep(text: &str) -> Option<Pos> {
    // Bytes, not chars: every bracket and quote is ASCII, and UTF-8
    // continuation bytes never look like one. The position is computed only
    // for the failing offset.
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => i += 1,
            b'(' | b'[' | b'{' if !in_string => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(end_of(text.get(..i).unwrap_or(text)));
                }
            }
            b')' | b']' | b'}' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

fn from_ron(e: &SpannedError, file: &str) -> Diagnostic {
    let pos = Pos {
        line: e.span.start.line as u32,
        column: e.span.start.col as u32,
    };
    let within = |outer: &Option<String>| match outer.as_deref() {
        None => String::new(),
        Some(o) => match o.strip_suffix("Def") {
            Some("Content") => " of the content file".to_owned(),
            Some(section) => format!(" in {}", section.to_lowercase()),
            None => format!(" in `{o}`"),
        },
    };
    let message = match &e.code {
        RonError::NoSuchStructField {
            expected,
            found,
            outer,
        } => format!(
            "unknown field `{found}`{}{}",
            within(outer),
            match hint(found, expected.iter().copied()) {
                h if h.is_empty() => format!("; expected one of {}", list(expected)),
                h => h,
            }
        ),
        RonError::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => format!(
            "unknown variant `{found}`{}{}",
            within(outer),
            match hint(found, expected.iter().copied()) {
                h if h.is_empty() => format!("; expected one of {}", list(expected)),
                h => h,
            }
        ),
        RonError::MissingStructField { field, outer } => {
            format!("missing field `{field}`{}", within(outer))
        }
        RonError::DuplicateStructField { field, outer } => format!(
            "field `{field}` given twice{}",
            within(outer).replace(" of the ", " in the ")
        ),
        RonError::ExceededRecursionLimit => "nesting too deep".to_owned(),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => "syntax error".to_owned(),
            }
        }
    };
    Diagnostic::error(file, pos, message)
}

fn list(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
