//! The tool bar: file actions, the canvas tools (icon and name), snapping,
//! and the options of the active tool, each labelled before its control.

use eframe::egui::{self, RichText, Ui};

use super::widgets::{self, choose};
use super::{Out, UiIntent, ViewCtx, icons};
use crate::model::{Command, EditCommand, SettingsCommand, Tool};

/// Draws the tool bar.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let m = ctx.model;
    let mut tools = m.tools.clone();
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        file_buttons(ui, out);
        ui.separator();
        for tool in Tool::ALL {
            let text = format!("{} {}", icons::tool(tool), tool.label());
            let r = ui
                .selectable_label(tools.tool == tool, text)
                .on_hover_text(format!("{} ({})", tool.help(), tool.key_name()));
            if r.clicked() {
                tools.tool = tool;
            }
        }
        ui.separator();
        ui.toggle_value(&mut tools.snap, format!("{} Snap", icons::SNAP))
            .on_hover_text("Snap placed and dragged points to the grid (G)");
        ui.label("grid");
        ui.add(widgets::distance(&mut tools.grid_step, 0.01..=1000.0))
            .on_hover_text("Grid spacing, world units (0.01 to 1000)");
        ui.separator();
        tool_options(ctx, &mut tools, ui, out);
    });
    if tools != m.tools {
        out.push(Command::Settings(SettingsCommand::Tools(Box::new(tools))));
    }
}

fn file_buttons(ui: &mut Ui, out: &mut Out) {
    if ui
        .button(icons::NEW)
        .on_hover_text("New map (Ctrl+N)")
        .clicked()
    {
        out.ui(UiIntent::New);
    }
    if ui
        .button(icons::OPEN)
        .on_hover_text("Open a map (Ctrl+O)")
        .clicked()
    {
        out.ui(UiIntent::Ask(super::PathFor::Open));
    }
    if ui
        .button(icons::SAVE)
        .on_hover_text("Save, keeping the file's comments and layout (Ctrl+S)")
        .clicked()
    {
        out.ui(UiIntent::Save);
    }
    if ui
        .button(icons::EXPORT)
        .on_hover_text("Export the runtime pack next to the map (Ctrl+E)")
        .clicked()
    {
        out.ui(UiIntent::Export);
    }
}

fn tool_options(
    ctx: &ViewCtx<'_>,
    tools: &mut crate::model::ToolSettings,
    ui: &mut Ui,
    out: &mut Out,
) {
    let m = ctx.model;
    match tools.tool {
        Tool::Link | Tool::Waypoint | Tool::Select => {
            if tools.tool == Tool::Link {
                ui.checkbox(&mut tools.two_way, "two-way")
                    .on_hover_text("New links go both ways");
            }
            ui.label("range");
            ui.add(widgets::distance(&mut tools.connect_range, 0.1..=10_000.0))
                .on_hover_text("Auto-connect links waypoints closer than this, world units");
            if ui
                .button(format!("{} Auto-connect", icons::CONNECT))
                .on_hover_text("Link the selected waypoints (all when none is selected) within range that walls do not separate (J)")
                .clicked()
            {
                out.push(Command::Edit(EditCommand::AutoConnect));
            }
        }
        Tool::Paint | Tool::Path => {
            ui.label("cost list");
            let names = m.doc.cost_list_names();
            let mut list = m.current_list();
            if choose(ui, "toolbar-cost-list", &mut list, &names, None).changed()
                && let Some(i) = names.iter().position(|n| *n == list)
            {
                tools.cost_list = i;
            }
            if tools.tool == Tool::Paint {
                ui.label("multiplier");
                ui.add(
                    egui::DragValue::new(&mut tools.brush_value)
                        .range(0.0..=100.0)
        .clamp_existing_to_range(false)
                        .speed(0.05)
                        .prefix("×"),
                )
                .on_hover_text(
                    "Multiplier of the link's length painted into the list (0 = free, 1 = length only). The default, ×5, makes a link dearer than going around it.",
                );
                ui.label("brush");
                ui.add(
                    egui::DragValue::new(&mut tools.brush_radius)
                        .range(4.0..=120.0)
                        .clamp_existing_to_range(false)
                        .speed(0.5)
                        .suffix(" px"),
                )
                .on_hover_text("Brush radius on screen, points (4 to 120)");
            }
            ui.toggle_value(&mut tools.heat_map, format!("{} Heat map", icons::HEAT))
                .on_hover_text("Colour links by the current list's multiplier (M)");
        }
        Tool::Agent => {
            let def = m.doc.def();
            let archetypes: Vec<String> = def.archetypes.0.iter().map(|(n, _)| n.clone()).collect();
            let factions: Vec<String> = def.factions.iter().map(|f| f.name.clone()).collect();
            ui.label("archetype");
            choose(
                ui,
                "toolbar-archetype",
                &mut tools.place_archetype,
                &archetypes,
                None,
            );
            ui.label("faction");
            choose(
                ui,
                "toolbar-faction",
                &mut tools.place_faction,
                &factions,
                None,
            );
            if archetypes.is_empty() {
                ui.label(
                    RichText::new("(a `guard` archetype and a faction come with the first agent)")
                        .weak(),
                );
            }
        }
        Tool::Wall | Tool::Region => {
            if ui
                .button(format!("{} Compute PVS", icons::PVS))
                .on_hover_text(
                    "Cast sample rays between regions against the walls and store what each sees",
                )
                .clicked()
            {
                out.push(Command::Edit(EditCommand::ComputePvs));
            }
        }
    }
}
