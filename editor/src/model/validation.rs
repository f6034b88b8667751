//! The document's diagnostics as `kiai validate` gives them for the file
//! as it would be saved (its scripts included), computed on a background
//! thread after each change of the document or of a script file on disk.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use super::analysis::{self, Finding};

/// What a check was of: the document's revision, and a fingerprint of its
/// script files on disk (their paths, sizes and modification times).
type Key = (u64, u64);

/// The latest diagnostics and the check running, if any.
#[derive(Debug, Default)]
pub struct Validation {
    /// The document revision the findings describe, and the findings.
    pub findings: (u64, Vec<Finding>),
    /// The script fingerprint the findings describe.
    scripts: u64,
    running: Option<mpsc::Receiver<(Key, Vec<Finding>)>>,
    wanted: Key,
    /// Whether the document names script files (they are watched).
    has_scripts: bool,
}

/// What is checked: the document, the file it was read from (its text is
/// the base the document would be saved over) and the file's name in the
/// diagnostics.
pub struct Subject<'a> {
    /// The document's revision.
    pub revision: u64,
    /// The document's content.
    pub def: &'a kiai_content::def::ContentDef,
    /// The document's file, if it has one.
    pub path: Option<&'a Path>,
    /// The name diagnostics give the file.
    pub file: &'a str,
    /// The document's folder (scripts are named relative to it).
    pub dir: &'a Path,
}

impl Subject<'_> {
    /// The fingerprint of the script files the document names.
    fn scripts(&self) -> (u64, bool) {
        let files: Vec<PathBuf> = kiai::lua::document_scripts(self.def, self.dir)
            .into_iter()
            .map(|s| s.path)
            .collect();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for f in &files {
            f.hash(&mut h);
            if let Ok(m) = std::fs::metadata(f) {
                m.len().hash(&mut h);
                m.modified().ok().hash(&mut h);
            }
        }
        (h.finish(), !files.is_empty())
    }

    /// Checks it on this thread.
    fn check(def: &kiai_content::def::ContentDef, path: Option<&Path>, file: &str) -> Vec<Finding> {
        let original = path.and_then(|p| std::fs::read_to_string(p).ok());
        analysis::check_def(def, file, original.as_deref())
    }
}

impl Validation {
    /// Findings known for `revision` without checking (a file's
    /// diagnostics at open).
    pub fn known(revision: u64, findings: Vec<Finding>) -> Self {
        Self {
            findings: (revision, findings),
            scripts: 0,
            running: None,
            wanted: (revision, 0),
            has_scripts: false,
        }
    }

    /// Collects a finished check; starts one when the document or a script
    /// file changed since the findings and none runs. Returns whether a
    /// check is running (the caller asks for another frame soon).
    pub fn poll(&mut self, s: &Subject<'_>) -> bool {
        if let Some(rx) = &self.running {
            match rx.try_recv() {
                Ok(((revision, scripts), findings)) => {
                    self.findings = (revision, findings);
                    self.scripts = scripts;
                    self.running = None;
                }
                Err(mpsc::TryRecvError::Empty) => return true,
                Err(mpsc::TryRecvError::Disconnected) => self.running = None,
            }
        }
        let (scripts, has_scripts) = s.scripts();
        self.has_scripts = has_scripts;
        let key = (s.revision, scripts);
        if self.findings.0 == s.revision && (self.scripts == scripts || self.scripts == 0) {
            // Findings read at open describe the scripts as they were then.
            self.scripts = scripts;
            return false;
        }
        if self.wanted == key {
            return false;
        }
        self.wanted = key;
        let (def, file) = (s.def.clone(), s.file.to_owned());
        let path = s.path.map(Path::to_path_buf);
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("kiai-validate".into())
            .spawn(move || {
                let findings = Subject::check(&def, path.as_deref(), &file);
                let _ = tx.send((key, findings));
            });
        if spawned.is_ok() {
            self.running = Some(rx);
        }
        spawned.is_ok()
    }

    /// Checks now unless the findings are current.
    pub fn now(&mut self, s: &Subject<'_>) -> &[Finding] {
        let (scripts, has_scripts) = s.scripts();
        self.has_scripts = has_scripts;
        if self.findings.0 != s.revision || self.scripts != scripts {
            self.findings = (s.revision, Subject::check(s.def, s.path, s.file));
            self.scripts = scripts;
            self.running = None;
            self.wanted = (s.revision, scripts);
        }
        &self.findings.1
    }

    /// Whether the findings describe `revision`.
    pub fn is_current(&self, revision: u64) -> bool {
        self.findings.0 == revision
    }

    /// Whether the document names script files: they are looked at every
    /// frame, and a change on disk is checked again.
    pub fn watches_scripts(&self) -> bool {
        self.has_scripts
    }

    /// Errors and warnings.
    pub fn counts(&self) -> (usize, usize) {
        let errors = self
            .findings
            .1
            .iter()
            .filter(|f| f.diagnostic.is_error())
            .count();
        (errors, self.findings.1.len() - errors)
    }
}
