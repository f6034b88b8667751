//! Files from the UI's side: asking for a path (the system's dialog, else
//! the editor's own prompt), and what each chosen path does: open, save
//! as, export, recordings, traces, a script for an archetype.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::EditorApp;
use crate::model::{Edit, Item, Model, files};
use crate::views::PathFor;
use crate::views::dialogs::Dialog;

/// A system file dialog that returns nothing faster than this was not
/// shown (nobody cancels a dialog that fast): the editor then uses its own
/// prompt.
const NO_DIALOG: Duration = Duration::from_millis(250);

impl EditorApp {
    /// Asks for a file for `what`: the system's dialog when there is one
    /// (the answer is used at once), else the editor's own prompt, which
    /// acts when confirmed.
    pub fn ask(&mut self, what: PathFor) {
        let name = self.suggested_name(what);
        if self.system_dialogs {
            let (_, label, ext) = what.describe();
            let dialog = rfd::FileDialog::new().add_filter(label, &[ext]);
            let started = Instant::now();
            let picked = if what.saves() {
                dialog.set_file_name(&name).save_file()
            } else {
                dialog.pick_file()
            };
            if let Some(path) = picked {
                self.chosen(what, &path);
                return;
            }
            if started.elapsed() >= NO_DIALOG {
                return;
            }
            self.system_dialogs = false;
            self.model
                .say("no system file dialog here (it needs xdg-desktop-portal): type the path");
        }
        let dir = self
            .model
            .doc
            .path()
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let text = if what.saves() {
            dir.join(name)
        } else {
            dir.join("")
        };
        self.views
            .dialogs
            .ask(Dialog::Path(what, text.display().to_string()));
    }

    fn suggested_name(&self, what: PathFor) -> String {
        let stem = self
            .model
            .doc
            .path()
            .and_then(|p| p.file_stem())
            .map_or_else(|| "level".to_owned(), |s| s.to_string_lossy().into_owned());
        match what {
            PathFor::SaveAs => format!("{stem}.ron"),
            PathFor::ExportAs => format!("{stem}.kiaipack"),
            PathFor::SaveRecording => "run.kiairec".to_owned(),
            _ => String::new(),
        }
    }

    /// Does what `what` asked a path for.
    pub fn chosen(&mut self, what: PathFor, path: &Path) {
        match what {
            PathFor::Open => self.open(path.to_path_buf()),
            PathFor::SaveAs => {
                self.model.save_to(path);
            }
            PathFor::ExportAs => self.export_to(path),
            PathFor::SaveRecording => save_recording(&mut self.model, path),
            PathFor::OpenRecording => {
                self.leave_what_if();
                if let Err(e) = open_recording(&mut self.model, path) {
                    self.model.say(e);
                }
            }
            PathFor::OpenTrace => match crate::model::trace::load_trace(path) {
                Ok(t) => {
                    let message = format!("opened trace {} ({} lines)", path.display(), t.len());
                    self.model.trace_file = Some(t);
                    self.model.say(message);
                }
                Err(e) => self.model.say(e),
            },
            PathFor::Script(archetype) => self.set_script(archetype, path),
        }
    }

    /// Opens `path` (asking to save unsaved changes first). A file that
    /// does not exist is refused with what to do instead.
    pub fn open(&mut self, path: PathBuf) {
        if let Err(e) = files::check_open(&path) {
            self.model.say(e);
            return;
        }
        self.leave_what_if();
        if self.model.doc.is_dirty() {
            self.views.dialogs.ask(Dialog::ConfirmOpen(path));
            return;
        }
        self.open_now(&path);
    }

    /// Opens `path` without asking.
    pub fn open_now(&mut self, path: &Path) {
        let (doc, findings) = files::open_document(path);
        // The document left was saved or its changes discarded.
        self.model.drop_recovery();
        self.model = self.model.reopen(doc, findings);
        self.views.reset(self.model.doc.def());
        if self.model.validation.counts().0 > 0 {
            self.focus(crate::views::Pane::Validation);
        }
        self.model.say(format!("opened {}", path.display()));
    }

    /// Starts a new untitled map (asking to save unsaved changes first).
    pub fn new_document(&mut self, confirmed: bool) {
        self.leave_what_if();
        if self.model.doc.is_dirty() && !confirmed {
            self.views.dialogs.ask(Dialog::ConfirmNew);
            return;
        }
        self.model.drop_recovery();
        self.model = self
            .model
            .reopen(crate::model::Document::untitled(), Vec::new());
        self.views.reset(self.model.doc.def());
        self.model.say("new map: save it to choose where it lives");
    }

    /// Leaves an open "What if…", putting the document back as it was
    /// (before the document is replaced or closed: its edits are never
    /// the ones saved or asked about).
    pub(super) fn leave_what_if(&mut self) {
        if self.model.what_if.is_some() {
            crate::model::what_if::leave(&mut self.model, false);
        }
    }

    /// Saves to the document's path, or asks for one. Returns whether the
    /// content was written.
    pub fn save(&mut self) -> bool {
        match self.model.doc.path().map(Path::to_path_buf) {
            Some(path) => self.model.save_to(&path),
            None => {
                self.ask(PathFor::SaveAs);
                false
            }
        }
    }

    /// Exports the pack next to the document (asks for a path when it is
    /// untitled).
    pub fn export(&mut self) {
        match self.model.doc.path().map(|p| p.with_extension("kiaipack")) {
            Some(path) => self.export_to(&path),
            None => self.ask(PathFor::ExportAs),
        }
    }

    /// Asks for a path and exports the pack there.
    pub fn export_as(&mut self) {
        self.ask(PathFor::ExportAs);
    }

    fn export_to(&mut self, path: &Path) {
        match self.model.export_to(path) {
            Ok(bytes) => self
                .model
                .say(format!("exported {} ({bytes} bytes)", path.display())),
            Err(e) => self.model.say(e),
        }
    }

    /// Sets archetype `index`'s script to `path`, relative to the
    /// document's folder when it is inside it.
    fn set_script(&mut self, index: usize, path: &Path) {
        let def = self.model.doc.def();
        let Some((name, old)) = def.archetypes.0.get(index).cloned() else {
            return;
        };
        let relative = relative_to(path, self.model.doc.path().and_then(Path::parent));
        let mut new = old.clone();
        new.script = Some(relative.to_string_lossy().replace('\\', "/"));
        self.model.edit(Edit::Set {
            index,
            old: Item::archetype(name.clone(), old),
            new: Item::archetype(name, new),
        });
    }
}

/// `path` relative to `dir` when `dir` is one of its ancestors or shares
/// an ancestor with it (`../../scripts/guard.lua`), else `path`.
fn relative_to(path: &Path, dir: Option<&Path>) -> PathBuf {
    let (Some(dir), Ok(path_abs)) = (dir, std::path::absolute(path)) else {
        return path.to_path_buf();
    };
    let Ok(dir) = std::path::absolute(dir) else {
        return path.to_path_buf();
    };
    let (a, b): (Vec<_>, Vec<_>) = (dir.components().collect(), path_abs.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return path.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c.as_os_str());
    }
    out
}

fn save_recording(model: &mut Model, path: &Path) {
    let fork = crate::model::what_if::Branch::Fork;
    if model.what_if.as_ref().is_some_and(|w| w.showing == fork) {
        model.say("the map shows the what-if's fork: show the base (in the What if… bar) to save the recorded run");
        return;
    }
    let Some(sim) = &model.sim else {
        model.say("nothing recorded yet: play first");
        return;
    };
    let recording = sim.recording();
    match crate::model::sim::save_recording(path, &recording) {
        Ok(()) => model.say(format!(
            "saved {} to {}",
            crate::model::units::ticks(recording.hashes.len() as u64),
            path.display()
        )),
        Err(e) => model.say(format!("cannot save the recording: {e}")),
    }
}

/// Opens a recorded run: the simulation replays it (checking every state
/// hash) and the timeline spans it.
pub fn open_recording(model: &mut Model, path: &Path) -> Result<(), String> {
    let recording = crate::model::sim::load_recording(path)?;
    let dir = model
        .doc
        .path()
        .and_then(Path::parent)
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let sim = crate::model::sim::Sim::from_recording(&recording, &dir)?;
    model.live_seed = recording.seed;
    model.sim = Some(sim);
    model.say(format!(
        "opened {} ({}); scrub the timeline to replay",
        path.display(),
        crate::model::units::ticks(recording.hashes.len() as u64)
    ));
    Ok(())
}

/// The program that opens a file with the user's chosen application.
pub(super) fn default_opener() -> &'static str {
    if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    }
}

impl EditorApp {
    /// Opens `path` with [`EditorApp::opener`], saying so in the status
    /// bar; when it cannot, says how to open it instead and copies
    /// `path:line` to the clipboard.
    pub(super) fn open_file(&mut self, ctx: &egui::Context, path: &Path, line: Option<u32>) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let at = match line {
            Some(l) => format!("{}:{l}", path.display()),
            None => path.display().to_string(),
        };
        let spawned = std::process::Command::new(&self.opener)
            .arg(&path)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        match spawned {
            Ok(mut child) => {
                self.model.say(format!("opening {at} with {}", self.opener));
                let (tx, rx) = std::sync::mpsc::channel();
                let (opener, shown) = (self.opener.clone(), at.clone());
                std::thread::spawn(move || {
                    if let Ok(status) = child.wait()
                        && !status.success()
                    {
                        let _ = tx.send(format!(
                            "{opener} could not open {shown} ({status}): open it in your editor; \
                             the path is copied"
                        ));
                    }
                });
                self.opened = Some(rx);
            }
            Err(e) => {
                ctx.copy_text(at.clone());
                self.model.say(format!(
                    "cannot open {at}: {} ({e}); open it in your editor — the path is copied",
                    self.opener
                ));
            }
        }
    }

    /// Says what the opener reported when it failed after starting.
    pub(super) fn poll_opener(&mut self) {
        let Some(rx) = &self.opened else { return };
        match rx.try_recv() {
            Ok(message) => {
                self.opened = None;
                self.model.say(message);
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => self.opened = None,
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_named_relative_to_the_content_file() {
        assert_eq!(
            relative_to(
                Path::new("/p/scripts/guard.lua"),
                Some(Path::new("/p/content/demo"))
            ),
            PathBuf::from("../../scripts/guard.lua")
        );
        assert_eq!(
            relative_to(
                Path::new("/p/content/demo/a.lua"),
                Some(Path::new("/p/content/demo"))
            ),
            PathBuf::from("a.lua")
        );
    }
}
