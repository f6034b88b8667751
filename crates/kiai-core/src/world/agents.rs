//! The agents of a world as a struct of arrays, one entry per slot.
//!
//! A slot holds one agent at a time. Despawning frees it (the slot's
//! generation moves on, so the old handle is refused); a later spawn takes
//! the lowest free slot. Every per-slot array keeps its length, so syncing
//! bodies with a game is a loop over slices; dead slots are marked in
//! [`Agents::alive`] and skipped by every stage.

use std::collections::BTreeSet;

use glam::Vec3;

use crate::data::{
    AgentId, ArchetypeId, BehaviourState, BodyMode, Decision, FactionId, MemoryEntry, Mind,
    Missile, NavState,
};

/// All agents, one array per field (struct of arrays): index `i` of every
/// array belongs to the agent in slot `i` (see [`AgentId::index`]).
#[derive(Clone, Debug, Default)]
pub struct Agents {
    pub(crate) names: Vec<String>,
    pub(crate) archetype: Vec<ArchetypeId>,
    pub(crate) faction: Vec<FactionId>,
    pub(crate) position: Vec<Vec3>,
    pub(crate) velocity: Vec<Vec3>,
    pub(crate) facing: Vec<Vec3>,
    /// What steering asked for this tick (Driven bodies follow it; for
    /// Simulated ones the integrate stage applies it).
    pub(crate) desired_velocity: Vec<Vec3>,
    pub(crate) desired_facing: Vec<Vec3>,
    /// What steering asked for before local avoidance changed it (the
    /// avoid stage's preferred velocity; equal to the desired velocity of
    /// agents that do not avoid).
    pub(crate) preferred_velocity: Vec<Vec3>,
    pub(crate) body: Vec<BodyMode>,
    pub(crate) decision: Vec<Decision>,
    pub(crate) mind: Vec<Mind>,
    /// Missile state (orthonormal frame, guidance) of agents that move as
    /// missiles.
    pub(crate) missile: Vec<Option<Box<Missile>>>,
    /// What each agent remembers, sorted by (sense, target).
    pub(crate) memory: Vec<Vec<MemoryEntry>>,
    /// Where waypoint walkers are on the graph.
    pub(crate) nav: Vec<NavState>,
    /// Per slot, where the agent goes when nothing else occupies it (its
    /// standing goal), world units.
    pub(crate) goal: Vec<Option<Vec3>>,
    /// Per slot, whether an agent lives in it.
    pub(crate) alive: Vec<bool>,
    /// Per slot, its current generation (the live agent's, or the next
    /// one's for a free slot).
    pub(crate) generation: Vec<u32>,
    /// Free slots, reused lowest first.
    pub(crate) free: BTreeSet<u32>,
}

impl Agents {
    /// Number of slots: live agents plus free slots. Every per-slot slice
    /// has this length.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no slots.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Number of live agents.
    pub fn live_count(&self) -> usize {
        self.len() - self.free.len()
    }

    /// Per slot, whether an agent lives in it.
    pub fn alive(&self) -> &[bool] {
        &self.alive
    }

    /// Whether `agent` is in the world: its slot is live and its generation
    /// is the slot's (a despawned agent's handle is refused).
    #[inline]
    pub fn is_alive(&self, agent: AgentId) -> bool {
        let i = agent.index();
        self.alive.get(i).copied().unwrap_or(false) && self.generation[i] == agent.generation()
    }

    /// The handle of the agent in slot `index`, if one lives there.
    #[inline]
    pub fn id(&self, index: usize) -> Option<AgentId> {
        (*self.alive.get(index)?).then(|| AgentId::new(index as u32, self.generation[index]))
    }

    /// The current generation of slot `index` (the live agent's, or the
    /// next agent's for a free slot; 0 for a slot that does not exist).
    #[inline]
    pub fn generation_of(&self, index: usize) -> u32 {
        self.generation.get(index).copied().unwrap_or(0)
    }

    /// Every live agent's handle, by slot.
    pub fn ids(&self) -> impl Iterator<Item = AgentId> + '_ {
        (0..self.len()).filter_map(|i| self.id(i))
    }

    /// Names, per slot (a free slot keeps its last agent's name).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Archetypes, per slot.
    pub fn archetypes(&self) -> &[ArchetypeId] {
        &self.archetype
    }

    /// Factions, per slot.
    pub fn factions(&self) -> &[FactionId] {
        &self.faction
    }

    /// Positions in world units, per slot.
    pub fn positions(&self) -> &[Vec3] {
        &self.position
    }

    /// Velocities in world units per second, per slot.
    pub fn velocities(&self) -> &[Vec3] {
        &self.velocity
    }

    /// Facings (unit vectors), per slot.
    pub fn facings(&self) -> &[Vec3] {
        &self.facing
    }

    /// Who moves each body, per slot.
    pub fn body_modes(&self) -> &[BodyMode] {
        &self.body
    }

    /// The velocity steering asked for in the last tick, world units per
    /// second, per slot (zero for Kinematic bodies and free slots).
    pub fn desired_velocities(&self) -> &[Vec3] {
        &self.desired_velocity
    }

    /// The facing steering asked for in the last tick (a unit vector), per
    /// slot.
    pub fn desired_facings(&self) -> &[Vec3] {
        &self.desired_facing
    }

    /// Per slot, the agent's standing goal (see
    /// [`World::set_goal`](crate::World::set_goal)), world units.
    pub fn goals(&self) -> &[Option<Vec3>] {
        &self.goal
    }

    /// Last decisions, per slot.
    pub fn decisions(&self) -> &[Decision] {
        &self.decision
    }

    /// Missile states (frame, guidance), per slot; `None` for non-missiles.
    pub fn missiles(&self) -> &[Option<Box<Missile>>] {
        &self.missile
    }

    /// Decision memories (random stream, saved decision, weights), per slot.
    pub fn minds(&self) -> &[Mind] {
        &self.mind
    }

    /// The behaviour state of `agent`, if it is alive.
    pub fn state(&self, agent: AgentId) -> Option<BehaviourState> {
        self.is_alive(agent)
            .then(|| self.decision[agent.index()].state)
    }

    /// The live agent called `name` (the lowest slot when several are).
    pub fn find(&self, name: &str) -> Option<AgentId> {
        (0..self.len())
            .filter(|&i| self.names[i] == name)
            .find_map(|i| self.id(i))
    }
}

impl Agents {
    /// Adds one free slot at the end of every array (generation 0).
    pub(super) fn grow(&mut self) {
        self.names.push(String::new());
        self.archetype.push(ArchetypeId(0));
        self.faction.push(FactionId(0));
        self.position.push(Vec3::ZERO);
        self.velocity.push(Vec3::ZERO);
        self.facing.push(Vec3::X);
        self.desired_velocity.push(Vec3::ZERO);
        self.desired_facing.push(Vec3::X);
        self.preferred_velocity.push(Vec3::ZERO);
        self.body.push(BodyMode::Simulated);
        self.decision.push(Decision::default());
        self.mind.push(Mind {
            rng: crate::data::rng::agent_stream(0, AgentId::new(0, 0)),
            saved: None,
            weights: [1.0, 1.0],
        });
        self.missile.push(None);
        self.memory.push(Vec::new());
        self.nav.push(NavState::default());
        self.goal.push(None);
        self.alive.push(false);
        self.generation.push(0);
        self.free.insert((self.names.len() - 1) as u32);
    }
}
