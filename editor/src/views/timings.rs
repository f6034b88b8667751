//! The Timings tab: milliseconds per stage (and the tick's upkeep, its
//! work outside the stages) of the last ticks, plotted with a labelled
//! millisecond axis, the worst tick named above the plot and the whole
//! tick's median and 99th percentile beside its mean (a game feels the
//! worst tick, not the mean).

use eframe::egui::{RichText, Ui};

use super::{Out, ViewCtx};
use crate::model::sim::StageMs;
use crate::model::units;

/// Draws the tab.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, _out: &mut Out) {
    let Some(sim) = &ctx.model.sim else {
        ui.label(RichText::new("Stage timings appear while the map runs.").weak());
        return;
    };
    let names = crate::model::sim::timed_names();
    if let Some(line) = worst_tick(&sim.timings) {
        ui.label(RichText::new(line).strong());
    }
    if let Some(line) = tick_spread(&sim.timings) {
        ui.label(RichText::new(line).monospace());
    }
    // The last tick's figures and each stage's worst, in its line's
    // colour: the plot's legend, outside the plot so it never covers a
    // line.
    if let Some((_, last)) = sim.timings.back() {
        ui.horizontal_wrapped(|ui| {
            for (k, (n, v)) in names.iter().zip(last).enumerate() {
                // The upkeep's line is dashed: so is its mark.
                let mark = if k == names.len() - 1 { "╍" } else { "━" };
                let max = sim
                    .timings
                    .iter()
                    .map(|(_, ms)| ms[k])
                    .fold(0.0f32, f32::max);
                ui.label(
                    RichText::new(format!(
                        "{mark} {n} {} (max {})",
                        units::ms(*v),
                        units::ms(max)
                    ))
                    .monospace()
                    .color(ctx.palette.timings[k]),
                );
            }
        });
    }
    let top = sim
        .timings
        .iter()
        .flat_map(|(_, ms)| ms.iter().copied())
        .fold(0.01f32, f32::max);
    egui_plot::Plot::new("stage-timings")
        .y_axis_label("ms per tick")
        .x_axis_label("tick")
        .include_y(0.0)
        .include_y(f64::from(top) * 1.25)
        .y_grid_spacer(egui_plot::uniform_grid_spacer(move |_| {
            let s = nice_step(f64::from(top) / 4.0);
            [s, s * 5.0, s * 10.0]
        }))
        .y_axis_formatter(|mark, _| {
            if mark.value.abs() < 1e-9 {
                "0 ms".to_owned()
            } else {
                units::ms(mark.value as f32)
            }
        })
        .allow_scroll(false)
        .show(ui, |plot| {
            for (k, n) in names.iter().enumerate() {
                let points: Vec<[f64; 2]> = sim
                    .timings
                    .iter()
                    .map(|(t, ms)| [*t as f64, f64::from(ms[k])])
                    .collect();
                let line = egui_plot::Line::new(*n, egui_plot::PlotPoints::from(points))
                    .color(ctx.palette.timings[k]);
                // The upkeep, last, dashed: its colour is close to the
                // sense line's.
                plot.line(if k == names.len() - 1 {
                    line.style(egui_plot::LineStyle::dashed_loose())
                } else {
                    line
                });
            }
        });
}

/// The slowest tick of those kept (the stages' and the upkeep's sum) and
/// when it was:
/// `"worst tick 12.3 ms at tick 1 (of the last 600; now 1.1 ms)"`.
pub fn worst_tick(timings: &std::collections::VecDeque<(u64, StageMs)>) -> Option<String> {
    let total = |ms: &StageMs| ms.iter().sum::<f32>();
    let (tick, worst) = timings.iter().map(|(t, ms)| (*t, total(ms))).fold(
        None,
        |best: Option<(u64, f32)>, (t, ms)| match best {
            Some((_, b)) if b >= ms => best,
            _ => Some((t, ms)),
        },
    )?;
    let now = timings.back().map_or(0.0, |(_, ms)| total(ms));
    Some(format!(
        "worst tick {} at tick {tick} (of the last {}; now {})",
        units::ms(worst),
        timings.len(),
        units::ms(now)
    ))
}

/// The whole tick's median, 99th percentile and mean over the ticks kept:
/// `"p50 1.0 ms, p99 5.2 ms, mean 1.1 ms (whole tick)"`, as `kiai run`
/// reports them.
pub fn tick_spread(timings: &std::collections::VecDeque<(u64, StageMs)>) -> Option<String> {
    if timings.is_empty() {
        return None;
    }
    let totals: Vec<f64> = timings
        .iter()
        .map(|(_, ms)| f64::from(ms.iter().sum::<f32>()))
        .collect();
    let s = kiai_core::Spread::of(&totals);
    let ms = |v: f64| units::ms(v as f32);
    Some(format!(
        "p50 {}, p99 {}, mean {} (whole tick)",
        ms(s.p50),
        ms(s.p99),
        ms(s.mean)
    ))
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
