//! Tick level of detail, at the start of each tick: every agent's tier from
//! its distance to the nearest point of interest, and who thinks (senses,
//! decides, plans avoidance) this tick. The sense stage adds the agents a
//! sound, a message or a tier-1 observer wakes ([`crate::perception`]).

use glam::Vec3;
use rayon::prelude::*;

use crate::data::lod::due;
use crate::data::{BehaviourState, LodTier};
use crate::par::{PAR_MIN, light_min_len};
use crate::world::World;

/// Side of the squares whose agents think in the same tick, world units,
/// when no sense has a reach (otherwise the largest reach: the sense
/// stage's grid cell).
const DEFAULT_CELL: f32 = 16.0;

/// Sets every agent's tier and whether it thinks this tick; does nothing
/// when no archetype has a tier of period > 1.
pub(crate) fn begin_tick(world: &mut World) {
    if !world.lod.active {
        return;
    }
    let n = world.agents.len();
    let tick = world.tick;
    let points = interest_points(world);
    let lod = &mut world.lod;
    lod.tier.resize(n, u8::MAX);
    lod.thinks.resize(n, true);
    lod.every_tick.resize(n, true);
    lod.thought_at.resize(n, 0);
    let a = &world.agents;
    let archetypes = &world.archetypes;
    let cell = world
        .compiled
        .iter()
        .map(|c| c.reach)
        .fold(0.0f32, f32::max);
    let cell = if cell > 0.0 { cell } else { DEFAULT_CELL };
    let thought_at = &lod.thought_at;
    lod.tier
        .par_iter_mut()
        .zip(lod.thinks.par_iter_mut())
        .zip(lod.every_tick.par_iter_mut())
        .enumerate()
        .with_min_len(PAR_MIN)
        .for_each(|(i, ((tier, thinks), every_tick))| {
            let tiers = &archetypes[a.archetype[i].index()].lod;
            if !a.alive[i] || tiers.is_empty() {
                (*tier, *thinks, *every_tick) = (0, true, true);
                return;
            }
            let p = a.position[i];
            let d = points
                .iter()
                .map(|q| q.distance_squared(p))
                .fold(f32::INFINITY, f32::min)
                .sqrt();
            let t = LodTier::pick(tiers, usize::from(*tier), d);
            *tier = t as u8;
            *thinks = due(p, cell, tiers[t].every, tick, thought_at[i]);
            *every_tick = tiers[t].every == 1;
        });
    promote_chases(world);
}

/// The points of interest the game set, and where the agents that are
/// points of interest stand.
fn interest_points(world: &World) -> Vec<Vec3> {
    let lod = &world.lod;
    let mut points = lod.points.clone();
    points.extend(
        lod.agents
            .iter()
            .filter(|a| world.agents.is_alive(**a))
            .map(|a| world.agents.position[a.index()]),
    );
    points
}

/// Agents chasing, or chased by, an agent of a tier that thinks every tick
/// think this tick too (a chase the player can see never looks lazy).
fn promote_chases(world: &mut World) {
    let mut wake = Vec::new();
    for (i, d) in world.agents.decision.iter().enumerate() {
        let (BehaviourState::Chase, Some(t)) = (d.state, d.target) else {
            continue;
        };
        if !world.agents.alive[i] || !world.agents.is_alive(t) {
            continue;
        }
        if world.thinks_every_tick(i) {
            wake.push(t.index());
        }
        if world.thinks_every_tick(t.index()) {
            wake.push(i);
        }
    }
    for i in wake {
        world.lod.thinks[i] = true;
    }
}

/// After the sense stage: the agents that think this tick remember it.
pub(crate) fn end_sense(world: &mut World) {
    if !world.lod.active {
        return;
    }
    let tick = world.tick;
    let lod = &mut world.lod;
    let agents = lod.thought_at.par_iter_mut().zip(&lod.thinks);
    agents
        .with_min_len(light_min_len())
        .for_each(|(at, &thinks)| {
            if thinks {
                *at = tick + 1;
            }
        });
}
