//! kiai-content's diagnostics of the document as you edit: click one to
//! select its object.

use eframe::egui::{self, RichText, Ui};

use super::{Out, ViewCtx};
use crate::model::{Command, SelectCommand};

/// Draws the diagnostics.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let m = ctx.model;
    let v = &m.validation;
    let [error, warning, good] = ctx.palette.status;
    if v.findings.1.is_empty() {
        let text = if v.is_current(m.doc.revision()) {
            "No problems"
        } else {
            "Checking…"
        };
        ui.label(RichText::new(text).color(good));
        return;
    }
    let (errors, warnings) = v.counts();
    ui.label(format!(
        "{} · {}{}",
        crate::model::ops::count(errors, "error", "errors"),
        crate::model::ops::count(warnings, "warning", "warnings"),
        if v.is_current(m.doc.revision()) {
            ""
        } else {
            " (checking…)"
        }
    ));
    // Only the visible rows are laid out: a map can have 100k warnings.
    let row = ui.text_style_height(&egui::TextStyle::Monospace);
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(ui, row, v.findings.1.len(), |ui, rows| {
            for f in &v.findings.1[rows] {
                let colour = if f.diagnostic.is_error() {
                    error
                } else {
                    warning
                };
                let text = RichText::new(f.diagnostic.to_string())
                    .color(colour)
                    .monospace();
                let r = ui.add(egui::Label::new(text).sense(egui::Sense::click()));
                let r = match f.target {
                    Some(t) => r.on_hover_text(format!("Select {t:?}")),
                    None => r,
                };
                if r.clicked() {
                    clicked = f.target;
                }
            }
        });
    if let Some(t) = clicked
        && t.exists(m.doc.def())
    {
        out.push(Command::Select(SelectCommand::Set(vec![t])));
    }
}
