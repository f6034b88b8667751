//! The outliner: every object by collection (only the visible rows are
//! laid out, so 100k waypoints scroll smoothly); click selects, Shift+click
//! adds; buttons add archetypes, profiles and factions.

use eframe::egui::{self, Ui};

use super::{Out, ViewCtx};
use kiai::content::def::ContentDef;

use crate::model::{AddCommand, Command, Model, Sel, SelectCommand, Selection, SettingsCommand};

/// One collection of the outliner.
struct List<'a> {
    title: &'a str,
    n: usize,
    label: &'a dyn Fn(usize) -> String,
    sel: fn(usize) -> Sel,
}

fn list(ui: &mut Ui, l: &List<'_>, selection: &Selection, clicked: &mut Option<Sel>) {
    let row_h = ui.text_style_height(&egui::TextStyle::Body);
    egui::CollapsingHeader::new(format!("{} ({})", l.title, l.n))
        .id_salt(l.title)
        .default_open(l.n > 0 && l.n <= 50)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt(l.title)
                .max_height(240.0)
                .show_rows(ui, row_h, l.n, |ui, rows| {
                    for i in rows {
                        let s = (l.sel)(i);
                        if ui
                            .selectable_label(selection.contains(&s), (l.label)(i))
                            .clicked()
                        {
                            *clicked = Some(s);
                        }
                    }
                });
        });
}

/// Draws the outliner.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let clicked = objects(ctx.model.doc.def(), &ctx.model.selection, ui);
    cost_lists(ctx.model, ui, out);
    if let Some(sel) = clicked {
        if ui.input(|i| i.modifiers.shift) {
            out.push(Command::Select(SelectCommand::Toggle(sel)));
        } else {
            out.push(Command::Select(SelectCommand::Set(vec![sel])));
        }
    }
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        if ui.button("+ archetype").clicked() {
            out.push(Command::Add(AddCommand::Archetype));
        }
        if ui.button("+ profile").clicked() {
            out.push(Command::Add(AddCommand::Profile));
        }
        if ui.button("+ faction").clicked() {
            out.push(Command::Add(AddCommand::Faction));
        }
    });
}

/// Every collection of objects; returns the row clicked, if any.
fn objects(def: &ContentDef, selection: &Selection, ui: &mut Ui) -> Option<Sel> {
    let mut clicked = None;
    let lists: [List<'_>; 8] = [
        List {
            title: "Agents",
            n: def.agents.len(),
            label: &|i| {
                let a = &def.agents[i];
                format!("{} ({}, {})", a.name, a.archetype, a.faction)
            },
            sel: Sel::Agent,
        },
        List {
            title: "Archetypes",
            n: def.archetypes.len(),
            label: &|i| def.archetypes.0[i].0.clone(),
            sel: Sel::Archetype,
        },
        List {
            title: "Profiles",
            n: def.profiles.len(),
            label: &|i| def.profiles.0[i].0.clone(),
            sel: Sel::Profile,
        },
        List {
            title: "Factions",
            n: def.factions.len(),
            label: &|i| def.factions[i].name.clone(),
            sel: Sel::Faction,
        },
        List {
            title: "Waypoints",
            n: def.waypoints.len(),
            label: &|i| {
                let w = &def.waypoints[i];
                let off = if w.active { "" } else { " (inactive)" };
                format!("{} {}{off}", w.id, w.name.as_deref().unwrap_or(""))
            },
            sel: Sel::Waypoint,
        },
        List {
            title: "Links",
            n: def.links.len(),
            label: &|i| {
                let l = &def.links[i];
                format!("{} {} {}", l.from, if l.two_way { "↔" } else { "->" }, l.to)
            },
            sel: Sel::Link,
        },
        List {
            title: "Walls",
            n: def.walls.len(),
            label: &|i| {
                let w = &def.walls[i];
                let door = if w.door { " (door)" } else { "" };
                match &w.name {
                    Some(n) => format!("{n}{door}"),
                    None => format!("wall {i}{door}"),
                }
            },
            sel: Sel::Wall,
        },
        List {
            title: "Regions",
            n: def.regions.len(),
            label: &|i| def.regions[i].name.clone(),
            sel: Sel::Region,
        },
    ];
    for l in &lists {
        list(ui, l, selection, &mut clicked);
    }
    clicked
}

/// The cost lists; a click makes one the current list.
fn cost_lists(m: &Model, ui: &mut Ui, out: &mut Out) {
    let lists = m.doc.cost_list_names();
    let current = m.current_list();
    egui::CollapsingHeader::new(format!("Cost lists ({})", lists.len()))
        .id_salt("Cost lists outliner")
        .default_open(true)
        .show(ui, |ui| {
            for (i, n) in lists.iter().enumerate() {
                if ui
                    .selectable_label(*n == current, n)
                    .on_hover_text("Paint and preview this list")
                    .clicked()
                {
                    let mut tools = m.tools.clone();
                    tools.cost_list = i;
                    out.push(Command::Settings(SettingsCommand::Tools(Box::new(tools))));
                }
            }
        });
}
