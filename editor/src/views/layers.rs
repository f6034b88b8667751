//! The Layers tab (and the View menu): what the map draws: while editing,
//! the cost heat map and what the selected agent senses; while the run
//! plays, states, senses, percepts, routes, steering, missiles, sounds,
//! where agents started, bodies, the velocities avoidance changed,
//! smoothed routes, tick level of detail tiers, and the fog of war for a
//! faction or all.

use eframe::egui::{RichText, Ui};

use super::{Out, ViewCtx};
use crate::model::{Command, Overlays, SettingsCommand};

/// The switches, for the tab and the View menu.
pub fn switches(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let m = ctx.model;
    let mut tools = m.tools.clone();
    ui.label(RichText::new("Editing").strong());
    ui.checkbox(&mut tools.heat_map, "Cost heat map of the current list (M)");
    ui.checkbox(
        &mut tools.show_sight,
        "What the selected agent senses (shaded)",
    );
    if tools != m.tools {
        out.push(Command::Settings(SettingsCommand::Tools(Box::new(tools))));
    }
    let mut o = m.overlays.clone();
    ui.checkbox(&mut o.labels, "Names of agents and waypoints");
    ui.add_space(4.0);
    ui.label(RichText::new("While the run plays").strong());
    ui.checkbox(
        &mut o.states,
        "Fill agents by what they do (else by faction)",
    );
    ui.checkbox(&mut o.senses_all, "Senses of every agent");
    ui.checkbox(
        &mut o.percepts,
        "The selected agent's percepts (seen, heard, remembered)",
    );
    ui.checkbox(&mut o.paths, "Routes and next waypoints");
    ui.checkbox(&mut o.steering, "Velocity vectors");
    ui.checkbox(&mut o.bodies, "Bodies: a circle of each agent's radius")
        .on_hover_text("The archetype's radius in world units, drawn over the agent's glyph");
    ui.checkbox(&mut o.avoidance, "Avoidance: wanted and chosen velocity")
        .on_hover_text(
            "Where avoidance changed an agent's velocity: the one steering asked for and the one avoidance chose, as arrows one second of travel long",
        );
    ui.checkbox(&mut o.smoothed, "Smoothed routes of waypoint walkers")
        .on_hover_text(
            "Walkers with smooth: the straight way to the point they head for, else to their next waypoint and along their route",
        );
    ui.checkbox(&mut o.missiles, "Missiles: heading and line to the target");
    ui.checkbox(&mut o.sounds, "This tick's sounds");
    ui.checkbox(&mut o.start_positions, "Where agents started");
    ui.checkbox(&mut o.lod_tiers, "LOD tiers: a ring in each agent's tier colour")
        .on_hover_text(
            "Tick level of detail (archetypes with lod tiers): thick rings thought this tick, thin ones hold an earlier decision; crosses mark the points of interest",
        );
    if o != m.overlays {
        out.push(Command::Settings(SettingsCommand::Overlays(o)));
    }
}

/// The fog-of-war choices as radio buttons (a combo box would close the
/// View menu on click).
pub fn fog(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let m = ctx.model;
    let mut o: Overlays = m.overlays.clone();
    ui.radio_value(&mut o.fog, None, "off");
    ui.radio_value(&mut o.fog, Some(None), "spectator")
        .on_hover_text("What any faction sees or has explored");
    for (i, f) in m.doc.def().factions.iter().enumerate().take(32) {
        ui.radio_value(&mut o.fog, Some(Some(i as u8)), f.name.as_str());
    }
    if m.doc.def().fog.is_none() {
        ui.label(
            RichText::new("(this map has no fog of war: turn it on in the map's settings)").weak(),
        );
    }
    if o != m.overlays {
        out.push(Command::Settings(SettingsCommand::Overlays(o)));
    }
}

/// Draws the tab.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    switches(ctx, ui, out);
    ui.add_space(4.0);
    ui.label(RichText::new("Fog of war").strong());
    fog(ctx, ui, out);
}
