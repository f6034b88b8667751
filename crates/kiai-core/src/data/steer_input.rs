//! What a steering behaviour sees of one agent.

use glam::Vec3;

use crate::data::Decision;

/// Inputs of one agent's steering.
#[derive(Clone, Copy, Debug)]
pub struct SteerInput {
    /// Current position, world units.
    pub position: Vec3,
    /// Current velocity, world units per second.
    pub velocity: Vec3,
    /// Current facing, unit vector.
    pub facing: Vec3,
    /// This tick's decision.
    pub decision: Decision,
    /// Where the decision's target stands, if it has one.
    pub target_position: Option<Vec3>,
    /// How the target moves (world units per second), if it has one.
    pub target_velocity: Option<Vec3>,
    /// The waypoint a waypoint walker walks to, if any.
    pub waypoint: Option<Vec3>,
    /// Seconds per tick.
    pub dt: f32,
}
