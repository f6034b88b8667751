//! The [`World`]: agents as a struct of arrays, their archetypes and factions,
//! and the percepts of the last sense stage.

use glam::Vec3;

use kiai_fog::{
    FogConfig, FogError, FogEvent, FogGrid, GridSpec, Pose, SightShape, UnitDesc, UnitId,
};

use crate::archetype::{Archetype, Movement};
use crate::behaviour::{BehaviourState, Decision, Mind};
use crate::faction::Factions;
use crate::ids::{AgentId, ArchetypeId, FactionId};
use crate::perception::hearing::Sound;
use crate::perception::{
    CompiledSenses, MemoryEntry, Message, Occluders, PerceptionBudget, Percepts, RayCursor,
};
use crate::rng::agent_stream;
use crate::steering::missile::Missile;

/// An axis-aligned box in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner; every component >= `min`'s.
    pub max: Vec3,
}

/// Settings fixed when a world is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldConfig {
    /// Seed of every random stream in the world.
    pub seed: u64,
    /// Simulated seconds per tick, > 0.
    pub tick_seconds: f32,
    /// Agents that walk out of these bounds are reflected back in. `None`:
    /// the world is unbounded.
    pub bounds: Option<Aabb>,
}

impl Default for WorldConfig {
    fn default() -> Self {
        Self {
            seed: 0,
            tick_seconds: 0.1,
            bounds: None,
        }
    }
}

/// How to place one agent; see [`World::spawn`].
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpawn {
    /// Unique name, used in reports.
    pub name: String,
    /// Its archetype.
    pub archetype: ArchetypeId,
    /// Its faction.
    pub faction: FactionId,
    /// Position, world units.
    pub position: Vec3,
    /// Facing; normalised on spawn (zero becomes +X).
    pub facing: Vec3,
}

/// Errors of world construction.
#[derive(Clone, Debug, PartialEq)]
pub enum WorldError {
    /// A handle does not name anything in this world.
    UnknownHandle(String),
    /// A world holds at most `u32::MAX` agents or `u16::MAX` archetypes.
    Full(&'static str),
    /// The fog of war rejected its settings or a unit.
    Fog(FogError),
}

impl std::fmt::Display for WorldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorldError::UnknownHandle(h) => write!(f, "unknown handle {h}"),
            WorldError::Full(what) => write!(f, "too many {what}"),
            WorldError::Fog(e) => write!(f, "fog of war: {e}"),
        }
    }
}

impl From<FogError> for WorldError {
    fn from(e: FogError) -> Self {
        WorldError::Fog(e)
    }
}

/// Settings of a world's tile fog of war; see [`World::enable_fog`].
#[derive(Clone, Debug, PartialEq)]
pub struct FogSettings {
    /// The tile grid on the X-Z plane (size, tile size, origin).
    pub grid: GridSpec,
    /// Direction buckets for flashlight sights, 1..=1024.
    pub directions: u16,
    /// Whether blocking tiles cast shadows.
    pub occlusion: bool,
    /// Tiles that block sight, `(x, z)` in tiles.
    pub blocking: Vec<(u32, u32)>,
}

/// The fog of war of a world: the grid plus the events of the last tick.
#[derive(Clone, Debug)]
pub struct Fog {
    pub(crate) grid: FogGrid,
    pub(crate) events: Vec<FogEvent>,
}

impl Fog {
    /// The tile grid: visibility per faction, explored state, counters.
    /// Faction ids are the world's [`FactionId`] indices.
    pub fn grid(&self) -> &FogGrid {
        &self.grid
    }

    /// Spotted / lost events of the last tick, sorted by agent then faction
    /// (the fog's `UnitId` is the agent's index).
    pub fn events(&self) -> &[FogEvent] {
        &self.events
    }
}

/// The fog pose of an agent: X-Z position, facing angle from +X toward +Z.
pub(crate) fn fog_pose(position: Vec3, facing: Vec3) -> Pose {
    Pose::new([position.x, position.z], facing.z.atan2(facing.x))
}

impl std::error::Error for WorldError {}

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
    pub(crate) nav: Vec<crate::navigate::NavState>,
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
    pub(crate) plugins: std::sync::Arc<crate::plugins::Plugins>,
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
        a.nav.push(crate::navigate::NavState::default());
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

    /// Turns on the tile fog of war. Every agent whose archetype has a
    /// [`Sight`](crate::Sight) (and every one spawned later) reveals tiles for
    /// its faction; the fog stage of each tick updates it. Needs at most
    /// [`kiai_fog::MAX_FACTIONS`] factions.
    pub fn enable_fog(&mut self, settings: &FogSettings) -> Result<(), WorldError> {
        // The grid itself rejects more than kiai_fog::MAX_FACTIONS.
        let factions = u8::try_from(self.factions.len().max(1)).unwrap_or(u8::MAX);
        let mut grid = FogGrid::new(
            settings.grid,
            FogConfig {
                factions,
                direction_buckets: settings.directions,
                occlusion: settings.occlusion,
            },
        )?;
        for &(x, z) in &settings.blocking {
            grid.set_blocking(kiai_fog::TilePos::new(x, z), true);
        }
        self.fog = Some(Fog {
            grid,
            events: Vec::new(),
        });
        for i in 0..self.agents.len() {
            self.add_fog_unit(i)?;
        }
        if let Some(fog) = &mut self.fog {
            fog.grid.drain_events_into(&mut fog.events);
        }
        Ok(())
    }

    fn add_fog_unit(&mut self, index: usize) -> Result<(), WorldError> {
        let Some(fog) = &mut self.fog else {
            return Ok(());
        };
        let a = &self.agents;
        let Some(sight) = self.archetypes[a.archetype[index].index()].sight else {
            return Ok(());
        };
        let desc = UnitDesc {
            faction: kiai_fog::FactionId(a.faction[index].0 as u8),
            sight_radius: sight.radius / fog.grid.spec().tile_size,
            shape: match sight.flashlight_fov_deg {
                None => SightShape::Circle,
                Some(fov_deg) => SightShape::Flashlight { fov_deg },
            },
        };
        fog.grid.add_unit(
            UnitId(index as u32),
            desc,
            fog_pose(a.position[index], a.facing[index]),
        )?;
        Ok(())
    }

    /// Sets the game's deciders and steering behaviours, which archetypes
    /// refer to by index ([`Archetype::decider`](crate::Archetype::decider),
    /// [`Movement::Custom`](crate::Movement::Custom)).
    pub fn set_plugins(&mut self, plugins: std::sync::Arc<crate::plugins::Plugins>) {
        self.plugins = plugins;
    }

    /// The game's deciders and steering behaviours.
    pub fn plugins(&self) -> &crate::plugins::Plugins {
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
    pub fn nav_states(&self) -> &[crate::navigate::NavState] {
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
