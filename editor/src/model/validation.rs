//! kiai-content's diagnostics of the document as it would be saved,
//! computed on a background thread after each change.

use std::sync::mpsc;

use super::analysis::{self, Finding};

/// The latest diagnostics and the check running, if any.
#[derive(Debug, Default)]
pub struct Validation {
    /// The document revision the findings describe, and the findings.
    pub findings: (u64, Vec<Finding>),
    running: Option<mpsc::Receiver<(u64, Vec<Finding>)>>,
    wanted: u64,
}

impl Validation {
    /// Findings known for `revision` without checking (a file's
    /// diagnostics at open).
    pub fn known(revision: u64, findings: Vec<Finding>) -> Self {
        Self {
            findings: (revision, findings),
            running: None,
            wanted: revision,
        }
    }

    /// Collects a finished check; starts one for `revision` when the
    /// findings are older and none runs. Returns whether a check is
    /// running (the caller asks for another frame soon).
    pub fn poll(&mut self, revision: u64, def: &kiai_content::def::ContentDef, file: &str) -> bool {
        if let Some(rx) = &self.running {
            match rx.try_recv() {
                Ok(result) => {
                    self.findings = result;
                    self.running = None;
                }
                Err(mpsc::TryRecvError::Empty) => return true,
                Err(mpsc::TryRecvError::Disconnected) => self.running = None,
            }
        }
        if self.findings.0 == revision || self.wanted == revision {
            return false;
        }
        self.wanted = revision;
        let (def, file) = (def.clone(), file.to_owned());
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("kiai-validate".into())
            .spawn(move || {
                let findings = analysis::check_def(&def, &file);
                let _ = tx.send((revision, findings));
            });
        if spawned.is_ok() {
            self.running = Some(rx);
        }
        spawned.is_ok()
    }

    /// Checks `def` now unless the findings are current.
    pub fn now(
        &mut self,
        revision: u64,
        def: &kiai_content::def::ContentDef,
        file: &str,
    ) -> &[Finding] {
        if self.findings.0 != revision {
            self.findings = (revision, analysis::check_def(def, file));
            self.running = None;
            self.wanted = revision;
        }
        &self.findings.1
    }

    /// Whether the findings describe `revision`.
    pub fn is_current(&self, revision: u64) -> bool {
        self.findings.0 == revision
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
