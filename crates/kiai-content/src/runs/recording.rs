//! Recordings (`.kiairec`): a run written down so that it can be replayed
//! exactly, by the editor's timeline, `kiai run --record` and `kiai fork`.
//!
//! A run is determined by its content, its seed and the changes made to it
//! while it ran (an events schedule), so a recording holds those, the
//! text of the scripts its archetypes name (a later edit of a script file
//! does not change the recorded run) and the state hash after every tick,
//! which every replay checks. World snapshots stay in memory: a replay
//! rebuilds them as it goes (runtime types are not serialised).
//!
//! The file is RON:
//!
//! ```ron
//! (
//!     format: 2,
//!     content: (format: 2, name: "arena", ...),
//!     seed: 7,
//!     events: [(tick: 10, do: Despawn(agent: "red_guard_00"))],
//!     scripts: [],
//!     hashes: [1234, 5678],
//! )
//! ```
//!
//! Format 1 (the editor's first recordings: content, seed and hashes) is
//! still read.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::events::EventDef;
use crate::format::def::ContentDef;
use crate::load::ScriptRef;

/// The newest recording format.
pub const RECORDING_FORMAT: u32 = 2;

/// The file extension of recordings.
pub const RECORDING_EXTENSION: &str = "kiairec";

/// A recorded run: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    /// Recording format version ([`RECORDING_FORMAT`]; 1 is read too).
    pub format: u32,
    /// The content the run was built from.
    pub content: ContentDef,
    /// The seed of every random stream.
    pub seed: u64,
    /// The changes made while it ran (an events file's events), in the
    /// order written; empty when none.
    #[serde(default)]
    pub events: Vec<EventDef>,
    /// The scripts of the archetypes that have one, with their text.
    #[serde(default)]
    pub scripts: Vec<RecordedScript>,
    /// State hash after each tick (`hashes[t]` after tick `t + 1`).
    pub hashes: Vec<u64>,
}

/// One script as it was when the run was recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedScript {
    /// The archetype it decides.
    pub archetype: String,
    /// Its path as the content names it (relative to the content file).
    pub path: String,
    /// Its text.
    pub text: String,
}

/// A recording that cannot be read or written.
#[derive(Debug)]
pub struct RecordingError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong, and what to do.
    pub message: String,
}

impl std::fmt::Display for RecordingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for RecordingError {}

impl Recording {
    /// A recording of a run of `content` with `seed` and `events`, whose
    /// scripts (`scripts`, from [`crate::Content::scripts`]) are read now:
    /// bundled text, or the file. No ticks are recorded yet.
    pub fn new(
        content: ContentDef,
        seed: u64,
        events: Vec<EventDef>,
        scripts: &[ScriptRef],
    ) -> Result<Self, RecordingError> {
        let mut recorded = Vec::with_capacity(scripts.len());
        for s in scripts {
            let text = match &s.bundled {
                Some(t) => t.clone(),
                None => std::fs::read_to_string(&s.path).map_err(|e| RecordingError {
                    path: s.path.clone(),
                    message: format!("cannot read the script to record it: {e}"),
                })?,
            };
            let path = content
                .archetypes
                .get(&s.archetype)
                .and_then(|a| a.script.clone())
                .unwrap_or_else(|| s.path.display().to_string());
            recorded.push(RecordedScript {
                archetype: s.archetype.clone(),
                path,
                text,
            });
        }
        Ok(Self {
            format: RECORDING_FORMAT,
            content,
            seed,
            events,
            scripts: recorded,
            hashes: Vec::new(),
        })
    }

    /// Ticks recorded.
    pub fn ticks(&self) -> u64 {
        self.hashes.len() as u64
    }

    /// The scripts to decide with when replaying: the recorded text of
    /// each scripted archetype (named as `dir` joined with its path, for
    /// messages); for a format-1 recording, which holds no text, the files
    /// under `dir`.
    pub fn script_refs(&self, dir: &Path) -> Vec<ScriptRef> {
        self.content
            .archetypes
            .iter()
            .enumerate()
            .filter_map(|(index, (name, a))| {
                let script = a.script.as_deref()?;
                let bundled = self
                    .scripts
                    .iter()
                    .find(|s| s.archetype == name)
                    .map(|s| s.text.clone());
                Some(ScriptRef {
                    index,
                    archetype: name.to_owned(),
                    path: crate::format::script_path::script_path(dir, script),
                    bundled,
                })
            })
            .collect()
    }

    /// The recording as RON text.
    pub fn to_text(&self) -> Result<String, String> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| e.to_string())
    }

    /// Reads recording text (format 1 or 2); `file` names it in errors.
    pub fn from_text(text: &str, file: &Path) -> Result<Self, RecordingError> {
        let error = |message: String| RecordingError {
            path: file.to_path_buf(),
            message,
        };
        let r: Recording = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .map_err(|e| {
                error(format!(
                    "not a kiai recording ({e}); recordings are written by the editor \
                 (File > Save recording) and `kiai run --record`"
                ))
            })?;
        if r.format == 0 || r.format > RECORDING_FORMAT {
            return Err(error(format!(
                "unsupported recording format {}; this kiai reads formats 1 to {RECORDING_FORMAT}",
                r.format
            )));
        }
        Ok(r)
    }

    /// Reads the recording at `path`.
    pub fn load(path: &Path) -> Result<Self, RecordingError> {
        let text = std::fs::read_to_string(path).map_err(|e| RecordingError {
            path: path.to_path_buf(),
            message: format!("cannot read: {e}"),
        })?;
        Self::from_text(&text, path)
    }

    /// Writes the recording to `path` atomically (the file is always the
    /// old or the new version).
    pub fn save(&self, path: &Path) -> Result<(), RecordingError> {
        let error = |message: String| RecordingError {
            path: path.to_path_buf(),
            message,
        };
        let text = self.to_text().map_err(error)?;
        crate::save::write_atomic(path, text.as_bytes(), false)
            .map_err(|e| error(format!("cannot write: {e}")))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::*;

    fn def() -> ContentDef {
        crate::read::parse::parse(
            r#"(format: 2, factions: [(name: "red")],
                archetypes: {"guard": (script: "g.lua")},
                agents: [(name: "g1", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0))])"#,
            "t.ron",
        )
        .unwrap()
    }

    #[test]
    fn a_recording_reads_back_as_written_and_keeps_script_text() {
        let dir = tempfile::tempdir().unwrap();
        let script = ScriptRef {
            index: 0,
            archetype: "guard".into(),
            path: dir.path().join("g.lua"),
            bundled: Some("function decide() end".into()),
        };
        let mut r = Recording::new(def(), 9, Vec::new(), &[script]).unwrap();
        r.hashes = vec![1, 2, 3];
        let path = dir.path().join("run.kiairec");
        r.save(&path).unwrap();
        let back = Recording::load(&path).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.ticks(), 3);
        let refs = back.script_refs(Path::new("/x"));
        assert_eq!(refs[0].bundled.as_deref(), Some("function decide() end"));
        assert_eq!(refs[0].path, Path::new("/x/g.lua"));
        assert_eq!(r.scripts[0].path, "g.lua");
    }

    #[test]
    fn format_one_is_read_and_other_files_are_refused_with_a_hint() {
        let text = format!(
            "(format: 1, content: {}, seed: 3, hashes: [7])",
            crate::write::to_ron(&def()).unwrap()
        );
        let r = Recording::from_text(&text, Path::new("old.kiairec")).unwrap();
        assert_eq!((r.format, r.seed, r.events.len()), (1, 3, 0));
        let e = Recording::from_text(
            "(format: 9, content: (format: 2), seed: 1, hashes: [])",
            Path::new("f"),
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("unsupported recording format 9"),
            "{e}"
        );
        let e = Recording::from_text("not ron", Path::new("f.kiairec")).unwrap_err();
        assert!(e.to_string().contains("kiai run --record"), "{e}");
    }
}
