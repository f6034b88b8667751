//! Previews: the tiles the selected agent senses, the route preview of
//! the path tool, and tool feedback (brush, walls and regions under way,
//! the link being drawn, box selection).

use eframe::egui::{Mesh, Pos2, Rect, Shape, Vec2, epaint::PathShape};

use crate::model::analysis::{PathPreview, Sight};
use crate::views::canvas::layers::network::Geometry;
use crate::views::canvas::paint::{Paint, to_scene};

/// The tiles `sight` covers, in one translucent mesh (adjacent tiles
/// touch: no seams).
pub fn sight_tiles(p: &mut Paint<'_>, sight: &Sight) {
    let mut mesh = Mesh::default();
    let cull = p.cull(20.0);
    for &(c, side) in &sight.tiles {
        let at = to_scene(c.x, c.y);
        if cull.contains(at) {
            mesh.add_colored_rect(
                Rect::from_center_size(at, Vec2::splat(side)),
                p.palette.sight,
            );
        }
    }
    p.painter.add(Shape::mesh(mesh));
}

/// The path tool's picks and its A* (solid) and greedy (wide, under it)
/// routes.
pub fn path(
    p: &mut Paint<'_>,
    picks: (Option<u32>, Option<u32>),
    preview: Option<&PathPreview>,
    g: &Geometry,
) {
    for (id, colour) in [
        (picks.0, p.palette.path_ends[0]),
        (picks.1, p.palette.path_ends[1]),
    ] {
        if let Some(&i) = id.and_then(|id| g.index.get(&id)) {
            p.painter
                .circle_stroke(g.positions[i], 10.0 * p.px, p.stroke(2.5, colour));
        }
    }
    let Some(preview) = preview else { return };
    let route = |ids: &[u32]| -> Vec<Pos2> {
        ids.iter()
            .filter_map(|id| g.index.get(id).map(|&i| g.positions[i]))
            .collect()
    };
    let greedy = route(&preview.greedy);
    if greedy.len() >= 2 {
        let c = p.palette.path_greedy.gamma_multiply(0.6);
        p.painter.add(PathShape::line(greedy, p.stroke(6.0, c)));
    }
    let astar = route(&preview.astar);
    if astar.len() >= 2 {
        p.painter
            .add(PathShape::line(astar, p.stroke(3.0, p.palette.path_astar)));
    }
}

/// What a tool under way shows.
pub enum Feedback {
    /// The paint brush at the cursor, radius in screen points.
    Brush(Pos2, f32),
    /// Corners placed so far and the cursor.
    Corners(Vec<Pos2>),
    /// A link being drawn from a waypoint to the cursor.
    Link(Pos2, Pos2),
    /// A box selection.
    Box(Rect),
}

/// Draws `feedback`.
pub fn tool(p: &mut Paint<'_>, feedback: &Feedback) {
    let c = p.palette.tool;
    match feedback {
        Feedback::Brush(at, r) => {
            p.painter.circle_stroke(*at, r * p.px, p.stroke(1.0, c));
        }
        Feedback::Corners(points) => {
            p.painter.add(PathShape::line(
                points.clone(),
                p.stroke(2.0, p.palette.selected),
            ));
        }
        Feedback::Link(from, to) => {
            p.painter
                .circle_stroke(*from, 9.0 * p.px, p.stroke(2.0, p.palette.path_astar));
            p.painter
                .line_segment([*from, *to], p.stroke(1.5, p.palette.path_astar));
        }
        Feedback::Box(rect) => {
            p.painter.rect_stroke(
                *rect,
                0.0,
                p.stroke(1.0, p.palette.hover),
                eframe::egui::StrokeKind::Middle,
            );
        }
    }
}

/// The Generate waypoints panel's preview: the net's links as thin lines
/// and its generated waypoints as rings, in the preview colour (hand-placed
/// waypoints, kept, are drawn by the map already).
pub fn navgen(p: &mut Paint<'_>, net: &kiai_nav::navgen::GeneratedNet) {
    let colour = p.palette.navgen_preview;
    let at = |i: u32| {
        let v = net.points[i as usize];
        to_scene(v.x, v.y)
    };
    let cull = p.cull(10.0);
    let thin = p.stroke(1.0, colour.gamma_multiply(0.7));
    for l in &net.links {
        let (a, b) = (at(l.a), at(l.b));
        if cull.contains(a) || cull.contains(b) {
            p.painter.line_segment([a, b], thin);
        }
    }
    let ring = p.stroke(1.5, colour);
    for i in net.fixed..net.points.len() {
        let c = at(i as u32);
        if cull.contains(c) {
            p.painter.circle_stroke(c, 3.5 * p.px, ring);
        }
    }
}
