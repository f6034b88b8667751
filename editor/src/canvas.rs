//! The map canvas: a top-down X-Z view in an [`egui::Scene`] (pan with the
//! middle or right button or the wheel, zoom around the cursor with
//! Ctrl+wheel or a pinch), the grid, every object, the sense shapes with
//! their handles, and the tools.
//!
//! Scene coordinates are world X-Z with Z pointing up the screen: a world
//! point `(x, z)` is the scene point `(x, -z)`.

use std::collections::BTreeMap;

use eframe::egui::{
    self, Color32, Mesh, Pos2, Rect, Sense, Shape, Stroke, Vec2, emath::TSTransform,
    epaint::PathShape,
};
use kiai_content::def::{
    AgentDef, ArchetypeDef, ContentDef, FalloffDef, LinkDef, RegionDef, ShapeDef, WallDef,
    WaypointDef,
};

use crate::app::{State, Tool};
use crate::doc::{Edit, Item, Sel};

/// Volume of the reference sound whose audible ring the hearing handle
/// shows: a sound this loud is heard inside the ring.
pub const REFERENCE_VOLUME: f32 = 100.0;

/// Which parameter of a sense a handle drags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandleKind {
    /// Sphere radius.
    Radius,
    /// Cone or sector range.
    Range,
    /// Cone or sector field of view (the handle sits on the edge).
    Angle,
    /// Ellipse semi-major axis `a` (along the facing).
    EllipseA,
    /// Ellipse semi-minor axis `b`.
    EllipseB,
    /// Ellipse centre distance ahead of the agent.
    EllipseOffset,
    /// Hearing threshold, shown as the ring where a sound of
    /// [`REFERENCE_VOLUME`] is just heard.
    Threshold,
}

/// A draggable handle: which sense (`None`: the agent's facing) and what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handle {
    /// Index of the sense in the archetype (`None`: facing).
    pub sense: Option<usize>,
    /// The parameter.
    pub kind: HandleKind,
    /// Where it is, world `(x, z)`.
    pub at: (f32, f32),
}

#[derive(Clone, Debug, Default)]
enum Drag {
    #[default]
    None,
    Box {
        from: Pos2,
    },
    Waypoints {
        start: Vec<(usize, WaypointDef)>,
        grab: Pos2,
    },
    Agent {
        index: usize,
        old: AgentDef,
        offset: Vec2,
    },
    Facing {
        index: usize,
        old: AgentDef,
    },
    Sense {
        archetype: usize,
        old: (String, ArchetypeDef),
        handle: Handle,
        agent: usize,
    },
    WallEnd {
        index: usize,
        end: usize,
        old: WallDef,
    },
    RegionCorner {
        index: usize,
        corner: usize,
        old: RegionDef,
    },
    Paint {
        touched: BTreeMap<usize, LinkDef>,
    },
    Link {
        from: u32,
    },
    Pan,
}

/// The canvas's view and in-progress gestures.
#[derive(Clone, Debug)]
pub struct View {
    scene_rect: Rect,
    to_screen: TSTransform,
    fit: Option<Rect>,
    cursor: Option<Pos2>,
    drag: Drag,
    /// Corners placed so far by the wall and region tools, world `(x, z)`.
    pub pending: Vec<(f32, f32)>,
    /// The waypoint the link tool links from.
    pub link_from: Option<u32>,
    pub(crate) labels: Vec<(Pos2, String, Color32)>,
    /// The labels drawn in the last frame: screen rectangle and text.
    pub drawn_labels: Vec<(Rect, String)>,
    geometry: Option<Geometry>,
    layer: crate::raster::MapLayer,
    /// The agents are in the map image this frame (a crowd on a big map).
    pub(crate) crowd_in_layer: bool,
}

/// Waypoint positions and link ends of one document revision, so frames
/// that only redraw do not rebuild them.
#[derive(Clone, Debug, Default)]
struct Geometry {
    revision: u64,
    positions: Vec<Pos2>,
    index: std::collections::HashMap<u32, usize>,
    link_ends: Vec<Option<(usize, usize)>>,
}

pub(crate) fn to_scene(x: f32, z: f32) -> Pos2 {
    Pos2::new(x, -z)
}

fn to_world(p: Pos2) -> (f32, f32) {
    (p.x, -p.y)
}

/// The world X-Z extent of everything in `def`, if anything.
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

impl View {
    /// A view framing everything in `def`.
    pub fn fit(def: &ContentDef) -> Self {
        let rect = fit_rect(def);
        Self {
            scene_rect: rect,
            to_screen: TSTransform::IDENTITY,
            fit: Some(rect),
            cursor: None,
            drag: Drag::None,
            pending: Vec::new(),
            link_from: None,
            labels: Vec::new(),
            drawn_labels: Vec::new(),
            geometry: None,
            layer: Default::default(),
            crowd_in_layer: false,
        }
    }

    /// Frames everything on the next frame.
    pub fn request_fit(&mut self) {
        self.fit = Some(Rect::NOTHING);
    }

    /// Whether a gesture (drag, wall, region, link) is under way.
    pub fn is_busy(&self) -> bool {
        !matches!(self.drag, Drag::None) || !self.pending.is_empty() || self.link_from.is_some()
    }

    /// Abandons any gesture under way.
    pub fn cancel(&mut self) {
        self.drag = Drag::None;
        self.pending.clear();
        self.link_from = None;
    }

    /// The world `(x, z)` under the cursor, if it is over the canvas.
    pub fn cursor_world(&self) -> Option<(f32, f32)> {
        self.cursor.map(to_world)
    }

    /// Where world `(x, z)` was on screen in the last frame.
    pub fn world_to_screen(&self, x: f32, z: f32) -> Pos2 {
        self.to_screen * to_scene(x, z)
    }

    /// Screen points per world unit in the last frame.
    pub fn zoom(&self) -> f32 {
        self.to_screen.scaling
    }
}

fn fit_rect(def: &ContentDef) -> Rect {
    extent(def)
        .map(|r| r.expand2(r.size() * 0.05 + Vec2::splat(2.0)))
        .unwrap_or_else(|| Rect::from_center_size(Pos2::ZERO, Vec2::splat(100.0)))
}

fn snap(s: &State, (x, z): (f32, f32)) -> (f32, f32) {
    if s.snap && s.grid_step > 0.0 {
        let g = s.grid_step;
        ((x / g).round() * g, (z / g).round() * g)
    } else {
        (x, z)
    }
}

fn facing_xz(a: &AgentDef) -> Vec2 {
    let f = Vec2::new(a.facing.0, a.facing.2);
    if f.length_sq() > 0.0 {
        f.normalized()
    } else {
        Vec2::X
    }
}

fn rotate(v: Vec2, angle: f32) -> Vec2 {
    let (s, c) = angle.sin_cos();
    Vec2::new(v.x * c - v.y * s, v.x * s + v.y * c)
}

/// The hearing ring's radius for `threshold` (world units).
fn hearing_radius(threshold: f32, falloff: FalloffDef) -> f32 {
    match falloff {
        FalloffDef::InverseSquare => (REFERENCE_VOLUME / threshold.max(1e-6)).sqrt(),
        FalloffDef::Linear { range } => range * (1.0 - threshold / REFERENCE_VOLUME).max(0.0),
    }
}

/// The handles of agent `index`'s senses and facing, world positions.
pub fn handles(def: &ContentDef, index: usize) -> Vec<Handle> {
    let Some(agent) = def.agents.get(index) else {
        return Vec::new();
    };
    let eye = Vec2::new(agent.pos.0, agent.pos.2);
    let f = facing_xz(agent);
    let side = rotate(f, std::f32::consts::FRAC_PI_2);
    let at = |v: Vec2| (v.x, v.y);
    let mut out = vec![Handle {
        sense: None,
        kind: HandleKind::Angle,
        at: at(eye + f * 2.0),
    }];
    let Some(archetype) = def.archetypes.get(&agent.archetype) else {
        return out;
    };
    for (s, sense) in archetype.senses.iter().enumerate() {
        let h = |kind, v| Handle {
            sense: Some(s),
            kind,
            at: at(v),
        };
        match sense.shape {
            ShapeDef::Sphere { radius } => {
                out.push(h(HandleKind::Radius, eye - side * radius));
            }
            ShapeDef::Cone { range, fov_deg } | ShapeDef::Sector { range, fov_deg, .. } => {
                out.push(h(HandleKind::Range, eye + f * range));
                let half = (fov_deg * 0.5).to_radians();
                out.push(h(HandleKind::Angle, eye + rotate(f, half) * range));
            }
            ShapeDef::Ellipse { a, b, center_ahead } => {
                let c = eye + f * center_ahead;
                out.push(h(HandleKind::EllipseOffset, c));
                out.push(h(HandleKind::EllipseA, c + f * a));
                out.push(h(HandleKind::EllipseB, c + side * b));
            }
            ShapeDef::Hearing { threshold, falloff } => {
                out.push(h(
                    HandleKind::Threshold,
                    eye + rotate(f, -2.4) * hearing_radius(threshold, falloff),
                ));
            }
        }
    }
    out
}

/// The shape `old` with `handle` dragged to world point `p` by an agent at
/// `eye` facing `f` (unit X-Z).
pub fn drag_shape(old: ShapeDef, kind: HandleKind, eye: Vec2, f: Vec2, p: Vec2) -> ShapeDef {
    let d = p - eye;
    let ahead = d.dot(f);
    let dist = d.length().max(0.01);
    let min = 0.05;
    match (old, kind) {
        (ShapeDef::Sphere { .. }, HandleKind::Radius) => ShapeDef::Sphere {
            radius: dist.max(min),
        },
        (ShapeDef::Cone { fov_deg, .. }, HandleKind::Range) => ShapeDef::Cone {
            range: dist.max(min),
            fov_deg,
        },
        (ShapeDef::Cone { range, .. }, HandleKind::Angle) => ShapeDef::Cone {
            range,
            fov_deg: fov_from(d, f),
        },
        (
            ShapeDef::Sector {
                fov_deg,
                max_height_diff,
                ..
            },
            HandleKind::Range,
        ) => ShapeDef::Sector {
            range: dist.max(min),
            fov_deg,
            max_height_diff,
        },
        (
            ShapeDef::Sector {
                range,
                max_height_diff,
                ..
            },
            HandleKind::Angle,
        ) => ShapeDef::Sector {
            range,
            fov_deg: fov_from(d, f),
            max_height_diff,
        },
        (
            ShapeDef::Ellipse {
                b, center_ahead, ..
            },
            HandleKind::EllipseA,
        ) => ShapeDef::Ellipse {
            a: (ahead - center_ahead).max(b).max(min),
            b,
            center_ahead,
        },
        (
            ShapeDef::Ellipse {
                a, center_ahead, ..
            },
            HandleKind::EllipseB,
        ) => {
            let side = rotate(f, std::f32::consts::FRAC_PI_2);
            ShapeDef::Ellipse {
                a,
                b: (p - (eye + f * center_ahead)).dot(side).abs().clamp(min, a),
                center_ahead,
            }
        }
        (ShapeDef::Ellipse { a, b, .. }, HandleKind::EllipseOffset) => ShapeDef::Ellipse {
            a,
            b,
            center_ahead: ahead,
        },
        (ShapeDef::Hearing { falloff, .. }, HandleKind::Threshold) => ShapeDef::Hearing {
            threshold: match falloff {
                FalloffDef::InverseSquare => REFERENCE_VOLUME / (dist * dist),
                FalloffDef::Linear { range } => {
                    (REFERENCE_VOLUME * (1.0 - dist / range.max(min))).max(0.0)
                }
            },
            falloff,
        },
        (shape, _) => shape,
    }
}

fn fov_from(d: Vec2, f: Vec2) -> f32 {
    let cos = (d.normalized().dot(f)).clamp(-1.0, 1.0);
    (cos.acos().to_degrees() * 2.0).clamp(1.0, 360.0)
}

/// Faction colours, by faction index.
pub fn faction_colour(i: usize) -> Color32 {
    const PALETTE: [Color32; 8] = [
        Color32::from_rgb(230, 85, 75),
        Color32::from_rgb(80, 150, 240),
        Color32::from_rgb(90, 200, 110),
        Color32::from_rgb(240, 190, 60),
        Color32::from_rgb(190, 110, 230),
        Color32::from_rgb(60, 200, 200),
        Color32::from_rgb(240, 140, 60),
        Color32::from_rgb(200, 200, 200),
    ];
    PALETTE[i % PALETTE.len()]
}

/// The heat-map colour of a multiplier: blue (cheap) through grey (1) to
/// red (expensive).
pub fn heat_colour(m: f32) -> Color32 {
    if !m.is_finite() {
        return Color32::from_rgb(255, 0, 255);
    }
    let t = (m.max(1e-3).log2() / 3.0).clamp(-1.0, 1.0);
    let grey = 150.0;
    let lerp = |a: f32, b: f32, t: f32| (a + (b - a) * t) as u8;
    if t >= 0.0 {
        Color32::from_rgb(
            lerp(grey, 255.0, t),
            lerp(grey, 60.0, t),
            lerp(grey, 40.0, t),
        )
    } else {
        let t = -t;
        Color32::from_rgb(
            lerp(grey, 60.0, t),
            lerp(grey, 140.0, t),
            lerp(grey, 255.0, t),
        )
    }
}

fn quad(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, colour: Color32) {
    let d = b - a;
    let len = d.length();
    if len <= 0.0 {
        return;
    }
    let n = Vec2::new(-d.y, d.x) / len * (width * 0.5);
    let i = mesh.vertices.len() as u32;
    mesh.colored_vertex(a + n, colour);
    mesh.colored_vertex(a - n, colour);
    mesh.colored_vertex(b - n, colour);
    mesh.colored_vertex(b + n, colour);
    mesh.add_triangle(i, i + 1, i + 2);
    mesh.add_triangle(i, i + 2, i + 3);
}

fn segment_distance(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = if ab.length_sq() > 0.0 {
        ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

/// The object under scene point `p` within `r` scene units: agents first,
/// then waypoints, walls, links, regions.
fn pick(def: &ContentDef, p: Pos2, r: f32) -> Option<Sel> {
    let nearest = |it: &mut dyn Iterator<Item = (usize, Pos2)>| {
        it.map(|(i, q)| (i, q.distance_sq(p)))
            .filter(|(_, d)| *d <= r * r)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    };
    if let Some(i) = nearest(
        &mut def
            .agents
            .iter()
            .enumerate()
            .map(|(i, a)| (i, to_scene(a.pos.0, a.pos.2))),
    ) {
        return Some(Sel::Agent(i));
    }
    if let Some(i) = nearest(
        &mut def
            .waypoints
            .iter()
            .enumerate()
            .map(|(i, w)| (i, to_scene(w.pos.0, w.pos.2))),
    ) {
        return Some(Sel::Waypoint(i));
    }
    let seg =
        |a: (f32, f32), b: (f32, f32)| segment_distance(p, to_scene(a.0, a.1), to_scene(b.0, b.1));
    if let Some((i, _)) = def
        .walls
        .iter()
        .enumerate()
        .map(|(i, w)| (i, seg(w.from, w.to)))
        .filter(|(_, d)| *d <= r)
        .min_by(|a, b| a.1.total_cmp(&b.1))
    {
        return Some(Sel::Wall(i));
    }
    let positions: std::collections::HashMap<u32, (f32, f32)> = def
        .waypoints
        .iter()
        .map(|w| (w.id, (w.pos.0, w.pos.2)))
        .collect();
    if let Some((i, _)) = def
        .links
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let (a, b) = (positions.get(&l.from)?, positions.get(&l.to)?);
            Some((i, seg(*a, *b)))
        })
        .filter(|(_, d)| *d <= r * 0.6)
        .min_by(|a, b| a.1.total_cmp(&b.1))
    {
        return Some(Sel::Link(i));
    }
    def.regions
        .iter()
        .position(|reg| {
            reg.polygon.len() >= 3
                && kiai_core::perception::pvs::Region {
                    polygon: reg
                        .polygon
                        .iter()
                        .map(|&(x, z)| kiai_core::glam::Vec2::new(x, z))
                        .collect(),
                }
                .contains(kiai_core::glam::Vec2::new(p.x, -p.y))
        })
        .map(Sel::Region)
}

fn waypoint_at(def: &ContentDef, p: Pos2, r: f32) -> Option<usize> {
    def.waypoints
        .iter()
        .enumerate()
        .map(|(i, w)| (i, to_scene(w.pos.0, w.pos.2).distance_sq(p)))
        .filter(|(_, d)| *d <= r * r)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// Links or unlinks waypoints `a` and `b` (ids).
fn toggle_link(s: &mut State, a: u32, b: u32) {
    if a == b {
        return;
    }
    let existing = s.doc.links_between(a, b);
    if existing.is_empty() {
        let index = s.doc.def().links.len();
        let two_way = s.two_way;
        s.edit(Edit::Insert {
            index,
            item: Item::Link(LinkDef {
                from: a,
                to: b,
                costs: Default::default(),
                two_way,
            }),
        });
        s.say(format!(
            "linked {a} {} {b}",
            if two_way { "<->" } else { "->" }
        ));
    } else {
        let edits = existing
            .iter()
            .rev()
            .map(|&i| Edit::Remove {
                index: i,
                item: Item::Link(s.doc.def().links[i].clone()),
            })
            .collect();
        s.edit(Edit::Batch(edits));
        s.say(format!("unlinked {a} and {b}"));
    }
}

/// Adds the default archetype and faction the agent tool needs when the
/// document has none; returns the edits.
fn agent_defaults(s: &mut State) -> Vec<Edit> {
    let mut edits = Vec::new();
    let def = s.doc.def();
    if def.archetypes.get(&s.place_archetype).is_none() {
        let name = def
            .archetypes
            .0
            .first()
            .map(|(n, _)| n.clone())
            .unwrap_or_else(|| "guard".to_owned());
        if def.archetypes.get(&name).is_none() {
            edits.push(Edit::Insert {
                index: def.archetypes.len(),
                item: Item::archetype(name.clone(), crate::panels::default_archetype()),
            });
        }
        s.place_archetype = name;
    }
    let def = s.doc.def();
    if !def.factions.iter().any(|f| f.name == s.place_faction) {
        let name = def
            .factions
            .first()
            .map(|f| f.name.clone())
            .unwrap_or_else(|| "red".to_owned());
        if !def.factions.iter().any(|f| f.name == name) {
            edits.push(Edit::Insert {
                index: def.factions.len(),
                item: Item::Faction(kiai_content::def::FactionDef {
                    name: name.clone(),
                    hostile: Vec::new(),
                }),
            });
        }
        s.place_faction = name;
    }
    edits
}

/// Draws the canvas and runs the active tool.
pub fn ui(s: &mut State, ui: &mut egui::Ui) {
    let mut scene_rect = s.view.scene_rect;
    if let Some(fit) = s.view.fit.take() {
        scene_rect = if fit.is_positive() {
            fit
        } else {
            fit_rect(s.doc.def())
        };
    }
    let scene = egui::Scene::new()
        .zoom_range(0.01..=400.0)
        .drag_pan_buttons(egui::containers::DragPanButtons::MIDDLE);
    scene.show(ui, &mut scene_rect, |ui| {
        let to_screen = ui
            .ctx()
            .layer_transform_to_global(ui.layer_id())
            .unwrap_or(TSTransform::IDENTITY);
        s.view.to_screen = to_screen;
        let visible = ui.clip_rect();
        let response = ui.interact(
            visible,
            ui.scope_id().with("kiai-canvas"),
            Sense::click_and_drag(),
        );
        let pointer = ui
            .ctx()
            .input(|i| i.pointer.latest_pos())
            .map(|p| to_screen.inverse() * p);
        s.view.cursor = pointer.filter(|p| visible.contains(*p) && response.contains_pointer());
        let px = 1.0 / to_screen.scaling.max(1e-6);
        input(s, ui, &response, pointer, px);
        s.view.labels.clear();
        draw(s, ui.painter(), visible, px);
    });
    s.view.scene_rect = scene_rect;
    // Labels in screen space, on a layer above the scene's.
    let layer = egui::LayerId::new(ui.layer_id().order, ui.scope_id().with("kiai-labels"));
    ui.ctx().set_sublayer(ui.layer_id(), layer);
    let painter = ui.ctx().layer_painter(layer).with_clip_rect(ui.min_rect());
    let font = egui::FontId::proportional(12.0);
    // The state legend while the simulation shows states as colours.
    if s.overlays.states && s.sim.as_ref().is_some_and(|x| x.tick() > 0 || x.playing) {
        let mut at = ui.min_rect().left_top() + Vec2::new(10.0, 10.0);
        for state in kiai_core::BehaviourState::ALL {
            painter.circle_filled(
                at + Vec2::new(5.0, 7.0),
                5.0,
                crate::live::state_colour(state),
            );
            painter.text(
                at + Vec2::new(14.0, 0.0),
                egui::Align2::LEFT_TOP,
                state.name(),
                font.clone(),
                Color32::from_gray(220),
            );
            at.y += 18.0;
        }
    }
    s.view.drawn_labels.clear();
    for (at, text, colour) in s.view.labels.drain(..) {
        let rect = painter.text(
            s.view.to_screen * at,
            egui::Align2::CENTER_CENTER,
            &text,
            font.clone(),
            colour,
        );
        s.view.drawn_labels.push((rect, text));
    }
}

fn input(s: &mut State, ui: &egui::Ui, r: &egui::Response, pointer: Option<Pos2>, px: f32) {
    let Some(p) = pointer else {
        return;
    };
    let shift = ui.input(|i| i.modifiers.shift);
    let pick_r = 8.0 * px;

    // Panning with the right button (the middle one pans in the scene).
    if r.drag_started_by(egui::PointerButton::Secondary) {
        s.view.drag = Drag::Pan;
    }
    if matches!(s.view.drag, Drag::Pan) {
        let delta = ui.input(|i| i.pointer.delta()) * px;
        s.view.scene_rect = s.view.scene_rect.translate(-delta);
        if r.drag_stopped() || !ui.input(|i| i.pointer.secondary_down()) {
            s.view.drag = Drag::None;
        }
        return;
    }

    if r.clicked() {
        click(s, ui, p, pick_r, shift);
    }
    if r.double_clicked() && s.tool == Tool::Region {
        close_region(s);
    }
    if s.tool == Tool::Region && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        close_region(s);
    }
    if r.drag_started_by(egui::PointerButton::Primary) {
        let origin = ui
            .input(|i| i.pointer.press_origin())
            .map_or(p, |o| s.view.to_screen.inverse() * o);
        start_drag(s, origin, pick_r, shift);
    }
    if r.dragged_by(egui::PointerButton::Primary) {
        drag(s, p, shift);
    }
    if r.drag_stopped() {
        finish_drag(s, p, pick_r, shift);
    }
}

fn click(s: &mut State, ui: &egui::Ui, p: Pos2, pick_r: f32, shift: bool) {
    let world = snap(s, to_world(p));
    match s.tool {
        Tool::Select if s.sim.as_ref().is_some_and(|x| x.tick() > 0 || x.playing) => {
            let (x, z) = to_world(p);
            let hit = s
                .sim
                .as_ref()
                .and_then(|sim| crate::live::pick_agent(sim, x, z, pick_r));
            if !shift {
                s.selection.clear();
            }
            if let Some(sel) = hit {
                s.selection.insert(sel);
            }
        }
        Tool::Select => match pick(s.doc.def(), p, pick_r) {
            Some(sel) if shift && !s.selection.remove(&sel) => {
                s.selection.insert(sel);
            }
            Some(_) if shift => {}
            Some(sel) => {
                s.selection.clear();
                s.selection.insert(sel);
            }
            None if !shift => s.selection.clear(),
            None => {}
        },
        Tool::Waypoint => {
            let id = s.doc.free_waypoint_id();
            let index = s.doc.def().waypoints.len();
            s.edit(Edit::Insert {
                index,
                item: Item::Waypoint(WaypointDef {
                    id,
                    pos: (world.0, 0.0, world.1),
                    active: true,
                    name: None,
                    tags: Vec::new(),
                }),
            });
            s.selection.clear();
            s.selection.insert(Sel::Waypoint(index));
            s.say(format!("waypoint {id} at ({:.1}, {:.1})", world.0, world.1));
        }
        Tool::Link => {
            let Some(i) = waypoint_at(s.doc.def(), p, pick_r) else {
                s.view.link_from = None;
                return;
            };
            let id = s.doc.def().waypoints[i].id;
            match s.view.link_from {
                Some(from) if from != id => {
                    toggle_link(s, from, id);
                    s.view.link_from = Some(id);
                }
                Some(_) => s.view.link_from = None,
                None => s.view.link_from = Some(id),
            }
        }
        Tool::Paint => {
            let mut touched = BTreeMap::new();
            paint(s, p, ui.input(|i| i.modifiers.shift), &mut touched);
            record_paint(s, touched);
        }
        Tool::Wall => {
            if let Some(&from) = s.view.pending.first() {
                s.view.pending.clear();
                let index = s.doc.def().walls.len();
                s.edit(Edit::Insert {
                    index,
                    item: Item::Wall(WallDef {
                        from,
                        to: world,
                        height: 3.0,
                        name: None,
                        door: false,
                        open: false,
                    }),
                });
                s.selection.clear();
                s.selection.insert(Sel::Wall(index));
            } else {
                s.view.pending.push(world);
            }
        }
        Tool::Region => s.view.pending.push(world),
        Tool::Agent => {
            let mut edits = agent_defaults(s);
            let def = s.doc.def();
            let name = crate::doc::unique_name(|n| def.agents.iter().any(|a| a.name == n), "agent");
            let index = def.agents.len();
            edits.push(Edit::Insert {
                index,
                item: Item::Agent(AgentDef {
                    name: name.clone(),
                    archetype: s.place_archetype.clone(),
                    faction: s.place_faction.clone(),
                    pos: (world.0, 0.0, world.1),
                    facing: (1.0, 0.0, 0.0),
                }),
            });
            s.edit(Edit::Batch(edits));
            s.selection.clear();
            s.selection.insert(Sel::Agent(index));
            s.say(format!("placed {name}"));
        }
        Tool::Path => {
            let Some(i) = waypoint_at(s.doc.def(), p, pick_r) else {
                return;
            };
            let id = s.doc.def().waypoints[i].id;
            s.path_pick = match s.path_pick {
                (Some(a), None) => (Some(a), Some(id)),
                _ => (Some(id), None),
            };
        }
    }
}

fn close_region(s: &mut State) {
    if s.view.pending.len() < 3 {
        s.say("a region needs at least 3 corners");
        return;
    }
    let polygon = std::mem::take(&mut s.view.pending);
    let def = s.doc.def();
    let name = crate::doc::unique_name(|n| def.regions.iter().any(|r| r.name == n), "room");
    let index = def.regions.len();
    s.edit(Edit::Insert {
        index,
        item: Item::Region(RegionDef {
            name,
            polygon,
            sees: None,
        }),
    });
    s.selection.clear();
    s.selection.insert(Sel::Region(index));
}

fn start_drag(s: &mut State, p: Pos2, pick_r: f32, shift: bool) {
    let def = s.doc.def();
    s.view.drag = match s.tool {
        Tool::Select => {
            // Handles of the selected agent come first.
            if let Some(agent) = s.selected_agent()
                && let Some(h) = handles(def, agent)
                    .into_iter()
                    .filter(|h| to_scene(h.at.0, h.at.1).distance(p) <= pick_r)
                    .min_by(|a, b| {
                        let d = |h: &Handle| to_scene(h.at.0, h.at.1).distance_sq(p);
                        d(a).total_cmp(&d(b))
                    })
            {
                let a = &def.agents[agent];
                match h.sense {
                    None => Drag::Facing {
                        index: agent,
                        old: a.clone(),
                    },
                    Some(_) => match def.archetypes.position(&a.archetype) {
                        Some(ai) => Drag::Sense {
                            archetype: ai,
                            old: def.archetypes.0[ai].clone(),
                            handle: h,
                            agent,
                        },
                        None => Drag::None,
                    },
                }
            } else if let Some(d) = corner_drag(s, p, pick_r) {
                d
            } else {
                match pick(def, p, pick_r) {
                    Some(Sel::Agent(i)) => {
                        if !shift {
                            s.selection.clear();
                        }
                        s.selection.insert(Sel::Agent(i));
                        let a = &s.doc.def().agents[i];
                        Drag::Agent {
                            index: i,
                            old: a.clone(),
                            offset: to_scene(a.pos.0, a.pos.2) - p,
                        }
                    }
                    Some(Sel::Waypoint(i)) => {
                        if !s.selection.contains(&Sel::Waypoint(i)) {
                            if !shift {
                                s.selection.clear();
                            }
                            s.selection.insert(Sel::Waypoint(i));
                        }
                        let def = s.doc.def();
                        Drag::Waypoints {
                            start: s
                                .selected_waypoints()
                                .into_iter()
                                .map(|i| (i, def.waypoints[i].clone()))
                                .collect(),
                            grab: p,
                        }
                    }
                    _ => Drag::Box { from: p },
                }
            }
        }
        Tool::Paint => Drag::Paint {
            touched: BTreeMap::new(),
        },
        Tool::Link => match waypoint_at(def, p, pick_r) {
            Some(i) => Drag::Link {
                from: def.waypoints[i].id,
            },
            None => Drag::None,
        },
        _ => Drag::None,
    };
}

fn corner_drag(s: &State, p: Pos2, pick_r: f32) -> Option<Drag> {
    let def = s.doc.def();
    for sel in &s.selection {
        match *sel {
            Sel::Wall(i) => {
                let w = def.walls.get(i)?;
                for (end, at) in [w.from, w.to].into_iter().enumerate() {
                    if to_scene(at.0, at.1).distance(p) <= pick_r {
                        return Some(Drag::WallEnd {
                            index: i,
                            end,
                            old: w.clone(),
                        });
                    }
                }
            }
            Sel::Region(i) => {
                let r = def.regions.get(i)?;
                if let Some(corner) = r
                    .polygon
                    .iter()
                    .position(|&(x, z)| to_scene(x, z).distance(p) <= pick_r)
                {
                    return Some(Drag::RegionCorner {
                        index: i,
                        corner,
                        old: r.clone(),
                    });
                }
            }
            _ => {}
        }
    }
    None
}

fn drag(s: &mut State, p: Pos2, shift: bool) {
    let mut drag = std::mem::take(&mut s.view.drag);
    match &mut drag {
        Drag::Waypoints { start, grab } => {
            let delta = p - *grab;
            let moved: Vec<(usize, (f32, f32, f32))> = start
                .iter()
                .map(|(i, w)| {
                    let (x, z) = snap(s, to_world(to_scene(w.pos.0, w.pos.2) + delta));
                    (*i, (x, w.pos.1, z))
                })
                .collect();
            s.doc.preview(|def| {
                for (i, pos) in moved {
                    if let Some(w) = def.waypoints.get_mut(i) {
                        w.pos = pos;
                    }
                }
            });
        }
        Drag::Agent { index, offset, .. } => {
            let (x, z) = snap(s, to_world(p + *offset));
            let i = *index;
            s.doc.preview(|def| {
                if let Some(a) = def.agents.get_mut(i) {
                    a.pos = (x, a.pos.1, z);
                }
            });
        }
        Drag::Facing { index, old } => {
            let d = Vec2::new(to_world(p).0 - old.pos.0, to_world(p).1 - old.pos.2);
            if d.length() > 1e-3 {
                let f = d.normalized();
                let i = *index;
                s.doc.preview(|def| {
                    if let Some(a) = def.agents.get_mut(i) {
                        a.facing = (f.x, 0.0, f.y);
                    }
                });
            }
        }
        Drag::Sense {
            archetype,
            old,
            handle,
            agent,
        } => {
            let def = s.doc.def();
            if let (Some(a), Some(si)) = (def.agents.get(*agent), handle.sense)
                && let Some(sense) = old.1.senses.get(si)
            {
                let eye = Vec2::new(a.pos.0, a.pos.2);
                let (x, z) = to_world(p);
                let shape =
                    drag_shape(sense.shape, handle.kind, eye, facing_xz(a), Vec2::new(x, z));
                let ai = *archetype;
                s.doc.preview(|def| {
                    if let Some((_, arch)) = def.archetypes.0.get_mut(ai)
                        && let Some(sense) = arch.senses.get_mut(si)
                    {
                        sense.shape = shape;
                    }
                });
            }
        }
        Drag::WallEnd { index, end, .. } => {
            let at = snap(s, to_world(p));
            let (i, end) = (*index, *end);
            s.doc.preview(|def| {
                if let Some(w) = def.walls.get_mut(i) {
                    if end == 0 {
                        w.from = at;
                    } else {
                        w.to = at;
                    }
                }
            });
        }
        Drag::RegionCorner { index, corner, .. } => {
            let at = snap(s, to_world(p));
            let (i, c) = (*index, *corner);
            s.doc.preview(|def| {
                if let Some(slot) = def.regions.get_mut(i).and_then(|r| r.polygon.get_mut(c)) {
                    *slot = at;
                }
            });
        }
        Drag::Paint { touched } => paint(s, p, shift, touched),
        Drag::Box { .. } | Drag::Link { .. } | Drag::Pan | Drag::None => {}
    }
    s.view.drag = drag;
}

/// Sets the current list's multiplier of the links under the brush at `p`
/// (shift: back to 1), previewing; `touched` keeps each link's original.
fn paint(s: &mut State, p: Pos2, reset: bool, touched: &mut BTreeMap<usize, LinkDef>) {
    let radius = s.brush_radius / s.view.zoom().max(1e-6);
    let list = s.current_list();
    let value = s.brush_value;
    let positions = s.doc.waypoint_indices().clone();
    let def = s.doc.def();
    let pos = |id: u32| {
        positions
            .get(&id)
            .map(|&i| to_scene(def.waypoints[i].pos.0, def.waypoints[i].pos.2))
    };
    let hits: Vec<usize> = def
        .links
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let (a, b) = (pos(l.from)?, pos(l.to)?);
            (segment_distance(p, a, b) <= radius).then_some(i)
        })
        .collect();
    if hits.is_empty() {
        return;
    }
    for &i in &hits {
        touched.entry(i).or_insert_with(|| def.links[i].clone());
    }
    s.doc.preview(|def| {
        for i in hits {
            let costs = &mut def.links[i].costs.0;
            costs.retain(|(k, _)| *k != list);
            if !reset {
                costs.push((list.clone(), value));
            }
        }
    });
}

fn record_paint(s: &mut State, touched: BTreeMap<usize, LinkDef>) {
    let n = touched.len();
    let edits: Vec<Edit> = touched
        .into_iter()
        .filter_map(|(i, old)| {
            let new = s.doc.def().links.get(i)?.clone();
            Some(Edit::Set {
                index: i,
                old: Item::Link(old),
                new: Item::Link(new),
            })
        })
        .collect();
    if !edits.is_empty() {
        s.doc.record(Edit::Batch(edits));
        s.say(format!("painted {n} links in `{}`", s.current_list()));
    }
}

fn finish_drag(s: &mut State, p: Pos2, pick_r: f32, shift: bool) {
    let drag = std::mem::take(&mut s.view.drag);
    let def = s.doc.def();
    let set = |index: usize, old: Item, new: Item| Edit::Set { index, old, new };
    let edit = match drag {
        Drag::Waypoints { start, .. } => Some(Edit::Batch(
            start
                .into_iter()
                .filter_map(|(i, old)| {
                    let new = def.waypoints.get(i)?.clone();
                    Some(set(i, Item::Waypoint(old), Item::Waypoint(new)))
                })
                .collect(),
        )),
        Drag::Agent { index, old, .. } | Drag::Facing { index, old } => def
            .agents
            .get(index)
            .map(|new| set(index, Item::Agent(old), Item::Agent(new.clone()))),
        Drag::Sense { archetype, old, .. } => def.archetypes.0.get(archetype).map(|new| {
            set(
                archetype,
                Item::archetype(old.0, old.1),
                Item::archetype(new.0.clone(), new.1.clone()),
            )
        }),
        Drag::WallEnd { index, old, .. } => def
            .walls
            .get(index)
            .map(|new| set(index, Item::Wall(old), Item::Wall(new.clone()))),
        Drag::RegionCorner { index, old, .. } => def
            .regions
            .get(index)
            .map(|new| set(index, Item::Region(old), Item::Region(new.clone()))),
        Drag::Paint { touched } => {
            record_paint(s, touched);
            None
        }
        Drag::Box { from } => {
            let rect = Rect::from_two_pos(from, p);
            if !shift {
                s.selection.clear();
            }
            let def = s.doc.def();
            s.selection.extend(
                def.waypoints
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| rect.contains(to_scene(w.pos.0, w.pos.2)))
                    .map(|(i, _)| Sel::Waypoint(i)),
            );
            s.selection.extend(
                def.agents
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| rect.contains(to_scene(a.pos.0, a.pos.2)))
                    .map(|(i, _)| Sel::Agent(i)),
            );
            None
        }
        Drag::Link { from } => {
            if let Some(i) = waypoint_at(def, p, pick_r) {
                let to = def.waypoints[i].id;
                toggle_link(s, from, to);
            }
            None
        }
        Drag::Pan | Drag::None => None,
    };
    if let Some(edit) = edit {
        s.doc.record(edit);
    }
}

fn draw(s: &mut State, painter: &egui::Painter, visible: Rect, px: f32) {
    let def = s.doc.def();
    // Large maps draw the grid into their image with the links (on a
    // software renderer, ~150 full-length lines cost as much as the image).
    let raster = def.waypoints.len() + def.links.len() > crate::raster::RASTER_ABOVE;
    let grid = grid_lines(s.grid_step, visible, px);
    if !raster {
        for &(ends, colour) in &grid {
            painter.line_segment(ends, Stroke::new(1.0 * px, colour));
        }
    }
    if let Some(b) = def.bounds {
        painter.rect_stroke(
            Rect::from_two_pos(to_scene(b.min.0, b.min.2), to_scene(b.max.0, b.max.2)),
            0.0,
            Stroke::new(1.5 * px, Color32::from_gray(110)),
            egui::StrokeKind::Middle,
        );
    }
    // Regions.
    for (i, r) in def.regions.iter().enumerate() {
        let selected = s.selection.contains(&Sel::Region(i));
        let points: Vec<Pos2> = r.polygon.iter().map(|&(x, z)| to_scene(x, z)).collect();
        let colour = if selected {
            Color32::from_rgb(140, 200, 255)
        } else {
            Color32::from_rgb(70, 110, 160)
        };
        painter.add(PathShape::closed_line(
            points.clone(),
            Stroke::new(1.5 * px, colour),
        ));
        if let Some(c) = centroid(&points) {
            label(&mut s.view.labels, c, &r.name, colour);
        }
        if selected {
            for p in &points {
                painter.circle_filled(*p, 4.0 * px, colour);
            }
        }
    }
    // Sight tiles of the selected agent.
    if s.show_sight {
        draw_sight_tiles(s, painter);
    }
    // Links and waypoints in two meshes.
    let list = s.current_list();
    let revision = s.doc.revision();
    let mut geometry = match s.view.geometry.take() {
        Some(g) if g.revision == revision => g,
        _ => {
            let def = s.doc.def();
            let positions: Vec<Pos2> = def
                .waypoints
                .iter()
                .map(|w| to_scene(w.pos.0, w.pos.2))
                .collect();
            let index: std::collections::HashMap<u32, usize> = def
                .waypoints
                .iter()
                .enumerate()
                .map(|(i, w)| (w.id, i))
                .collect();
            let link_ends = def
                .links
                .iter()
                .map(|l| Some((*index.get(&l.from)?, *index.get(&l.to)?)))
                .collect();
            Geometry {
                revision,
                positions,
                index,
                link_ends,
            }
        }
    };
    let def = s.doc.def();
    let positions = std::mem::take(&mut geometry.positions);
    let index = std::mem::take(&mut geometry.index);
    let cull = visible.expand(10.0 * px);
    let mut links = Mesh::default();
    let arrows = px < 0.25;
    let any_link_selected = s.selection.iter().any(|x| matches!(x, Sel::Link(_)));
    // Crowds join the image: from the live world while it runs, else from
    // the document.
    let live = s.sim.as_ref().is_some_and(|x| x.tick() > 0 || x.playing);
    let crowd: Option<(u64, Vec<crate::raster::CrowdAgent>)> = if !raster {
        None
    } else if live {
        s.sim.as_ref().and_then(|sim| {
            let a = sim.world().agents();
            (a.len() > crate::raster::CROWD_ABOVE).then(|| {
                let agents = (0..a.len())
                    .map(|i| {
                        let p = a.positions()[i];
                        let f = a.facings()[i];
                        let colour = if s.overlays.states {
                            crate::live::state_colour(a.decisions()[i].state)
                        } else {
                            faction_colour(a.factions()[i].index())
                        };
                        let d = Vec2::new(f.x, -f.z);
                        let d = if d.length_sq() > 0.0 {
                            d.normalized()
                        } else {
                            Vec2::X
                        };
                        (to_scene(p.x, p.z), colour, d)
                    })
                    .collect();
                (sim.tick() | (u64::from(s.overlays.states) << 63), agents)
            })
        })
    } else if def.agents.len() > crate::raster::CROWD_ABOVE {
        let faction_of = |name: &str| {
            def.factions
                .iter()
                .position(|f| f.name == name)
                .unwrap_or(0)
        };
        let agents = def
            .agents
            .iter()
            .map(|a| {
                let f = facing_xz(a);
                (
                    to_scene(a.pos.0, a.pos.2),
                    faction_colour(faction_of(&a.faction)),
                    Vec2::new(f.x, -f.y),
                )
            })
            .collect();
        Some((u64::MAX, agents))
    } else {
        None
    };
    s.view.crowd_in_layer = crowd.is_some();
    if raster {
        crate::raster::paint(
            &mut s.view.layer,
            painter,
            def,
            &positions,
            &geometry.link_ends,
            s.view.to_screen,
            visible,
            revision,
            s.heat_map,
            &list,
            (s.grid_step, &grid),
            crowd.as_ref().map(|(k, v)| (*k, v.as_slice())),
        );
    }
    for (i, l) in def.links.iter().enumerate() {
        if raster && !(any_link_selected && s.selection.contains(&Sel::Link(i))) {
            continue;
        }
        let Some(Some((a, b))) = geometry.link_ends.get(i).copied() else {
            continue;
        };
        let (pa, pb) = (positions[a], positions[b]);
        if !cull.intersects(Rect::from_two_pos(pa, pb)) {
            continue;
        }
        let m = l.costs.get(&list).copied().unwrap_or(1.0);
        let selected = any_link_selected && s.selection.contains(&Sel::Link(i));
        let colour = if selected {
            Color32::YELLOW
        } else if s.heat_map {
            heat_colour(m)
        } else {
            Color32::from_gray(120)
        };
        let width =
            if selected { 3.0 } else { 1.5 } * px * if s.heat_map && m != 1.0 { 1.6 } else { 1.0 };
        quad(&mut links, pa, pb, width, colour);
        if arrows && !l.two_way {
            let d = (pb - pa).normalized();
            let tip = pb - d * 6.0 * px;
            let n = Vec2::new(-d.y, d.x);
            let idx = links.vertices.len() as u32;
            links.colored_vertex(tip, colour);
            links.colored_vertex(tip - d * 8.0 * px + n * 4.0 * px, colour);
            links.colored_vertex(tip - d * 8.0 * px - n * 4.0 * px, colour);
            links.add_triangle(idx, idx + 1, idx + 2);
        }
    }
    painter.add(Shape::mesh(links));
    // Walls.
    for (i, w) in def.walls.iter().enumerate() {
        let selected = s.selection.contains(&Sel::Wall(i));
        let colour = if selected {
            Color32::from_rgb(255, 230, 120)
        } else {
            Color32::from_rgb(200, 170, 130)
        };
        let (a, b) = (to_scene(w.from.0, w.from.1), to_scene(w.to.0, w.to.1));
        painter.line_segment([a, b], Stroke::new(3.5 * px, colour));
        if selected {
            painter.circle_filled(a, 4.5 * px, colour);
            painter.circle_filled(b, 4.5 * px, colour);
        }
    }
    // Path preview under the waypoints.
    draw_path(s, painter, px, &index, &positions);
    let def = s.doc.def();
    let mut dots = Mesh::default();
    let hover = s.view.cursor.and_then(|c| waypoint_at(def, c, 8.0 * px));
    let half = 3.0 * px;
    let any_waypoint_selected = s.selection.iter().any(|x| matches!(x, Sel::Waypoint(_)));
    for (i, (w, &p)) in def.waypoints.iter().zip(&positions).enumerate() {
        let selected = any_waypoint_selected && s.selection.contains(&Sel::Waypoint(i));
        if !cull.contains(p) || (raster && !selected) {
            continue;
        }
        let colour = if selected {
            Color32::YELLOW
        } else if !w.active {
            Color32::from_rgb(110, 60, 60)
        } else {
            Color32::from_gray(225)
        };
        dots.add_colored_rect(Rect::from_center_size(p, Vec2::splat(2.0 * half)), colour);
    }
    painter.add(Shape::mesh(dots));
    if let Some(h) = hover {
        painter.circle_stroke(
            positions[h],
            7.0 * px,
            Stroke::new(1.5 * px, Color32::LIGHT_BLUE),
        );
        if px < 0.2 {
            let w = &def.waypoints[h];
            label(
                &mut s.view.labels,
                positions[h] + Vec2::new(0.0, -12.0 * px),
                &w.id.to_string(),
                Color32::LIGHT_BLUE,
            );
        }
    }
    if let Some(from) = s.view.link_from.and_then(|id| index.get(&id)) {
        painter.circle_stroke(
            positions[*from],
            9.0 * px,
            Stroke::new(2.0 * px, Color32::GREEN),
        );
        if let Some(c) = s.view.cursor {
            painter.line_segment([positions[*from], c], Stroke::new(1.0 * px, Color32::GREEN));
        }
    }
    if let Drag::Link { from } = &s.view.drag
        && let (Some(&a), Some(c)) = (index.get(from), s.view.cursor)
    {
        painter.line_segment([positions[a], c], Stroke::new(1.5 * px, Color32::GREEN));
    }
    if s.sim
        .as_ref()
        .is_some_and(|sim| sim.tick() > 0 || sim.playing)
    {
        crate::live_canvas::draw(s, painter, visible, px);
    } else {
        draw_agents(s, painter, visible, px);
    }
    // Tool feedback.
    if let Some(c) = s.view.cursor {
        match s.tool {
            Tool::Paint => {
                painter.circle_stroke(
                    c,
                    s.brush_radius * px,
                    Stroke::new(1.0 * px, Color32::WHITE),
                );
            }
            Tool::Wall | Tool::Region if !s.view.pending.is_empty() => {
                let mut pts: Vec<Pos2> = s
                    .view
                    .pending
                    .iter()
                    .map(|&(x, z)| to_scene(x, z))
                    .collect();
                pts.push(to_scene(snap(s, to_world(c)).0, snap(s, to_world(c)).1));
                painter.add(PathShape::line(
                    pts,
                    Stroke::new(2.0 * px, Color32::from_rgb(255, 200, 80)),
                ));
            }
            _ => {}
        }
    }
    if let (Drag::Box { from }, Some(c)) = (&s.view.drag, s.view.cursor) {
        painter.rect_stroke(
            Rect::from_two_pos(*from, c),
            0.0,
            Stroke::new(1.0 * px, Color32::LIGHT_BLUE),
            egui::StrokeKind::Middle,
        );
    }
}

fn centroid(points: &[Pos2]) -> Option<Pos2> {
    if points.is_empty() {
        return None;
    }
    let sum = points.iter().fold(Vec2::ZERO, |a, p| a + p.to_vec2());
    Some((sum / points.len() as f32).to_pos2())
}

/// Queues a text label at scene point `at`: labels are drawn after the
/// scene, in screen space, so they stay sharp at any zoom.
pub(crate) fn label(
    labels: &mut Vec<(Pos2, String, Color32)>,
    at: Pos2,
    text: &str,
    colour: Color32,
) {
    labels.push((at, text.to_owned(), colour));
}

/// One line of the background grid: its ends in scene coordinates and its
/// colour.
pub(crate) type GridLine = ([Pos2; 2], Color32);

/// The background grid over `visible` (`px`: scene units per point): the
/// finest step of the form `grid_step × 10^k` at least 12 points apart,
/// every tenth line brighter, then the origin's axes.
fn grid_lines(grid_step: f32, visible: Rect, px: f32) -> Vec<GridLine> {
    let mut step = grid_step.max(1e-3);
    while step / px < 12.0 {
        step *= 10.0;
    }
    let (minor, major) = (Color32::from_gray(38), Color32::from_gray(55));
    let lines = |from: f32, to: f32| {
        let first = (from / step).floor() as i64;
        let last = (to / step).ceil() as i64;
        (first..=last).take(400).map(move |k| (k, k as f32 * step))
    };
    let colour = |k: i64| if k % 10 == 0 { major } else { minor };
    let mut out: Vec<GridLine> = lines(visible.min.x, visible.max.x)
        .map(|(k, x)| {
            let ends = [Pos2::new(x, visible.min.y), Pos2::new(x, visible.max.y)];
            (ends, colour(k))
        })
        .chain(lines(visible.min.y, visible.max.y).map(|(k, y)| {
            let ends = [Pos2::new(visible.min.x, y), Pos2::new(visible.max.x, y)];
            (ends, colour(k))
        }))
        .collect();
    out.push((
        [Pos2::new(0.0, visible.min.y), Pos2::new(0.0, visible.max.y)],
        Color32::from_rgb(60, 90, 60),
    ));
    out.push((
        [Pos2::new(visible.min.x, 0.0), Pos2::new(visible.max.x, 0.0)],
        Color32::from_rgb(90, 60, 60),
    ));
    out
}

fn draw_sight_tiles(s: &mut State, painter: &egui::Painter) {
    let Some(sight) = s.sight() else {
        return;
    };
    let mut mesh = Mesh::default();
    let colour = Color32::from_rgba_unmultiplied(80, 220, 120, 40);
    for &(c, side) in &sight.tiles {
        mesh.add_colored_rect(
            Rect::from_center_size(to_scene(c.x, c.y), Vec2::splat(side * 0.92)),
            colour,
        );
    }
    painter.add(Shape::mesh(mesh));
}

fn draw_path(
    s: &mut State,
    painter: &egui::Painter,
    px: f32,
    index: &std::collections::HashMap<u32, usize>,
    positions: &[Pos2],
) {
    let picks = s.path_pick;
    for (id, colour) in [(picks.0, Color32::GREEN), (picks.1, Color32::RED)] {
        if let Some(&i) = id.and_then(|id| index.get(&id)) {
            painter.circle_stroke(positions[i], 10.0 * px, Stroke::new(2.5 * px, colour));
        }
    }
    let Some(preview) = s.path_preview().cloned() else {
        return;
    };
    let route = |ids: &[u32]| -> Vec<Pos2> {
        ids.iter()
            .filter_map(|id| index.get(id).map(|&i| positions[i]))
            .collect()
    };
    let greedy = route(&preview.greedy);
    if greedy.len() >= 2 {
        painter.add(PathShape::line(
            greedy,
            Stroke::new(6.0 * px, Color32::from_rgba_unmultiplied(255, 160, 40, 150)),
        ));
    }
    let astar = route(&preview.astar);
    if astar.len() >= 2 {
        painter.add(PathShape::line(
            astar,
            Stroke::new(3.0 * px, Color32::from_rgb(80, 230, 120)),
        ));
    }
}

fn draw_agents(s: &mut State, painter: &egui::Painter, visible: Rect, px: f32) {
    let selected_agent = s.selected_agent();
    let sight = if s.show_sight {
        s.sight().map(|v| v.agents.clone())
    } else {
        None
    };
    let def = s.doc.def();
    // Senses of the selected agent under the agents.
    if let Some(i) = selected_agent {
        draw_agent_senses(def, i, painter, px, &mut s.view.labels);
    }
    let faction_of = |name: &str| {
        def.factions
            .iter()
            .position(|f| f.name == name)
            .unwrap_or(0)
    };
    let cull = visible.expand(20.0 * px);
    let many = def.agents.len() > 300;
    let mut mesh = Mesh::default();
    for (i, a) in def.agents.iter().enumerate() {
        let p = to_scene(a.pos.0, a.pos.2);
        if !cull.contains(p) {
            continue;
        }
        let colour = faction_colour(faction_of(&a.faction));
        let f = facing_xz(a);
        let fd = Vec2::new(f.x, -f.y);
        if many && s.view.crowd_in_layer {
            // Drawn into the map image.
        } else if many {
            // A triangle pointing along the facing: one mesh for all.
            let n = Vec2::new(-fd.y, fd.x);
            let idx = mesh.vertices.len() as u32;
            mesh.colored_vertex(p + fd * 7.0 * px, colour);
            mesh.colored_vertex(p - fd * 4.0 * px + n * 4.5 * px, colour);
            mesh.colored_vertex(p - fd * 4.0 * px - n * 4.5 * px, colour);
            mesh.add_triangle(idx, idx + 1, idx + 2);
        } else {
            painter.circle_filled(p, 5.0 * px, colour);
            painter.line_segment([p, p + fd * 11.0 * px], Stroke::new(2.0 * px, colour));
            if px < 0.5 {
                label(
                    &mut s.view.labels,
                    p + Vec2::new(0.0, 12.0 * px),
                    &a.name,
                    Color32::from_gray(200),
                );
            }
        }
        if let Some(seen) = &sight
            && seen.get(i).is_some_and(|v| !v.is_empty())
        {
            painter.circle_stroke(
                p,
                9.0 * px,
                Stroke::new(2.0 * px, Color32::from_rgb(80, 240, 120)),
            );
        }
        if s.selection.contains(&Sel::Agent(i)) {
            painter.circle_stroke(p, 7.5 * px, Stroke::new(2.0 * px, Color32::WHITE));
        }
    }
    painter.add(Shape::mesh(mesh));
    if let Some(i) = selected_agent {
        for h in handles(def, i) {
            let p = to_scene(h.at.0, h.at.1);
            let colour = if h.sense.is_none() {
                Color32::WHITE
            } else {
                Color32::from_rgb(255, 220, 90)
            };
            painter.circle_filled(p, 4.5 * px, colour);
            painter.circle_stroke(p, 4.5 * px, Stroke::new(1.0 * px, Color32::BLACK));
        }
    }
}

/// Points along an arc around `c` from `from` to `to` (radians, X-Z
/// angles), in scene coordinates.
fn arc(c: Vec2, r: f32, from: f32, to: f32, steps: usize) -> Vec<Pos2> {
    (0..=steps)
        .map(|k| {
            let t = from + (to - from) * k as f32 / steps as f32;
            let v = c + Vec2::new(t.cos(), t.sin()) * r;
            to_scene(v.x, v.y)
        })
        .collect()
}

fn draw_agent_senses(
    def: &ContentDef,
    index: usize,
    painter: &egui::Painter,
    px: f32,
    labels: &mut Vec<(Pos2, String, Color32)>,
) {
    let Some(agent) = def.agents.get(index) else {
        return;
    };
    let Some(archetype) = def.archetypes.get(&agent.archetype) else {
        return;
    };
    let eye = Vec2::new(agent.pos.0, agent.pos.2);
    draw_senses(archetype, eye, facing_xz(agent), painter, px, labels);
}

/// Draws `archetype`'s senses for an agent at world X-Z `eye` facing the
/// unit X-Z direction `f`.
pub(crate) fn draw_senses(
    archetype: &ArchetypeDef,
    eye: Vec2,
    f: Vec2,
    painter: &egui::Painter,
    px: f32,
    labels: &mut Vec<(Pos2, String, Color32)>,
) {
    let heading = f.y.atan2(f.x);
    for (s, sense) in archetype.senses.iter().enumerate() {
        let hue = [
            Color32::from_rgb(120, 200, 255),
            Color32::from_rgb(255, 190, 90),
            Color32::from_rgb(200, 140, 255),
            Color32::from_rgb(140, 255, 170),
        ][s % 4];
        let fill = Color32::from_rgba_unmultiplied(hue.r(), hue.g(), hue.b(), 28);
        let stroke = Stroke::new(1.5 * px, hue);
        let outline: Vec<Pos2> = match sense.shape {
            ShapeDef::Sphere { radius } => arc(eye, radius, 0.0, std::f32::consts::TAU, 64),
            ShapeDef::Cone { range, fov_deg } | ShapeDef::Sector { range, fov_deg, .. } => {
                let half = (fov_deg * 0.5).to_radians();
                let mut pts = vec![to_scene(eye.x, eye.y)];
                pts.extend(arc(eye, range, heading - half, heading + half, 48));
                pts
            }
            ShapeDef::Ellipse { a, b, center_ahead } => {
                let c = eye + f * center_ahead;
                let side = rotate(f, std::f32::consts::FRAC_PI_2);
                (0..=64)
                    .map(|k| {
                        let t = k as f32 / 64.0 * std::f32::consts::TAU;
                        let v = c + f * a * t.cos() + side * b * t.sin();
                        to_scene(v.x, v.y)
                    })
                    .collect()
            }
            ShapeDef::Hearing { threshold, falloff } => {
                let r = hearing_radius(threshold, falloff);
                let pts = arc(eye, r, 0.0, std::f32::consts::TAU, 64);
                for pair in pts.chunks(2) {
                    if let [a, b] = pair {
                        painter.line_segment([*a, *b], stroke);
                    }
                }
                continue;
            }
        };
        // Fill as a fan from the eye or the centre: every shape here is
        // star-shaped around it.
        let centre = match sense.shape {
            ShapeDef::Ellipse { center_ahead, .. } => {
                let c = eye + f * center_ahead;
                to_scene(c.x, c.y)
            }
            _ => to_scene(eye.x, eye.y),
        };
        let mut mesh = Mesh::default();
        mesh.colored_vertex(centre, fill);
        for p in &outline {
            mesh.colored_vertex(*p, fill);
        }
        for k in 1..outline.len() as u32 {
            mesh.add_triangle(0, k, k + 1);
        }
        painter.add(Shape::mesh(mesh));
        painter.add(PathShape::closed_line(outline, stroke));
        if px < 0.3 {
            let (x, z) = match sense.shape {
                ShapeDef::Cone { range, .. } | ShapeDef::Sector { range, .. } => {
                    let v = eye + f * range * 0.6;
                    (v.x, v.y)
                }
                _ => (eye.x, eye.y),
            };
            label(
                labels,
                to_scene(x, z) + Vec2::new(0.0, -10.0 * px),
                &sense.name,
                hue,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_lines_are_at_least_twelve_points_apart_and_end_with_the_axes() {
        // 1 scene unit per point: a 1-unit grid would be 1 point apart, so
        // the step grows to 100 (10 is still under 12 points).
        let visible = Rect::from_min_max(Pos2::new(-5.0, 0.0), Pos2::new(995.0, 500.0));
        let lines = grid_lines(1.0, visible, 1.0);
        let (grid, axes) = lines.split_at(lines.len() - 2);
        let xs: Vec<f32> = grid
            .iter()
            .filter(|(e, _)| e[0].x == e[1].x)
            .map(|(e, _)| e[0].x)
            .collect();
        assert_eq!(xs, (-1..=10).map(|k| k as f32 * 100.0).collect::<Vec<_>>());
        assert_eq!(grid.len() - xs.len(), 6, "horizontal lines 0, 100, …, 500");
        assert_eq!(grid[1].1, Color32::from_gray(55), "x = 0 is a major line");
        assert_eq!(grid[2].1, Color32::from_gray(38));
        assert_eq!(axes[0].0, [Pos2::new(0.0, 0.0), Pos2::new(0.0, 500.0)]);
        assert_eq!(axes[1].0, [Pos2::new(-5.0, 0.0), Pos2::new(995.0, 0.0)]);
    }
}
