//! The document's own settings (shown when nothing is selected): name,
//! seed, tick length, bounds, fog of war, perception budget.

use eframe::egui::{RichText, Ui};
use kiai_content::def::{BoundsDef, FogDef, PerceptionBudgetDef};

use crate::model::{Command, Edit, EditCommand, Item};
use crate::views::widgets::{self, form};
use crate::views::{Out, ViewCtx};

/// Draws the document's settings.
pub(crate) fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    ui.heading("Map");
    let (mut name, mut seed, mut tick) = (def.name.clone(), def.seed, def.tick_seconds);
    let mut bounds = def.bounds;
    form(ui, "document", |f| {
        f.row(
            "format",
            "The content format this file is written in",
            |ui| {
                ui.label(def.format.to_string());
            },
        );
        f.field("name", "The map's name", |ui| {
            ui.add(widgets::text(&mut name, 180.0))
        });
        f.field(
            "seed",
            "Seed of every random stream (the transport bar's seed overrides it for a run)",
            |ui| ui.add(eframe::egui::DragValue::new(&mut seed)),
        );
        f.field("tick", "Seconds per tick, > 0", |ui| {
            ui.add(widgets::number(&mut tick, 0.001..=10.0, 3).suffix(" s"))
        });
        let mut on = bounds.is_some();
        f.field(
            "bounds",
            "Agents bounce off this box (off: no bounds)",
            |ui| ui.checkbox(&mut on, ""),
        );
        if on {
            let b = bounds.get_or_insert(BoundsDef {
                min: (-50.0, -10.0, -50.0),
                max: (50.0, 10.0, 50.0),
            });
            f.row("min", "Smallest corner, world units", |ui| {
                widgets::xyz(ui, &mut b.min);
            });
            f.row("max", "Largest corner, world units", |ui| {
                widgets::xyz(ui, &mut b.max);
            });
        } else {
            bounds = None;
        }
    });
    if name != def.name || seed != def.seed || tick != def.tick_seconds {
        out.push(Command::Edit(EditCommand::Apply(Edit::Set {
            index: 0,
            old: Item::Meta(def.name.clone(), def.seed, def.tick_seconds),
            new: Item::Meta(name, seed, tick),
        })));
    }
    if bounds != def.bounds {
        out.push(Command::Edit(EditCommand::Apply(Edit::Set {
            index: 0,
            old: Item::Bounds(def.bounds),
            new: Item::Bounds(bounds),
        })));
    }
    fog_and_budget(ctx, ui, out);
}

fn fog_and_budget(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    let mut fog = def.fog.clone();
    let mut budget = def.perception_budget;
    ui.add_space(6.0);
    ui.label(RichText::new("Fog of war and perception").strong());
    form(ui, "document-fog", |f| {
        let mut on = fog.is_some();
        f.field("fog tiles", "Fog of war: tiles each faction sees and has explored (View -> Layers shows it while playing)", |ui| {
            ui.checkbox(&mut on, "")
        });
        if on {
            let g = fog.get_or_insert(FogDef {
                tile_size: 1.0,
                directions: 16,
                occlusion: false,
                blocking: Vec::new(),
            });
            f.field("tile", "Tile side, world units, > 0", |ui| {
                ui.add(widgets::distance(&mut g.tile_size, 0.01..=100.0))
            });
            f.field(
                "directions",
                "Direction buckets for flashlight sights, 1 to 1024",
                |ui| {
                    ui.add(
                        eframe::egui::DragValue::new(&mut g.directions)
                            .range(1..=1024)
                            .clamp_existing_to_range(false),
                    )
                },
            );
            f.field("shadows", "Blocking tiles cast shadows", |ui| {
                ui.checkbox(&mut g.occlusion, "")
            });
            f.row(
                "blocking",
                "Tiles that block sight (edit them in the file)",
                |ui| {
                    ui.label(g.blocking.len().to_string());
                },
            );
        } else {
            fog = None;
        }
        let mut capped = budget.is_some();
        f.field(
            "ray budget",
            "Cap the occlusion rays per tick (agents beyond it keep last tick's answer)",
            |ui| ui.checkbox(&mut capped, ""),
        );
        if capped {
            let b = budget.get_or_insert(PerceptionBudgetDef {
                max_rays_per_tick: 2000,
            });
            f.field("rays per tick", "At least 1", |ui| {
                ui.add(
                    eframe::egui::DragValue::new(&mut b.max_rays_per_tick)
                        .range(1..=10_000_000)
                        .clamp_existing_to_range(false),
                )
            });
        } else {
            budget = None;
        }
    });
    if fog != def.fog || budget != def.perception_budget {
        out.push(Command::Edit(EditCommand::Apply(Edit::Set {
            index: 0,
            old: Item::Settings(def.fog.clone(), def.perception_budget),
            new: Item::Settings(fog, budget),
        })));
    }
}
