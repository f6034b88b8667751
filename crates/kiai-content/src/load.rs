//! Reading content text: parse, locate, validate.

use std::borrow::Cow;
use std::path::Path;

use ron::error::{Error as RonError, SpannedError};
use ron::extensions::Extensions;

use crate::def::{ContentDef, FORMAT_VERSION, OLDEST_FORMAT_VERSION};
use crate::diag::{Diagnostic, Diagnostics, hint};
use crate::locate::{Pos, SpanIndex};
use crate::migrate::{Change, MigrationError, migrate_v1, peek_format, v1};
use crate::pack::Pack;
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
    /// The script file, resolved against the content file's directory
    /// ([`script_path`](crate::script_path)).
    pub path: std::path::PathBuf,
    /// The script's text when it came bundled in a pack (then `path` need
    /// not exist).
    pub bundled: Option<String>,
}

/// Where a project's definitions come from.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    /// Content text, parsed (and migrated) into definitions.
    Text(ContentDef),
    /// A pack that passed its checks: names resolved to indices, the form
    /// the runtime types are built from.
    Pack(Pack),
}

/// Content that parsed and validated without errors: a content file read
/// into definitions, or an exported pack kept as it is (its runtime types
/// are built straight from its indices).
#[derive(Clone, Debug)]
pub struct Content {
    /// The definitions or the pack.
    pub(crate) source: Source,
    /// Where each value starts in the text, for later diagnostics (empty for
    /// a pack).
    pub spans: SpanIndex,
    /// The file name used in diagnostics.
    pub file: String,
    /// Warnings: legal but suspicious content (none for a pack: its content
    /// was linted when it was exported).
    pub warnings: Vec<Diagnostic>,
    /// The format version of the file when it was older than the newest
    /// (it was migrated on load); `None` when it is current.
    pub migrated_from: Option<u32>,
    /// What the migration changed (empty when none ran).
    pub changes: Vec<Change>,
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
            return Self::from_pack_bytes(&bytes, &file);
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
        let missing = content.missing_scripts();
        if missing.is_empty() {
            Ok(content)
        } else {
            Err(Diagnostics(missing))
        }
    }

    /// An error for each archetype whose script file does not exist (paths
    /// resolved against the content file's directory; scripts bundled in a
    /// pack are never missing), at the archetype's `script` field.
    pub fn missing_scripts(&self) -> Vec<Diagnostic> {
        self.scripts()
            .into_iter()
            .filter(|s| s.bundled.is_none() && !s.path.is_file())
            .map(|s| {
                Diagnostic::error(
                    &self.file,
                    self.spans.pos(&format!("archetypes{{{}}}.script", s.index)),
                    format!("script `{}` not found", s.path.display()),
                )
            })
            .collect()
    }

    /// The definitions of content read from text; `None` for a pack (see
    /// [`Content::to_def`]).
    pub fn def(&self) -> Option<&ContentDef> {
        match &self.source {
            Source::Text(def) => Some(def),
            Source::Pack(_) => None,
        }
    }

    /// The pack this content was loaded from; `None` for text.
    pub fn pack(&self) -> Option<&Pack> {
        match &self.source {
            Source::Pack(pack) => Some(pack),
            Source::Text(_) => None,
        }
    }

    /// The definitions of this content, for editing or saving as text: the
    /// text's own, or a pack's with its names restored from indices (a
    /// conversion; building and running never need it).
    pub fn to_def(&self) -> Cow<'_, ContentDef> {
        match &self.source {
            Source::Text(def) => Cow::Borrowed(def),
            Source::Pack(pack) => Cow::Owned(pack.names_restored()),
        }
    }

    /// [`Content::to_def`], consuming the content.
    pub fn into_def(self) -> ContentDef {
        match self.source {
            Source::Text(def) => def,
            Source::Pack(pack) => pack.names_restored(),
        }
    }

    /// The seed of every random stream, as the file gives it.
    pub fn seed(&self) -> u64 {
        match &self.source {
            Source::Text(def) => def.seed,
            Source::Pack(pack) => pack.seed,
        }
    }

    /// The name of the profile archetype `index` (in file order, the
    /// runtime's `ArchetypeId`) uses, if it names one.
    pub fn archetype_profile(&self, index: usize) -> Option<&str> {
        match &self.source {
            Source::Text(def) => def.archetypes.0.get(index)?.1.profile.as_deref(),
            Source::Pack(pack) => {
                let profile = pack.archetypes.get(index)?.profile?;
                Some(pack.profiles.get(profile as usize)?.name.as_str())
            }
        }
    }

    /// The Lua scripts archetypes refer to, in archetype order, with paths
    /// resolved against the content file's directory; a pack's come with
    /// their text.
    pub fn scripts(&self) -> Vec<ScriptRef> {
        let dir = Path::new(&self.file).parent().unwrap_or(Path::new(""));
        let named: Vec<(usize, &str, &str)> = match &self.source {
            Source::Text(def) => def
                .archetypes
                .iter()
                .enumerate()
                .filter_map(|(i, (name, a))| Some((i, name, a.script.as_deref()?)))
                .collect(),
            Source::Pack(pack) => pack
                .archetypes
                .iter()
                .enumerate()
                .filter_map(|(i, a)| Some((i, a.name.as_str(), a.script.as_deref()?)))
                .collect(),
        };
        named
            .into_iter()
            .map(|(index, archetype, script)| ScriptRef {
                index,
                archetype: archetype.to_owned(),
                path: crate::script_path(dir, script),
                bundled: self.pack().and_then(|p| {
                    p.scripts
                        .iter()
                        .find(|s| s.path == script)
                        .map(|s| s.text.clone())
                }),
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
            source: Source::Text(parsed.def),
            spans,
            file: file.to_owned(),
            warnings: diagnostics,
            migrated_from: parsed.from,
            changes: parsed.changes,
        })
    }

    /// Content from the bytes of a pack (what [`Content::load`] does with a
    /// file that starts with the pack magic): header, checksum, decode, the
    /// pack's structure, then the value rules. Every problem is a diagnostic
    /// at 1:1 of `file`: a pack has no text positions.
    pub fn from_pack_bytes(bytes: &[u8], file: &str) -> Result<Self, Diagnostics> {
        let pack = Pack::decode(bytes).map_err(|e| pack_error(file, &e))?;
        Self::from_checked_pack(pack, file)
    }

    /// Content from a decoded pack: its structure ([`Pack::check`]) and the
    /// value rules of content are checked (a pack may come from anywhere);
    /// names are not resolved again. Diagnostics point at 1:1 of `file`.
    pub fn from_pack(pack: Pack, file: &str) -> Result<Self, Diagnostics> {
        pack.check().map_err(|e| pack_error(file, &e))?;
        Self::from_checked_pack(pack, file)
    }

    fn from_checked_pack(pack: Pack, file: &str) -> Result<Self, Diagnostics> {
        let errors = crate::pack_check::value_errors(&pack, file);
        if !errors.is_empty() {
            return Err(Diagnostics(errors));
        }
        Ok(Self {
            source: Source::Pack(pack),
            spans: SpanIndex::default(),
            file: file.to_owned(),
            warnings: Vec::new(),
            migrated_from: None,
            changes: Vec::new(),
        })
    }
}

/// A pack's error as the one diagnostic of `file`, at 1:1.
fn pack_error(file: &str, e: &crate::pack::PackError) -> Diagnostics {
    Diagnostics(vec![Diagnostic::error(
        file,
        Pos { line: 1, column: 1 },
        e.to_string(),
    )])
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
