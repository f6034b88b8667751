//! How the run moves bodies, on the map: each agent's body as a circle of
//! its archetype's radius (world units), the velocity steering asked for
//! (preferred) against the one avoidance chose where the two differ, and
//! the smoothed routes of waypoint walkers that cut corners.
//!
//! Routes lie under the agents' glyphs ([`routes`]); bodies and velocities
//! over them ([`bodies`]): glyphs never shrink below 8 points, so at the
//! usual zoom a body of radius 0.5 is a ring inside its glyph (on a halo of
//! the label background, readable on every fill), and the velocity arrows start at
//! the glyph's edge.

use eframe::egui::{self, Color32, Pos2, Vec2, epaint::PathShape};
use kiai_core::Movement;
use kiai_core::glam::Vec3;

use crate::model::Overlays;
use crate::model::sim::Sim;
use crate::views::canvas::glyph;
use crate::views::canvas::paint::{Paint, dir_to_scene, to_scene};

/// Preferred and chosen velocities closer than this (world units per
/// second) count as the same: avoidance left the agent alone.
pub const SAME_VELOCITY: f32 = 0.05;

/// Arrowheads are this long on screen, in points.
const HEAD: f32 = 6.0;

fn p2(v: Vec3) -> Pos2 {
    to_scene(v.x, v.z)
}

/// The smoothed routes (under the agents' glyphs); `selected` alone gets
/// its route when an agent is selected, as with the waypoint routes.
pub fn routes(p: &mut Paint<'_>, sim: &Sim, o: &Overlays, selected: Option<usize>) {
    if o.smoothed {
        smoothed_routes(p, sim, selected);
    }
}

/// Bodies and the preferred and chosen velocities (over the glyphs).
pub fn bodies(p: &mut Paint<'_>, sim: &Sim, o: &Overlays) {
    if !(o.bodies || o.avoidance) {
        return;
    }
    let world = sim.world();
    let agents = world.agents();
    let preferred = world.preferred_velocities();
    let cull = p.cull(40.0);
    let edge = glyph::radius(p.zoom()) * p.px;
    let (halo, light) = (
        p.stroke(3.5, p.palette.label_back),
        p.stroke(1.5, p.palette.body),
    );
    for i in 0..agents.len() {
        let at = p2(agents.positions()[i]);
        if !agents.alive()[i] || !cull.contains(at) {
            continue;
        }
        if o.bodies {
            let radius = world.archetypes()[agents.archetypes()[i].index()].radius;
            p.painter.circle_stroke(at, radius, halo);
            p.painter.circle_stroke(at, radius, light);
        }
        if o.avoidance {
            let chosen = agents.velocities()[i];
            let wanted = preferred.get(i).copied().unwrap_or(chosen);
            if (wanted - chosen).length() > SAME_VELOCITY {
                arrow(p, (at, edge), wanted, p.palette.velocity_preferred);
                arrow(p, (at, edge), chosen, p.palette.velocity_chosen);
            }
        }
    }
}

/// An arrow along velocity `v`, from the edge of the glyph of radius
/// `edge` (scene units) around `at`, as long as one second of travel.
fn arrow(p: &Paint<'_>, (at, edge): (Pos2, f32), v: Vec3, colour: Color32) {
    let d: Vec2 = dir_to_scene(v.x, v.z);
    let length = d.length();
    if length <= f32::EPSILON {
        return;
    }
    let from = at + d / length * edge;
    let tip = from + d;
    p.painter.line_segment([from, tip], p.stroke(2.0, colour));
    let head = (HEAD * p.px).min(length * 0.5);
    let back = -d / length * head;
    let side = egui::vec2(-back.y, back.x) * 0.5;
    p.painter.add(PathShape::convex_polygon(
        vec![tip, tip + back + side, tip + back - side],
        colour,
        egui::Stroke::NONE,
    ));
}

/// The way each smoothing walker takes now: straight to the point it heads
/// for (`direct`) when it has one, else to its next waypoint and on along
/// its remaining A* route.
fn smoothed_routes(p: &mut Paint<'_>, sim: &Sim, selected: Option<usize>) {
    let world = sim.world();
    let Some(nav) = world.nav() else { return };
    let agents = world.agents();
    let smooths = |i: usize| {
        matches!(
            world.archetypes()[agents.archetypes()[i].index()].movement,
            Movement::WaypointWalker { smooth: true, .. }
        )
    };
    for (i, state) in world.nav_states().iter().enumerate() {
        if selected.is_some_and(|s| s != i) || !agents.alive()[i] || !smooths(i) {
            continue;
        }
        let mut pts = vec![p2(agents.positions()[i])];
        if let Some(direct) = state.direct {
            pts.push(p2(direct));
        } else {
            pts.extend(state.next.and_then(|w| nav.pos(w)).map(p2));
            // The route keeps its first hop last.
            pts.extend(state.route.iter().rev().filter_map(|w| nav.pos(*w)).map(p2));
        }
        if pts.len() >= 2 {
            p.painter
                .add(PathShape::line(pts, p.stroke(2.0, p.palette.route_smooth)));
        }
    }
}
