//! Standing orders: where an agent goes when nothing else occupies it.

use glam::Vec3;

use crate::data::AgentId;

use super::{World, WorldError};

impl World {
    /// Gives `agent` a standing goal (world units), or takes it away
    /// (`None`). The default decider sends an agent with nothing to chase
    /// or evade there: its decision becomes a chase of the goal (no
    /// target), which free movers walk straight to and waypoint walkers
    /// reach through the graph, slowing down on arrival. A game's deciders
    /// and scripts read it with [`World::goal`] and may ignore it.
    pub fn set_goal(&mut self, agent: AgentId, goal: Option<Vec3>) -> Result<(), WorldError> {
        if !self.agents.is_alive(agent) {
            return Err(WorldError::NotAlive(agent));
        }
        self.agents.goal[agent.index()] = goal.filter(|g| g.is_finite());
        Ok(())
    }

    /// `agent`'s standing goal, if it has one (and is alive).
    pub fn goal(&self, agent: AgentId) -> Option<Vec3> {
        if !self.agents.is_alive(agent) {
            return None;
        }
        self.agents.goal[agent.index()]
    }
}
