//! The inspector of an archetype's senses: each sense's name, shape and
//! its sizes, filter, occlusion, hysteresis and memory; adding and
//! removing senses.

use eframe::egui::{self, Ui};
use kiai_content::def::{FalloffDef, FilterDef, SenseDef, ShapeDef};

use crate::views::canvas::legend::shape_words;
use crate::views::widgets::{self, Form, form};

/// The senses of archetype `archetype`, editable in place.
pub(crate) fn list(ui: &mut Ui, archetype: usize, senses: &mut Vec<SenseDef>) {
    let mut remove = None;
    for (k, sense) in senses.iter_mut().enumerate() {
        egui::CollapsingHeader::new(format!("{}: {}", sense.name, shape_words(&sense.shape)))
            .id_salt(("sense", archetype, k))
            .default_open(true)
            .show(ui, |ui| {
                form(ui, ("sense-form", archetype, k), |f| fields(f, sense));
                if ui.small_button("Remove this sense").clicked() {
                    remove = Some(k);
                }
            });
    }
    if let Some(k) = remove {
        senses.remove(k);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("add");
        for (label, shape) in [
            ("sphere", ShapeDef::Sphere { radius: 5.0 }),
            (
                "cone",
                ShapeDef::Cone {
                    range: 15.0,
                    fov_deg: 90.0,
                },
            ),
            (
                "sector",
                ShapeDef::Sector {
                    range: 15.0,
                    fov_deg: 90.0,
                    max_height_diff: 2.0,
                },
            ),
            (
                "ellipse",
                ShapeDef::Ellipse {
                    a: 10.0,
                    b: 4.0,
                    center_ahead: 6.0,
                },
            ),
            (
                "hearing",
                ShapeDef::Hearing {
                    threshold: 1.0,
                    falloff: FalloffDef::InverseSquare,
                },
            ),
        ] {
            if ui.small_button(label).clicked() {
                let name =
                    crate::model::ops::unique_name(|n| senses.iter().any(|s| s.name == n), label);
                senses.push(SenseDef {
                    name,
                    shape,
                    filter: FilterDef::All,
                    occluded: false,
                    lose_range: None,
                    memory_ticks: 0,
                });
            }
        }
    });
}

fn fields(f: &mut Form<'_>, sense: &mut SenseDef) {
    f.field(
        "name",
        "Unique within the archetype; scripts ask senses by name",
        |ui| ui.add(widgets::text(&mut sense.name, 140.0)),
    );
    shape(f, &mut sense.shape);
    f.row(
        "reports",
        "Which agents it reports: everyone, hostile factions only, or the others",
        |ui| {
            ui.selectable_value(&mut sense.filter, FilterDef::All, "all");
            ui.selectable_value(&mut sense.filter, FilterDef::Hostile, "hostile");
            ui.selectable_value(&mut sense.filter, FilterDef::Friendly, "friendly");
        },
    );
    f.field(
        "walls hide",
        "Walls hide targets, and the regions' visible sets cull them first",
        |ui| ui.checkbox(&mut sense.occluded, ""),
    );
    f.row("keep until", "Hysteresis: a target sensed last tick stays sensed out to this range, world units, at least the shape's reach (off: none)", |ui| {
        let mut on = sense.lose_range.is_some();
        ui.checkbox(&mut on, "");
        if on {
            let v = sense.lose_range.get_or_insert(0.0);
            ui.add(widgets::distance(v, 0.0..=10_000.0));
        } else {
            sense.lose_range = None;
        }
    });
    f.field(
        "memory",
        "Ticks a target stays remembered after it was last sensed",
        |ui| ui.add(widgets::ticks(&mut sense.memory_ticks)),
    );
}

fn shape(f: &mut Form<'_>, shape: &mut ShapeDef) {
    match shape {
        ShapeDef::Sphere { radius } => {
            f.field(
                "radius",
                "All around: world units, > 0 (or drag the handle)",
                |ui| ui.add(widgets::distance(radius, 0.01..=10_000.0)),
            );
        }
        ShapeDef::Cone { range, fov_deg } => {
            f.field(
                "range",
                "3D view cone: world units, > 0 (or drag the handle at its tip)",
                |ui| ui.add(widgets::distance(range, 0.01..=10_000.0)),
            );
            f.field(
                "angle",
                "Full angle in degrees, 0 to 360 (or drag the handle on its edge)",
                |ui| ui.add(widgets::angle(fov_deg, 1.0..=360.0)),
            );
        }
        ShapeDef::Sector {
            range,
            fov_deg,
            max_height_diff,
        } => {
            f.field("range", "Horizontal range, world units, > 0", |ui| {
                ui.add(widgets::distance(range, 0.01..=10_000.0))
            });
            f.field("angle", "Full angle in degrees, 0 to 360", |ui| {
                ui.add(widgets::angle(fov_deg, 1.0..=360.0))
            });
            f.field(
                "height",
                "Largest height difference, world units, >= 0 (the Elevation tab shows it)",
                |ui| ui.add(widgets::distance(max_height_diff, 0.0..=10_000.0)),
            );
        }
        ShapeDef::Ellipse { a, b, center_ahead } => {
            f.field(
                "length",
                "Semi-major axis along the facing, world units, > 0, >= width",
                |ui| ui.add(widgets::distance(a, 0.01..=10_000.0)),
            );
            f.field("width", "Semi-minor axis, world units, > 0", |ui| {
                ui.add(widgets::distance(b, 0.01..=10_000.0))
            });
            f.field(
                "ahead",
                "Centre's distance ahead of the agent, world units",
                |ui| ui.add(widgets::distance(center_ahead, -10_000.0..=10_000.0)),
            );
        }
        ShapeDef::Hearing { threshold, falloff } => {
            f.field("threshold", "Quietest loudness heard, > 0 (a sound's volume over distance²; the handle's ring is where a volume-100 sound is just heard)", |ui| {
                ui.add(widgets::number(threshold, 0.0001..=1e6, 2))
            });
            f.row("falloff", "How loudness falls with distance: volume / distance² (article 003's code) or linearly to zero at a range (its text)", |ui| {
                let linear = matches!(falloff, FalloffDef::Linear { .. });
                if ui.selectable_label(!linear, "inverse square").clicked() {
                    *falloff = FalloffDef::InverseSquare;
                }
                if ui.selectable_label(linear, "linear").clicked() && !linear {
                    *falloff = FalloffDef::Linear { range: 30.0 };
                }
                if let FalloffDef::Linear { range } = falloff {
                    ui.add(widgets::distance(range, 0.01..=10_000.0));
                }
            });
        }
    }
}
