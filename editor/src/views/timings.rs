//! The Timings tab: milliseconds per stage of the last ticks, plotted
//! with a labelled millisecond axis.

use eframe::egui::{RichText, Ui};

use super::{Out, ViewCtx};
use crate::model::units;

/// Draws the tab.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, _out: &mut Out) {
    let Some(sim) = &ctx.model.sim else {
        ui.label(RichText::new("Stage timings appear while the map runs.").weak());
        return;
    };
    let names = ["sense", "decide", "steer", "integrate", "fog"];
    if let Some((_, last)) = sim.timings.back() {
        let text: Vec<String> = names
            .iter()
            .zip(last)
            .map(|(n, v)| format!("{n} {}", units::ms(*v)))
            .collect();
        ui.label(RichText::new(text.join(" · ")).monospace());
    }
    let top = sim
        .timings
        .iter()
        .flat_map(|(_, ms)| ms.iter().copied())
        .fold(0.01f32, f32::max);
    egui_plot::Plot::new("stage-timings")
        .legend(egui_plot::Legend::default().position(egui_plot::Corner::LeftTop))
        .y_axis_label("ms per tick")
        .x_axis_label("tick")
        .include_y(0.0)
        .include_y(f64::from(top) * 1.25)
        .y_grid_spacer(egui_plot::uniform_grid_spacer(move |_| {
            let s = nice_step(f64::from(top) / 4.0);
            [s, s * 5.0, s * 10.0]
        }))
        .y_axis_formatter(|mark, _| units::ms(mark.value as f32))
        .allow_scroll(false)
        .show(ui, |plot| {
            for (k, n) in names.iter().enumerate() {
                let points: Vec<[f64; 2]> = sim
                    .timings
                    .iter()
                    .map(|(t, ms)| [*t as f64, f64::from(ms[k])])
                    .collect();
                plot.line(
                    egui_plot::Line::new(*n, egui_plot::PlotPoints::from(points))
                        .color(ctx.palette.timings[k]),
                );
            }
        });
}

/// A step of the form 1, 2 or 5 × 10^k at least `x` (x > 0).
fn nice_step(x: f64) -> f64 {
    let x = x.max(1e-6);
    let base = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * base)
        .find(|s| *s >= x)
        .unwrap_or(base * 10.0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn steps_are_one_two_or_five() {
        assert_eq!(super::nice_step(0.3), 0.5);
        assert_eq!(super::nice_step(1.2), 2.0);
        assert_eq!(super::nice_step(7.0), 10.0);
    }
}
