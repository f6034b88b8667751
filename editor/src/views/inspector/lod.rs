//! The archetype's tick level of detail in its inspector: on or off, and
//! each tier's distance, period and avoidance, nearest first; tiers are
//! added before the last and removed anywhere (the last always takes every
//! farther agent).

use eframe::egui::{DragValue, Ui};
use kiai_content::def::{ArchetypeDef, LodTierDef};
use kiai_core::{MAX_LOD_PERIOD, MAX_LOD_TIERS};

use crate::views::widgets::{self, Form};

/// The tiers a new level of detail starts with: every tick within 50
/// world units, every 4th within 150, every 16th farther.
fn first_tiers() -> Vec<LodTierDef> {
    let tier = |within, every| LodTierDef {
        within,
        every,
        avoidance: true,
    };
    vec![tier(Some(50.0), 1), tier(Some(150.0), 4), tier(None, 16)]
}

/// The "tick LOD" switch and one row per tier.
pub(super) fn tiers(f: &mut Form<'_>, a: &mut ArchetypeDef) {
    let mut on = !a.lod.is_empty();
    let r = f.field(
        "tick LOD",
        "Tick level of detail: agents far from every point of interest (the player, agents marked as points of interest) sense and decide less often, staggered, and keep moving on their last decision (off: every tick)",
        |ui| ui.checkbox(&mut on, ""),
    );
    if r.changed() {
        a.lod = if on { first_tiers() } else { Vec::new() };
    }
    let n = a.lod.len();
    let mut remove = None;
    for (k, t) in a.lod.iter_mut().enumerate() {
        f.row(
            &format!("tier {k}"),
            "Agents at most this far from the nearest point of interest, world units (the last tier: every farther agent), think every this many ticks, 1 to 1024; untick avoid to turn local avoidance off in this tier",
            |ui| {
                tier_row(ui, t);
                if n > 1 && ui.small_button("−").on_hover_text("Remove this tier").clicked() {
                    remove = Some(k);
                }
            },
        );
    }
    if let Some(k) = remove {
        a.lod.remove(k);
        if let Some(last) = a.lod.last_mut() {
            last.within = None;
        }
    }
    if on && a.lod.len() < MAX_LOD_TIERS {
        f.row("", "", |ui| {
            if ui
                .small_button("+ tier")
                .on_hover_text("A tier before the last")
                .clicked()
            {
                add_tier(&mut a.lod);
            }
        });
    }
}

/// One tier's values in a row.
fn tier_row(ui: &mut Ui, t: &mut LodTierDef) {
    match &mut t.within {
        Some(w) => {
            ui.label("within");
            ui.add(widgets::distance(w, 0.01..=1.0e6));
        }
        None => {
            ui.label("farther");
        }
    }
    ui.label("every");
    ui.add(
        DragValue::new(&mut t.every)
            .range(1..=MAX_LOD_PERIOD)
            .clamp_existing_to_range(false)
            .speed(0.1)
            .suffix(" ticks"),
    );
    ui.checkbox(&mut t.avoidance, "avoid");
}

/// A tier before the last, beyond the one before it: twice its distance
/// (or 50 world units) and its period doubled.
fn add_tier(tiers: &mut Vec<LodTierDef>) {
    let at = tiers.len().saturating_sub(1);
    let before = at.checked_sub(1).and_then(|k| tiers.get(k)).copied();
    let within = before.and_then(|t| t.within).map_or(50.0, |w| w * 2.0);
    let every = before.map_or(1, |t| (t.every * 2).min(MAX_LOD_PERIOD));
    tiers.insert(
        at,
        LodTierDef {
            within: Some(within),
            every,
            avoidance: true,
        },
    );
}
