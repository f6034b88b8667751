//! The map: a top-down X-Z view in an [`egui::Scene`]. The wheel zooms
//! around the cursor; the middle or right button, or Space with the left
//! one, pans; F frames everything with a margin. The layers ([`layers`])
//! draw the document or the run ([`crate::model::Scene`]), labels are
//! placed afterwards without overlaps ([`labels`]), a legend explains the
//! colours and shapes ([`legend`]), objects have tooltips and right-click
//! menus ([`menu`]), and the tools ([`gesture`]) turn clicks and drags
//! into commands.

pub mod gesture;
pub mod glyph;
pub mod handles;
pub mod labels;
pub mod layers;
pub mod legend;
pub mod menu;
pub mod paint;
pub mod pick;
mod raster;

use eframe::egui::{self, Pos2, Rect, Sense, Vec2, emath::TSTransform};
use kiai_content::def::ContentDef;

use self::gesture::{Drag, Gesture, Input};
use self::labels::{LabelStyle, Labels};
use self::layers::live::FogTexture;
use self::layers::network::{Geometry, Network};
use self::layers::preview::Feedback;
use self::paint::{Paint, to_scene, to_world};
use super::{Out, ViewCtx};
use crate::model::{Model, Sel, Tool};

pub use self::handles::{Handle, HandleKind, handles};

/// Pick radius around the pointer, screen points.
const PICK: f32 = 8.0;

/// The map's view state.
pub struct CanvasView {
    scene_rect: Rect,
    to_screen: TSTransform,
    fit: Option<Rect>,
    cursor: Option<Pos2>,
    /// The tools' gesture under way.
    pub gesture: Gesture,
    /// The labels drawn in the last frame: screen rectangle and text.
    pub drawn_labels: Vec<(Rect, String)>,
    geometry: Option<Geometry>,
    layer: raster::MapLayer,
    fog: FogTexture,
    /// The press under way began while a menu or popup was open: it closes
    /// the popup and does nothing on the map.
    swallow: bool,
    popup_was_open: bool,
    /// Space is held (Space+drag pans) and whether it panned.
    pub space: (bool, bool),
    menu: menu::MenuState,
    legend: legend::LegendView,
    rect: Rect,
    /// Whether the last press was on the map (it has the keyboard).
    pressed_here: bool,
    /// The scene rectangle last framed (F, a fit at open), while nobody
    /// panned or zoomed since: a resize frames it again.
    framed: Option<Rect>,
    /// The window's size in the last frame.
    window: egui::Vec2,
}

impl CanvasView {
    /// A view framing everything in `def`.
    pub fn fit(def: &ContentDef) -> Self {
        let rect = fit_rect(def);
        Self {
            scene_rect: rect,
            to_screen: TSTransform::IDENTITY,
            fit: Some(rect),
            cursor: None,
            gesture: Gesture::default(),
            drawn_labels: Vec::new(),
            geometry: None,
            layer: raster::MapLayer::default(),
            fog: None,
            swallow: false,
            popup_was_open: false,
            space: (false, false),
            menu: menu::MenuState::default(),
            legend: legend::LegendView::default(),
            rect: Rect::NOTHING,
            pressed_here: true,
            framed: None,
            window: egui::Vec2::ZERO,
        }
    }

    /// Frames everything on the next frame.
    pub fn request_fit(&mut self) {
        self.fit = Some(Rect::NOTHING);
    }

    /// Frames world rectangle `(min x, min z)`-`(max x, max z)` on the
    /// next frame, with a margin.
    pub fn request_frame(&mut self, min: (f32, f32), max: (f32, f32)) {
        let r = Rect::from_two_pos(to_scene(min.0, min.1), to_scene(max.0, max.1));
        self.fit = Some(with_margin(r));
    }

    /// The world `(x, z)` under the cursor, if it is over the canvas.
    pub fn cursor_world(&self) -> Option<(f32, f32)> {
        self.cursor.map(to_world)
    }

    /// Where world `(x, z)` was on screen in the last frame.
    pub fn world_to_screen(&self, x: f32, z: f32) -> Pos2 {
        self.to_screen * to_scene(x, z)
    }

    /// The map's area on screen in the last frame.
    pub fn map_rect(&self) -> Rect {
        self.rect
    }

    /// Screen points per world unit in the last frame.
    pub fn zoom(&self) -> f32 {
        self.to_screen.scaling
    }

    /// Draws the map and runs the active tool.
    pub fn ui(&mut self, ctx: &ViewCtx<'_>, ui: &mut egui::Ui, out: &mut Out) {
        let model = ctx.model;
        let fitted = self.fit.take().map(|fit| {
            self.scene_rect = if fit.is_positive() {
                fit
            } else {
                fit_rect(model.doc.def())
            };
            self.framed = Some(self.scene_rect);
        });
        self.legend.ui(ctx, ui);
        let rect = ui.available_rect_before_wrap();
        let window = ui.ctx().content_rect().size();
        let resized = std::mem::replace(&mut self.window, window) != window;
        if fitted.is_none() {
            self.keep_scale(rect, resized);
        }
        self.rect = rect;
        self.forget_frame(ui);
        let press = ui.input(|i| {
            i.pointer
                .any_pressed()
                .then(|| i.pointer.interact_pos())
                .flatten()
        });
        if let Some(p) = press {
            self.pressed_here = rect.contains(p);
        }
        self.space_pan(ui);
        let mut scene_rect = self.scene_rect;
        let mut labels = Labels::default();
        let scene = egui::Scene::new()
            .zoom_range(0.01..=400.0)
            .scroll_zooms(true)
            .drag_pan_buttons(egui::containers::DragPanButtons::MIDDLE);
        let mut response = None;
        scene.show(ui, &mut scene_rect, |ui| {
            let to_screen = ui
                .ctx()
                .layer_transform_to_global(ui.layer_id())
                .unwrap_or(TSTransform::IDENTITY);
            self.to_screen = to_screen;
            let visible = ui.clip_rect();
            let r = ui.interact(
                visible,
                ui.scope_id().with("kiai-canvas"),
                Sense::click_and_drag(),
            );
            let pointer = ui
                .ctx()
                .input(|i| i.pointer.latest_pos())
                .map(|p| to_screen.inverse() * p);
            self.cursor = pointer.filter(|p| visible.contains(*p) && r.contains_pointer());
            let px = 1.0 / to_screen.scaling.max(1e-6);
            self.input(model, ui, &r, pointer, px, out);
            let mut p = Paint {
                painter: ui.painter(),
                to_screen,
                visible,
                px,
                palette: ctx.palette,
                labels: &mut labels,
            };
            self.draw(model, &mut p);
            response = Some(r);
        });
        self.scene_rect = scene_rect;
        if let Some(r) = response {
            self.menu
                .ui(ctx, &r, self.cursor, PICK / self.zoom().max(1e-6), out);
        }
        self.draw_labels(ui, labels, ctx);
        self.popup_was_open = egui::Popup::is_any_open(ui.ctx());
    }

    /// Whether the map has the keyboard: the pointer is over it, or the
    /// last press was on it (before any, it has). Single-letter shortcuts
    /// act only then, so letters typed in a panel stay there.
    pub fn has_keys(&self, ctx: &egui::Context) -> bool {
        let over = ctx
            .input(|i| i.pointer.hover_pos())
            .is_some_and(|p| self.rect.contains(p));
        over || self.pressed_here
    }

    /// When the map's rectangle changes size (the legend strip grows by a
    /// line when an agent is selected, a panel or the window is resized):
    /// after a window resize (`resized`) or a jump in size (a new layout)
    /// a view still as framed is framed again; otherwise the zoom and the world point at the top-left
    /// corner stay, so nothing under the pointer moves, in the middle of a
    /// drag or otherwise.
    fn keep_scale(&mut self, rect: Rect, resized: bool) {
        let scale = self.to_screen.scaling;
        if !self.rect.is_positive()
            || !rect.is_positive()
            || scale <= 0.0
            || (rect.size() - self.rect.size()).length() < 0.5
        {
            return;
        }
        // A line more of legend keeps the scale; a window resized or the
        // layout changed frames again.
        let jump = (rect.size() - self.rect.size()).abs().max_elem() > 40.0;
        if let Some(framed) = self.framed.filter(|_| resized || jump) {
            self.scene_rect = framed;
            return;
        }
        let min = self.to_screen.inverse() * rect.min;
        self.scene_rect = Rect::from_min_size(min, rect.size() / scale);
    }

    /// Forgets the framed rectangle once the view is panned or zoomed
    /// over the map (wheel, pinch, the middle or right button, Space).
    fn forget_frame(&mut self, ui: &egui::Ui) {
        let over = ui
            .input(|i| i.pointer.hover_pos())
            .is_some_and(|p| self.rect.contains(p));
        let moved = ui.input(|i| {
            i.smooth_scroll_delta != egui::Vec2::ZERO
                || i.zoom_delta() != 1.0
                || i.pointer.middle_down()
                || i.pointer.secondary_down()
        });
        if (over && moved) || self.space.1 {
            self.framed = None;
        }
    }

    /// Space held with the primary button pans.
    fn space_pan(&mut self, ui: &egui::Ui) {
        let (space, delta, primary) = ui.input(|i| {
            (
                i.key_down(egui::Key::Space),
                i.pointer.delta(),
                i.pointer.primary_down(),
            )
        });
        if !space {
            self.space = (false, false);
            return;
        }
        if !self.space.0 {
            self.space = (true, false);
        }
        let over = ui
            .input(|i| i.pointer.latest_pos())
            .is_some_and(|p| self.rect.contains(p));
        if primary && over && delta != Vec2::ZERO {
            let scale = self.to_screen.scaling.max(1e-6);
            self.scene_rect = self.scene_rect.translate(-delta / scale);
            self.space.1 = true;
        }
    }

    fn input(
        &mut self,
        model: &Model,
        ui: &egui::Ui,
        r: &egui::Response,
        pointer: Option<Pos2>,
        px: f32,
        out: &mut Out,
    ) {
        let (pressed, any_down) = ui.input(|i| (i.pointer.any_pressed(), i.pointer.any_down()));
        if pressed && self.popup_was_open {
            self.swallow = true;
        }
        if self.swallow {
            if !any_down && !pressed {
                self.swallow = false;
            }
            return;
        }
        if self.space.0 {
            return;
        }
        // Panning with the right button (the middle one pans in the scene).
        if r.dragged_by(egui::PointerButton::Secondary) {
            let delta = ui.input(|i| i.pointer.delta()) * px;
            self.scene_rect = self.scene_rect.translate(-delta);
            return;
        }
        let Some(at) = pointer else { return };
        let shift = ui.input(|i| i.modifiers.shift);
        let i = Input {
            model,
            at,
            pick_r: PICK * px,
            shift,
            zoom: 1.0 / px,
        };
        if r.clicked() {
            gesture::click(&mut self.gesture, &i, out);
        }
        if model.tools.tool == Tool::Region
            && (r.double_clicked()
                || (r.contains_pointer() && ui.input(|k| k.key_pressed(egui::Key::Enter))))
        {
            gesture::close_region(&mut self.gesture, out);
        }
        if r.drag_started_by(egui::PointerButton::Primary) {
            let origin = ui
                .input(|k| k.pointer.press_origin())
                .map_or(at, |o| self.to_screen.inverse() * o);
            gesture::start(&mut self.gesture, &Input { at: origin, ..i }, out);
        }
        if r.dragged_by(egui::PointerButton::Primary) {
            gesture::drag(&mut self.gesture, &i, out);
        }
        if r.drag_stopped_by(egui::PointerButton::Primary) {
            gesture::finish(&mut self.gesture, &i, out);
        }
    }

    /// The geometry of the document's current revision.
    fn geometry(&mut self, def: &ContentDef, revision: u64) -> Geometry {
        match self.geometry.take() {
            Some(g) if g.revision == revision => g,
            _ => Geometry::of(def, revision),
        }
    }

    fn draw(&mut self, model: &Model, p: &mut Paint<'_>) {
        let def = model.doc.def();
        let revision = model.doc.revision();
        let raster = def.waypoints.len() + def.links.len() > raster::RASTER_ABOVE;
        let colours = layers::ground::GridColours {
            lines: p.palette.grid,
            axes: p.palette.axes,
        };
        let grid = layers::ground::grid_lines(model.tools.grid_step, p.visible, p.px, &colours);
        let geometry = self.geometry(def, revision);
        let scene = model.scene();
        let crowd = crowd(model, p);
        if raster {
            raster::paint(
                &mut self.layer,
                p.painter,
                &raster::Frame {
                    def,
                    geometry: &geometry,
                    to_screen: p.to_screen,
                    visible: p.visible,
                    revision,
                    heat: model.tools.heat_map,
                    list: &model.current_list(),
                    grid: (model.tools.grid_step, &grid),
                    crowd: crowd.as_ref().map(|(k, v)| (*k, v.as_slice())),
                    palette: p.palette,
                },
            );
        } else {
            layers::ground::grid(p, &grid);
        }
        layers::ground::bounds(p, def);
        layers::ground::regions(p, def, &model.selection);
        if let (true, Some(sight)) = (model.tools.show_sight, model.sight()) {
            layers::preview::sight_tiles(p, sight);
        }
        let list = model.current_list();
        let hover = self
            .cursor
            .filter(|_| matches!(self.gesture.drag, Drag::None))
            .and_then(|c| pick::waypoint_at(def, c, PICK * p.px));
        let network = Network {
            def,
            geometry: &geometry,
            selection: &model.selection,
            heat: model.tools.heat_map,
            list: &list,
            raster,
            hover,
        };
        layers::network::links(p, &network);
        layers::ground::walls(p, def, &model.selection);
        layers::preview::path(p, model.tools.path_pick, model.path_preview(), &geometry);
        layers::network::waypoints(p, &network);
        if let (true, Some(Ok(preview))) = (model.navgen.open, model.navgen.preview()) {
            layers::preview::navgen(p, &preview.net);
        }
        self.draw_agents(model, scene, crowd.is_some(), p);
        self.draw_feedback(model, &geometry, p);
        self.geometry = Some(geometry);
    }

    fn draw_agents(
        &mut self,
        model: &Model,
        scene: crate::model::Scene<'_>,
        in_image: bool,
        p: &mut Paint<'_>,
    ) {
        let selected = model.selection.agent();
        let o = &model.overlays;
        if let (crate::model::Scene::Live(sim), Some(_)) = (scene, o.fog) {
            layers::live::fog(p, sim, o.fog, &mut self.fog);
        }
        if let crate::model::Scene::Live(sim) = scene {
            layers::live::motion(p, sim, o, selected);
            if o.start_positions {
                // A crowd's thousand rings and lines would hide the map
                // (and cost a software renderer a frame's budget): only the
                // selected agent's then.
                let only = in_image.then_some(selected);
                layers::agents::start_positions(p, model.doc.def(), scene, only);
            }
            layers::movement::routes(p, sim, o, selected);
        }
        for i in 0..scene.len() {
            if !(o.senses_all && scene.is_live() || Some(i) == selected) || !scene.alive(i) {
                continue;
            }
            if let Some((_, archetype)) = scene.archetype(i) {
                let (pos, f) = (scene.pos(i), scene.facing(i));
                let eye = Vec2::new(pos.x, pos.z);
                layers::agents::senses(p, archetype, eye, Vec2::new(f.x, f.z));
            }
        }
        layers::agents::agents(
            p,
            &layers::agents::Agents {
                scene,
                selection: &model.selection,
                states: o.states,
                sight: model.tools.show_sight.then(|| model.sight()).flatten(),
                in_image,
                names: o.labels,
            },
        );
        if let crate::model::Scene::Live(sim) = scene {
            layers::movement::bodies(p, sim, o);
            if o.lod_tiers {
                layers::tiers::rings(p, sim);
            }
        }
        if let (crate::model::Scene::Live(sim), Some(i), true) = (scene, selected, o.percepts) {
            layers::live::percepts(p, sim, i);
        }
        if let (false, Some(i)) = (scene.is_live(), selected) {
            layers::agents::handles(p, &handles(model.doc.def(), i));
        }
    }

    fn draw_feedback(&self, model: &Model, geometry: &Geometry, p: &mut Paint<'_>) {
        let Some(c) = self.cursor else { return };
        let feedback = match (&self.gesture.drag, model.tools.tool) {
            (Drag::Box { from }, _) => Some(Feedback::Box(Rect::from_two_pos(*from, c))),
            (Drag::Link { from }, _) => geometry
                .index
                .get(from)
                .map(|&i| Feedback::Link(geometry.positions[i], c)),
            (_, Tool::Paint) => Some(Feedback::Brush(c, model.tools.brush_radius)),
            (_, Tool::Link) => self
                .gesture
                .link_from
                .and_then(|id| geometry.index.get(&id))
                .map(|&i| Feedback::Link(geometry.positions[i], c)),
            (_, Tool::Wall | Tool::Region) if !self.gesture.pending.is_empty() => {
                let mut pts: Vec<Pos2> = self
                    .gesture
                    .pending
                    .iter()
                    .map(|&(x, z)| to_scene(x, z))
                    .collect();
                pts.push(c);
                Some(Feedback::Corners(pts))
            }
            _ => None,
        };
        if let Some(f) = feedback {
            layers::preview::tool(p, &f);
        }
    }

    /// Labels in screen space, on a layer above the scene's.
    fn draw_labels(&mut self, ui: &egui::Ui, labels: Labels, ctx: &ViewCtx<'_>) {
        let layer = egui::LayerId::new(ui.layer_id().order, ui.scope_id().with("kiai-labels"));
        ui.ctx().set_sublayer(ui.layer_id(), layer);
        let painter = ui.ctx().layer_painter(layer).with_clip_rect(self.rect);
        let style = LabelStyle {
            font: egui::FontId::proportional(12.5),
            back: ctx.palette.label_back,
            leader: ctx.palette.leader,
            pad: 2.0,
        };
        self.drawn_labels = labels.draw(&painter, self.rect.shrink(2.0), &style);
    }
}

/// Whether the agents are drawn into the map image: over 300 of them on a
/// map of over 3,000 waypoints and links.
pub fn is_crowd(model: &Model) -> bool {
    let def = model.doc.def();
    def.waypoints.len() + def.links.len() > raster::RASTER_ABOVE
        && model.scene().len() > raster::CROWD_ABOVE
}

/// The crowd drawn into the map image (over 300 agents on a large map):
/// a key that changes when it moves or changes colour, and the agents.
fn crowd(model: &Model, p: &Paint<'_>) -> Option<(u64, Vec<raster::CrowdAgent>)> {
    if !is_crowd(model) {
        return None;
    }
    let scene = model.scene();
    let agents = (0..scene.len())
        .filter(|&i| scene.alive(i))
        .map(|i| {
            let (pos, f) = (scene.pos(i), scene.facing(i));
            let colour = layers::agents::fill(p, scene, model.overlays.states, i);
            (to_scene(pos.x, pos.z), colour, Vec2::new(f.x, -f.z))
        })
        .collect();
    let key = match scene {
        crate::model::Scene::Live(sim) => sim.tick() | (u64::from(model.overlays.states) << 63),
        crate::model::Scene::Start(_) => u64::MAX - model.doc.revision(),
    };
    Some((key, agents))
}

/// The world X-Z extent of everything in `def`, in scene coordinates.
fn extent(def: &ContentDef) -> Option<Rect> {
    let mut r = Rect::NOTHING;
    let mut add = |x: f32, z: f32| {
        if x.is_finite() && z.is_finite() {
            r.extend_with(to_scene(x, z));
        }
    };
    if let Some(b) = def.bounds {
        add(b.min.0, b.min.2);
        add(b.max.0, b.max.2);
    }
    for w in &def.waypoints {
        add(w.pos.0, w.pos.2);
    }
    for a in &def.agents {
        add(a.pos.0, a.pos.2);
    }
    for w in &def.walls {
        add(w.from.0, w.from.1);
        add(w.to.0, w.to.1);
    }
    r.is_positive().then_some(r)
}

/// `r` grown by a tenth of its size on each side, and at least 4 units.
fn with_margin(r: Rect) -> Rect {
    let r = if r.is_positive() {
        r
    } else {
        Rect::from_center_size(r.center(), Vec2::splat(10.0))
    };
    r.expand2(r.size() * 0.1 + Vec2::splat(4.0))
}

/// What F frames: everything, with a margin (an empty map: 100 units
/// around the origin).
fn fit_rect(def: &ContentDef) -> Rect {
    extent(def)
        .map(with_margin)
        .unwrap_or_else(|| Rect::from_center_size(Pos2::ZERO, Vec2::splat(100.0)))
}

/// Whether `sel` is one of the map's objects (not an archetype, profile or
/// faction).
pub fn on_map(sel: Sel) -> bool {
    !matches!(sel, Sel::Archetype(_) | Sel::Profile(_) | Sel::Faction(_))
}

#[cfg(test)]
mod tests {
    use super::layers::ground::{GridColours, grid_lines};
    use super::*;

    #[test]
    fn grid_lines_are_at_least_twelve_points_apart_and_end_with_the_axes() {
        // 1 scene unit per point: a 1-unit grid would be 1 point apart, so
        // the step grows to 100 (10 is still under 12 points).
        let visible = Rect::from_min_max(Pos2::new(-5.0, 0.0), Pos2::new(995.0, 500.0));
        let colours = GridColours {
            lines: [egui::Color32::from_gray(38), egui::Color32::from_gray(55)],
            axes: [egui::Color32::RED, egui::Color32::GREEN],
        };
        let lines = grid_lines(1.0, visible, 1.0, &colours);
        let (grid, axes) = lines.split_at(lines.len() - 2);
        let xs: Vec<f32> = grid
            .iter()
            .filter(|(e, _)| e[0].x == e[1].x)
            .map(|(e, _)| e[0].x)
            .collect();
        assert_eq!(xs, (-1..=10).map(|k| k as f32 * 100.0).collect::<Vec<_>>());
        assert_eq!(grid.len() - xs.len(), 6, "horizontal lines 0, 100, …, 500");
        assert_eq!(
            grid[1].1,
            egui::Color32::from_gray(55),
            "x = 0 is a major line"
        );
        assert_eq!(grid[2].1, egui::Color32::from_gray(38));
        assert_eq!(axes[0].0, [Pos2::new(0.0, 0.0), Pos2::new(0.0, 500.0)]);
        assert_eq!(axes[1].0, [Pos2::new(-5.0, 0.0), Pos2::new(995.0, 0.0)]);
    }

    #[test]
    fn framing_leaves_a_margin_around_everything() {
        let r = with_margin(Rect::from_min_max(Pos2::ZERO, Pos2::new(100.0, 50.0)));
        assert_eq!(r.min, Pos2::new(-14.0, -9.0));
        assert_eq!(r.max, Pos2::new(114.0, 59.0));
    }
}
