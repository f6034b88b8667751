//! The map's legend, in a strip under the map: what the shapes (factions)
//! and fills (states, or factions while editing) mean, every state agents
//! are in now (script states included), the selected agent's sense
//! colours, the percept lines, the marks for inactive waypoints and start
//! positions, the heat-map scale.

use eframe::egui::{self, Color32, Mesh, Rect, RichText, Sense, Shape, Ui, Vec2};
use kiai_content::def::ShapeDef;

use super::glyph::{self, Glyph};
use crate::model::{Model, Scene, units};
use crate::theme::Palette;
use crate::views::ViewCtx;

/// The legend's own state: folded or not.
#[derive(Debug)]
pub struct LegendView {
    open: bool,
}

impl Default for LegendView {
    fn default() -> Self {
        Self { open: true }
    }
}

/// A swatch: what a row of the legend shows before its text.
enum Swatch {
    Glyph(glyph::Shape, Color32),
    Line(Color32),
    Ring(Color32),
    Square(Color32),
    Fill(Color32),
}

fn swatch(ui: &mut Ui, s: &Swatch, p: &Palette) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(16.0), Sense::hover());
    let c = rect.center();
    let painter = ui.painter();
    match *s {
        Swatch::Glyph(shape, fill) => {
            let mut mesh = Mesh::default();
            glyph::add(
                &mut mesh,
                &Glyph {
                    at: c,
                    r: 5.5,
                    shape,
                    fill,
                    outline: p.outline,
                    facing: None,
                },
            );
            painter.add(Shape::mesh(mesh));
        }
        Swatch::Line(colour) => {
            painter.line_segment([c - Vec2::X * 7.0, c + Vec2::X * 7.0], (2.0, colour));
        }
        Swatch::Ring(colour) => {
            painter.circle_stroke(c, 5.0, (1.6, colour));
        }
        Swatch::Square(colour) => {
            painter.rect_filled(Rect::from_center_size(c, Vec2::splat(6.0)), 0.0, colour);
        }
        Swatch::Fill(colour) => {
            painter.rect_filled(Rect::from_center_size(c, Vec2::splat(12.0)), 2.0, colour);
        }
    }
}

/// Where a group's title waits for the group's first row, so the two
/// wrap together.
fn pending_id() -> egui::Id {
    egui::Id::unique("kiai-legend-group-title")
}

/// The start of a group of rows: its title is drawn with the first row.
fn group(ui: &mut Ui, title: &str) {
    let title = title.to_owned();
    ui.data_mut(|d| d.insert_temp(pending_id(), title));
}

/// A swatch and its text (after its group's title, for a group's first
/// row), sized to fit, so the strip wraps a row that does not fit onto the
/// next line instead of cutting it off.
fn row(ui: &mut Ui, s: Swatch, text: impl Into<String>, p: &Palette) {
    let title: Option<String> = ui.data_mut(|d| d.remove_temp(pending_id()));
    let galley = |ui: &Ui, text: egui::WidgetText| {
        text.into_galley(
            ui,
            Some(egui::TextWrapMode::Extend),
            f32::INFINITY,
            egui::TextStyle::Body,
        )
    };
    let text = galley(ui, text.into().into());
    let title = title.map(|t| galley(ui, RichText::new(t).weak().into()));
    let gap = 4.0;
    let lead = title
        .as_ref()
        .map_or(0.0, |t| 12.0 + t.size().x + 2.0 * gap);
    let size = Vec2::new(lead + 16.0 + gap + text.size().x, text.size().y.max(16.0));
    ui.allocate_ui_with_layout(
        size,
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.spacing_mut().item_spacing.x = gap;
            if let Some(title) = title {
                ui.add_space(4.0);
                let (rect, _) = ui.allocate_exact_size(Vec2::new(1.0, 16.0), Sense::hover());
                ui.painter()
                    .vline(rect.center().x, rect.y_range(), (1.0, p.text_weak));
                ui.add_space(3.0);
                ui.add(egui::Label::new(title).selectable(false));
            }
            swatch(ui, &s, p);
            ui.add(egui::Label::new(text).selectable(false));
        },
    );
}

/// A sense's shape in words: `cone, 45.0 u, 120°`.
pub fn shape_words(shape: &ShapeDef) -> String {
    match *shape {
        ShapeDef::Sphere { radius } => format!("all around, {}", units::distance(radius)),
        ShapeDef::Cone { range, fov_deg } => {
            format!(
                "cone, {}, {}",
                units::distance(range),
                units::angle(fov_deg)
            )
        }
        ShapeDef::Sector {
            range,
            fov_deg,
            max_height_diff,
        } => format!(
            "sector, {}, {}, ±{} in height",
            units::distance(range),
            units::angle(fov_deg),
            units::distance(max_height_diff)
        ),
        ShapeDef::Ellipse { a, b, .. } => format!(
            "ellipse, {} by {}",
            units::distance(2.0 * a),
            units::distance(2.0 * b)
        ),
        ShapeDef::Hearing { threshold, .. } => {
            format!("hearing, from loudness {}", units::loudness(threshold))
        }
    }
}

impl LegendView {
    /// Draws the legend as a strip under the map (it never covers the
    /// map), folded to its title on a click.
    pub fn ui(&mut self, ctx: &ViewCtx<'_>, ui: &mut Ui) {
        let p = ctx.palette;
        egui::Panel::bottom(ui.scope_id().with("kiai-legend"))
            .resizable(false)
            .frame(
                egui::Frame::new()
                    .fill(p.label_back)
                    .inner_margin(egui::Margin::symmetric(8, 4)),
            )
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.spacing_mut().item_spacing = egui::vec2(10.0, 2.0);
                    let title = match ctx.model.scene() {
                        Scene::Live(sim) => format!("Legend · tick {}", sim.tick()),
                        Scene::Start(_) => "Legend · start positions".to_owned(),
                    };
                    let fold = if self.open { "⏷" } else { "⏵" };
                    let toggle = ui.add(
                        egui::Button::new(RichText::new(format!("{fold} {title}")).strong())
                            .frame(false),
                    );
                    if toggle.on_hover_text("Fold or unfold the legend").clicked() {
                        self.open = !self.open;
                    }
                    if self.open {
                        contents(ctx.model, ui, p);
                    }
                });
            });
    }
}

fn contents(model: &Model, ui: &mut Ui, p: &Palette) {
    let scene = model.scene();
    agents(model, scene, ui, p);
    senses(model, scene, ui, p);
    if scene.is_live() {
        run(model, ui, p);
        lod(model, scene, ui, p);
    }
    map(model, ui, p);
}

/// What the agents' fills and shapes mean: their state and faction while
/// the run is shown with states, else their faction.
fn agents(model: &Model, scene: Scene<'_>, ui: &mut Ui, p: &Palette) {
    let def = scene.def();
    if let Scene::Live(sim) = scene
        && model.overlays.states
    {
        group(ui, "fill: what they do");
        let mut present: Vec<usize> = (0..scene.len())
            .filter(|&i| scene.alive(i))
            .filter_map(|i| sim.timeline().state_at(sim.tick(), i))
            .collect();
        present.sort_unstable();
        present.dedup();
        for k in present {
            let name = sim
                .timeline()
                .state_names()
                .get(k)
                .cloned()
                .unwrap_or_default();
            row(ui, Swatch::Fill(p.state(k)), name, p);
        }
        group(ui, "shape: faction");
        for (f, faction) in def.factions.iter().enumerate() {
            row(
                ui,
                Swatch::Glyph(glyph::Shape::of_faction(f), p.text_weak),
                faction.name.clone(),
                p,
            );
        }
    } else {
        group(ui, "factions");
        for (f, faction) in def.factions.iter().enumerate() {
            row(
                ui,
                Swatch::Glyph(glyph::Shape::of_faction(f), p.faction(f)),
                faction.name.clone(),
                p,
            );
        }
    }
}

/// The selected agent's senses, and what is drawn of what it senses.
fn senses(model: &Model, scene: Scene<'_>, ui: &mut Ui, p: &Palette) {
    if let Some(i) = model.selection.agent()
        && let Some((_, archetype)) = scene.archetype(i)
        && !archetype.senses.is_empty()
    {
        group(ui, &format!("senses of {}", scene.name(i)));
        for (k, sense) in archetype.senses.iter().enumerate() {
            row(
                ui,
                Swatch::Line(p.sense(k)),
                format!("{}: {}", sense.name, shape_words(&sense.shape)),
                p,
            );
        }
        if model.tools.show_sight {
            row(ui, Swatch::Ring(p.sensed), "sensed now", p);
        }
        if scene.is_live() && model.overlays.percepts {
            row(ui, Swatch::Line(p.percept_heard), "sound it hears", p);
            row(ui, Swatch::Ring(p.percept_memory), "remembered position", p);
        }
    }
}

/// The run's overlays that are on.
fn run(model: &Model, ui: &mut Ui, p: &Palette) {
    let o = &model.overlays;
    let rows = [
        (
            // Crowds show the selected agent's only.
            o.start_positions && (!super::is_crowd(model) || model.selection.agent().is_some()),
            Swatch::Ring(p.start_ghost),
            "where agents started (dashed: to where it is)",
        ),
        (
            o.sounds,
            Swatch::Ring(p.sound),
            "a sound this tick (ring: how far)",
        ),
        (o.paths, Swatch::Line(p.route), "waypoint route"),
        (o.bodies, Swatch::Ring(p.body), "body (its radius)"),
        (
            o.avoidance,
            Swatch::Line(p.velocity_preferred),
            "velocity it wanted",
        ),
        (
            o.avoidance,
            Swatch::Line(p.velocity_chosen),
            "velocity avoidance chose",
        ),
        (o.smoothed, Swatch::Line(p.route_smooth), "smoothed route"),
    ];
    let mut first = true;
    for (on, swatch, text) in rows {
        if on {
            if first {
                group(ui, "run");
                first = false;
            }
            row(ui, swatch, text, p);
        }
    }
}

/// The LOD tiers layer: each tier's ring colour and period, how a held
/// decision looks, and the points of interest.
fn lod(model: &Model, scene: Scene<'_>, ui: &mut Ui, p: &Palette) {
    let Scene::Live(sim) = scene else { return };
    let rows = super::layers::tiers::legend_rows(sim.world());
    if !model.overlays.lod_tiers || rows.is_empty() {
        return;
    }
    group(ui, "LOD tiers");
    for (colour, text) in rows {
        row(ui, Swatch::Ring(colour), text, p);
    }
    row(ui, Swatch::Ring(p.text_weak), "thin ring: decision held", p);
    let cross = super::layers::tiers::INTEREST;
    row(ui, Swatch::Line(cross), "point of interest (a cross)", p);
}

/// The map's own marks: inactive waypoints, picked routes, costs.
fn map(model: &Model, ui: &mut Ui, p: &Palette) {
    if model.doc.def().waypoints.iter().any(|w| !w.active) {
        group(ui, "waypoints");
        row(ui, Swatch::Square(p.waypoint), "waypoint", p);
        row(
            ui,
            Swatch::Ring(p.waypoint_inactive),
            "inactive waypoint",
            p,
        );
    }
    if model.tools.path_pick.0.is_some() {
        group(ui, "routes");
        row(ui, Swatch::Line(p.path_astar), "A* route", p);
        row(
            ui,
            Swatch::Line(p.path_greedy),
            "article 001 greedy walk",
            p,
        );
    }
    if model.tools.heat_map && model.doc.def().links.iter().any(|l| !l.costs.0.is_empty()) {
        group(ui, &format!("cost in `{}`", model.current_list()));
        for m in [0.25, 1.0, 2.0, 4.0, 8.0] {
            row(ui, Swatch::Line(p.heat(m)), units::multiplier(m), p);
        }
    }
}
