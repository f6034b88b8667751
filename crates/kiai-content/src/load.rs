//! [`Content`]: a file read and checked, content text (parsed, migrated,
//! validated and linted) or an exported pack (decoded and checked), and the
//! Lua scripts its archetypes name.

use std::borrow::Cow;
use std::path::Path;

use crate::check;
use crate::format::def::{ContentDef, FORMAT_VERSION};
use crate::format::diag::{Diagnostic, Diagnostics};
use crate::format::limits::MAX_FILE_BYTES;
use crate::format::locate::{Pos, SpanIndex};
use crate::format::script_path::script_path;
use crate::navgen;
use crate::pack::{PACK_MAGIC, Pack, PackError};
use crate::read::migrate::{self, Change};
use crate::read::parse::{end_of, parse_any};

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
        if bytes.starts_with(&PACK_MAGIC) {
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
                path: script_path(dir, script),
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
        let mut diagnostics = migrate::diagnostics(&parsed.errors, &spans, file);
        diagnostics.extend(check::content(&parsed.def, &spans, file));
        if !diagnostics.iter().any(Diagnostic::is_error) {
            diagnostics.extend(navgen::coverage::warnings(&parsed.def, &spans, file));
        }
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
        let errors = crate::pack::value_errors(&pack, file);
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
fn pack_error(file: &str, e: &PackError) -> Diagnostics {
    Diagnostics(vec![Diagnostic::error(
        file,
        Pos { line: 1, column: 1 },
        e.to_string(),
    )])
}
