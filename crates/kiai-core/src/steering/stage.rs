//! The steer stage: every agent's decision becomes the velocity and facing
//! it wants (its *desired* ones), in parallel, each agent writing only its
//! own slot. The integrate stage applies them to Simulated bodies; a game
//! reads them for Driven ones; Kinematic bodies are not steered.

use glam::Vec3;
use rayon::prelude::*;

use crate::data::{
    AgentId, Archetype, ArchetypeId, BehaviourState, BodyMode, Decision, Mind, Missile, Movement,
    NavState, Percepts, RayScratch, SenseKind, SteerInput, Walls,
};
use crate::par::PAR_MIN;
use crate::world::plugins::Plugins;
use crate::world::{Agents, World};

use super::look_ahead::look_ahead;
use super::{separation, steer};

/// What every agent's steering reads.
struct SteerContext<'a> {
    archetypes: &'a [Archetype],
    archetype_of: &'a [ArchetypeId],
    plugins: &'a Plugins,
    percepts: &'a Percepts,
    positions: &'a [Vec3],
    /// The bodies' velocities (targets are led by them).
    velocities: &'a [Vec3],
    body: &'a [BodyMode],
    alive: &'a [bool],
    generations: &'a [u32],
    decisions: &'a [Decision],
    /// The waypoint graph, if the world has one, and each agent's way
    /// through it: the point it walks to is looked up per steered agent
    /// (held ones need none).
    nav: Option<&'a kiai_nav::NavGraph>,
    nav_states: &'a [NavState],
    /// The walls agents look ahead for, if the world has any.
    walls: Option<&'a Walls>,
    dt: f32,
}

/// Steers every agent of `world`.
pub(crate) fn run(world: &mut World) {
    let Agents {
        archetype,
        position,
        velocity,
        facing,
        desired_velocity,
        desired_facing,
        body,
        alive,
        generation,
        decision,
        mind,
        missile,
        nav: nav_states,
        ..
    } = &mut world.agents;
    let ctx = SteerContext {
        archetypes: &world.archetypes,
        archetype_of: archetype,
        plugins: &world.plugins,
        percepts: &world.percepts,
        positions: position,
        velocities: velocity,
        body,
        alive,
        generations: generation,
        decisions: decision,
        nav: world.nav.as_ref(),
        nav_states,
        walls: world.occluders.as_ref().map(|o| &o.walls),
        dt: world.config.tick_seconds,
    };
    let facings = &*facing;
    let thinking = world.lod.thinking(alive.len());
    desired_velocity
        .par_iter_mut()
        .zip(desired_facing.par_iter_mut())
        .zip(mind.par_iter_mut())
        .zip(missile.par_iter_mut())
        .enumerate()
        .with_min_len(PAR_MIN)
        .for_each_init(RayScratch::new, |rays, (i, (((v, f), mind), missile))| {
            if !ctx.alive[i] || ctx.body[i] == BodyMode::Kinematic {
                (*v, *f) = (Vec3::ZERO, facings[i]);
                return;
            }
            if thinking.is_some_and(|t| !t[i]) {
                // Held (tick level of detail): it moves on as it moved last
                // tick, walls and bounds included; a Driven body asks for
                // what it asked for last.
                if ctx.body[i] != BodyMode::Driven {
                    (*v, *f) = (ctx.velocities[i], facings[i]);
                }
                return;
            }
            // A Driven body carries on from what it asked for last, not
            // from how far its controller got.
            let current = match ctx.body[i] {
                BodyMode::Driven => *v,
                _ => ctx.velocities[i],
            };
            (*v, *f) = match missile {
                Some(m) => steer_missile(&ctx, i, m),
                None => steer_agent(&ctx, i, current, facings[i], mind),
            };
            if missile.is_none() {
                (*v, *f) = keep_off_walls(&ctx, i, (*v, *f), rays);
            }
        });
}

/// The `(velocity, facing)` agent `i` wants, moving at `velocity` and
/// facing `facing` now.
fn steer_agent(
    ctx: &SteerContext<'_>,
    i: usize,
    velocity: Vec3,
    facing: Vec3,
    mind: &mut Mind,
) -> (Vec3, Vec3) {
    let d = ctx.decisions[i];
    let input = SteerInput {
        position: ctx.positions[i],
        velocity,
        facing,
        decision: d,
        target_position: d
            .target
            .and_then(|t| ctx.positions.get(t.index()).copied())
            .or(d.goal),
        target_velocity: d
            .target
            .and_then(|t| ctx.velocities.get(t.index()).copied()),
        waypoint: ctx.nav.and_then(|nav| ctx.nav_states[i].heading_point(nav)),
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
        let me = AgentId::new(i as u32, ctx.generations[i]);
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

/// Agent `i`'s `(velocity, facing)` after looking ahead for walls (see
/// [`look_ahead`]); agents with local avoidance leave walls to it. The
/// facing turns with the velocity when it followed it.
fn keep_off_walls(
    ctx: &SteerContext<'_>,
    i: usize,
    (v, f): (Vec3, Vec3),
    rays: &mut RayScratch,
) -> (Vec3, Vec3) {
    let archetype = &ctx.archetypes[ctx.archetype_of[i].index()];
    let Some(walls) = ctx.walls else {
        return (v, f);
    };
    if archetype.avoidance.is_some() {
        return (v, f);
    }
    let turned = look_ahead(walls, (ctx.positions[i], v), archetype.radius, rays);
    if turned == v {
        return (v, f);
    }
    let followed = v.try_normalize().is_some_and(|d| d.dot(f) > 0.999);
    let facing = match turned.try_normalize() {
        Some(d) if followed => d,
        _ => f,
    };
    (turned, facing)
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
