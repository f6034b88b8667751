//! The menu bar: File (with Open Recent), Edit, View (overlays, fog of
//! war as a submenu of choices, theme, panels), Run and Help.

use eframe::egui::{self, Button, Ui};

use super::{Out, Pane, PathFor, UiIntent, ViewCtx, icons, layers};
use crate::model::{
    AddCommand, Command, EditCommand, NavGenCommand, RunCommand, SelectCommand, Theme,
    WhatIfCommand,
};

/// Draws the menu bar.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file(ctx, ui, out));
        ui.menu_button("Edit", |ui| edit(ctx, ui, out));
        ui.menu_button("View", |ui| view(ctx, ui, out));
        ui.menu_button("Run", |ui| run(ctx, ui, out));
        ui.menu_button("Help", help);
    });
}

fn item(ui: &mut Ui, text: &str, shortcut: &str) -> bool {
    ui.add(Button::new(text).shortcut_text(shortcut)).clicked()
}

fn file(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let m = ctx.model;
    if item(ui, &format!("{} New", icons::NEW), "Ctrl+N") {
        out.ui(UiIntent::New);
    }
    if item(ui, &format!("{} Open…", icons::OPEN), "Ctrl+O") {
        out.ui(UiIntent::Ask(PathFor::Open));
    }
    ui.add_enabled_ui(!m.recent.0.is_empty(), |ui| {
        ui.menu_button("Open Recent", |ui| {
            for path in &m.recent.0 {
                let missing = !path.exists();
                let label = path.display().to_string();
                let r = ui.add_enabled(!missing, Button::new(label));
                if r.on_disabled_hover_text("The file is gone").clicked() {
                    out.ui(UiIntent::Open(path.clone()));
                }
            }
        });
    });
    if item(ui, &format!("{} Save", icons::SAVE), "Ctrl+S") {
        out.ui(UiIntent::Save);
    }
    if item(ui, "Save as…", "Ctrl+Shift+S") {
        out.ui(UiIntent::Ask(PathFor::SaveAs));
    }
    let export = match m.doc.path().map(|p| p.with_extension("kiaipack")) {
        Some(p) => format!(
            "{} Export {}",
            icons::EXPORT,
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        ),
        None => format!("{} Export pack…", icons::EXPORT),
    };
    if ui
        .add(Button::new(export).shortcut_text("Ctrl+E"))
        .on_hover_text("The validated runtime pack, next to the content file")
        .clicked()
    {
        out.ui(UiIntent::Export);
    }
    if ui.button("Export pack as…").clicked() {
        out.ui(UiIntent::Ask(PathFor::ExportAs));
    }
    ui.separator();
    if ui.button("Save recording…").clicked() {
        out.ui(UiIntent::Ask(PathFor::SaveRecording));
    }
    if ui.button("Open recording…").clicked() {
        out.ui(UiIntent::Ask(PathFor::OpenRecording));
    }
    if ui.button("Open trace (kiai run --trace)…").clicked() {
        out.ui(UiIntent::Ask(PathFor::OpenTrace));
    }
    ui.separator();
    if item(ui, "Quit", "Ctrl+Q") {
        out.ui(UiIntent::Quit);
    }
}

fn edit(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let doc = &ctx.model.doc;
    let undo = Button::new(format!("Undo ({})", doc.undo_len())).shortcut_text("Ctrl+Z");
    if ui.add_enabled(doc.undo_len() > 0, undo).clicked() {
        out.push(Command::Edit(EditCommand::Undo));
    }
    let redo = Button::new(format!("Redo ({})", doc.redo_len())).shortcut_text("Ctrl+Shift+Z");
    if ui.add_enabled(doc.redo_len() > 0, redo).clicked() {
        out.push(Command::Edit(EditCommand::Redo));
    }
    ui.separator();
    for (text, key, command) in [
        (
            "Delete the selection",
            "Del",
            Command::Edit(EditCommand::Delete),
        ),
        (
            "Select every waypoint",
            "Ctrl+A",
            Command::Select(SelectCommand::AllWaypoints),
        ),
        (
            "Switch waypoints on or off",
            "T",
            Command::Edit(EditCommand::ToggleActive),
        ),
        (
            "Auto-connect waypoints",
            "J",
            Command::Edit(EditCommand::AutoConnect),
        ),
    ] {
        if item(ui, text, key) {
            out.push(command);
        }
    }
    if ui
        .button(format!("{} Compute what regions see (PVS)", icons::PVS))
        .clicked()
    {
        out.push(Command::Edit(EditCommand::ComputePvs));
    }
    if ui
        .button("Generate waypoints…")
        .on_hover_text("Generate the waypoint net from the walls and bounds, with a preview")
        .clicked()
    {
        out.push(Command::NavGen(NavGenCommand::Open));
    }
    ui.separator();
    for (text, command) in [
        ("Add an archetype", Command::Add(AddCommand::Archetype)),
        ("Add a profile", Command::Add(AddCommand::Profile)),
        ("Add a faction", Command::Add(AddCommand::Faction)),
    ] {
        if ui.button(text).clicked() {
            out.push(command);
        }
    }
}

fn view(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    if item(ui, &format!("{} Frame everything", icons::FIT), "F") {
        out.ui(UiIntent::Fit);
    }
    if item(ui, "Frame the selection", "Shift+F") {
        out.ui(UiIntent::FitSelection);
    }
    ui.separator();
    layers::switches(ctx, ui, out);
    ui.menu_button("fog of war", |ui| layers::fog(ctx, ui, out));
    ui.separator();
    ui.menu_button(format!("{} Theme", icons::THEME), |ui| {
        for (theme, label) in [(Theme::Dark, "Dark"), (Theme::Light, "Light")] {
            if ui.radio(ctx.palette.theme == theme, label).clicked() {
                out.ui(UiIntent::Theme(theme));
            }
        }
    });
    ui.menu_button("Panels", |ui| {
        for pane in [
            Pane::Inspector,
            Pane::Outliner,
            Pane::Layers,
            Pane::Breakpoints,
            Pane::Why,
            Pane::Console,
            Pane::Timings,
            Pane::Elevation,
            Pane::Validation,
            Pane::Profiles,
            Pane::CostLists,
        ] {
            if ui.button(pane.title()).clicked() {
                out.ui(UiIntent::Focus(pane));
            }
        }
    });
    if ui.button("Reset layout").clicked() {
        out.ui(UiIntent::ResetLayout);
    }
}

fn run(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let playing = ctx.model.sim.as_ref().is_some_and(|s| s.playing);
    let play = if playing { "Pause" } else { "Play" };
    if item(
        ui,
        &format!(
            "{} {play}",
            if playing { icons::PAUSE } else { icons::PLAY }
        ),
        "Space",
    ) {
        out.push(Command::Run(RunCommand::TogglePlay));
    }
    if item(ui, &format!("{} Step one tick", icons::STEP), ".") {
        out.push(Command::Run(RunCommand::Step));
    }
    let event = Button::new(format!(
        "{} To the selected agent's next event",
        icons::STEP_TO_EVENT
    ))
    .shortcut_text("Shift+.");
    if ui
        .add_enabled(ctx.model.selection.agent().is_some(), event)
        .clicked()
    {
        out.push(Command::Run(RunCommand::StepToEvent));
        out.ui(UiIntent::Focus(Pane::Why));
    }
    if item(ui, &format!("{} Reset", icons::RESET), "Ctrl+R") {
        out.push(Command::Run(RunCommand::Reset));
    }
    let why = crate::model::what_if::unavailable(ctx.model.sim.as_ref());
    let open = ctx.model.what_if.is_some();
    if ui
        .add_enabled(why.is_none() && !open, Button::new("What if… at this tick"))
        .on_hover_text("Fork the run here: edit, then run both branches and compare them")
        .on_disabled_hover_text(why.unwrap_or_else(|| "What if… is open".to_owned()))
        .clicked()
    {
        out.push(Command::WhatIf(WhatIfCommand::Open));
    }
    ui.separator();
    if ui
        .button(format!("{} Breakpoints…", icons::BREAKPOINT))
        .clicked()
    {
        out.ui(UiIntent::Focus(Pane::Breakpoints));
    }
}

/// The keys, as a table.
pub const KEYS: &[(&str, &str)] = &[
    (
        "V W L C X R A H",
        "tools: select, waypoint, link, paint cost, wall, region, agent, path",
    ),
    ("wheel", "zoom around the cursor"),
    ("middle or right drag, Space+drag", "pan"),
    ("F / Shift+F", "frame everything / the selection"),
    (
        "right click",
        "what can be done with the object under the pointer",
    ),
    ("Ctrl+Z, Ctrl+Shift+Z", "undo, redo"),
    ("Del", "delete the selection"),
    ("Ctrl+A", "select every waypoint"),
    (
        "T, J, G, M",
        "switch waypoints on/off, auto-connect, snapping, heat map",
    ),
    ("Esc", "cancel what is under way, then select nothing"),
    ("Space, .", "play or pause, one tick"),
    ("Shift+.", "run to the selected agent's next event"),
    ("Ctrl+R", "reset the run"),
    (
        "Ctrl+N, Ctrl+O, Ctrl+S, Ctrl+E",
        "new, open, save, export the pack",
    ),
];

fn help(ui: &mut Ui) {
    egui::Grid::new("keys").num_columns(2).show(ui, |ui| {
        for (keys, does) in KEYS {
            ui.label(egui::RichText::new(*keys).monospace());
            ui.label(*does);
            ui.end_row();
        }
    });
}
