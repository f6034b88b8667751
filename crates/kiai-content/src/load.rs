//! Reading content text: parse, locate, validate.

use std::path::Path;

use ron::error::{Error as RonError, SpannedError};
use ron::extensions::Extensions;

use crate::def::ContentDef;
use crate::diag::{Diagnostic, Diagnostics, hint};
use crate::locate::{Pos, SpanIndex};
use crate::validate::validate;

/// Largest content file read, in bytes (64 MiB).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Deepest nesting accepted, in brackets; deeper text is an error, never a
/// stack overflow.
pub const MAX_NESTING: usize = 64;

/// An archetype's Lua script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptRef {
    /// The archetype's index in `archetypes` (and its `ArchetypeId`).
    pub index: usize,
    /// The archetype's name.
    pub archetype: String,
    /// The script file, resolved against the content file's directory.
    pub path: std::path::PathBuf,
}

/// Content that parsed and validated without errors.
#[derive(Clone, Debug)]
pub struct Content {
    /// The definitions as written.
    pub def: ContentDef,
    /// Where each value starts in the text, for later diagnostics.
    pub spans: SpanIndex,
    /// The file name used in diagnostics.
    pub file: String,
    /// Warnings: legal but suspicious content.
    pub warnings: Vec<Diagnostic>,
}

impl Content {
    /// Reads, parses and validates the file at `path`. On failure returns
    /// every diagnostic found (errors and warnings), in file order.
    pub fn load(path: &Path) -> Result<Self, Diagnostics> {
        let file = path.display().to_string();
        let start = Pos { line: 1, column: 1 };
        let meta = std::fs::metadata(path).map_err(|e| {
            Diagnostics(vec![Diagnostic::error(
                &file,
                start,
                format!("cannot read: {e}"),
            )])
        })?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(Diagnostics(vec![Diagnostic::error(
                &file,
                start,
                format!(
                    "file is {} bytes; content files are limited to {MAX_FILE_BYTES} bytes",
                    meta.len()
                ),
            )]));
        }
        let bytes = std::fs::read(path).map_err(|e| {
            Diagnostics(vec![Diagnostic::error(
                &file,
                start,
                format!("cannot read: {e}"),
            )])
        })?;
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]);
                return Err(Diagnostics(vec![Diagnostic::error(
                    &file,
                    end_of(&prefix),
                    "file is not valid UTF-8 text",
                )]));
            }
        };
        let content = Self::from_str(&text, &file)?;
        let missing: Vec<Diagnostic> = content
            .scripts()
            .into_iter()
            .filter(|s| !s.path.is_file())
            .map(|s| {
                Diagnostic::error(
                    &file,
                    content
                        .spans
                        .pos(&format!("archetypes{{{}}}.script", s.index)),
                    format!("script `{}` not found", s.path.display()),
                )
            })
            .collect();
        if missing.is_empty() {
            Ok(content)
        } else {
            Err(Diagnostics(missing))
        }
    }

    /// The Lua scripts archetypes refer to, in archetype order, with paths
    /// resolved against the content file's directory.
    pub fn scripts(&self) -> Vec<ScriptRef> {
        let dir = Path::new(&self.file).parent().unwrap_or(Path::new(""));
        self.def
            .archetypes
            .iter()
            .enumerate()
            .filter_map(|(index, (name, a))| {
                let script = a.script.as_deref()?;
                Some(ScriptRef {
                    index,
                    archetype: name.to_owned(),
                    path: dir.join(script),
                })
            })
            .collect()
    }

    /// Parses and validates `text`; `file` names it in diagnostics.
    pub fn from_str(text: &str, file: &str) -> Result<Self, Diagnostics> {
        let def = parse(text, file)?;
        let spans = SpanIndex::new(text);
        let diagnostics = validate(&def, &spans, file);
        if diagnostics.iter().any(Diagnostic::is_error) {
            return Err(Diagnostics(diagnostics));
        }
        Ok(Self {
            def,
            spans,
            file: file.to_owned(),
            warnings: diagnostics,
        })
    }
}

/// Parses `text` into definitions without validating them.
pub fn parse(text: &str, file: &str) -> Result<ContentDef, Diagnostics> {
    if let Some(pos) = too_deep(text) {
        return Err(Diagnostics(vec![Diagnostic::error(
            file,
            pos,
            format!("nesting deeper than {MAX_NESTING} levels"),
        )]));
    }
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .from_str::<ContentDef>(text)
        .map_err(|e| {
            let mut d = from_ron(&e, file);
            if names_a_value(&e.code)
                && let Some((field, at)) = field_at(text, &d)
            {
                d.message = format!("`{field}`: {}", d.message);
                d.column = at.column;
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

/// The position just past `text`.
fn end_of(text: &str) -> Pos {
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
    let mut depth = 0usize;
    let (mut line, mut column) = (1u32, 1u32);
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => in_string = !in_string,
            '\\' if in_string => {
                chars.next();
                column += 1;
            }
            '(' | '[' | '{' if !in_string => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(Pos { line, column });
                }
            }
            ')' | ']' | '}' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
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
        RonError::DuplicateStructField { field, outer } => {
            format!("field `{field}` given twice{}", within(outer))
        }
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
