//! The Breakpoints tab: the run pauses when a chosen agent (or any agent
//! of an archetype) changes decision, starts or stops sensing someone,
//! hears a sound, receives a message, its script fails, or a key of its
//! script's memory changes. The Why tab
//! says which breakpoint stopped it and why.

use std::collections::BTreeSet;

use eframe::egui::{self, RichText, Ui};

use super::widgets::choose;
use super::{Out, ViewCtx, icons};
use crate::model::breakpoints::{Breakpoint, Trigger, Who};
use crate::model::{BreakpointCommand, Command};

/// The tab's own state: the breakpoint being written.
#[derive(Debug)]
pub struct BreakpointsView {
    archetype: bool,
    name: String,
    on: BTreeSet<Trigger>,
    /// A memory key to watch (empty: none).
    memory: String,
}

impl Default for BreakpointsView {
    fn default() -> Self {
        Self {
            archetype: false,
            name: String::new(),
            on: [Trigger::Decision].into_iter().collect(),
            memory: String::new(),
        }
    }
}

impl BreakpointsView {
    /// Draws the tab.
    pub fn ui(&mut self, ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
        let m = ctx.model;
        if m.breakpoints.0.is_empty() {
            ui.label(
                RichText::new("No breakpoints. Add one below, or right-click an agent on the map.")
                    .weak(),
            );
        }
        for (i, b) in m.breakpoints.0.iter().enumerate() {
            ui.horizontal(|ui| {
                let mut on = b.enabled;
                if ui
                    .checkbox(&mut on, format!("{} {}", icons::BREAKPOINT, b.describe()))
                    .changed()
                {
                    let mut changed = b.clone();
                    changed.enabled = on;
                    out.push(Command::Breakpoint(BreakpointCommand::Set(i, changed)));
                }
                if ui.small_button("✖").on_hover_text("Remove").clicked() {
                    out.push(Command::Breakpoint(BreakpointCommand::Remove(i)));
                }
            });
        }
        ui.separator();
        self.editor(ctx, ui, out);
    }

    fn editor(&mut self, ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
        let m = ctx.model;
        let scene = m.scene();
        if self.name.is_empty()
            && let Some(i) = m.selection.agent()
        {
            self.name = scene.name(i).to_owned();
        }
        ui.label(RichText::new("New breakpoint").strong());
        ui.horizontal(|ui| {
            ui.label("pause when");
            ui.selectable_value(&mut self.archetype, false, "the agent");
            ui.selectable_value(&mut self.archetype, true, "any agent of");
            let options: Vec<String> = if self.archetype {
                m.doc
                    .def()
                    .archetypes
                    .0
                    .iter()
                    .map(|(n, _)| n.clone())
                    .collect()
            } else {
                (0..scene.len())
                    .filter(|&i| scene.alive(i))
                    .map(|i| scene.name(i).to_owned())
                    .collect()
            };
            choose(ui, "breakpoint-who", &mut self.name, &options, None);
        });
        ui.horizontal_wrapped(|ui| {
            for t in Trigger::ALL {
                let mut on = self.on.contains(&t);
                if ui.checkbox(&mut on, t.label()).changed() {
                    if on {
                        self.on.insert(t);
                    } else {
                        self.on.remove(&t);
                    }
                }
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("memory key changes");
            ui.add(super::widgets::text(&mut self.memory, 120.0).hint_text("alert"))
                .labelled_by(l.id)
                .on_hover_text(
                    "A key of the script's agent.memory (scripted agents): the run pauses when \
                     its value changes",
                );
        });
        let key = self.memory.trim().to_owned();
        let ready = !self.name.is_empty() && (!self.on.is_empty() || !key.is_empty());
        if ui
            .add_enabled(
                ready,
                egui::Button::new(format!("{} Add breakpoint", icons::BREAKPOINT)),
            )
            .clicked()
        {
            let who = if self.archetype {
                Who::Archetype(self.name.clone())
            } else {
                Who::Agent(self.name.clone())
            };
            let mut b = Breakpoint::new(who, self.on.iter().copied());
            b.memory = (!key.is_empty()).then_some(key);
            out.push(Command::Breakpoint(BreakpointCommand::Add(b)));
        }
    }
}
