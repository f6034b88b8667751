//! The tick pipeline: sense -> decide -> steer -> integrate.
//!
//! [`Pipeline`] owns only scratch buffers and timings; it can be dropped and
//! replaced by a fresh one at any time without changing the simulation.

use std::time::{Duration, Instant};

use glam::Vec3;
use rayon::prelude::*;

use crate::archetype::Movement;
use crate::behaviour::{BehaviourState, Decider, Decision};
use crate::ids::AgentId;
use crate::perception::SenseKind;
use crate::perception::occlusion::RayScratch;
use crate::perception::{self, SenseInput, UniformGrid};
use crate::steering::missile::Missile;
use crate::steering::{SteerInput, separation, steer};
use crate::world::{Agents, World, fog_pose};

/// Fewest agents per parallel work item of the per-agent stages: below it
/// the split costs more than it saves.
pub(crate) const PAR_MIN: usize = 1024;

/// Wall-clock time each stage of the last tick took. Measured outside the
/// simulation: timings never influence state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimings {
    /// Perception.
    pub sense: Duration,
    /// Decisions.
    pub decide: Duration,
    /// Steering.
    pub steer: Duration,
    /// Movement integration.
    pub integrate: Duration,
    /// Fog-of-war update (zero when the world has no fog).
    pub fog: Duration,
}

impl StageTimings {
    /// The whole tick.
    pub fn total(&self) -> Duration {
        self.sense + self.decide + self.steer + self.integrate + self.fog
    }
}

/// Runs ticks over a [`World`]. Holds scratch memory only.
#[derive(Debug, Default)]
pub struct Pipeline {
    grid: UniformGrid,
    regions: Vec<Option<usize>>,
    nav_query: Option<kiai_nav::NavQuery>,
    waypoints: Vec<Option<Vec3>>,
    decisions: Vec<Decision>,
    timings: StageTimings,
}

impl Pipeline {
    /// A pipeline with empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Timings of the last tick.
    pub fn timings(&self) -> &StageTimings {
        &self.timings
    }

    /// Advances `world` by one tick: every agent senses, `decider` decides
    /// for every agent, steering turns decisions into velocities, and
    /// positions move by one `tick_seconds` step.
    pub fn tick(&mut self, world: &mut World, decider: &mut dyn Decider) {
        let start = Instant::now();
        self.sense(world);
        let sensed = Instant::now();
        self.decide(world, decider);
        let decided = Instant::now();
        crate::navigate::navigate(world, &mut self.nav_query);
        steer_all(world, &mut self.waypoints);
        let steered = Instant::now();
        integrate(world);
        emit_noise(world);
        let integrated = Instant::now();
        update_fog(world);
        let done = Instant::now();
        world.tick += 1;
        self.timings = StageTimings {
            sense: sensed - start,
            decide: decided - sensed,
            steer: steered - decided,
            integrate: integrated - steered,
            fog: done - integrated,
        };
    }

    /// Runs only the sense stage: afterwards [`World::percepts`] describes
    /// the current positions.
    pub fn sense(&mut self, world: &mut World) {
        let cell = world
            .compiled
            .iter()
            .map(|c| c.reach)
            .fold(0.0f32, f32::max);
        // Sounds emitted last tick plus those scheduled for this one.
        let mut sounds = std::mem::take(&mut world.pending_sounds);
        let due = world
            .scheduled_sounds
            .partition_point(|(t, _)| *t <= world.tick);
        sounds.extend(
            world
                .scheduled_sounds
                .drain(..due)
                .filter(|(t, _)| *t == world.tick)
                .map(|(_, s)| s),
        );
        let messages = std::mem::take(&mut world.pending_messages);
        self.regions.clear();
        if let Some(pvs) = world.occluders.as_ref().and_then(|o| o.pvs.as_ref()) {
            self.regions
                .extend(world.agents.position.iter().map(|p| pvs.region_of(*p)));
        }
        let input = SenseInput {
            positions: &world.agents.position,
            facings: &world.agents.facing,
            factions_of: &world.agents.faction,
            archetype_of: &world.agents.archetype,
            archetypes: &world.compiled,
            factions: &world.factions,
            occluders: world.occluders.as_ref(),
            regions: &self.regions,
        };
        perception::sense(
            &input,
            cell,
            &mut self.grid,
            &mut world.percepts,
            world.tick,
            sounds,
            messages,
            &mut world.agents.memory,
            world.perception_budget.map(|b| (b, &mut world.ray_cursor)),
        );
    }

    fn decide(&mut self, world: &mut World, decider: &mut dyn Decider) {
        self.decisions.clear();
        self.decisions.extend_from_slice(&world.agents.decision);
        let mut minds = std::mem::take(&mut world.agents.mind);
        decider.decide(world, &mut minds, &mut self.decisions);
        world.agents.mind = minds;
        std::mem::swap(&mut world.agents.decision, &mut self.decisions);
        decider.apply(world);
    }
}

fn steer_all(world: &mut World, waypoints: &mut Vec<Option<Vec3>>) {
    waypoints.clear();
    waypoints.extend(
        world
            .agents
            .nav
            .iter()
            .map(|s| crate::navigate::next_waypoint_pos(world, s)),
    );
    let waypoints = &*waypoints;
    let archetypes = &world.archetypes;
    let plugins = &*world.plugins;
    let percepts = &world.percepts;
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
    let dt = world.config.tick_seconds;
    let (archetype, position, decision) = (&*archetype, &*position, &*decision);
    // Targets are led by their velocity of the previous tick.
    let velocities = velocity.clone();
    let velocities = &velocities;
    velocity
        .par_iter_mut()
        .zip(facing.par_iter_mut())
        .zip(mind.par_iter_mut())
        .zip(missile.par_iter_mut())
        .enumerate()
        .with_min_len(PAR_MIN)
        .for_each(|(i, (((v, f), mind), missile))| {
            let d = decision[i];
            if let Some(m) = missile {
                (*v, *f) = steer_missile(m, position[i], d, position, velocities, dt);
                return;
            }
            let input = SteerInput {
                position: position[i],
                velocity: *v,
                facing: *f,
                decision: d,
                target_position: d
                    .target
                    .and_then(|t| position.get(t.index()).copied())
                    .or(d.goal),
                target_velocity: d.target.and_then(|t| velocities.get(t.index()).copied()),
                waypoint: waypoints[i],
                dt,
            };
            let movement = &archetypes[archetype[i].index()].movement;
            (*v, *f) = match *movement {
                Movement::Custom {
                    behaviour,
                    max_speed,
                } => match plugins.steering(behaviour) {
                    Some(b) => {
                        let (v, f) = b.steer(&input, mind, dt);
                        (
                            v.clamp_length_max(max_speed),
                            f.try_normalize().unwrap_or(input.facing),
                        )
                    }
                    None => (Vec3::ZERO, input.facing),
                },
                _ => steer(movement, input, &mut mind.rng),
            };
            let archetype = &archetypes[archetype[i].index()];
            if let Some(radius) = archetype.separation {
                let me = AgentId::from_index(i);
                let neighbours = archetype
                    .senses
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.shape.kind() == SenseKind::AllAround)
                    .flat_map(|(k, _)| percepts.sensed(me, k))
                    .map(|other| position[other.index()]);
                let push = separation(position[i], neighbours, radius);
                if push != Vec3::ZERO {
                    let max = movement.max_speed();
                    *v = (*v + push * max).clamp_length_max(max);
                    *f = v.try_normalize().unwrap_or(*f);
                }
            }
        });
}

/// One tick of a missile agent: turn toward the decision's target (if any)
/// and fly along the new heading, or hold still once arrived.
fn steer_missile(
    m: &mut Missile,
    position: Vec3,
    d: Decision,
    positions: &[Vec3],
    velocities: &[Vec3],
    dt: f32,
) -> (Vec3, Vec3) {
    m.position = position;
    let target = d.target.filter(|_| d.state == BehaviourState::Chase);
    let arrived =
        match target.and_then(|t| Some((positions.get(t.index())?, velocities.get(t.index())?))) {
            Some((&tp, &tv)) => m.step(tp, tv, dt).arrived,
            None => false,
        };
    let velocity = if arrived {
        Vec3::ZERO
    } else {
        m.forward() * m.speed
    };
    (velocity, m.forward())
}

/// Height above an agent's position at which wall crossings are tested,
/// world units (walls stand on y = 0).
const STEP_HEIGHT: f32 = 0.1;

/// Moves every agent by one step. A step that would cross a wall is not
/// taken: the agent turns back (velocity reversed, facing follows), so walls
/// are never walked through. Missiles fly over walls lower than them like
/// anything else: the test is the same segment test as occlusion.
fn integrate(world: &mut World) {
    let dt = world.config.tick_seconds;
    let bounds = world.config.bounds;
    let walls = world.occluders.as_ref().map(|o| &o.walls);
    let Agents {
        position,
        velocity,
        facing,
        ..
    } = &mut world.agents;
    position
        .par_iter_mut()
        .zip(velocity.par_iter_mut())
        .zip(facing.par_iter_mut())
        .with_min_len(PAR_MIN)
        .for_each_init(RayScratch::new, |scratch, ((p, v), f)| {
            let next = *p + *v * dt;
            if let Some(walls) = walls
                && *v != Vec3::ZERO
                && walls.blocks(
                    *p + Vec3::Y * STEP_HEIGHT,
                    next + Vec3::Y * STEP_HEIGHT,
                    scratch,
                )
            {
                *v = -*v;
                *f = v.try_normalize().unwrap_or(*f);
                return;
            }
            *p = next;
            if let Some(b) = bounds
                && reflect(p, v, b.min, b.max)
            {
                *f = v.try_normalize().unwrap_or(*f);
            }
        });
}

/// Agents whose archetype makes noise emit a sound where they stand, louder
/// the faster they move (volume × speed / max speed), heard next tick.
fn emit_noise(world: &mut World) {
    let a = &world.agents;
    for i in 0..a.len() {
        let archetype = &world.archetypes[a.archetype[i].index()];
        let Some(volume) = archetype.noise else {
            continue;
        };
        let max = archetype.movement.max_speed();
        let speed = a.velocity[i].length();
        if speed > 0.0 && max > 0.0 {
            world
                .pending_sounds
                .push(crate::perception::hearing::Sound {
                    position: a.position[i],
                    volume: volume * (speed / max).min(1.0),
                    source: i as u32,
                    tag: 0,
                });
        }
    }
}

/// Moves every sighted agent's fog unit to its new pose; the grid re-stamps
/// only those that changed tile or direction bucket. Sequential, in agent
/// order, so events come out the same at any thread count.
fn update_fog(world: &mut World) {
    let Some(fog) = &mut world.fog else {
        return;
    };
    fog.events.clear();
    let a = &world.agents;
    for i in 0..a.len() {
        let unit = kiai_fog::UnitId(i as u32);
        if fog.grid.contains_unit(unit) {
            // The unit exists, so the only error (unknown unit) cannot occur.
            let _ = fog
                .grid
                .set_pose(unit, fog_pose(a.position[i], a.facing[i]));
        }
    }
    fog.grid.drain_events_into(&mut fog.events);
}

/// Reflects a point that left `[min, max]` back inside and mirrors the
/// velocity on that axis. Returns whether anything changed.
fn reflect(p: &mut Vec3, v: &mut Vec3, min: Vec3, max: Vec3) -> bool {
    let mut changed = false;
    for axis in 0..3 {
        if p[axis] < min[axis] {
            p[axis] = (2.0 * min[axis] - p[axis]).min(max[axis]);
            v[axis] = v[axis].abs();
            changed = true;
        } else if p[axis] > max[axis] {
            p[axis] = (2.0 * max[axis] - p[axis]).max(min[axis]);
            v[axis] = -v[axis].abs();
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflection_keeps_points_inside() {
        let (min, max) = (Vec3::splat(-1.0), Vec3::splat(1.0));
        let mut p = Vec3::new(1.5, 0.0, -3.5);
        let mut v = Vec3::new(1.0, 0.0, -1.0);
        assert!(reflect(&mut p, &mut v, min, max));
        assert_eq!(p, Vec3::new(0.5, 0.0, 1.0));
        assert_eq!(v, Vec3::new(-1.0, 0.0, 1.0));
        let mut q = Vec3::ZERO;
        assert!(!reflect(&mut q, &mut v, min, max));
    }
}
