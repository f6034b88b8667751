//! The inspector: every field of the selected object, labelled before its
//! control, with the unit, range and meaning in the label's tooltip, and
//! the diagnostics about the object right above its fields. Nothing
//! selected: the document's own settings.

mod agent;
mod archetype;
mod document;
mod lod;
mod memory;
mod objects;
mod profile;
mod sense;

use eframe::egui::{RichText, Ui};

use super::{Out, ViewCtx};
use crate::model::{Command, Edit, EditCommand, Item, Sel};

pub use profile::profile_fields;

/// The inspector's own state.
#[derive(Debug, Default)]
pub struct InspectorView;

/// Shows `add` on a copy of `old`; when the copy changed, asks for the
/// edit replacing item `index` (one undo step; a slider dragged is one
/// step).
pub(crate) fn edit<T: Clone + PartialEq>(
    out: &mut Out,
    index: usize,
    old: &T,
    wrap: impl Fn(T) -> Item,
    add: impl FnOnce(&mut T),
) {
    let mut value = old.clone();
    add(&mut value);
    if &value != old {
        out.push(Command::Edit(EditCommand::Apply(Edit::Set {
            index,
            old: wrap(old.clone()),
            new: wrap(value),
        })));
    }
}

impl InspectorView {
    /// Draws the inspector.
    pub fn ui(&mut self, ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
        let m = ctx.model;
        let selection: Vec<Sel> = m.selection.iter().collect();
        match selection.as_slice() {
            [] => {
                ui.label(
                    RichText::new(
                        "Nothing selected. Click an object on the map or in the outliner.",
                    )
                    .weak(),
                );
                ui.separator();
                document::ui(ctx, ui, out);
            }
            [sel] => {
                findings(ctx, *sel, ui);
                single(ctx, *sel, ui, out);
            }
            many => several(ctx, many.len(), ui, out),
        }
    }
}

/// The diagnostics about `sel`, in their colours.
fn findings(ctx: &ViewCtx<'_>, sel: Sel, ui: &mut Ui) {
    let (errors, warnings) = (ctx.palette.status[0], ctx.palette.status[1]);
    for f in &ctx.model.validation.findings.1 {
        if f.target == Some(sel) {
            let colour = if f.diagnostic.is_error() {
                errors
            } else {
                warnings
            };
            ui.label(
                RichText::new(format!(
                    "{} {}",
                    super::icons::WARNING,
                    f.diagnostic.message
                ))
                .color(colour),
            );
        }
    }
}

fn single(ctx: &ViewCtx<'_>, sel: Sel, ui: &mut Ui, out: &mut Out) {
    match sel {
        Sel::Waypoint(i) => objects::waypoint(ctx, i, ui, out),
        Sel::Link(i) => objects::link(ctx, i, ui, out),
        Sel::Wall(i) => objects::wall(ctx, i, ui, out),
        Sel::Region(i) => objects::region(ctx, i, ui, out),
        Sel::Faction(i) => objects::faction(ctx, i, ui, out),
        Sel::Agent(i) => agent::ui(ctx, i, ui, out),
        Sel::Archetype(i) => archetype::ui(ctx, i, ui, out),
        Sel::Profile(i) => profile::ui(ctx, i, ui, out),
    }
}

fn several(ctx: &ViewCtx<'_>, n: usize, ui: &mut Ui, out: &mut Out) {
    ui.heading(format!("{n} objects selected"));
    ui.horizontal_wrapped(|ui| {
        if !ctx.model.selection.waypoints().is_empty() {
            if ui.button("Switch on or off (T)").clicked() {
                out.push(Command::Edit(EditCommand::ToggleActive));
            }
            if ui.button("Auto-connect (J)").clicked() {
                out.push(Command::Edit(EditCommand::AutoConnect));
            }
        }
        if ui.button("Delete (Del)").clicked() {
            out.push(Command::Edit(EditCommand::Delete));
        }
    });
    ui.label(RichText::new("Shift+click adds or removes one object; Esc selects nothing.").weak());
}
