//! The integrate stage: every Simulated agent takes the velocity and
//! facing steering asked for and moves by one `tick_seconds` step, without
//! crossing walls or leaving the world's bounds. Driven and Kinematic
//! bodies are the game's to move.

use glam::Vec3;
use rayon::prelude::*;

use crate::data::{BodyMode, RayScratch};
use crate::par::PAR_MIN;
use crate::world::{Agents, World};

/// Height above an agent's position at which wall crossings are tested,
/// world units (walls stand on y = 0).
const STEP_HEIGHT: f32 = 0.1;

/// Moves every live Simulated agent by one step. A step that would cross a
/// wall is not taken: the agent turns back (velocity reversed, facing
/// follows), so walls are never walked through. Missiles fly over walls
/// lower than them like anything else: the test is the same segment test
/// as occlusion.
pub(crate) fn run(world: &mut World) {
    let dt = world.config.tick_seconds;
    let bounds = world.config.bounds;
    let walls = world.occluders.as_ref().map(|o| &o.walls);
    let Agents {
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
    let (body, alive) = (&*body, &*alive);
    position
        .par_iter_mut()
        .zip(velocity.par_iter_mut())
        .zip(facing.par_iter_mut())
        .enumerate()
        .with_min_len(PAR_MIN)
        .for_each_init(RayScratch::new, |scratch, (i, ((p, v), f))| {
            if !alive[i] || body[i] != BodyMode::Simulated {
                return;
            }
            *v = desired_velocity[i];
            *f = desired_facing[i];
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
