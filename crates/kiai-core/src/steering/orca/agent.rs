//! The agent whose velocity is solved for, and how degenerate values are
//! read.

use glam::Vec2;

/// Shortest time horizon or time step the solver uses, seconds: a zero,
/// negative or NaN horizon or step counts as this.
pub const MIN_TIME: f32 = 1.0e-3;

/// Longest time horizon or time step the solver uses, seconds: a longer
/// (or infinite) one counts as this.
pub const MAX_TIME: f32 = 1.0e6;

/// The agent whose new velocity [`compute_velocity`](super::compute_velocity)
/// chooses. Vectors are on the X-Z plane (`x` = world x, `y` = world z).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaAgent {
    /// Centre, world units.
    pub position: Vec2,
    /// Current velocity, world units per second.
    pub velocity: Vec2,
    /// Radius of the agent's disc, world units, > 0 (0 is accepted: a point);
    /// also the clearance kept from walls.
    pub radius: f32,
    /// The velocity the agent would take with nobody around, world units
    /// per second (usually toward its goal, at most `max_speed` long).
    pub preferred_velocity: Vec2,
    /// Longest velocity the solver returns, world units per second, >= 0.
    pub max_speed: f32,
    /// How far ahead collisions with other agents are avoided, seconds, > 0
    /// (RVO2's `timeHorizon`; typical 1 to 5). Longer is safer and shyer.
    pub time_horizon: f32,
    /// How far ahead collisions with walls are avoided, seconds, > 0
    /// (RVO2's `timeHorizonObst`; typically shorter than `time_horizon`).
    pub obstacle_time_horizon: f32,
}

/// An agent's values as the solver reads them: every field finite and in
/// range (see [`Agent::read`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Agent {
    pub(super) position: Vec2,
    pub(super) velocity: Vec2,
    pub(super) radius: f32,
    pub(super) preferred_velocity: Vec2,
    pub(super) max_speed: f32,
    /// `1 / time_horizon`.
    pub(super) inv_horizon: f32,
    /// `1 / obstacle_time_horizon` (0 when there are no walls).
    pub(super) inv_obstacle_horizon: f32,
    /// `1 / time_step`.
    pub(super) inv_time_step: f32,
}

impl Agent {
    /// `agent` made safe to solve for, or `None` when its position is not
    /// finite (such an agent gets a zero velocity). A non-finite velocity or
    /// preferred velocity counts as zero; a negative or non-finite radius or
    /// max speed as zero; a time horizon or `time_step` is clamped to
    /// [`MIN_TIME`, `MAX_TIME`] (NaN counts as [`MIN_TIME`]).
    #[inline]
    pub(super) fn read(agent: &OrcaAgent, time_step: f32, walls: bool) -> Option<Agent> {
        if !agent.position.is_finite() {
            return None;
        }
        Some(Agent {
            position: agent.position,
            velocity: finite_or_zero(agent.velocity),
            radius: non_negative(agent.radius),
            preferred_velocity: finite_or_zero(agent.preferred_velocity),
            max_speed: non_negative(agent.max_speed),
            inv_horizon: 1.0 / duration(agent.time_horizon),
            // Spares a division per call when there are no walls.
            inv_obstacle_horizon: if walls {
                1.0 / duration(agent.obstacle_time_horizon)
            } else {
                0.0
            },
            inv_time_step: 1.0 / duration(time_step),
        })
    }
}

/// `v`, or zero when a component is not finite.
#[inline(always)]
fn finite_or_zero(v: Vec2) -> Vec2 {
    if v.is_finite() { v } else { Vec2::ZERO }
}

/// `x` when finite and positive, else 0.
#[inline(always)]
pub(super) fn non_negative(x: f32) -> f32 {
    if x.is_finite() && x > 0.0 { x } else { 0.0 }
}

/// `t` seconds clamped to [[`MIN_TIME`], [`MAX_TIME`]] (NaN counts as
/// [`MIN_TIME`]).
#[inline(always)]
fn duration(t: f32) -> f32 {
    if t >= MIN_TIME {
        t.min(MAX_TIME)
    } else {
        MIN_TIME
    }
}
