//! One agent's new velocity: the half-planes, then the linear programs
//! (RVO2's `Agent::computeNewVelocity`).

use glam::Vec2;

use super::agent::{Agent, OrcaAgent};
use super::fallback::least_violation;
use super::half_plane::HalfPlane;
use super::neighbour::{Neighbours, OrcaNeighbour};
use super::program::{Goal, Program, solve};
use super::scratch::OrcaScratch;
use super::segment::{OrcaSegment, push_segment_half_plane};

/// The velocity ORCA chooses for `agent` this step: the one nearest its
/// preferred velocity, at most `max_speed` long, that keeps it clear of
/// every wall of `walls` for its obstacle time horizon and of every
/// neighbour for its time horizon (taking each neighbour's responsibility
/// share of the avoidance). When the neighbours leave no such velocity, the
/// one that violates their half-planes least (the walls' still held).
///
/// `time_step` is the tick, seconds, > 0: discs that already overlap are
/// asked to separate within it. The result depends only on the inputs and
/// their order (sort neighbours and walls nearest first, ties by id, as
/// RVO2 does); it is always finite. See the [module docs](super) for
/// degenerate inputs.
#[inline]
pub fn compute_velocity(
    agent: &OrcaAgent,
    neighbours: &[OrcaNeighbour],
    walls: &[OrcaSegment],
    time_step: f32,
    scratch: &mut OrcaScratch,
) -> Vec2 {
    compute_velocity_of(agent, neighbours, walls, time_step, scratch)
}

/// [`compute_velocity`] for neighbours as records or already in lanes.
#[inline(always)]
pub(crate) fn compute_velocity_of<N: Neighbours + ?Sized>(
    agent: &OrcaAgent,
    neighbours: &N,
    walls: &[OrcaSegment],
    time_step: f32,
    scratch: &mut OrcaScratch,
) -> Vec2 {
    let OrcaScratch {
        lines,
        wall_lines,
        projected,
    } = scratch;
    lines.clear();
    *wall_lines = 0;
    let Some(agent) = Agent::read(agent, time_step, !walls.is_empty()) else {
        return Vec2::ZERO;
    };
    let goal = Goal::Nearest(agent.preferred_velocity);
    let radius = agent.max_speed;
    let mut result = Vec2::ZERO;
    let mut fixed = push_half_planes(&agent, agent.velocity, neighbours, walls, lines);
    let mut program = Program {
        radius,
        goal,
        walls: fixed,
    };
    let mut failed = solve(lines, &program, &mut result);
    if failed < fixed {
        // The walls' half-planes, built from the current velocity, leave
        // no velocity: build them from the zero velocity instead, which
        // each of them then admits (the agent is clear of the walls, or
        // touching one, whose half-plane then passes through zero).
        lines.clear();
        fixed = push_half_planes(&agent, Vec2::ZERO, neighbours, walls, lines);
        program.walls = fixed;
        failed = solve(lines, &program, &mut result);
    }
    *wall_lines = fixed;
    if failed >= fixed && failed < lines.len() {
        least_violation(lines, fixed, failed, radius, &mut result, projected);
    }
    // The program keeps the result within the speed disc; rounding (a wall
    // far away puts its half-plane's point millions of ulps from the
    // origin) may not.
    let speed = result.length();
    if !speed.is_finite() {
        Vec2::ZERO
    } else if speed > radius {
        result * (radius / speed)
    } else {
        result
    }
}

/// Fills `lines` with the walls' half-planes (projected from
/// `wall_velocity`), then the neighbours'; returns how many are the walls'.
#[inline(always)]
fn push_half_planes<N: Neighbours + ?Sized>(
    agent: &Agent,
    wall_velocity: Vec2,
    neighbours: &N,
    walls: &[OrcaSegment],
    lines: &mut Vec<HalfPlane>,
) -> usize {
    for wall in walls {
        push_segment_half_plane(agent, wall_velocity, wall, lines);
    }
    let fixed = lines.len();
    neighbours.push_half_planes(agent, lines);
    fixed
}
