//! The ground: grid, bounds, regions and walls.

use eframe::egui::{Color32, Pos2, Rect, epaint::PathShape};
use kiai_content::def::ContentDef;

use crate::model::{Sel, Selection};
use crate::views::canvas::labels::{Priority, Request};
use crate::views::canvas::paint::{Paint, to_scene};

/// One line of the background grid: its ends in scene coordinates and its
/// colour.
pub type GridLine = ([Pos2; 2], Color32);

/// The background grid over `visible` (`px`: scene units per point): the
/// finest step of the form `grid_step × 10^k` at least 12 points apart,
/// every tenth line brighter, then the origin's axes (x = 0, then z = 0).
pub fn grid_lines(grid_step: f32, visible: Rect, px: f32, colours: &GridColours) -> Vec<GridLine> {
    let mut step = grid_step.max(1e-3);
    while step / px < 12.0 {
        step *= 10.0;
    }
    let [minor, major] = colours.lines;
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
        colours.axes[1],
    ));
    out.push((
        [Pos2::new(visible.min.x, 0.0), Pos2::new(visible.max.x, 0.0)],
        colours.axes[0],
    ));
    out
}

/// The grid's colours: lines (every, every tenth) and axes (z = 0, x = 0).
pub struct GridColours {
    /// Every line, every tenth line.
    pub lines: [Color32; 2],
    /// The X axis (z = 0) and the Z axis (x = 0).
    pub axes: [Color32; 2],
}

/// Draws grid lines one point wide.
pub fn grid(p: &mut Paint<'_>, lines: &[GridLine]) {
    for &(ends, colour) in lines {
        p.painter.line_segment(ends, p.stroke(1.0, colour));
    }
}

/// The content's bounds.
pub fn bounds(p: &mut Paint<'_>, def: &ContentDef) {
    if let Some(b) = def.bounds {
        p.painter.rect_stroke(
            Rect::from_two_pos(to_scene(b.min.0, b.min.2), to_scene(b.max.0, b.max.2)),
            0.0,
            p.stroke(1.5, p.palette.bounds),
            eframe::egui::StrokeKind::Middle,
        );
    }
}

fn centroid(points: &[Pos2]) -> Option<Pos2> {
    if points.is_empty() {
        return None;
    }
    let sum = points
        .iter()
        .fold(eframe::egui::Vec2::ZERO, |a, p| a + p.to_vec2());
    Some((sum / points.len() as f32).to_pos2())
}

/// Region outlines, names, and the corners of selected regions.
pub fn regions(p: &mut Paint<'_>, def: &ContentDef, selection: &Selection) {
    for (i, r) in def.regions.iter().enumerate() {
        let selected = selection.contains(&Sel::Region(i));
        let points: Vec<Pos2> = r.polygon.iter().map(|&(x, z)| to_scene(x, z)).collect();
        let colour = if selected {
            p.palette.selected
        } else {
            p.palette.region
        };
        p.painter.add(PathShape::closed_line(
            points.clone(),
            p.stroke(1.5, colour),
        ));
        if let Some(c) = centroid(&points) {
            p.labels.add(Request {
                anchor: p.screen(c),
                clearance: 0.0,
                text: r.name.clone(),
                colour,
                priority: Priority::Region,
            });
        }
        if selected {
            for q in &points {
                p.painter.circle_filled(*q, 4.0 * p.px, colour);
            }
        }
    }
}

/// Walls; doors in their own colour, dashed while open; the ends of
/// selected walls.
pub fn walls(p: &mut Paint<'_>, def: &ContentDef, selection: &Selection) {
    for (i, w) in def.walls.iter().enumerate() {
        let selected = selection.contains(&Sel::Wall(i));
        let colour = if selected {
            p.palette.selected
        } else if w.door {
            p.palette.door
        } else {
            p.palette.wall
        };
        let (a, b) = (to_scene(w.from.0, w.from.1), to_scene(w.to.0, w.to.1));
        if w.door && w.open {
            let dashes = eframe::egui::Shape::dashed_line(
                &[a, b],
                p.stroke(3.5, colour),
                6.0 * p.px,
                5.0 * p.px,
            );
            p.painter.extend(dashes);
        } else {
            p.painter.line_segment([a, b], p.stroke(3.5, colour));
        }
        if selected {
            p.painter.circle_filled(a, 4.5 * p.px, colour);
            p.painter.circle_filled(b, 4.5 * p.px, colour);
        }
        if let Some(name) = &w.name {
            p.labels.add(Request {
                anchor: p.screen(a.lerp(b, 0.5)),
                clearance: 4.0,
                text: name.clone(),
                colour,
                priority: Priority::Region,
            });
        }
    }
}
