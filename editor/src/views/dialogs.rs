//! Modal questions: unsaved changes before closing, opening or starting a
//! new map; recovering autosaved changes; and the editor's own path prompt
//! (used when the system has no file dialog): its text starts selected so
//! typing replaces it, Tab completes, and Open refuses a file that does
//! not exist, saying what to do instead.

use std::path::{Path, PathBuf};

use eframe::egui::{self, Key, Modifiers, RichText};

use super::{Out, PathFor, UiIntent, ViewCtx};
use crate::model::files;

/// A modal question on screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    /// Unsaved changes and the window is closing.
    ConfirmClose,
    /// Unsaved changes and another file is about to be opened.
    ConfirmOpen(PathBuf),
    /// Unsaved changes and a new map is about to start.
    ConfirmNew,
    /// A recovery file newer than the document was found at start.
    Recover(PathBuf),
    /// The editor's own file prompt: what it is for and the path typed.
    Path(PathFor, String),
}

/// The dialogs' own state.
#[derive(Debug, Default)]
pub struct DialogsView {
    /// The question on screen.
    pub dialog: Option<Dialog>,
    /// Why the path typed was refused, and the names Tab found.
    prompt: (Option<String>, Vec<String>),
    /// The prompt was just opened: select its text.
    fresh: bool,
}

impl DialogsView {
    /// Asks `dialog`.
    pub fn ask(&mut self, dialog: Dialog) {
        self.prompt = (None, Vec::new());
        self.fresh = matches!(dialog, Dialog::Path(..));
        self.dialog = Some(dialog);
    }

    /// Draws the question, if any.
    pub fn ui(&mut self, ctx: &ViewCtx<'_>, ectx: &egui::Context, out: &mut Out) {
        let Some(dialog) = self.dialog.clone() else {
            return;
        };
        egui::Modal::new(egui::Id::unique("kiai-dialog")).show(ectx, |ui| match dialog {
            Dialog::Path(what, text) => self.path(ctx, ui, what, text, out),
            Dialog::ConfirmClose | Dialog::ConfirmOpen(_) | Dialog::ConfirmNew => {
                ui.heading("Unsaved changes");
                ui.label(format!("Save the changes to {}?", ctx.model.file_name()));
                let then = match &dialog {
                    Dialog::ConfirmClose => UiIntent::CloseNow,
                    Dialog::ConfirmOpen(path) => UiIntent::OpenNow(path.clone()),
                    _ => UiIntent::NewNow,
                };
                ui.horizontal(|ui| {
                    if ui.button("Save").clicked() {
                        self.dialog = None;
                        out.ui(UiIntent::SaveThen(Box::new(then.clone())));
                    }
                    if ui.button("Discard").clicked() {
                        self.dialog = None;
                        out.ui(then.clone());
                    }
                    if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(Key::Escape)) {
                        self.dialog = None;
                    }
                });
            }
            Dialog::Recover(path) => {
                ui.heading("Recover unsaved changes?");
                ui.label(format!(
                    "{} holds changes autosaved after the last save.",
                    path.display()
                ));
                ui.horizontal(|ui| {
                    if ui.button("Recover").clicked() {
                        self.dialog = None;
                        out.ui(UiIntent::Recover(path.clone()));
                    }
                    if ui.button("Discard").clicked() {
                        self.dialog = None;
                        out.ui(UiIntent::DiscardRecovery(path.clone()));
                    }
                });
            }
        });
    }

    fn path(
        &mut self,
        ctx: &ViewCtx<'_>,
        ui: &mut egui::Ui,
        what: PathFor,
        mut text: String,
        out: &mut Out,
    ) {
        let (title, label, ext) = what.describe();
        ui.heading(title);
        ui.label(format!("Path of the {label} file (.{ext}); Tab completes:"));
        let id = egui::Id::unique("kiai-path-prompt");
        let tab = ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Tab));
        if tab {
            let (completed, names) = files::complete(&text, ext);
            text = completed;
            self.prompt = (None, names);
            place_cursor(ui, id, &text, false);
        }
        let edit = ui.add(
            egui::TextEdit::singleline(&mut text)
                .desired_width(520.0)
                .id(id),
        );
        if self.fresh {
            place_cursor(ui, id, &text, true);
            edit.request_focus();
            self.fresh = false;
        } else if !edit.has_focus() && !edit.lost_focus() {
            edit.request_focus();
        }
        if edit.changed() {
            self.prompt.0 = None;
        }
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        if let Some(e) = &self.prompt.0 {
            ui.label(RichText::new(e).color(ctx.palette.status[0]));
        }
        let mut picked = None;
        if self.prompt.1.len() > 1 {
            ui.horizontal_wrapped(|ui| {
                for n in &self.prompt.1 {
                    if ui.small_button(n).clicked() {
                        picked = Some(n.clone());
                    }
                }
            });
        }
        if let Some(n) = picked {
            let dir = match text.rfind(std::path::MAIN_SEPARATOR) {
                Some(i) => text[..=i].to_owned(),
                None => String::new(),
            };
            text = format!("{dir}{n}");
            self.prompt.1.clear();
            place_cursor(ui, id, &text, false);
        }
        let mut done = None;
        ui.horizontal(|ui| {
            if ui.button("OK").clicked() || enter {
                done = Some(true);
            }
            if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(Key::Escape)) {
                done = Some(false);
            }
        });
        let path = PathBuf::from(text.trim());
        match done {
            Some(true) if !text.trim().is_empty() => match check(what, &path) {
                Ok(()) => {
                    self.dialog = None;
                    out.ui(UiIntent::Chosen(what, path));
                }
                Err(e) => {
                    self.prompt.0 = Some(e);
                    self.dialog = Some(Dialog::Path(what, text));
                }
            },
            Some(false) => self.dialog = None,
            _ => self.dialog = Some(Dialog::Path(what, text)),
        }
    }
}

/// Whether the prompt may return `path` for `what`: files to read must
/// exist.
fn check(what: PathFor, path: &Path) -> Result<(), String> {
    if what.saves() {
        Ok(())
    } else {
        files::check_open(path)
    }
}

/// Puts the prompt's cursor after `text`, or selects all of it.
fn place_cursor(ui: &egui::Ui, id: egui::Id, text: &str, select_all: bool) {
    use egui::text::{CCursor, CCursorRange};
    let mut state = egui::TextEdit::load_state(ui.ctx(), id).unwrap_or_default();
    let range = if select_all {
        CCursorRange::select_all_str(text)
    } else {
        CCursorRange::one(CCursor::new(text.chars().count()))
    };
    state.cursor.set_char_range(Some(range));
    state.store(ui.ctx(), id);
}
