//! The Profiles tab: pick a profile, tune it, and see the decisions the
//! runtime's own decider makes with it (sampled), with the legend beside
//! the chart rather than over its bars.

use eframe::egui::{self, RichText, Ui};

use super::inspector::{edit, profile_fields};
use super::widgets::choose;
use super::{Out, ViewCtx};
use crate::model::Item;
use crate::model::analysis;

/// Decision shares per situation and state (see
/// [`analysis::decision_shares`]).
pub type Shares = [[f32; 3]; 3];

/// The tab's own state: which profile, and its sampled decisions.
#[derive(Debug, Default)]
pub struct ProfilesView {
    /// The profile shown (index into `profiles`).
    pub profile: usize,
    shares: Option<((String, String), Shares)>,
}

impl ProfilesView {
    /// Draws the tab.
    pub fn ui(&mut self, ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
        let def = ctx.model.doc.def();
        if def.profiles.is_empty() {
            ui.label(RichText::new("No profiles. Add one in the outliner (+ profile).").weak());
            return;
        }
        self.profile = self.profile.min(def.profiles.len() - 1);
        let names: Vec<String> = def.profiles.0.iter().map(|(n, _)| n.clone()).collect();
        let mut shown = names[self.profile].clone();
        ui.horizontal(|ui| {
            ui.label("profile");
            if choose(ui, "profiles-pick", &mut shown, &names, None).changed()
                && let Some(i) = names.iter().position(|n| *n == shown)
            {
                self.profile = i;
            }
        });
        let index = self.profile;
        let (name, p) = def.profiles.0[index].clone();
        edit(
            out,
            index,
            &(name, p.clone()),
            |(n, p)| Item::profile(n, p),
            |value| {
                profile_fields(ui, ("profiles-tab", index), value);
            },
        );
        let key = (names[index].clone(), format!("{p:?}"));
        if self.shares.as_ref().is_none_or(|(k, _)| *k != key) {
            self.shares = Some((key, analysis::decision_shares(&p, 4000, 7)));
        }
        if let Some((_, shares)) = self.shares {
            chart(ctx, ui, &shares);
        }
    }
}

fn chart(ctx: &ViewCtx<'_>, ui: &mut Ui, shares: &Shares) {
    ui.separator();
    ui.label("Decisions the runtime's decider makes with it (4,000 samples per situation):");
    let colours = [
        ctx.palette.state(0),
        ctx.palette.state(1),
        ctx.palette.state(2),
    ];
    let situations = ["can chase", "can evade", "can both"];
    let states = ["random walk", "chase", "evade"];
    ui.horizontal(|ui| {
        for (k, s) in states.iter().enumerate() {
            let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 2.0, colours[k]);
            ui.label(*s);
        }
    });
    egui_plot::Plot::new("decision-shares")
        .height(190.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(1.05)
        .y_axis_formatter(|mark, _| format!("{:.0} %", mark.value * 100.0))
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && (0.0..3.0).contains(&i) {
                situations[i as usize].to_owned()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            for (k, state) in states.iter().enumerate() {
                let bars = (0..3)
                    .map(|row| {
                        egui_plot::Bar::new(
                            row as f64 + (k as f64 - 1.0) * 0.25,
                            f64::from(shares[row][k]),
                        )
                        .width(0.22)
                    })
                    .collect();
                plot.bar_chart(egui_plot::BarChart::new(*state, bars).color(colours[k]));
            }
        });
    ui.label(format!(
        "When it can do both: chase {:.0} %, evade {:.0} %",
        shares[2][1] * 100.0,
        shares[2][2] * 100.0
    ));
}
