//! The inspector of an agent: where it is now and what it senses now
//! (while the run is past tick 0: the run's own state, read-only), its
//! start (name, archetype, faction, position, facing: edits apply at the
//! next reset), and its archetype.

use eframe::egui::{RichText, Ui};
use kiai_content::def::{AgentDef, ContentDef};

use super::edit;
use crate::model::{Item, Scene, units};
use crate::views::widgets::{self, choose, form};
use crate::views::{Out, ViewCtx};

/// Draws agent `i` (its slot in the run, its index in the document).
pub(crate) fn ui(ctx: &ViewCtx<'_>, i: usize, ui: &mut Ui, out: &mut Out) {
    let m = ctx.model;
    let scene = m.scene();
    let name = scene.name(i).to_owned();
    ui.heading(format!("Agent {name}"));
    if let Scene::Live(sim) = scene {
        now(ctx, sim, i, ui);
        ui.separator();
    }
    if let Some(memory) = m.memory().filter(|mem| mem.agent == i) {
        super::memory::ui(ctx, memory, &name, ui, out);
        ui.separator();
    }
    let def = m.doc.def();
    let Some(a) = def.agents.get(i) else {
        ui.label(
            RichText::new("Spawned by a script during the run: it has no start in the map.").weak(),
        );
        return;
    };
    let title = match &m.what_if {
        Some(w) => format!(
            "Start (What if…: a new position or facing puts it there at tick {})",
            w.at
        ),
        None if scene.is_live() => "Start (edits apply when you reset, Ctrl+R)".to_owned(),
        None => "Start".to_owned(),
    };
    ui.label(RichText::new(title).strong());
    start_form(def, i, a, ui, out);
    if let Some(sight) = m.sight().filter(|_| !scene.is_live()) {
        let names: Vec<&str> = sight
            .agents
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.is_empty())
            .map(|(j, _)| def.agents[j].name.as_str())
            .collect();
        ui.label(format!(
            "senses at the start: {}",
            if names.is_empty() {
                "nobody".to_owned()
            } else {
                names.join(", ")
            }
        ));
    }
    if let Some(ai) = def.archetypes.position(&a.archetype) {
        ui.separator();
        super::archetype::ui(ctx, ai, ui, out);
    }
}

/// The form of agent `i`'s start, `a` (its entry in `def`).
fn start_form(def: &ContentDef, i: usize, a: &AgentDef, ui: &mut Ui, out: &mut Out) {
    let archetypes: Vec<String> = def.archetypes.0.iter().map(|(n, _)| n.clone()).collect();
    let factions: Vec<String> = def.factions.iter().map(|f| f.name.clone()).collect();
    edit(out, i, a, Item::Agent, |a: &mut AgentDef| {
        form(ui, ("agent", i), |f| {
            f.field(
                "name",
                "Unique among agents; scripts and traces name it",
                |ui| ui.add(widgets::text(&mut a.name, 180.0)),
            );
            f.field("archetype", "What it senses and how it moves", |ui| {
                choose(
                    ui,
                    ("agent-archetype", i),
                    &mut a.archetype,
                    &archetypes,
                    None,
                )
            });
            f.field(
                "faction",
                "Whose side it is on (its shape on the map)",
                |ui| choose(ui, ("agent-faction", i), &mut a.faction, &factions, None),
            );
            f.row(
                "position",
                "Where it starts: x, y, z in world units (or drag it on the map)",
                |ui| {
                    widgets::xyz(ui, &mut a.pos);
                },
            );
            let mut angle = a.facing.2.atan2(a.facing.0).to_degrees();
            let changed = f
                .field(
                    "facing",
                    "Degrees from +X toward +Z; or drag the facing handle",
                    |ui| ui.add(widgets::angle(&mut angle, -180.0..=180.0)),
                )
                .changed();
            if changed {
                let r = angle.to_radians();
                let h = (a.facing.0 * a.facing.0 + a.facing.2 * a.facing.2)
                    .sqrt()
                    .max(1e-3);
                a.facing = (r.cos() * h, a.facing.1, r.sin() * h);
            }
            let mut on = a.goal.is_some();
            let r = f.field(
                "goal",
                "A standing goal: where it walks whenever it has nothing to chase or evade (off: none)",
                |ui| ui.checkbox(&mut on, ""),
            );
            if r.changed() {
                a.goal = on.then_some(a.pos);
            }
            if let Some(goal) = &mut a.goal {
                f.row("goal at", "The goal: x, y, z in world units", |ui| {
                    widgets::xyz(ui, goal);
                });
            }
            f.field(
                "point of interest",
                "Agents of archetypes with LOD tiers near it think more often (the player)",
                |ui| ui.checkbox(&mut a.interest, ""),
            );
        });
    });
}

/// The run's view of agent `i` now.
fn now(ctx: &ViewCtx<'_>, sim: &crate::model::sim::Sim, i: usize, ui: &mut Ui) {
    let world = sim.world();
    let agents = world.agents();
    ui.label(RichText::new(format!("Now (tick {})", sim.tick())).strong());
    if !agents.alive().get(i).copied().unwrap_or(false) {
        ui.label(RichText::new("It has left the world.").weak());
        return;
    }
    let scene = ctx.model.scene();
    let p = scene.pos(i);
    let f = scene.facing(i);
    let v = scene.velocity(i);
    let target = agents.decisions()[i]
        .target
        .and_then(|t| agents.names().get(t.index()).cloned());
    form(ui, ("agent-now", i), |form| {
        form.row("position", "Where the run has it now, world units", |ui| {
            ui.label(units::position(p.x, p.y, p.z));
        });
        form.row("facing", "Degrees from +X toward +Z", |ui| {
            ui.label(units::angle(f.z.atan2(f.x).to_degrees()));
        });
        form.row("speed", "World units per second", |ui| {
            ui.label(units::speed(v.length()));
        });
        form.row(
            "doing",
            "Its state now (a script's label, or the runtime's)",
            |ui| {
                let state = sim.run().state_name(i);
                ui.label(match target {
                    Some(t) => format!("{state} {t}"),
                    None => state,
                });
            },
        );
    });
    let sensed: Vec<String> = ctx
        .model
        .sight()
        .map(|s| {
            s.agents
                .iter()
                .enumerate()
                .filter(|(_, v)| !v.is_empty())
                .map(|(j, _)| agents.names()[j].clone())
                .collect()
        })
        .unwrap_or_default();
    if let Some(lod) = crate::views::lod::inspector_words(world, i) {
        ui.label(lod);
    }
    ui.label(format!(
        "senses now: {}",
        if sensed.is_empty() {
            "nobody".to_owned()
        } else {
            sensed.join(", ")
        }
    ));
}
