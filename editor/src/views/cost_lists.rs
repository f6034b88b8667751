//! The Cost lists tab: pick the list painted and previewed, add one (the
//! name field empties after Add; Enter adds), rename or delete the current
//! one; the heat map and the route preview of the path tool.

use eframe::egui::{self, Key, RichText, Ui};

use super::{Out, ViewCtx};
use crate::model::{Command, EditCommand, SettingsCommand};

/// The tab's own state: the name being typed.
#[derive(Debug, Default)]
pub struct CostListsView {
    name: String,
    opened: super::widgets::Opened,
}

impl CostListsView {
    /// Draws the tab.
    pub fn ui(&mut self, ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
        let m = ctx.model;
        let opened = self.opened.now(ui);
        let names = m.doc.cost_list_names();
        let declared = !m.doc.def().cost_lists.is_empty();
        let current = m.current_list();
        for (i, n) in names.iter().enumerate() {
            if ui.radio(*n == current, n).clicked() {
                let mut tools = m.tools.clone();
                tools.cost_list = i;
                out.push(Command::Settings(SettingsCommand::Tools(Box::new(tools))));
            }
        }
        let mut heat = m.tools.heat_map;
        if ui
            .checkbox(&mut heat, "heat map of the current list (M)")
            .changed()
        {
            let mut tools = m.tools.clone();
            tools.heat_map = heat;
            out.push(Command::Settings(SettingsCommand::Tools(Box::new(tools))));
        }
        ui.add_space(4.0);
        let name = self.name.trim().to_owned();
        let valid = !name.is_empty() && !names.contains(&name);
        ui.horizontal(|ui| {
            let l = ui.label("list");
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut self.name)
                        .desired_width(140.0)
                        .hint_text("new list name"),
                )
                .labelled_by(l.id);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            // The field takes the keyboard as the tab opens, and keeps it
            // after Enter: the next name can be typed at once.
            if opened || enter {
                field.request_focus();
            }
            let add = ui
                .add_enabled(valid, egui::Button::new("Add"))
                .on_hover_text("A new cost list (Enter in the field); it becomes the current one");
            if (add.clicked() || enter) && valid {
                out.push(Command::Edit(EditCommand::AddCostList(name.clone())));
                self.name.clear();
            }
            if ui
                .add_enabled(valid && declared, egui::Button::new("Rename"))
                .on_hover_text(format!("Renames `{current}` and every reference to it"))
                .clicked()
            {
                out.push(Command::Edit(EditCommand::RenameCostList(name.clone())));
                self.name.clear();
            }
        });
        if ui
            .add_enabled(
                declared && names.len() > 1,
                egui::Button::new(format!("Delete `{current}`")),
            )
            .clicked()
        {
            out.push(Command::Edit(EditCommand::DeleteCostList));
        }
        ui.separator();
        route(ctx, ui, &current);
    }
}

fn route(ctx: &ViewCtx<'_>, ui: &mut Ui, list: &str) {
    ui.label(RichText::new("Route preview").strong());
    ui.label(RichText::new("Path tool (H): click a start and a goal waypoint.").weak());
    let Some(p) = ctx.model.path_preview() else {
        return;
    };
    if let Some(e) = &p.error {
        ui.label(e);
    }
    match p.astar_cost {
        Some(c) => {
            ui.label(
                RichText::new(format!(
                    "A* ({list}): cost {c:.2}, {}",
                    crate::model::ops::count(p.astar.len(), "waypoint", "waypoints")
                ))
                .color(ctx.palette.path_astar),
            );
        }
        None => {
            ui.label("A*: no route");
        }
    }
    ui.label(
        RichText::new(format!(
            "greedy walk: {}, {}",
            crate::model::ops::count(p.greedy.len(), "waypoint", "waypoints"),
            if p.greedy_arrived { "arrives" } else { "stuck" }
        ))
        .color(ctx.palette.path_greedy),
    );
}
