//! The status bar: what the map holds, where the pointer is, the
//! diagnostics, the last message (or the active tool's help), and the
//! frame time while frames flow ("idle" when nothing needs drawing).

use eframe::egui::{self, RichText, Ui};

use super::ViewCtx;
use crate::model::{ops::count, units};

/// How long a status message stays, seconds.
const MESSAGE_SECONDS: f32 = 6.0;

/// Draws the status bar. `cursor`: the world point under the pointer;
/// `frames`: the smoothed frame interval and update time (ms) while frames
/// flow, `None` while idle.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, cursor: Option<(f32, f32)>, frames: Option<(f32, f32)>) {
    let m = ctx.model;
    ui.horizontal(|ui| {
        let def = m.doc.def();
        ui.label(format!(
            "{} · {} · {}",
            count(def.waypoints.len(), "waypoint", "waypoints"),
            count(def.links.len(), "link", "links"),
            count(def.agents.len(), "agent", "agents")
        ));
        ui.separator();
        if let Some((x, z)) = cursor {
            ui.label(units::point(x, z));
            ui.separator();
        }
        let (errors, warnings) = m.validation.counts();
        let colour = if errors > 0 {
            ctx.palette.status[0]
        } else if warnings > 0 {
            ctx.palette.status[1]
        } else {
            ctx.palette.text_weak
        };
        ui.label(
            RichText::new(format!(
                "{}, {}",
                count(errors, "error", "errors"),
                count(warnings, "warning", "warnings")
            ))
            .color(colour),
        );
        ui.separator();
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let readout = match (ctx.screenshot, frames) {
                (true, _) => "frame - ms".to_owned(),
                (false, Some((interval, update))) => {
                    format!("frame {} · update {}", units::ms(interval), units::ms(update))
                }
                (false, None) => "idle".to_owned(),
            };
            ui.label(RichText::new(readout).weak()).on_hover_text(
                "Interval between frames and the editor's own work per frame, smoothed, while frames are drawn one after another",
            );
            ui.separator();
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                match &m.status {
                    Some((message, at)) if at.elapsed().as_secs_f32() < MESSAGE_SECONDS => {
                        ui.add(egui::Label::new(message.clone()).truncate());
                    }
                    _ => {
                        ui.add(egui::Label::new(RichText::new(m.tools.tool.help()).weak()).truncate());
                    }
                }
            });
        });
    });
}
