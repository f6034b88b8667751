//! The steer stage: every agent's decision becomes a velocity and a facing,
//! in parallel, each agent writing only its own slot.

use glam::Vec3;
use rayon::prelude::*;

use crate::data::{
    AgentId, Archetype, ArchetypeId, BehaviourState, Decision, Mind, Missile, Movement, NavState,
    Percepts, SenseKind, SteerInput,
};
use crate::par::PAR_MIN;
use crate::world::plugins::Plugins;
use crate::world::{Agents, World};

use super::{separation, steer};

/// Scratch memory of the steer stage, kept by the pipeline between ticks.
#[derive(Debug, Default)]
pub(crate) struct SteerScratch {
    /// Per agent, the position of the waypoint it walks to.
    waypoints: Vec<Option<Vec3>>,
    /// This tick's velocities, swapped into the world at the end (last
    /// tick's stay readable meanwhile: targets are led by them).
    velocity: Vec<Vec3>,
}

/// What every agent's steering reads.
struct SteerContext<'a> {
    archetypes: &'a [Archetype],
    archetype_of: &'a [ArchetypeId],
    plugins: &'a Plugins,
    percepts: &'a Percepts,
    positions: &'a [Vec3],
    /// Last tick's velocities.
    velocities: &'a [Vec3],
    decisions: &'a [Decision],
    waypoints: &'a [Option<Vec3>],
    dt: f32,
}

/// Steers every agent of `world`.
pub(crate) fn run(world: &mut World, scratch: &mut SteerScratch) {
    let nav = world.nav.as_ref();
    scratch.waypoints.clear();
    scratch.waypoints.extend(
        world
            .agents
            .nav
            .iter()
            .map(|s: &NavState| nav?.pos(s.next?)),
    );
    let Agents {
        archetype,
        position,
        velocity,
        facing,
        decision,
        mind,
        missile,
        ..
    } = &mut world.agents;
    let ctx = SteerContext {
        archetypes: &world.archetypes,
        archetype_of: archetype,
        plugins: &world.plugins,
        percepts: &world.percepts,
        positions: position,
        velocities: velocity,
        decisions: decision,
        waypoints: &scratch.waypoints,
        dt: world.config.tick_seconds,
    };
    scratch.velocity.clear();
    scratch.velocity.resize(ctx.velocities.len(), Vec3::ZERO);
    scratch
        .velocity
        .par_iter_mut()
        .zip(facing.par_iter_mut())
        .zip(mind.par_iter_mut())
        .zip(missile.par_iter_mut())
        .enumerate()
        .with_min_len(PAR_MIN)
        .for_each(|(i, (((v, f), mind), missile))| {
            (*v, *f) = match missile {
                Some(m) => steer_missile(&ctx, i, m),
                None => steer_agent(&ctx, i, *f, mind),
            };
        });
    std::mem::swap(velocity, &mut scratch.velocity);
}

/// The new `(velocity, facing)` of agent `i`, facing `facing` now.
fn steer_agent(ctx: &SteerContext<'_>, i: usize, facing: Vec3, mind: &mut Mind) -> (Vec3, Vec3) {
    let d = ctx.decisions[i];
    let input = SteerInput {
        position: ctx.positions[i],
        velocity: ctx.velocities[i],
        facing,
        decision: d,
        target_position: d
            .target
            .and_then(|t| ctx.positions.get(t.index()).copied())
            .or(d.goal),
        target_velocity: d
            .target
            .and_then(|t| ctx.velocities.get(t.index()).copied()),
        waypoint: ctx.waypoints[i],
        dt: ctx.dt,
    };
    let archetype = &ctx.archetypes[ctx.archetype_of[i].index()];
    let movement = &archetype.movement;
    let (mut v, mut f) = match *movement {
        Movement::Custom {
            behaviour,
            max_speed,
        } => match ctx.plugins.steering(behaviour) {
            Some(b) => {
                let (v, f) = b.steer(&input, mind, ctx.dt);
                (
                    v.clamp_length_max(max_speed),
                    f.try_normalize().unwrap_or(input.facing),
                )
            }
            None => (Vec3::ZERO, input.facing),
        },
        _ => steer(movement, input, &mut mind.rng),
    };
    if let Some(radius) = archetype.separation {
        let me = AgentId::from_index(i);
        let neighbours = archetype
            .senses
            .iter()
            .enumerate()
            .filter(|(_, s)| s.shape.kind() == SenseKind::AllAround)
            .flat_map(|(k, _)| ctx.percepts.sensed(me, k))
            .map(|other| ctx.positions[other.index()]);
        let push = separation(ctx.positions[i], neighbours, radius);
        if push != Vec3::ZERO {
            let max = movement.max_speed();
            v = (v + push * max).clamp_length_max(max);
            f = v.try_normalize().unwrap_or(f);
        }
    }
    (v, f)
}

/// One tick of missile agent `i`: turn toward the decision's target (if
/// any) and fly along the new heading, or hold still once arrived.
fn steer_missile(ctx: &SteerContext<'_>, i: usize, m: &mut Missile) -> (Vec3, Vec3) {
    let d = ctx.decisions[i];
    m.position = ctx.positions[i];
    let target = d.target.filter(|_| d.state == BehaviourState::Chase);
    let arrived = match target.and_then(|t| {
        Some((
            ctx.positions.get(t.index())?,
            ctx.velocities.get(t.index())?,
        ))
    }) {
        Some((&tp, &tv)) => m.step(tp, tv, ctx.dt).arrived,
        None => false,
    };
    let velocity = if arrived {
        Vec3::ZERO
    } else {
        m.forward() * m.speed
    };
    (velocity, m.forward())
}
