//! The integrate stage: every Simulated agent takes the velocity and
//! facing steering asked for and moves by one `tick_seconds` step, without
//! crossing walls or leaving the world's bounds. Driven and Kinematic
//! bodies are the game's to move.

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::data::walls::Sweep;
use crate::data::{BodyMode, RayScratch, Walls};
use crate::par::{PAR_MIN, light_min_len};
use crate::world::{Aabb, Agents, World};

/// Moves every live Simulated agent by one step: the world's bounds
/// reflect it, then the walls hold its body (a circle of its archetype's
/// radius): it slides along a wall it touches and never crosses one or
/// ends inside one ([`Walls::slide`]). The velocity becomes the movement
/// actually made; the facing follows it when a wall turned the agent.
pub(crate) fn run(world: &mut World) {
    let dt = world.config.tick_seconds;
    let bounds = world.config.bounds;
    let walls = world.occluders.as_ref().map(|o| &o.walls);
    let archetypes = &world.archetypes;
    let Agents {
        archetype,
        position,
        velocity,
        facing,
        desired_velocity,
        desired_facing,
        body,
        alive,
        ..
    } = &mut world.agents;
    let (desired_velocity, desired_facing) = (&*desired_velocity, &*desired_facing);
    let (body, alive, archetype) = (&*body, &*alive, &*archetype);
    // Without walls a step is a few nanoseconds: a light pass (measured
    // on 2 cores, 10k agents: 0.05 ms on one thread; on two, with the other
    // thread kept awake, 0.10-0.13 ms in one piece, its data in the other
    // core's cache, and 0.05-0.07 ms split; with it asleep, 0.2-0.4 ms
    // split).
    let min_len = if walls.is_some() {
        PAR_MIN
    } else {
        light_min_len()
    };
    position
        .par_iter_mut()
        .zip(velocity.par_iter_mut())
        .zip(facing.par_iter_mut())
        .enumerate()
        .with_min_len(min_len)
        .for_each_init(RayScratch::new, |scratch, (i, ((p, v), f))| {
            if !alive[i] || body[i] != BodyMode::Simulated {
                return;
            }
            *v = desired_velocity[i];
            *f = desired_facing[i];
            let mut next = *p + *v * dt;
            if let Some(b) = bounds
                && reflect(&mut next, v, b.min, b.max)
            {
                *f = v.try_normalize().unwrap_or(*f);
            }
            if let Some(walls) = walls
                && next != *p
            {
                let radius = archetypes[archetype[i].index()].radius;
                let held = hold(walls, (*p, next), radius, bounds, scratch);
                if held != next {
                    let moved = held - *p;
                    *v = moved / dt;
                    *f = moved.try_normalize().unwrap_or(*f);
                    next = held;
                }
            }
            *p = next;
        });
}

/// Where a body of `radius` moving from `from` to `to` ends among the
/// walls: slid along those it touches, or kept at `from` when the slide
/// would leave the `bounds`.
fn hold(
    walls: &Walls,
    (from, to): (Vec3, Vec3),
    radius: f32,
    bounds: Option<Aabb>,
    scratch: &mut RayScratch,
) -> Vec3 {
    let end = walls.slide(&Sweep::body(from, to, radius), scratch);
    if end == Vec2::new(to.x, to.z) {
        return to;
    }
    let held = Vec3::new(end.x, to.y, end.y);
    match bounds {
        Some(b) if held.cmplt(b.min).any() || held.cmpgt(b.max).any() => from,
        _ => held,
    }
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
