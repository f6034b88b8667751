//! Watching script files and reloading them on save, once per edit.
//!
//! The watcher reacts only to changes of content — data written, a file
//! closed after writing, renamed into place or created — not to reads, so
//! reading a script to reload it cannot trigger the next reload. A burst of
//! events settles for [`DEBOUNCE`] first. Then only the scripts whose files
//! changed are considered, and one is reloaded only when the file's bytes
//! differ from the version last read from it (the decider keeps a hash):
//! saving the same text again does nothing, and a script that fails to
//! load is reported once, until its file changes again.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, ModifyKind};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use crate::{LuaDecider, ScriptError};

/// How long a file's events must have stopped before it is reloaded.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// What a [`ScriptWatcher::poll`] did with one changed script file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reload {
    /// The script file.
    pub path: PathBuf,
    /// The world's tick when it happened: the next tick runs the new
    /// version (or, after a failure, still the previous one).
    pub tick: u64,
    /// `Ok` when the new version runs; the load error otherwise (the last
    /// good version keeps running).
    pub result: Result<(), ScriptError>,
}

/// One watched file.
#[derive(Debug)]
struct Watched {
    path: PathBuf,
    /// Its directory, canonical when it exists.
    dir: PathBuf,
    /// When its last content event arrived, while settling.
    pending: Option<Instant>,
}

/// Watches script files (through their directories, so editors that save by
/// renaming are seen) and reloads those whose content changed. Poll it
/// between ticks.
pub struct ScriptWatcher {
    _watcher: RecommendedWatcher,
    rx: Receiver<(Instant, Event)>,
    files: Vec<Watched>,
}

impl std::fmt::Debug for ScriptWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptWatcher")
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl ScriptWatcher {
    /// Watches `files`.
    pub fn new<'a>(files: impl IntoIterator<Item = &'a Path>) -> notify::Result<Self> {
        let (tx, rx) = channel();
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<Event>| {
            if let Ok(event) = res
                && changes_content(event.kind)
            {
                // The receiver is gone only when the watcher is dropped.
                let _ = tx.send((Instant::now(), event));
            }
        })?;
        let mut watched: Vec<Watched> = Vec::new();
        for f in files {
            let dir = f
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let canonical_dir = canonical(dir);
            if !watched.iter().any(|w| w.dir == canonical_dir) {
                watcher.watch(dir, RecursiveMode::NonRecursive)?;
            }
            watched.push(Watched {
                path: f.to_path_buf(),
                dir: canonical_dir,
                pending: None,
            });
        }
        Ok(Self {
            _watcher: watcher,
            rx,
            files: watched,
        })
    }

    /// The watched files whose content changed and whose events have
    /// settled for [`DEBOUNCE`], each once, in the order they were given.
    pub fn changed(&mut self) -> Vec<PathBuf> {
        while let Ok((at, event)) = self.rx.try_recv() {
            for p in &event.paths {
                for f in &mut self.files {
                    if is_file(f, p) {
                        f.pending = Some(at);
                    }
                }
            }
        }
        let now = Instant::now();
        let mut out = Vec::new();
        for f in &mut self.files {
            if f.pending
                .is_some_and(|at| now.duration_since(at) >= DEBOUNCE)
            {
                f.pending = None;
                out.push(f.path.clone());
            }
        }
        out
    }

    /// Reloads into `decider` the scripts whose files changed since the
    /// last poll and whose bytes differ from the version last read; `tick`
    /// is the world's tick now. Returns one [`Reload`] per script file that
    /// effectively changed: unchanged files (reads, saves of the same
    /// text) give nothing, and a file that keeps failing is reported only
    /// when its bytes change.
    pub fn poll(&mut self, decider: &mut LuaDecider, tick: u64) -> Vec<Reload> {
        self.changed()
            .into_iter()
            .filter_map(|path| {
                let result = decider.reload_file_if_changed(&path)?;
                Some(Reload { path, tick, result })
            })
            .collect()
    }
}

/// Whether an event of `kind` can mean that a file's content changed:
/// data written, closed after writing, renamed, created (or a backend that
/// cannot tell). Opening, reading and closing after reading, metadata and
/// removal cannot.
fn changes_content(kind: EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Any | EventKind::Other => true,
        EventKind::Modify(m) => !matches!(m, ModifyKind::Metadata(_)),
        EventKind::Access(a) => matches!(a, AccessKind::Close(AccessMode::Write)),
        EventKind::Remove(_) => false,
    }
}

/// Whether event path `p` names watched file `f`.
fn is_file(f: &Watched, p: &Path) -> bool {
    p.file_name() == f.path.file_name()
        && p.parent()
            .is_some_and(|d| d == f.dir || canonical(d) == f.dir)
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use notify::event::{CreateKind, DataChange, MetadataKind, RemoveKind, RenameMode};

    use super::*;

    #[test]
    fn writes_renames_and_creations_change_content_reads_do_not() {
        let content = [
            EventKind::Modify(ModifyKind::Data(DataChange::Content)),
            EventKind::Modify(ModifyKind::Name(RenameMode::To)),
            EventKind::Modify(ModifyKind::Any),
            EventKind::Access(AccessKind::Close(AccessMode::Write)),
            EventKind::Create(CreateKind::File),
            EventKind::Any,
        ];
        let not = [
            EventKind::Access(AccessKind::Open(AccessMode::Any)),
            EventKind::Access(AccessKind::Read),
            EventKind::Access(AccessKind::Close(AccessMode::Read)),
            EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)),
            EventKind::Remove(RemoveKind::File),
        ];
        assert!(content.into_iter().all(changes_content));
        assert!(!not.into_iter().any(changes_content));
    }
}
