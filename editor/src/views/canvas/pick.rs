//! What is under a point of the map: agents first, then waypoints,
//! walls, links, regions.

use eframe::egui::Pos2;
use kiai_content::def::ContentDef;

use super::paint::to_scene;
use crate::model::Sel;

/// Distance from `p` to the segment `a`-`b`
/// ([`kiai_nav::point_segment_distance`] on scene points).
pub fn segment_distance(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let v = |p: Pos2| kiai_core::glam::Vec2::new(p.x, p.y);
    kiai_nav::point_segment_distance(v(p), v(a), v(b))
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
/// the nearer of the nearest waypoint and wall (the waypoint on a tie:
/// one standing on a wall's end is picked over the wall), then links,
/// regions. Nearer, not waypoints first: generated waypoints stand half
/// a unit from walls, and a click on a wall's line must pick the wall.
pub fn pick_objects(def: &ContentDef, p: Pos2, r: f32) -> Option<Sel> {
    let waypoint = nearest(
        (p, r),
        def.waypoints
            .iter()
            .enumerate()
            .map(|(i, w)| (i, to_scene(w.pos.0, w.pos.2))),
    )
    .map(|i| {
        let w = &def.waypoints[i];
        (i, to_scene(w.pos.0, w.pos.2).distance(p))
    });
    let seg =
        |a: (f32, f32), b: (f32, f32)| segment_distance(p, to_scene(a.0, a.1), to_scene(b.0, b.1));
    let wall = def
        .walls
        .iter()
        .enumerate()
        .map(|(i, w)| (i, seg(w.from, w.to)))
        .filter(|(_, d)| *d <= r)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    match (waypoint, wall) {
        (Some((_, dw)), Some((k, dk))) if dk < dw => return Some(Sel::Wall(k)),
        (Some((w, _)), _) => return Some(Sel::Waypoint(w)),
        (None, Some((k, _))) => return Some(Sel::Wall(k)),
        (None, None) => {}
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_on_a_walls_line_picks_the_wall_not_the_waypoint_beside_it() {
        let mut def = crate::model::doc::empty_def();
        def.walls.push(kiai_content::def::WallDef {
            from: (0.0, 0.0),
            to: (10.0, 0.0),
            height: 3.0,
            name: None,
            door: false,
            open: false,
        });
        def.waypoints.push(kiai_content::def::WaypointDef {
            id: 1,
            pos: (5.0, 0.0, 0.5),
            active: true,
            name: None,
            tags: vec!["generated".into()],
        });
        let r = 1.0;
        assert_eq!(
            pick_objects(&def, to_scene(5.0, 0.0), r),
            Some(Sel::Wall(0))
        );
        assert_eq!(
            pick_objects(&def, to_scene(5.0, 0.5), r),
            Some(Sel::Waypoint(0))
        );
        // A waypoint on the wall's end wins the tie.
        def.waypoints[0].pos = (10.0, 0.0, 0.0);
        assert_eq!(
            pick_objects(&def, to_scene(10.0, 0.0), r),
            Some(Sel::Waypoint(0))
        );
    }
}
