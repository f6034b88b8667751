//! Reading content text: parse, locate, validate.

use std::path::Path;

use ron::error::{Error as RonError, SpannedError};
use ron::extensions::Extensions;

use crate::def::{ContentDef, FORMAT_VERSION, OLDEST_FORMAT_VERSION};
use crate::diag::{Diagnostic, Diagnostics, hint};
use crate::locate::{Pos, SpanIndex};
use crate::migrate::{Change, MigrationError, migrate_v1, peek_format, v1};
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
    /// The script's text when it came bundled in a pack (then `path` need
    /// not exist).
    pub bundled: Option<String>,
}

/// Content that parsed and validated without errors.
#[derive(Clone, Debug)]
pub struct Content {
    /// The definitions, in the newest format (migrated if the file is older).
    pub def: ContentDef,
    /// Where each value starts in the text, for later diagnostics (empty for
    /// a pack).
    pub spans: SpanIndex,
    /// The file name used in diagnostics.
    pub file: String,
    /// Warnings: legal but suspicious content.
    pub warnings: Vec<Diagnostic>,
    /// The format version of the file when it was older than the newest
    /// (it was migrated on load); `None` when it is current.
    pub migrated_from: Option<u32>,
    /// What the migration changed (empty when none ran).
    pub changes: Vec<Change>,
    /// Scripts bundled in a pack: (path as written in the content, text).
    pub bundled_scripts: Vec<(String, String)>,
}

impl Content {
    /// Reads, parses and validates the file at `path`: content text (RON) or
    /// an exported pack (recognised by its magic bytes). On failure returns
    /// every diagnostic found (errors and warnings), in file order.
    pub fn load(path: &Path) -> Result<Self, Diagnostics> {
        let file = path.display().to_string();
        let start = Pos { line: 1, column: 1 };
        let cannot = |e: std::io::Error| {
            Diagnostics(vec![Diagnostic::error(
                &file,
                start,
                format!("cannot read: {e}"),
            )])
        };
        let meta = std::fs::metadata(path).map_err(cannot)?;
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
        let bytes = std::fs::read(path).map_err(cannot)?;
        if bytes.starts_with(&crate::pack::PACK_MAGIC) {
            let pack = crate::pack::Pack::decode(&bytes)
                .map_err(|e| Diagnostics(vec![Diagnostic::error(&file, start, e.to_string())]))?;
            return Self::from_pack(&pack, &file);
        }
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
                    bundled: self
                        .bundled_scripts
                        .iter()
                        .find(|(p, _)| p == script)
                        .map(|(_, text)| text.clone()),
                })
            })
            .collect()
    }

    /// Parses (migrating older versions) and validates `text`; `file` names
    /// it in diagnostics.
    pub fn from_str(text: &str, file: &str) -> Result<Self, Diagnostics> {
        let spans = SpanIndex::new(text);
        let parsed = parse_any(text, file, &spans)?;
        let mut diagnostics = crate::migrate::diagnostics(&parsed.errors, &spans, file);
        diagnostics.extend(check(&parsed.def, &spans, file));
        if let Some(from) = parsed.from
            && !diagnostics.iter().any(Diagnostic::is_error)
        {
            diagnostics.push(Diagnostic::warning(
                file,
                spans.pos("format"),
                format!(
                    "format {from} is read through a migration; `kiai migrate {file}` rewrites the file as format {FORMAT_VERSION}"
                ),
            ));
        }
        diagnostics.sort_by_key(|d| (d.line, d.column));
        if diagnostics.iter().any(Diagnostic::is_error) {
            return Err(Diagnostics(diagnostics));
        }
        Ok(Self {
            def: parsed.def,
            spans,
            file: file.to_owned(),
            warnings: diagnostics,
            migrated_from: parsed.from,
            changes: parsed.changes,
            bundled_scripts: Vec::new(),
        })
    }

    /// Content from a decoded pack (already resolved and validated when it
    /// was exported; checked again, since a pack may come from anywhere).
    /// Diagnostics point at 1:1 of `file`: a pack has no text positions.
    pub fn from_pack(pack: &crate::pack::Pack, file: &str) -> Result<Self, Diagnostics> {
        let def = pack.to_def().map_err(|e| {
            Diagnostics(vec![Diagnostic::error(
                file,
                Pos { line: 1, column: 1 },
                e.to_string(),
            )])
        })?;
        let spans = SpanIndex::default();
        let diagnostics = check(&def, &spans, file);
        if diagnostics.iter().any(Diagnostic::is_error) {
            return Err(Diagnostics(diagnostics));
        }
        Ok(Self {
            def,
            spans,
            file: file.to_owned(),
            warnings: Vec::new(),
            migrated_from: None,
            changes: Vec::new(),
            bundled_scripts: pack
                .scripts
                .iter()
                .map(|s| (s.path.clone(), s.text.clone()))
                .collect(),
        })
    }
}

/// Every check on parsed content: limits, validation, lints.
fn check(def: &ContentDef, spans: &SpanIndex, file: &str) -> Vec<Diagnostic> {
    let mut out = crate::limits::check(def, spans, file);
    if out.is_empty() {
        out = validate(def, spans, file);
        // Lints assume the references resolve: run them on error-free
        // content only (an unknown name would also read as "never used").
        if !out.iter().any(Diagnostic::is_error) {
            out.extend(crate::lint::warnings(def, spans, file));
        }
    }
    out.sort_by_key(|d| (d.line, d.column));
    out
}

/// Parsed definitions in the newest format.
struct Parsed {
    def: ContentDef,
    from: Option<u32>,
    changes: Vec<Change>,
    errors: Vec<MigrationError>,
}

/// Parses `text` of any supported version (by its `format`), migrating it
/// to the newest; syntax, type and version errors are returned as `Err`.
///
/// The nesting check comes first, then the version, then the parse; the
/// fast reader may skip the nesting check only where it provably passes.
fn parse_any(text: &str, file: &str, spans: &SpanIndex) -> Result<Parsed, Diagnostics> {
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

/// The message for a file of a version this kiai cannot read.
pub(crate) fn unsupported(version: u64) -> String {
    format!(
        "unsupported format version {version}; this kiai reads versions {OLDEST_FORMAT_VERSION} to {FORMAT_VERSION}"
    )
}

/// Parses `text` (any supported version, migrated to the newest) without
/// validating it.
pub fn parse(text: &str, file: &str) -> Result<ContentDef, Diagnostics> {
    let spans = SpanIndex::new(text);
    let parsed = parse_any(text, file, &spans)?;
    if !parsed.errors.is_empty() {
        return Err(Diagnostics(crate::migrate::diagnostics(
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
    if let Some(read) = crate::fast::from_str(text)
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
