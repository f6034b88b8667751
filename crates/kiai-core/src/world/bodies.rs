//! Bodies the game moves: reading what steering wants and writing back
//! where bodies are, one agent at a time or as slices for the whole crowd.
//!
//! A game with Driven bodies does, between two ticks: read
//! [`World::desired_velocities`] (and facings), move its bodies with its
//! own physics, then write [`World::positions_mut`],
//! [`World::velocities_mut`] and [`World::facings_mut`] (or
//! [`World::set_body`] per agent). The slices are indexed by slot; free
//! slots are ignored by every stage, whatever they hold.

use glam::Vec3;

use crate::data::AgentId;

use super::{World, WorldError};

impl World {
    /// Writes `agent`'s body as the game moved it: position (world units),
    /// velocity (world units per second) and facing (normalised; zero
    /// keeps the old facing).
    pub fn set_body(
        &mut self,
        agent: AgentId,
        position: Vec3,
        velocity: Vec3,
        facing: Vec3,
    ) -> Result<(), WorldError> {
        if !self.agents.is_alive(agent) {
            return Err(WorldError::NotAlive(agent));
        }
        let (a, i) = (&mut self.agents, agent.index());
        a.position[i] = position;
        a.velocity[i] = velocity;
        a.facing[i] = facing.try_normalize().unwrap_or(a.facing[i]);
        Ok(())
    }

    /// Moves `agent` to `position` (e.g. from game physics); `None` when
    /// the agent is not alive.
    pub fn set_position(&mut self, agent: AgentId, position: Vec3) -> Option<()> {
        self.agents.is_alive(agent).then_some(())?;
        self.agents.position[agent.index()] = position;
        Some(())
    }

    /// Positions, world units, per slot, to write the game's bodies into.
    pub fn positions_mut(&mut self) -> &mut [Vec3] {
        &mut self.agents.position
    }

    /// Velocities, world units per second, per slot, to write the game's
    /// bodies into (they lead pursuers and scale noise).
    pub fn velocities_mut(&mut self) -> &mut [Vec3] {
        &mut self.agents.velocity
    }

    /// Facings, per slot, to write the game's bodies into. Keep them unit
    /// vectors (senses aim along them).
    pub fn facings_mut(&mut self) -> &mut [Vec3] {
        &mut self.agents.facing
    }

    /// The velocity steering asked for in the last tick, world units per
    /// second, per slot: what a Driven body's controller should follow.
    pub fn desired_velocities(&self) -> &[Vec3] {
        &self.agents.desired_velocity
    }

    /// The facing steering asked for in the last tick (unit vectors), per
    /// slot.
    pub fn desired_facings(&self) -> &[Vec3] {
        &self.agents.desired_facing
    }

    /// Per slot, the velocity steering asked for before local avoidance
    /// changed it (world units per second): the preferred velocity of the
    /// avoid stage, for drawing next to the chosen one
    /// ([`World::desired_velocities`]). Equal to it for agents that do not
    /// avoid.
    pub fn preferred_velocities(&self) -> &[Vec3] {
        &self.agents.preferred_velocity
    }
}
