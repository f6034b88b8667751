//! The Console tab: script errors with `file:line` (click opens the file)
//! and tracebacks, script prints, reloads, and the `lua>` line, which runs
//! Lua in the selected agent's script sandbox (Enter runs it).

use eframe::egui::{self, Key, RichText, Ui};

use super::{Out, UiIntent, ViewCtx};
use crate::model::sim::LineKind;
use crate::model::{Command, ConsoleCommand};

/// The console's own state: the line being typed.
#[derive(Debug, Default)]
pub struct ConsoleView {
    repl: String,
}

impl ConsoleView {
    /// Draws the tab.
    pub fn ui(&mut self, ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
        let m = ctx.model;
        let Some(sim) = &m.sim else {
            ui.label(
                RichText::new("Script errors and prints appear here while the map runs.").weak(),
            );
            return;
        };
        let [error, _, good] = ctx.palette.status;
        ui.horizontal(|ui| {
            if ui
                .button("Reload scripts")
                .on_hover_text("Scripts also reload by themselves when saved")
                .clicked()
            {
                out.push(Command::Console(ConsoleCommand::ReloadScripts));
            }
            if ui.button("Clear").clicked() {
                out.push(Command::Console(ConsoleCommand::Clear));
            }
            if !sim.run().has_scripts() {
                ui.label(RichText::new("(no archetype has a script)").weak());
            }
        });
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false, true])
            .max_height(ui.available_height() - 30.0)
            .show(ui, |ui| {
                for line in sim.console.lines().iter().rev().take(500).rev() {
                    let colour = match line.kind {
                        LineKind::Error => error,
                        LineKind::Log => ctx.palette.text,
                        LineKind::Info => good,
                    };
                    let text = RichText::new(format!("[{}] {}", line.tick, line.text))
                        .color(colour)
                        .monospace();
                    let r = ui.add(egui::Label::new(text).sense(egui::Sense::click()));
                    if !line.traceback.is_empty() {
                        ui.label(RichText::new(&line.traceback).weak().monospace());
                    }
                    if let Some((path, at)) = &line.at
                        && r.on_hover_text(format!("Open {}", path.display()))
                            .clicked()
                    {
                        out.ui(UiIntent::OpenFile(path.clone(), *at));
                    }
                }
            });
        self.repl(ctx, ui, out);
    }

    fn repl(&mut self, ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
        let agent = ctx.model.selection.agent();
        ui.horizontal(|ui| {
            let l = ui.label("lua>");
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut self.repl)
                        .desired_width(f32::INFINITY)
                        .hint_text(
                            "agent:position(), agent:sees(\"eyes\"), agent.memory … (Enter runs)",
                        ),
                )
                .labelled_by(l.id);
            if r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                let code = std::mem::take(&mut self.repl);
                if !code.trim().is_empty() {
                    match agent {
                        Some(a) => {
                            out.push(Command::Console(ConsoleCommand::Eval { agent: a, code }))
                        }
                        None => out.push(Command::Say(
                            "select an agent: the line runs in its script's sandbox".into(),
                        )),
                    }
                }
                r.request_focus();
            }
        });
    }
}
