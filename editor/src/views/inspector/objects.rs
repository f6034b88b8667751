//! The inspector of map objects: waypoints, links, walls (names and
//! doors), regions (corners and what they see) and factions.

use eframe::egui::{self, RichText, Ui};
use kiai_content::def::{FactionDef, LinkDef, RegionDef, WallDef, WaypointDef};

use super::edit;
use crate::model::{Command, Item, Sel, SelectCommand, units};
use crate::views::widgets::{self, form};
use crate::views::{Out, ViewCtx};

/// A waypoint: position, active, name, tags, and its links.
pub(crate) fn waypoint(ctx: &ViewCtx<'_>, i: usize, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    let Some(w) = def.waypoints.get(i) else {
        return;
    };
    ui.heading(format!("Waypoint {}", w.id));
    edit(out, i, w, Item::Waypoint, |w: &mut WaypointDef| {
        form(ui, ("waypoint", i), |f| {
            f.row(
                "id",
                "The waypoint's id in the content (links name it); fixed",
                |ui| {
                    ui.label(w.id.to_string());
                },
            );
            f.row("position", "x, y, z in world units", |ui| {
                widgets::xyz(ui, &mut w.pos);
            });
            f.field(
                "active",
                "Inactive waypoints are never entered (T switches the selection)",
                |ui| ui.checkbox(&mut w.active, ""),
            );
            let mut name = w.name.clone().unwrap_or_default();
            let r = f.field(
                "name",
                "Optional; drawn on the map and findable by scripts",
                |ui| ui.add(widgets::text(&mut name, 180.0)),
            );
            if r.changed() {
                w.name = (!name.trim().is_empty()).then(|| name.trim().to_owned());
            }
            let mut tags = w.tags.join(", ");
            let r = f.field("tags", "Comma-separated words scripts can ask for", |ui| {
                ui.add(widgets::text(&mut tags, 180.0))
            });
            if r.changed() {
                w.tags = tags
                    .split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(str::to_owned)
                    .collect();
            }
        });
    });
    ui.separator();
    ui.label(RichText::new("Links").strong());
    let lists = ctx.model.doc.cost_list_names();
    for (li, l) in def.links.iter().enumerate() {
        if l.from != w.id && l.to != w.id {
            continue;
        }
        let arrow = if l.two_way { "↔" } else { "->" };
        let costs: Vec<String> = lists
            .iter()
            .map(|n| {
                format!(
                    "{n} {}",
                    units::multiplier(l.costs.get(n).copied().unwrap_or(1.0))
                )
            })
            .collect();
        if ui
            .link(format!(
                "{} {arrow} {}   {}",
                l.from,
                l.to,
                costs.join(", ")
            ))
            .on_hover_text("Select this link")
            .clicked()
        {
            out.push(Command::Select(SelectCommand::Set(vec![Sel::Link(li)])));
        }
    }
}

/// A link: direction and the multiplier of its length per cost list.
pub(crate) fn link(ctx: &ViewCtx<'_>, i: usize, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    let Some(l) = def.links.get(i) else { return };
    ui.heading(format!("Link {} -> {}", l.from, l.to));
    let lists = ctx.model.doc.cost_list_names();
    edit(out, i, l, Item::Link, |l: &mut LinkDef| {
        form(ui, ("link", i), |f| {
            f.field("two-way", "Walkable in both directions", |ui| {
                ui.checkbox(&mut l.two_way, "")
            });
            f.heading("Cost multipliers");
            for n in &lists {
                let mut m = l.costs.get(n).copied().unwrap_or(1.0);
                let r = f.field(
                    n,
                    "Multiplier of the link's length for units using this list, >= 0 (1: length only, 0: free)",
                    |ui| {
                        ui.add(
                            egui::DragValue::new(&mut m)
                                .range(0.0..=1000.0)
        .clamp_existing_to_range(false)
                                .speed(0.05)
                                .prefix("×"),
                        )
                    },
                );
                if r.changed() {
                    match l.costs.0.iter_mut().find(|(k, _)| k == n) {
                        Some(entry) => entry.1 = m,
                        None => l.costs.0.push((n.clone(), m)),
                    }
                }
            }
        });
    });
}

/// A wall: its ends, height, name, and whether it is a door and starts
/// open.
pub(crate) fn wall(ctx: &ViewCtx<'_>, i: usize, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    let Some(w) = def.walls.get(i) else { return };
    let title = match &w.name {
        Some(n) => format!("Wall {i} “{n}”"),
        None => format!("Wall {i}"),
    };
    ui.heading(title);
    edit(out, i, w, Item::Wall, |w: &mut WallDef| {
        form(ui, ("wall", i), |f| {
            f.row("from", "One end, world X-Z (or drag it on the map)", |ui| {
                widgets::xz(ui, &mut w.from);
            });
            f.row("to", "The other end, world X-Z", |ui| {
                widgets::xz(ui, &mut w.to);
            });
            f.field(
                "height",
                "World units, > 0: senses look over lower walls",
                |ui| ui.add(widgets::distance(&mut w.height, 0.01..=1000.0)),
            );
            let mut name = w.name.clone().unwrap_or_default();
            let r = f.field(
                "name",
                "Optional; games and events files open doors by name",
                |ui| ui.add(widgets::text(&mut name, 180.0)),
            );
            if r.changed() {
                w.name = (!name.trim().is_empty()).then(|| name.trim().to_owned());
            }
            f.field(
                "door",
                "A door blocks sight and the links it crosses while closed",
                |ui| ui.checkbox(&mut w.door, ""),
            );
            f.field(
                "starts open",
                "Doors only: open when the run starts",
                |ui| ui.add_enabled(w.door, egui::Checkbox::without_text(&mut w.open)),
            );
            if !w.door && w.open {
                w.open = false;
            }
        });
    });
}

/// A region: name, corners and the regions it sees.
pub(crate) fn region(ctx: &ViewCtx<'_>, i: usize, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    let Some(r) = def.regions.get(i) else { return };
    ui.heading(format!("Region {}", r.name));
    let names: Vec<String> = def.regions.iter().map(|r| r.name.clone()).collect();
    edit(out, i, r, Item::Region, |r: &mut RegionDef| {
        form(ui, ("region", i), |f| {
            f.field(
                "name",
                "Unique; other regions' `sees` lists name it",
                |ui| ui.add(widgets::text(&mut r.name, 180.0)),
            );
            let mut remove = None;
            let n = r.polygon.len();
            for (k, corner) in r.polygon.iter_mut().enumerate() {
                f.row(
                    &format!("corner {}", k + 1),
                    "World X-Z (or drag it on the map)",
                    |ui| {
                        widgets::xz(ui, corner);
                        if n > 3
                            && ui
                                .small_button("✖")
                                .on_hover_text("Remove this corner")
                                .clicked()
                        {
                            remove = Some(k);
                        }
                    },
                );
            }
            if let Some(k) = remove {
                r.polygon.remove(k);
            }
        });
        if ui
            .small_button("+ corner")
            .on_hover_text("Add a corner between the last and the first")
            .clicked()
            && let (Some(&a), Some(&b)) = (r.polygon.last(), r.polygon.first())
        {
            r.polygon.push(((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0));
        }
        let mut authored = r.sees.is_some();
        ui.checkbox(&mut authored, "authored `sees` list")
            .on_hover_text(
                "Off: computed by sample rays when the map loads (Edit -> Compute PVS stores them)",
            );
        if authored {
            let mut sees = r.sees.clone().unwrap_or_default();
            for n in &names {
                if *n == r.name {
                    continue;
                }
                let mut on = sees.contains(n);
                if ui.checkbox(&mut on, format!("sees {n}")).changed() {
                    if on {
                        sees.push(n.clone());
                    } else {
                        sees.retain(|x| x != n);
                    }
                }
            }
            r.sees = Some(sees);
        } else {
            r.sees = None;
        }
    });
}

/// A faction: name and the factions it is hostile to.
pub(crate) fn faction(ctx: &ViewCtx<'_>, i: usize, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    let Some(fa) = def.factions.get(i) else {
        return;
    };
    ui.heading(format!("Faction {}", fa.name));
    let names: Vec<String> = def.factions.iter().map(|f| f.name.clone()).collect();
    edit(out, i, fa, Item::Faction, |fa: &mut FactionDef| {
        form(ui, ("faction", i), |f| {
            f.field("name", "Unique; agents name their faction", |ui| {
                ui.add(widgets::text(&mut fa.name, 180.0))
            });
        });
        ui.label(
            RichText::new("Hostile to (one direction: the others decide for themselves)").weak(),
        );
        for n in &names {
            if *n == fa.name {
                continue;
            }
            let mut on = fa.hostile.contains(n);
            if ui.checkbox(&mut on, n.as_str()).changed() {
                if on {
                    fa.hostile.push(n.clone());
                } else {
                    fa.hostile.retain(|x| x != n);
                }
            }
        }
    });
}
