//! The waypoint network: links (coloured by the current cost list's
//! multiplier when the heat map is on, arrows on one-way links when zoomed
//! in), waypoints (inactive ones as a ring with a cross, as visible as
//! active ones) and waypoint names.

use std::collections::HashMap;

use eframe::egui::{Mesh, Pos2, Rect, Shape, Vec2};
use kiai_content::def::ContentDef;

use crate::model::{Sel, Selection};
use crate::views::canvas::labels::{Priority, Request};
use crate::views::canvas::paint::{Paint, to_scene};

/// Waypoint positions and link ends of one document revision, so frames
/// that only redraw do not rebuild them.
#[derive(Clone, Debug, Default)]
pub struct Geometry {
    /// The revision they describe.
    pub revision: u64,
    /// Scene position of each waypoint, in content order.
    pub positions: Vec<Pos2>,
    /// Content id → index.
    pub index: HashMap<u32, usize>,
    /// Each link's waypoint indices, if both exist.
    pub link_ends: Vec<Option<(usize, usize)>>,
}

impl Geometry {
    /// The geometry of `def` at `revision`.
    pub fn of(def: &ContentDef, revision: u64) -> Self {
        let positions = def
            .waypoints
            .iter()
            .map(|w| to_scene(w.pos.0, w.pos.2))
            .collect();
        let index: HashMap<u32, usize> = def
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
        Self {
            revision,
            positions,
            index,
            link_ends,
        }
    }
}

/// What the network layer draws.
pub struct Network<'a> {
    /// The content.
    pub def: &'a ContentDef,
    /// Its geometry.
    pub geometry: &'a Geometry,
    /// The selection.
    pub selection: &'a Selection,
    /// Colour links by the multiplier of `list`.
    pub heat: bool,
    /// The current cost list.
    pub list: &'a str,
    /// Links and waypoints are in the map image: draw only the selected
    /// ones.
    pub raster: bool,
    /// The waypoint under the pointer.
    pub hover: Option<usize>,
}

fn quad(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, colour: eframe::egui::Color32) {
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

/// Links, in one mesh.
pub fn links(p: &mut Paint<'_>, n: &Network<'_>) {
    let cull = p.cull(10.0);
    let arrows = p.px < 0.25;
    let any_selected = n.selection.any_like(Sel::Link(0));
    let mut mesh = Mesh::default();
    for (i, l) in n.def.links.iter().enumerate() {
        let selected = any_selected && n.selection.contains(&Sel::Link(i));
        if n.raster && !selected {
            continue;
        }
        let Some(Some((a, b))) = n.geometry.link_ends.get(i).copied() else {
            continue;
        };
        let (pa, pb) = (n.geometry.positions[a], n.geometry.positions[b]);
        if !cull.intersects(Rect::from_two_pos(pa, pb)) {
            continue;
        }
        let m = l.costs.get(n.list).copied().unwrap_or(1.0);
        let colour = if selected {
            p.palette.selected
        } else if n.heat {
            p.palette.heat(m)
        } else {
            p.palette.link
        };
        let wide = if n.heat && m != 1.0 { 1.8 } else { 1.0 };
        let width = if selected { 3.0 } else { 1.5 } * p.px * wide;
        quad(&mut mesh, pa, pb, width, colour);
        if arrows && !l.two_way {
            let d = (pb - pa).normalized();
            let tip = pb - d * 6.0 * p.px;
            let side = Vec2::new(-d.y, d.x);
            let k = mesh.vertices.len() as u32;
            mesh.colored_vertex(tip, colour);
            mesh.colored_vertex(tip - d * 8.0 * p.px + side * 4.0 * p.px, colour);
            mesh.colored_vertex(tip - d * 8.0 * p.px - side * 4.0 * p.px, colour);
            mesh.add_triangle(k, k + 1, k + 2);
        }
    }
    p.painter.add(Shape::mesh(mesh));
}

/// Waypoints, in one mesh: active ones as squares, inactive ones as a ring
/// with a cross; the hovered one ringed; names as labels.
pub fn waypoints(p: &mut Paint<'_>, n: &Network<'_>) {
    let cull = p.cull(10.0);
    let any_selected = n.selection.any_like(Sel::Waypoint(0));
    let mut dots = Mesh::default();
    let half = 3.0 * p.px;
    for (i, (w, &at)) in n
        .def
        .waypoints
        .iter()
        .zip(&n.geometry.positions)
        .enumerate()
    {
        if !cull.contains(at) {
            continue;
        }
        let selected = any_selected && n.selection.contains(&Sel::Waypoint(i));
        if let Some(name) = &w.name {
            p.labels.add(Request {
                anchor: p.screen(at),
                clearance: 5.0,
                text: name.clone(),
                colour: p.palette.text_weak,
                priority: Priority::Waypoint,
            });
        }
        if n.raster && !selected {
            continue;
        }
        if !w.active {
            inactive(p, &mut dots, at, selected);
            continue;
        }
        // Generated waypoints: smaller and in their own colour, so the
        // designer's own stand out.
        let generated = kiai_content::navgen::is_generated(w);
        let colour = match (selected, generated) {
            (true, _) => p.palette.selected,
            (false, true) => p.palette.waypoint_generated,
            (false, false) => p.palette.waypoint,
        };
        let side = if generated { 1.4 * half } else { 2.0 * half };
        dots.add_colored_rect(Rect::from_center_size(at, Vec2::splat(side)), colour);
    }
    p.painter.add(Shape::mesh(dots));
    if let Some(h) = n.hover
        && let Some(&at) = n.geometry.positions.get(h)
    {
        p.painter
            .circle_stroke(at, 7.0 * p.px, p.stroke(1.5, p.palette.hover));
        let w = &n.def.waypoints[h];
        let text = match &w.name {
            Some(name) => format!("{} {name}", w.id),
            None => w.id.to_string(),
        };
        p.labels.add(Request {
            anchor: p.screen(at),
            clearance: 8.0,
            text,
            colour: p.palette.hover,
            priority: Priority::Focus,
        });
    }
}

/// An inactive waypoint: a ring with a cross, 5 points across.
fn inactive(p: &Paint<'_>, mesh: &mut Mesh, at: Pos2, selected: bool) {
    let colour = if selected {
        p.palette.selected
    } else {
        p.palette.waypoint_inactive
    };
    let r = 5.0 * p.px;
    let w = 1.6 * p.px;
    let steps = 16;
    for k in 0..steps {
        let a0 = k as f32 / steps as f32 * std::f32::consts::TAU;
        let a1 = (k + 1) as f32 / steps as f32 * std::f32::consts::TAU;
        let q0 = at + Vec2::new(a0.cos(), a0.sin()) * r;
        let q1 = at + Vec2::new(a1.cos(), a1.sin()) * r;
        quad(mesh, q0, q1, w, colour);
    }
    let d = r * 0.75;
    quad(
        mesh,
        at + Vec2::new(-d, -d),
        at + Vec2::new(d, d),
        w,
        colour,
    );
    quad(
        mesh,
        at + Vec2::new(-d, d),
        at + Vec2::new(d, -d),
        w,
        colour,
    );
}
