//! What is under a point of the map: agents first, then waypoints,
//! walls, links, regions.

use eframe::egui::Pos2;
use kiai_content::def::ContentDef;

use super::paint::to_scene;
use crate::model::Sel;

/// Distance from `p` to the segment `a`-`b`.
pub fn segment_distance(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = if ab.length_sq() > 0.0 {
        ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

/// The index of the point of `points` nearest to `p`, if one lies within
/// `r` (scene units).
fn nearest((p, r): (Pos2, f32), points: impl Iterator<Item = (usize, Pos2)>) -> Option<usize> {
    points
        .map(|(i, q)| (i, q.distance_sq(p)))
        .filter(|(_, d)| *d <= r * r)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The object under scene point `p` within `r` scene units: agents first,
/// then waypoints, walls, links, regions.
pub fn pick(def: &ContentDef, p: Pos2, r: f32) -> Option<Sel> {
    if let Some(i) = nearest(
        (p, r),
        def.agents
            .iter()
            .enumerate()
            .map(|(i, a)| (i, to_scene(a.pos.0, a.pos.2))),
    ) {
        return Some(Sel::Agent(i));
    }
    pick_objects(def, p, r)
}

/// The object other than an agent under scene point `p` within `r`:
/// waypoints, then walls, links, regions.
pub fn pick_objects(def: &ContentDef, p: Pos2, r: f32) -> Option<Sel> {
    if let Some(i) = nearest(
        (p, r),
        def.waypoints
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

/// The waypoint nearest scene point `p` within `r` scene units.
pub fn waypoint_at(def: &ContentDef, p: Pos2, r: f32) -> Option<usize> {
    def.waypoints
        .iter()
        .enumerate()
        .map(|(i, w)| (i, to_scene(w.pos.0, w.pos.2).distance_sq(p)))
        .filter(|(_, d)| *d <= r * r)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The links within `radius` scene units of `p` (indices).
pub fn links_near(def: &ContentDef, p: Pos2, radius: f32) -> Vec<usize> {
    let positions: std::collections::HashMap<u32, Pos2> = def
        .waypoints
        .iter()
        .map(|w| (w.id, to_scene(w.pos.0, w.pos.2)))
        .collect();
    def.links
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let (a, b) = (positions.get(&l.from)?, positions.get(&l.to)?);
            (segment_distance(p, *a, *b) <= radius).then_some(i)
        })
        .collect()
}
