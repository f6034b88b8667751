//! The inspector of a behaviour profile (article 002): chase and evade
//! weights or the article's entries table, how often the profile is used and
//! a contested decision kept, and learning.

use eframe::egui::{self, Ui};
use kiai_content::def::{LearningDef, ProfileDef};

use super::edit;
use crate::model::Item;
use crate::views::widgets::{self, Form, form};
use crate::views::{Out, Pane, UiIntent, ViewCtx};

/// Draws profile `i` (its chart is in the Profiles tab).
pub(crate) fn ui(ctx: &ViewCtx<'_>, i: usize, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    let Some((name, p)) = def.profiles.0.get(i) else {
        return;
    };
    ui.heading(format!("Profile {name}"));
    edit(
        out,
        i,
        &(name.clone(), p.clone()),
        |(n, p)| Item::profile(n, p),
        |value| {
            profile_fields(ui, ("profile", i), value);
        },
    );
    if ui
        .link("See the decisions it makes in the Profiles tab")
        .clicked()
    {
        out.ui(UiIntent::Focus(Pane::Profiles));
    }
}

/// Every field of a profile and its name, in a form with id `id`.
pub fn profile_fields(ui: &mut Ui, id: impl egui::AsIdSalt, (name, p): &mut (String, ProfileDef)) {
    form(ui, id, |f| {
        f.field("name", "Unique; archetypes name their profile", |ui| {
            ui.add(widgets::text(name, 160.0))
        });
        weights(f, p);
        f.field("use profile", "Chance the weights decide when both chase and evade are possible; otherwise the fixed rule: evade beats chase", |ui| {
            ui.add(widgets::percent(&mut p.use_profile))
        });
        f.field(
            "keep decision",
            "Chance to keep the last contested decision instead of drawing again",
            |ui| ui.add(widgets::percent(&mut p.keep_decision)),
        );
        learning(f, p);
    });
}

fn weights(f: &mut Form<'_>, p: &mut ProfileDef) {
    let mut table = p.entries.is_some();
    f.row(
        "weights from",
        "Two weights (chase, evade), or the article's entries table (integers)",
        |ui| {
            ui.selectable_value(&mut table, false, "chase/evade");
            ui.selectable_value(&mut table, true, "entries table");
        },
    );
    if table {
        p.chase = p.chase.filter(|_| p.entries.is_some());
        p.evade = p.evade.filter(|_| p.entries.is_some());
        let entries = p.entries.get_or_insert_with(|| vec![1, 1]);
        let mut text = entries
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let r = f.field(
            "entries",
            "The article's array: comma-separated integers",
            |ui| ui.add(widgets::text(&mut text, 160.0)),
        );
        if r.changed() {
            let parsed: Result<Vec<i64>, _> = text
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::parse)
                .collect();
            if let Ok(v) = parsed {
                *entries = v;
            }
        }
    } else {
        p.entries = None;
        let mut chase = p.chase.unwrap_or(1.0);
        let mut evade = p.evade.unwrap_or(1.0);
        let before = (chase, evade);
        f.field("chase weight", "Relative weight of chasing, >= 0", |ui| {
            ui.add(
                egui::Slider::new(&mut chase, 0.0..=100.0)
                    .logarithmic(true)
                    .smallest_positive(0.01)
                    .max_decimals(2)
                    .clamping(egui::SliderClamping::Edits),
            )
        });
        f.field("evade weight", "Relative weight of evading, >= 0", |ui| {
            ui.add(
                egui::Slider::new(&mut evade, 0.0..=100.0)
                    .logarithmic(true)
                    .smallest_positive(0.01)
                    .max_decimals(2)
                    .clamping(egui::SliderClamping::Edits),
            )
        });
        if (chase, evade) != before {
            p.chase = Some(chase);
            p.evade = Some(evade);
        }
    }
}

fn learning(f: &mut Form<'_>, p: &mut ProfileDef) {
    let mut on = p.learning.is_some();
    f.field("learning", "Weights change with outcomes: a chase that catches raises chase, being caught raises evade", |ui| {
        ui.checkbox(&mut on, "")
    });
    if !on {
        p.learning = None;
        return;
    }
    let l = p.learning.get_or_insert(LearningDef {
        rate: 0.1,
        min_weight: 0.1,
        max_weight: 100.0,
        catch_distance: 1.0,
    });
    f.field("rate", "Weight change per outcome, > 0", |ui| {
        ui.add(widgets::number(&mut l.rate, 0.0001..=100.0, 3))
    });
    f.field("min weight", "Smallest weight, >= 0", |ui| {
        ui.add(widgets::number(&mut l.min_weight, 0.0..=1000.0, 2))
    });
    f.field("max weight", "Largest weight, >= min weight", |ui| {
        ui.add(widgets::number(&mut l.max_weight, 0.0..=10_000.0, 1))
    });
    f.field(
        "catch within",
        "A chase catches its target within this distance, world units, > 0",
        |ui| ui.add(widgets::distance(&mut l.catch_distance, 0.01..=1000.0)),
    );
}
