//! The Generate waypoints bar (Edit → Generate waypoints…): agent radius
//! and spacing, what they generate (waypoints, links, coverage; the net is
//! drawn over the map as a preview), and Generate / Cancel. Generate is
//! one undo step.

use eframe::egui::{self, RichText, Ui};

use super::{Out, ViewCtx, widgets};
use crate::model::{Command, EditCommand, NavGenCommand};

/// Draws the bar (nothing while the panel is closed).
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let g = &ctx.model.navgen;
    if !g.open {
        return;
    }
    let (mut radius, mut spacing) = (g.radius, g.spacing);
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Generate waypoints").strong());
        ui.label("agent radius");
        let r = ui.add(widgets::distance(&mut radius, 0.0..=100.0));
        ui.label("spacing");
        let s = ui.add(widgets::distance(&mut spacing, 0.05..=1000.0).speed(0.1));
        if r.changed() || s.changed() {
            out.push(Command::NavGen(NavGenCommand::Params { radius, spacing }));
        }
        let ready = matches!(g.preview(), Some(Ok(_)));
        if ui
            .add_enabled(ready, egui::Button::new("Generate"))
            .on_hover_text(
                "Replace the generated waypoints and links by the preview (Ctrl+Z undoes it)",
            )
            .clicked()
        {
            out.push(Command::Edit(EditCommand::GenerateWaypoints));
        }
        if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            out.push(Command::NavGen(NavGenCommand::Close));
        }
    });
    match g.preview() {
        Some(Ok(p)) => {
            ui.label(format!(
                "preview: {} waypoints ({} by hand), {} links, coverage {:.1}% within {} u, \
                 generated in {}",
                p.net.points.len(),
                p.hand,
                p.net.links.len(),
                p.coverage * 100.0,
                g.spacing,
                if ctx.screenshot {
                    "–".to_owned()
                } else {
                    format!("{:.0} ms", p.seconds * 1e3)
                }
            ));
        }
        Some(Err(why)) => {
            ui.colored_label(ctx.palette.status[0], why);
        }
        None => {}
    }
}
