//! The Elevation tab: heights over x, the selected agent's sector height
//! limits, missiles' pitch.

use eframe::egui::{self, RichText};

use super::{Out, ViewCtx};

/// Draws the tab.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut egui::Ui, _out: &mut Out) {
    let selected = ctx.model.selection.agent();
    let (positions, velocities, senses) = match &ctx.model.sim {
        Some(sim) => {
            let w = sim.world();
            let senses = selected.and_then(|i| {
                let a = w.agents().archetypes().get(i)?;
                Some((
                    w.agents().positions()[i],
                    w.archetypes()[a.index()].senses.clone(),
                ))
            });
            (
                w.agents().positions().to_vec(),
                w.agents().velocities().to_vec(),
                senses,
            )
        }
        None => {
            let def = ctx.model.doc.def();
            let p = def
                .agents
                .iter()
                .map(|a| kiai_core::glam::Vec3::new(a.pos.0, a.pos.1, a.pos.2))
                .collect();
            (p, Vec::new(), None)
        }
    };
    ui.label(
        RichText::new(
            "Height (y) over x. Selected agent: its sector height limits; missiles: their pitch.",
        )
        .weak(),
    );
    egui_plot::Plot::new("elevation")
        .data_aspect(1.0)
        .x_axis_label("x (world units)")
        .y_axis_label("height")
        .show(ui, |plot| {
            let pts: Vec<[f64; 2]> = positions.iter().map(|p| [p.x as f64, p.y as f64]).collect();
            plot.points(egui_plot::Points::new("agents", pts).radius(2.5));
            for (p, v) in positions.iter().zip(&velocities) {
                if v.y.abs() > 1e-3 {
                    let tip = *p + *v;
                    plot.line(
                        egui_plot::Line::new(
                            "pitch",
                            egui_plot::PlotPoints::from(vec![
                                [p.x as f64, p.y as f64],
                                [tip.x as f64, tip.y as f64],
                            ]),
                        )
                        .color(ctx.palette.missile[0]),
                    );
                }
            }
            if let Some((eye, senses)) = &senses {
                for sense in senses {
                    if let kiai_core::Shape::Sector {
                        range,
                        max_height_diff,
                        ..
                    } = sense.shape
                    {
                        for dy in [max_height_diff, -max_height_diff] {
                            plot.line(
                                egui_plot::Line::new(
                                    format!("{} height limit", sense.name),
                                    egui_plot::PlotPoints::from(vec![
                                        [(eye.x - range) as f64, (eye.y + dy) as f64],
                                        [(eye.x + range) as f64, (eye.y + dy) as f64],
                                    ]),
                                )
                                .color(ctx.palette.sense(0)),
                            );
                        }
                    }
                }
                plot.points(
                    egui_plot::Points::new("selected", vec![[eye.x as f64, eye.y as f64]])
                        .radius(5.0)
                        .color(ctx.palette.selected),
                );
            }
        });
}
