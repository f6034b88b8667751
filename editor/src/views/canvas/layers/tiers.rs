//! The "LOD tiers" layer while the run plays: a ring around each agent in
//! its tick level of detail tier's colour (thick when it thought this
//! tick, thin while its decision is held), and a cross on every point of
//! interest (the content's, and the agents that are points of interest).
//! Nothing is drawn when no archetype has tiers.

use eframe::egui::{Color32, Pos2, vec2};
use kiai_core::World;

use crate::model::sim::Sim;
use crate::views::canvas::glyph;
use crate::views::canvas::paint::{Paint, to_scene};

/// Tier colours, nearest first; farther tiers reuse the last.
const TIERS: [Color32; 6] = [
    Color32::from_rgb(46, 204, 113),
    Color32::from_rgb(241, 196, 15),
    Color32::from_rgb(231, 76, 60),
    Color32::from_rgb(155, 89, 182),
    Color32::from_rgb(52, 152, 219),
    Color32::from_rgb(149, 165, 166),
];

/// The colour of a point of interest's cross.
pub const INTEREST: Color32 = Color32::from_rgb(0, 200, 230);

/// The colour of tier `k`.
pub fn colour(k: usize) -> Color32 {
    TIERS[k.min(TIERS.len() - 1)]
}

/// Ring width, screen points, of an agent that thought this tick and of
/// one whose decision is held.
const THINKING: f32 = 2.5;
const HELD: f32 = 1.0;

/// The rings and crosses (over the agents' glyphs).
pub fn rings(p: &mut Paint<'_>, sim: &Sim) {
    let world = sim.world();
    if !world.lod_active() {
        return;
    }
    let agents = world.agents();
    let cull = p.cull(40.0);
    let r = (glyph::radius(p.zoom()) + 3.0) * p.px;
    for (i, id) in (0..agents.len()).filter_map(|i| Some((i, agents.id(i)?))) {
        let at = to_scene(agents.positions()[i].x, agents.positions()[i].z);
        if !cull.contains(at) {
            continue;
        }
        let Some(tier) = world.lod_tier(id) else {
            continue;
        };
        let width = if world.thinks(id) { THINKING } else { HELD };
        p.painter
            .circle_stroke(at, r, p.stroke(width, colour(tier)));
    }
    for at in interest_points(world) {
        cross(p, at);
    }
}

/// Where the points of interest are on the map.
fn interest_points(world: &World) -> Vec<Pos2> {
    let fixed = world.interest_points().iter().map(|v| to_scene(v.x, v.z));
    let agents = world.interest_agents().iter().filter_map(|&id| {
        let v = world.agents().positions().get(id.index())?;
        Some(to_scene(v.x, v.z))
    });
    fixed.chain(agents).collect()
}

/// An X of 14 screen points on a halo, at `at`.
fn cross(p: &Paint<'_>, at: Pos2) {
    let d = 7.0 * p.px;
    for (width, colour) in [(4.0, p.palette.label_back), (2.0, INTEREST)] {
        for arm in [vec2(d, d), vec2(d, -d)] {
            p.painter
                .line_segment([at - arm, at + arm], p.stroke(width, colour));
        }
    }
}

/// The legend's rows of the layer: for each tier index some archetype
/// has, its colour and how often its agents think (`tier 1: every 4
/// ticks; thin ring: held`); empty without level of detail.
pub fn legend_rows(world: &World) -> Vec<(Color32, String)> {
    if !world.lod_active() {
        return Vec::new();
    }
    let deepest = world.archetypes().iter().map(|a| a.lod.len()).max();
    (0..deepest.unwrap_or(0))
        .map(|k| {
            let mut periods: Vec<u32> = world
                .archetypes()
                .iter()
                .filter_map(|a| a.lod.get(k).map(|t| t.every))
                .collect();
            periods.sort_unstable();
            periods.dedup();
            let every = match periods.as_slice() {
                [1] => "every tick".to_owned(),
                ks => {
                    let ks: Vec<String> = ks.iter().map(u32::to_string).collect();
                    format!("every {} ticks", ks.join(" or "))
                }
            };
            (colour(k), format!("tier {k}: {every}"))
        })
        .collect()
}
