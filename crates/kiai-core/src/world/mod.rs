//! The [`World`]: agents as a struct of arrays, their archetypes and factions,
//! and the percepts of the last sense stage.

mod agents;
mod config;
mod fog;
pub mod plugins;

pub use agents::Agents;
pub use config::{Aabb, AgentSpawn, WorldConfig, WorldError};
pub(crate) use fog::fog_pose;
pub use fog::{Fog, FogSettings};

use glam::Vec3;

use crate::data::rng::agent_stream;
use crate::data::{
    AgentId, Archetype, ArchetypeId, CompiledSenses, Decision, Factions, MemoryEntry, Message,
    Mind, Missile, Movement, NavState, Occluders, PerceptionBudget, Percepts, RayCursor, Sound,
};

/// Everything the simulation knows. Advance it with
/// [`Pipeline::tick`](crate::Pipeline::tick).
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) config: WorldConfig,
    pub(crate) tick: u64,
    pub(crate) factions: Factions,
    pub(crate) archetypes: Vec<Archetype>,
    pub(crate) compiled: Vec<CompiledSenses>,
    pub(crate) agents: Agents,
    pub(crate) percepts: Percepts,
    pub(crate) fog: Option<Fog>,
    pub(crate) occluders: Option<Occluders>,
    pub(crate) nav: Option<kiai_nav::NavGraph>,
    pub(crate) plugins: std::sync::Arc<plugins::Plugins>,
    /// Sounds emitted during this tick, heard at the next sense stage.
    pub(crate) pending_sounds: Vec<Sound>,
    /// Sounds scheduled by content: (tick, sound), sorted by tick.
    pub(crate) scheduled_sounds: Vec<(u64, Sound)>,
    /// Messages sent during this tick, delivered at the next sense stage.
    pub(crate) pending_messages: Vec<Message>,
    /// The cap on occlusion rays per sense stage, if any.
    pub(crate) perception_budget: Option<PerceptionBudget>,
    /// Where the next budgeted sense stage starts casting rays.
    pub(crate) ray_cursor: RayCursor,
}

impl World {
    /// An empty world.
    pub fn new(config: WorldConfig) -> Self {
        Self {
            config,
            tick: 0,
            factions: Factions::default(),
            archetypes: Vec::new(),
            compiled: Vec::new(),
            agents: Agents::default(),
            percepts: Percepts::default(),
            fog: None,
            occluders: None,
            nav: None,
            plugins: std::sync::Arc::default(),
            pending_sounds: Vec::new(),
            scheduled_sounds: Vec::new(),
            pending_messages: Vec::new(),
            perception_budget: None,
            ray_cursor: RayCursor::default(),
        }
    }

    /// The settings the world was made with.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Ticks simulated so far.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The factions (add them before spawning agents).
    pub fn factions(&self) -> &Factions {
        &self.factions
    }

    /// The factions, for adding and relating them.
    pub fn factions_mut(&mut self) -> &mut Factions {
        &mut self.factions
    }

    /// Adds an archetype and returns its handle.
    pub fn add_archetype(&mut self, archetype: Archetype) -> Result<ArchetypeId, WorldError> {
        if self.archetypes.len() >= usize::from(u16::MAX) {
            return Err(WorldError::Full("archetypes"));
        }
        self.compiled.push(CompiledSenses::new(&archetype.senses));
        self.archetypes.push(archetype);
        Ok(ArchetypeId::from_index(self.archetypes.len() - 1))
    }

    /// The archetypes, indexed by [`ArchetypeId`].
    pub fn archetypes(&self) -> &[Archetype] {
        &self.archetypes
    }

    /// The archetype `id`, if it exists.
    pub fn archetype(&self, id: ArchetypeId) -> Option<&Archetype> {
        self.archetypes.get(id.index())
    }

    /// Adds an agent. Its random stream is derived from the world seed and
    /// its index, so spawning order alone decides it.
    pub fn spawn(&mut self, spawn: AgentSpawn) -> Result<AgentId, WorldError> {
        if spawn.archetype.index() >= self.archetypes.len() {
            return Err(WorldError::UnknownHandle(spawn.archetype.to_string()));
        }
        if spawn.faction.index() >= self.factions.len() {
            return Err(WorldError::UnknownHandle(spawn.faction.to_string()));
        }
        let index = self.agents.len();
        let index32 = u32::try_from(index).map_err(|_| WorldError::Full("agents"))?;
        let a = &mut self.agents;
        a.names.push(spawn.name);
        a.archetype.push(spawn.archetype);
        a.faction.push(spawn.faction);
        a.position.push(spawn.position);
        a.velocity.push(Vec3::ZERO);
        a.facing
            .push(spawn.facing.try_normalize().unwrap_or(Vec3::X));
        a.decision.push(Decision::default());
        let facing = a.facing[index];
        a.memory.push(Vec::new());
        a.nav.push(NavState::default());
        a.missile
            .push(match self.archetypes[spawn.archetype.index()].movement {
                Movement::Missile {
                    speed,
                    turn_rate,
                    control,
                    guidance,
                    arrival_distance,
                    precision,
                } => Some(Box::new(
                    Missile::new(spawn.position, facing, Vec3::Y, speed, turn_rate)
                        .with_control(control)
                        .with_guidance(guidance)
                        .with_precision(precision)
                        .with_arrival_distance(arrival_distance),
                )),
                _ => None,
            });
        let weights = self.archetypes[spawn.archetype.index()]
            .profile
            .map_or([1.0, 1.0], |p| [p.chase, p.evade]);
        a.mind.push(Mind {
            rng: agent_stream(self.config.seed, index32),
            saved: None,
            weights,
        });
        self.add_fog_unit(index)?;
        Ok(AgentId(index32))
    }

    /// Sets the game's deciders and steering behaviours, which archetypes
    /// refer to by index ([`Archetype::decider`](crate::Archetype::decider),
    /// [`Movement::Custom`](crate::Movement::Custom)).
    pub fn set_plugins(&mut self, plugins: std::sync::Arc<plugins::Plugins>) {
        self.plugins = plugins;
    }

    /// The game's deciders and steering behaviours.
    pub fn plugins(&self) -> &plugins::Plugins {
        &self.plugins
    }

    /// Sets the walls and the potentially visible set used by `occluded`
    /// senses (replacing earlier ones).
    pub fn set_occluders(&mut self, occluders: Occluders) {
        self.occluders = Some(occluders);
    }

    /// Caps the occlusion rays of each sense stage (`None`: no cap, the
    /// default). Rays go round-robin over the agents, deterministically:
    /// see [`PerceptionBudget`] for the exact rule. The budget and the
    /// round-robin cursor are simulation state (in the state hash); the
    /// cursor is kept when the budget changes.
    pub fn set_perception_budget(&mut self, budget: Option<PerceptionBudget>) {
        self.perception_budget = budget;
    }

    /// The cap on occlusion rays per sense stage, if any.
    pub fn perception_budget(&self) -> Option<PerceptionBudget> {
        self.perception_budget
    }

    /// Where the next budgeted sense stage starts casting rays.
    pub fn ray_cursor(&self) -> RayCursor {
        self.ray_cursor
    }

    /// Sets the waypoint graph that waypoint walkers walk (seed 001).
    pub fn set_nav(&mut self, nav: kiai_nav::NavGraph) {
        self.nav = Some(nav);
    }

    /// The waypoint graph, if any.
    pub fn nav(&self) -> Option<&kiai_nav::NavGraph> {
        self.nav.as_ref()
    }

    /// Where each waypoint walker is on the graph, per agent.
    pub fn nav_states(&self) -> &[NavState] {
        &self.agents.nav
    }

    /// The walls and potentially visible set, if any.
    pub fn occluders(&self) -> Option<&Occluders> {
        self.occluders.as_ref()
    }

    /// Emits a sound now; hearing senses hear it at the next sense stage.
    pub fn emit_sound(&mut self, sound: Sound) {
        self.pending_sounds.push(sound);
    }

    /// Schedules a sound to be heard at the sense stage of tick `tick`.
    pub fn schedule_sound(&mut self, tick: u64, sound: Sound) {
        let at = self.scheduled_sounds.partition_point(|(t, _)| *t <= tick);
        self.scheduled_sounds.insert(at, (tick, sound));
    }

    /// Sends a message now; it is delivered at the next sense stage.
    pub fn send_message(&mut self, message: Message) {
        self.pending_messages.push(message);
    }

    /// What `agent` remembers: per sense and target, where and when it was
    /// last sensed (senses with `memory_ticks > 0` only).
    pub fn memory(&self, agent: AgentId) -> &[MemoryEntry] {
        self.agents
            .memory
            .get(agent.index())
            .map_or(&[], Vec::as_slice)
    }

    /// The fog of war, when enabled.
    pub fn fog(&self) -> Option<&Fog> {
        self.fog.as_ref()
    }

    /// The agents.
    pub fn agents(&self) -> &Agents {
        &self.agents
    }

    /// What every agent sensed in the last sense stage.
    pub fn percepts(&self) -> &Percepts {
        &self.percepts
    }

    /// The agents that `agent` noticed with its sense called `sense` in the
    /// last sense stage (ascending), or `None` when either does not exist.
    pub fn sensed_by_name(&self, agent: AgentId, sense: &str) -> Option<&[AgentId]> {
        let archetype = self
            .archetypes
            .get(self.agents.archetype.get(agent.index())?.index())?;
        let s = archetype.sense_index(sense)?;
        Some(self.percepts.sensed(agent, s))
    }

    /// Moves `agent` to `position` (e.g. from game physics); `None` when
    /// the agent does not exist.
    pub fn set_position(&mut self, agent: AgentId, position: Vec3) -> Option<()> {
        *self.agents.position.get_mut(agent.index())? = position;
        Some(())
    }
}
