//! Steering, the steer stage: turning decisions into velocities.
//!
//! Walkers random-walk (article 000), seek and flee, pursue and evade;
//! waypoint walkers head for their next waypoint; [`missile`] steers
//! turn-rate-limited guided missiles (article 004). The behaviours are plain
//! functions here; `stage.rs` runs them for every agent.

mod avoid;
mod look_ahead;
pub mod orca;
mod smallest;
mod stage;

pub(crate) use avoid::{AvoidScratch, run as avoid};
pub(crate) use stage::run;

pub use crate::data::missile;
pub use crate::data::steer_input::SteerInput;

use glam::Vec3;
use rand::RngExt;

use crate::data::{AgentRng, BehaviourState, Movement};

/// Smallest direction-change factor the random walk accepts (article 000).
pub const MIN_DIRECTION_CHANGE_FACTOR: u32 = 5;

/// Article 000's `RandomWalk`: with probability `1 / factor` (factor clamped to
/// at least 5) picks a new direction with components uniform in [-1, 1], normalised,
/// and a speed uniform in `[min_speed, max_speed]`; the facing follows.
/// Otherwise velocity and facing stay. `planar` zeroes the vertical
/// component before normalising.
///
/// Returns the new `(velocity, facing)`.
pub fn random_walk(
    rng: &mut AgentRng,
    velocity: Vec3,
    facing: Vec3,
    min_speed: f32,
    max_speed: f32,
    direction_change_factor: u32,
    planar: bool,
) -> (Vec3, Vec3) {
    let factor = direction_change_factor.max(MIN_DIRECTION_CHANGE_FACTOR);
    if rng.random_range(0..factor) != 3 {
        return (velocity, facing);
    }
    let mut dir = Vec3::new(
        rng.random_range(-1.0f32..=1.0),
        rng.random_range(-1.0f32..=1.0),
        rng.random_range(-1.0f32..=1.0),
    );
    if planar {
        dir.y = 0.0;
    }
    let speed = if max_speed > min_speed {
        rng.random_range(min_speed..=max_speed)
    } else {
        min_speed
    };
    let dir = dir.normalize_or_zero();
    if dir == Vec3::ZERO {
        return (velocity, facing);
    }
    (dir * speed, dir)
}

/// Velocity toward (`sign = 1`) or away from (`sign = -1`) `target` at
/// `speed`; zero when on top of it.
pub fn seek(position: Vec3, target: Vec3, speed: f32, sign: f32, planar: bool) -> Vec3 {
    let mut d = (target - position) * sign;
    if planar {
        d.y = 0.0;
    }
    d.normalize_or_zero() * speed
}

/// Longest look-ahead when leading a moving target, seconds.
pub const MAX_LEAD_SECONDS: f32 = 2.0;

/// Where a target moving at `target_velocity` will be when an agent at
/// `position` moving at `speed` could reach it (first-order lead, capped at
/// [`MAX_LEAD_SECONDS`]).
pub fn lead(position: Vec3, speed: f32, target: Vec3, target_velocity: Vec3) -> Vec3 {
    let t = if speed > 0.0 {
        (position.distance(target) / speed).min(MAX_LEAD_SECONDS)
    } else {
        0.0
    };
    target + target_velocity * t
}

/// Pursue: seek the point where a moving target will be.
pub fn pursue(
    position: Vec3,
    speed: f32,
    target: Vec3,
    target_velocity: Vec3,
    planar: bool,
) -> Vec3 {
    seek(
        position,
        lead(position, speed, target, target_velocity),
        speed,
        1.0,
        planar,
    )
}

/// Evade: flee from the point where a moving threat will be.
pub fn evade(
    position: Vec3,
    speed: f32,
    threat: Vec3,
    threat_velocity: Vec3,
    planar: bool,
) -> Vec3 {
    seek(
        position,
        lead(position, speed, threat, threat_velocity),
        speed,
        -1.0,
        planar,
    )
}

/// Arrive: seek `target` at `speed`, slowing linearly inside `slowing_radius`
/// (world units, > 0) so the agent stops on it instead of overshooting.
pub fn arrive(position: Vec3, target: Vec3, speed: f32, slowing_radius: f32) -> Vec3 {
    let d = target - position;
    let dist = d.length();
    if dist <= f32::EPSILON {
        return Vec3::ZERO;
    }
    let ramp = if slowing_radius > 0.0 {
        (dist / slowing_radius).min(1.0)
    } else {
        1.0
    };
    d / dist * speed * ramp
}

/// How long an agent takes to slow down when it arrives at a goal,
/// seconds: it slows linearly within this many seconds' walk of it.
pub const ARRIVAL_SECONDS: f32 = 0.5;

/// Arrive at a fixed `goal` within one tick of `dt` seconds: [`arrive`]
/// with a slowing radius of [`ARRIVAL_SECONDS`] at `speed`, never
/// overshooting the goal within the tick (so agents stop on it instead of
/// orbiting it). `planar` ignores heights.
pub fn arrive_at(position: Vec3, goal: Vec3, speed: f32, dt: f32, planar: bool) -> Vec3 {
    let mut to = goal - position;
    if planar {
        to.y = 0.0;
    }
    let distance = to.length();
    let slowing = speed * ARRIVAL_SECONDS;
    // Far from the goal this is exactly `seek`, bit for bit.
    let v = seek(position, goal, speed, 1.0, planar);
    if distance >= slowing && distance >= speed * dt {
        return v;
    }
    let ramp = if slowing > 0.0 {
        (distance / slowing).min(1.0)
    } else {
        1.0
    };
    (v * ramp).clamp_length_max(distance / dt.max(f32::EPSILON))
}

/// Reynolds' wander, planar: turn the facing by a random angle in
/// `[-turn_deg, turn_deg]` about Y and move along it at `speed`.
pub fn wander(rng: &mut AgentRng, facing: Vec3, speed: f32, turn_deg: f32) -> (Vec3, Vec3) {
    let flat = Vec3::new(facing.x, 0.0, facing.z)
        .try_normalize()
        .unwrap_or(Vec3::X);
    let limit = turn_deg.clamp(0.0, 180.0).to_radians();
    let angle = if limit > 0.0 {
        rng.random_range(-limit..=limit)
    } else {
        0.0
    };
    let heading = glam::Quat::from_rotation_y(angle) * flat;
    (heading * speed, heading)
}

/// Separation: a push (unit-free, length up to the number of neighbours)
/// away from each neighbour closer than `radius`, stronger the closer it is.
pub fn separation(position: Vec3, neighbours: impl IntoIterator<Item = Vec3>, radius: f32) -> Vec3 {
    let mut push = Vec3::ZERO;
    for q in neighbours {
        let mut away = position - q;
        away.y = 0.0;
        let d = away.length();
        if d > f32::EPSILON && d < radius {
            push += away / d * (1.0 - d / radius);
        }
    }
    push
}

/// Steers one agent of `movement` and returns its new `(velocity, facing)`.
pub fn steer(movement: &Movement, input: SteerInput, rng: &mut AgentRng) -> (Vec3, Vec3) {
    match *movement {
        Movement::Static => (Vec3::ZERO, input.facing),
        // Missiles turn with their own state (the pipeline steers them with
        // `missile::Missile`); without it they fly straight.
        Movement::Missile { speed, .. } => (input.facing * speed, input.facing),
        // Custom behaviours are run by the pipeline with the world's plugins;
        // without them the agent stands still.
        Movement::Custom { .. } => (Vec3::ZERO, input.facing),
        Movement::Wander { speed, turn_deg } => match (input.decision.state, input.target_position)
        {
            (BehaviourState::Chase, Some(t)) if input.decision.target.is_none() => {
                let v = arrive_at(input.position, t, speed, input.dt, true);
                (v, v.try_normalize().unwrap_or(input.facing))
            }
            (BehaviourState::Chase, Some(t)) => {
                let v = pursue(
                    input.position,
                    speed,
                    t,
                    input.target_velocity.unwrap_or(Vec3::ZERO),
                    true,
                );
                (v, v.try_normalize().unwrap_or(input.facing))
            }
            (BehaviourState::Evade, Some(t)) => {
                let v = evade(
                    input.position,
                    speed,
                    t,
                    input.target_velocity.unwrap_or(Vec3::ZERO),
                    true,
                );
                (v, v.try_normalize().unwrap_or(input.facing))
            }
            _ => wander(rng, input.facing, speed, turn_deg),
        },
        Movement::WaypointWalker { speed, .. } => match input.waypoint {
            Some(w) => {
                let mut to = w - input.position;
                to.y = 0.0;
                let dist = to.length();
                if dist <= f32::EPSILON {
                    return (Vec3::ZERO, input.facing);
                }
                // Do not overshoot the waypoint within one tick.
                let v = to / dist * speed.min(dist / input.dt.max(f32::EPSILON));
                (v, to / dist)
            }
            None => (Vec3::ZERO, input.facing),
        },
        Movement::Walker {
            min_speed,
            max_speed,
            direction_change_factor,
            planar,
        } => {
            let target_velocity = input.target_velocity.unwrap_or(Vec3::ZERO);
            let steered = match (input.decision.state, input.target_position) {
                // A goal, not an agent: arrive there.
                (BehaviourState::Chase, Some(t)) if input.decision.target.is_none() => {
                    Some(arrive_at(input.position, t, max_speed, input.dt, planar))
                }
                (BehaviourState::Chase, Some(t)) => Some(pursue(
                    input.position,
                    max_speed,
                    t,
                    target_velocity,
                    planar,
                )),
                (BehaviourState::Evade, Some(t)) => {
                    Some(evade(input.position, max_speed, t, target_velocity, planar))
                }
                _ => None,
            };
            match steered {
                Some(v) => {
                    let facing = v.try_normalize().unwrap_or(input.facing);
                    (v, facing)
                }
                _ => random_walk(
                    rng,
                    input.velocity,
                    input.facing,
                    min_speed,
                    max_speed,
                    direction_change_factor,
                    planar,
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::rng::agent_stream;

    #[test]
    fn random_walk_changes_direction_about_once_per_factor_ticks() {
        let mut rng = agent_stream(1, crate::AgentId::from_index(0));
        let (mut v, mut f) = (Vec3::ZERO, Vec3::X);
        let mut changes = 0;
        for _ in 0..20_000 {
            let (nv, nf) = random_walk(&mut rng, v, f, 1.0, 2.0, 20, false);
            if nv != v {
                changes += 1;
                let speed = nv.length();
                assert!((1.0 - 1e-4..=2.0 + 1e-4).contains(&speed), "speed {speed}");
                assert!((nf.length() - 1.0).abs() < 1e-5);
                assert!(
                    (nv.normalize() - nf).length() < 1e-5,
                    "facing follows movement"
                );
            }
            (v, f) = (nv, nf);
        }
        // Expected 1000; a binomial(20000, 1/20) is within ±150 with p > 0.999.
        assert!((850..=1150).contains(&changes), "{changes} changes");
    }

    #[test]
    fn pursue_leads_a_crossing_target_and_evade_runs_from_it() {
        let me = Vec3::ZERO;
        let target = Vec3::new(10.0, 0.0, 0.0);
        let crossing = Vec3::new(0.0, 0.0, 2.0);
        let v = pursue(me, 5.0, target, crossing, true);
        assert!((v.length() - 5.0).abs() < 1e-4);
        assert!(v.z > 0.0, "aims ahead of the target: {v}");
        let e = evade(me, 5.0, target, crossing, true);
        assert!(e.x < 0.0 && e.z < 0.0, "runs from where it will be: {e}");
        // A still target is simply sought.
        assert_eq!(
            pursue(me, 5.0, target, Vec3::ZERO, true),
            Vec3::new(5.0, 0.0, 0.0)
        );
    }

    #[test]
    fn wander_turns_at_most_its_limit_and_keeps_speed() {
        let mut rng = agent_stream(3, crate::AgentId::from_index(0));
        let mut f = Vec3::X;
        for _ in 0..1000 {
            let (v, nf) = wander(&mut rng, f, 2.0, 10.0);
            assert!((v.length() - 2.0).abs() < 1e-4);
            assert!(f.dot(nf) >= 10f32.to_radians().cos() - 1e-5);
            f = nf;
        }
    }

    #[test]
    fn separation_pushes_away_from_close_neighbours_only() {
        let p = Vec3::ZERO;
        let push = separation(
            p,
            [Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 10.0)],
            4.0,
        );
        assert!(push.x < 0.0 && push.z == 0.0, "{push}");
        assert!((push.length() - 0.75).abs() < 1e-6);
        assert_eq!(
            separation(p, [p], 4.0),
            Vec3::ZERO,
            "no direction from a coincident neighbour"
        );
    }

    #[test]
    fn arrive_slows_inside_the_radius() {
        let far = arrive(Vec3::ZERO, Vec3::new(100.0, 0.0, 0.0), 4.0, 10.0);
        assert!((far.length() - 4.0).abs() < 1e-5);
        let near = arrive(Vec3::ZERO, Vec3::new(5.0, 0.0, 0.0), 4.0, 10.0);
        assert!((near.length() - 2.0).abs() < 1e-5);
        assert_eq!(arrive(Vec3::ONE, Vec3::ONE, 4.0, 10.0), Vec3::ZERO);
    }

    #[test]
    fn factor_below_five_counts_as_five() {
        let mut rng = agent_stream(2, crate::AgentId::from_index(0));
        let mut changes = 0;
        let (mut v, mut f) = (Vec3::ZERO, Vec3::X);
        for _ in 0..10_000 {
            let (nv, nf) = random_walk(&mut rng, v, f, 1.0, 1.0, 1, true);
            if nv != v {
                changes += 1;
                assert_eq!(nv.y, 0.0);
            }
            (v, f) = (nv, nf);
        }
        assert!((1750..=2250).contains(&changes), "{changes} changes");
    }
}
