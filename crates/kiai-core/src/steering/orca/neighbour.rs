//! Another agent (or a moving body) to avoid, and its ORCA half-plane
//! (van den Berg et al. 2011, section 4; RVO2's `Agent::computeNewVelocity`,
//! agent part).

use glam::Vec2;

use super::agent::{Agent, non_negative};
use super::half_plane::{HalfPlane, det};

/// A disc the agent avoids: another agent, or a body the game moves.
/// Vectors are on the X-Z plane (`x` = world x, `y` = world z).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaNeighbour {
    /// Centre, world units.
    pub position: Vec2,
    /// Current velocity, world units per second.
    pub velocity: Vec2,
    /// Radius, world units, >= 0.
    pub radius: f32,
    /// Share of the avoidance this agent takes on, in [0, 1]: 0.5 is ORCA's
    /// reciprocal share (the neighbour runs ORCA too and takes the other
    /// half); 1.0 takes all of it (the neighbour does not avoid: a
    /// higher-priority agent, a body the game moves); 0.0 ignores the
    /// neighbour. Values above 1 count as 1; NaN and values <= 0 ignore it.
    pub responsibility: f32,
}

/// The half-plane of velocities that avoid `n` for `1 / inv_horizon`
/// seconds, moved by `n.responsibility` of the way out of the velocity
/// obstacle (RVO2 moves half-way: `velocity + 0.5 u`). `None` when the
/// neighbour is ignored or one of its values is not finite.
///
/// When the discs already overlap, the velocity obstacle is cut off at one
/// time step instead (RVO2's collision case), so the half-plane asks them to
/// separate within the step. When the relative velocity would put the agent
/// exactly on the neighbour's centre at the end of the step, that cut-off has
/// no direction; the agent is then pushed away from the neighbour's centre,
/// or, the centres coinciding too, along its preferred velocity, or `+x`.
#[inline]
pub(super) fn neighbour_half_plane(agent: &Agent, n: &OrcaNeighbour) -> Option<HalfPlane> {
    let share = n.responsibility;
    if share.is_nan() || share <= 0.0 {
        return None;
    }
    let share = share.min(1.0);
    let rel_pos = n.position - agent.position;
    let rel_vel = agent.velocity - n.velocity;
    let dist_sq = rel_pos.length_squared();
    let combined = agent.radius + non_negative(n.radius);
    let combined_sq = combined * combined;
    let (direction, u) = if dist_sq > combined_sq {
        outside(rel_pos, rel_vel, dist_sq, combined, agent.inv_horizon)
    } else {
        overlapping(agent, rel_pos, rel_vel, combined)
    };
    let plane = HalfPlane {
        point: agent.velocity + share * u,
        direction,
    };
    plane.is_finite().then_some(plane)
}

/// The discs do not overlap: project the relative velocity on the velocity
/// obstacle truncated at the horizon, either on its cut-off circle or on one
/// of its legs. Returns the boundary direction and `u`, the smallest change
/// of relative velocity that leaves the obstacle.
#[inline(always)]
fn outside(rel_pos: Vec2, rel_vel: Vec2, dist_sq: f32, combined: f32, inv_h: f32) -> (Vec2, Vec2) {
    // From the cut-off centre to the relative velocity.
    let w = rel_vel - inv_h * rel_pos;
    let w_len_sq = w.length_squared();
    let dot = w.dot(rel_pos);
    if dot < 0.0 && dot * dot > combined * combined * w_len_sq {
        // Project on the cut-off circle.
        let w_len = w_len_sq.sqrt();
        let unit_w = w / w_len;
        let direction = Vec2::new(unit_w.y, -unit_w.x);
        return (direction, (combined * inv_h - w_len) * unit_w);
    }
    // Project on the nearer leg.
    let leg = (dist_sq - combined * combined).sqrt();
    let direction = if det(rel_pos, w) > 0.0 {
        Vec2::new(
            rel_pos.x * leg - rel_pos.y * combined,
            rel_pos.x * combined + rel_pos.y * leg,
        ) / dist_sq
    } else {
        -Vec2::new(
            rel_pos.x * leg + rel_pos.y * combined,
            -rel_pos.x * combined + rel_pos.y * leg,
        ) / dist_sq
    };
    (direction, rel_vel.dot(direction) * direction - rel_vel)
}

/// The discs overlap: project on the cut-off circle of one time step.
#[inline(always)]
fn overlapping(agent: &Agent, rel_pos: Vec2, rel_vel: Vec2, combined: f32) -> (Vec2, Vec2) {
    let inv_dt = agent.inv_time_step;
    let w = rel_vel - inv_dt * rel_pos;
    let w_len = w.length();
    let unit_w = if w_len > 0.0 {
        w / w_len
    } else {
        // No direction from the cut-off circle: away from the neighbour.
        (-rel_pos)
            .try_normalize()
            .or_else(|| agent.preferred_velocity.try_normalize())
            .unwrap_or(Vec2::X)
    };
    let direction = Vec2::new(unit_w.y, -unit_w.x);
    (direction, (combined * inv_dt - w_len) * unit_w)
}
