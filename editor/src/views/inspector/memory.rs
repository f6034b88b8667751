//! The inspector's Memory section: what a scripted agent keeps in
//! `agent.memory`, as a tree read each tick (and at the tick scrubbed to),
//! the keys changed since the tick read before highlighted; each
//! top-level key can pause the run when it changes.

use eframe::egui::{self, RichText, Ui};

use crate::model::breakpoints::{Breakpoint, Who};
use crate::model::memory::Memory;
use crate::model::{BreakpointCommand, Command};
use crate::views::{Out, ViewCtx, icons};

/// Draws the memory of agent `name`.
pub(super) fn ui(ctx: &ViewCtx<'_>, memory: &Memory, name: &str, ui: &mut Ui, out: &mut Out) {
    egui::CollapsingHeader::new(RichText::new(format!("Memory (tick {})", memory.tick)).strong())
        .id_salt("agent-memory")
        .default_open(true)
        .show(ui, |ui| {
            if let Some(e) = &memory.error {
                ui.label(RichText::new(format!("cannot read agent.memory: {e}")).weak());
                return;
            }
            if memory.entries.is_empty() {
                ui.label(RichText::new("agent.memory is empty").weak());
                return;
            }
            let watched: Vec<&str> = ctx
                .model
                .breakpoints
                .0
                .iter()
                .filter(|b| b.who == Who::Agent(name.to_owned()))
                .filter_map(|b| b.memory.as_deref())
                .collect();
            for e in &memory.entries {
                ui.horizontal(|ui| {
                    ui.add_space(14.0 * e.depth as f32);
                    let changed = memory.changed.contains(&e.path);
                    let mut text = RichText::new(format!("{} = {}", e.key, e.value)).monospace();
                    if changed {
                        text = text
                            .color(ctx.palette.status[1])
                            .background_color(ctx.palette.label_back);
                    }
                    let r = ui.label(text);
                    if changed {
                        r.on_hover_text("Changed since the tick read before");
                    }
                    if e.depth == 0 && !watched.contains(&e.key.as_str()) {
                        let pause = ui
                            .small_button(icons::BREAKPOINT)
                            .on_hover_text(format!("Pause the run when `{}` changes", e.key));
                        if pause.clicked() {
                            out.push(Command::Breakpoint(BreakpointCommand::Add(
                                Breakpoint::on_memory(Who::Agent(name.to_owned()), e.key.clone()),
                            )));
                        }
                    }
                });
            }
        });
}
