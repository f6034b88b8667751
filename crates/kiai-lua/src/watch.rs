//! Watching script files and reloading them on save.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};

use crate::LuaDecider;

/// How long the watcher waits for a burst of writes to settle.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// Watches script files (through their directories, so editors that save by
/// renaming are seen) and tells which changed. Poll it between ticks.
pub struct ScriptWatcher {
    _debouncer: Debouncer<notify::RecommendedWatcher>,
    rx: Receiver<DebounceEventResult>,
    files: Vec<PathBuf>,
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
        let mut debouncer = new_debouncer(DEBOUNCE, move |res| {
            // The receiver is gone only when the watcher is dropped.
            let _ = tx.send(res);
        })?;
        let mut watched = Vec::new();
        let mut dirs: Vec<PathBuf> = Vec::new();
        for f in files_of(files) {
            let dir = f
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            if !dirs.contains(&dir) {
                debouncer
                    .watcher()
                    .watch(&dir, RecursiveMode::NonRecursive)?;
                dirs.push(dir);
            }
            watched.push(f);
        }
        Ok(Self {
            _debouncer: debouncer,
            rx,
            files: watched,
        })
    }

    /// The watched files that changed since the last call, each once, in
    /// the order they were given.
    pub fn changed(&self) -> Vec<PathBuf> {
        let mut hit = vec![false; self.files.len()];
        while let Ok(res) = self.rx.try_recv() {
            let Ok(events) = res else { continue };
            for e in events {
                let p = canonical(&e.path);
                for (i, f) in self.files.iter().enumerate() {
                    if canonical(f) == p
                        || f.file_name() == e.path.file_name() && same_dir(f, &e.path)
                    {
                        hit[i] = true;
                    }
                }
            }
        }
        self.files
            .iter()
            .zip(hit)
            .filter(|(_, h)| *h)
            .map(|(f, _)| f.clone())
            .collect()
    }

    /// Reloads every changed script into `decider`; returns the errors of
    /// those that did not compile (they keep their last good version).
    pub fn reload_changed(&self, decider: &mut LuaDecider) -> Vec<crate::ScriptError> {
        self.changed()
            .iter()
            .filter_map(|f| decider.reload_file(f).err())
            .collect()
    }
}

fn files_of<'a>(files: impl IntoIterator<Item = &'a Path>) -> Vec<PathBuf> {
    files.into_iter().map(Path::to_path_buf).collect()
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.parent(), b.parent()) {
        (Some(x), Some(y)) => canonical(x) == canonical(y),
        _ => false,
    }
}
