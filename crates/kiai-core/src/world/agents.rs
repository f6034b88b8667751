//! The agents of a world as a struct of arrays.

use glam::Vec3;

use crate::data::{
    AgentId, ArchetypeId, BehaviourState, Decision, FactionId, MemoryEntry, Mind, Missile, NavState,
};

/// All agents, one array per field (struct of arrays): index `i` of every
/// array belongs to `AgentId(i)`.
#[derive(Clone, Debug, Default)]
pub struct Agents {
    pub(crate) names: Vec<String>,
    pub(crate) archetype: Vec<ArchetypeId>,
    pub(crate) faction: Vec<FactionId>,
    pub(crate) position: Vec<Vec3>,
    pub(crate) velocity: Vec<Vec3>,
    pub(crate) facing: Vec<Vec3>,
    pub(crate) decision: Vec<Decision>,
    pub(crate) mind: Vec<Mind>,
    /// Missile state (orthonormal frame, guidance) of agents that move as
    /// missiles.
    pub(crate) missile: Vec<Option<Box<Missile>>>,
    /// What each agent remembers, sorted by (sense, target).
    pub(crate) memory: Vec<Vec<MemoryEntry>>,
    /// Where waypoint walkers are on the graph.
    pub(crate) nav: Vec<NavState>,
}

impl Agents {
    /// Number of agents.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every agent's id, ascending.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = AgentId> + use<> {
        (0..self.len()).map(AgentId::from_index)
    }

    /// Names, per agent.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Archetypes, per agent.
    pub fn archetypes(&self) -> &[ArchetypeId] {
        &self.archetype
    }

    /// Factions, per agent.
    pub fn factions(&self) -> &[FactionId] {
        &self.faction
    }

    /// Positions in world units, per agent.
    pub fn positions(&self) -> &[Vec3] {
        &self.position
    }

    /// Velocities in world units per second, per agent.
    pub fn velocities(&self) -> &[Vec3] {
        &self.velocity
    }

    /// Facings (unit vectors), per agent.
    pub fn facings(&self) -> &[Vec3] {
        &self.facing
    }

    /// Last decisions, per agent.
    pub fn decisions(&self) -> &[Decision] {
        &self.decision
    }

    /// Missile states (frame, guidance), per agent; `None` for non-missiles.
    pub fn missiles(&self) -> &[Option<Box<Missile>>] {
        &self.missile
    }

    /// Decision memories (random stream, saved decision, weights), per agent.
    pub fn minds(&self) -> &[Mind] {
        &self.mind
    }

    /// The behaviour state of `agent`, if it exists.
    pub fn state(&self, agent: AgentId) -> Option<BehaviourState> {
        self.decision.get(agent.index()).map(|d| d.state)
    }

    /// The id of the agent called `name`.
    pub fn find(&self, name: &str) -> Option<AgentId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(AgentId::from_index)
    }
}
