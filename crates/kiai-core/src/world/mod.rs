//! The [`World`]: agents as a struct of arrays, their archetypes and factions,
//! and the percepts of the last sense stage.

mod agents;
mod bodies;
mod clearance;
mod config;
mod dynamic;
mod event_order;
mod events;
mod fog;
mod interest;
mod lifecycle;
mod orders;
pub mod plugins;
mod retune;

pub use agents::Agents;
pub use config::{Aabb, AgentSpawn, WorldConfig, WorldError};
pub(crate) use event_order::EventOrder;
pub(crate) use fog::fog_pose;
pub use fog::{Fog, FogSettings};

pub use lifecycle::Deferred;
pub(crate) use lifecycle::Replan;

use crate::data::{
    AgentId, Archetype, ArchetypeId, CompiledSenses, Event, Factions, MemoryEntry, Message,
    NavState, Occluders, PerceptionBudget, Percepts, RayCursor, RouteQueue, Sound,
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
    /// What happened since the last tick began (see [`World::events`]).
    pub(crate) events: Vec<Event>,
    /// How many of `events` belong to the last tick that ended.
    pub(crate) tick_events_end: usize,
    /// Where this tick's agent events lie in `events`, already in the
    /// queue's order (see `World::settle_decisions`).
    pub(crate) agent_events: std::ops::Range<usize>,
    /// Agents were despawned since the last tick began: what others hold
    /// of them is cleared when the next one begins.
    pub(crate) scrub_pending: bool,
    /// Spawns and despawns asked for during a tick, applied at its end.
    pub(crate) deferred: Vec<Deferred>,
    /// Waypoint walkers must re-plan their routes at the next navigate
    /// stage (the graph changed).
    pub(crate) replan: lifecycle::Replan,
    /// Wall names, doors and the links doors cross.
    pub(crate) walls_info: dynamic::WallInfo,
    /// Waypoint links whose clearance must be measured again.
    pub(crate) stale_clearance: clearance::StaleClearance,
    /// Walkers' route requests and the fields of shared goals.
    pub(crate) routes: RouteQueue,
    /// Tick level of detail: points of interest, tiers, who thinks.
    pub(crate) lod: crate::data::Lod,
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
            events: Vec::new(),
            tick_events_end: 0,
            agent_events: 0..0,
            scrub_pending: false,
            deferred: Vec::new(),
            replan: lifecycle::Replan::default(),
            walls_info: dynamic::WallInfo::default(),
            stale_clearance: clearance::StaleClearance::default(),
            routes: RouteQueue::new(),
            lod: crate::data::Lod::default(),
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
        crate::data::LodTier::check_list(&archetype.lod)
            .map_err(|e| WorldError::Refused(format!("archetype {}: lod: {e}", archetype.name)))?;
        self.lod.active |= archetype.lod.iter().any(|t| t.every > 1);
        self.compiled.push(CompiledSenses::new(&archetype.senses));
        self.archetypes.push(archetype);
        self.stale_clearance.all = true;
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
    /// senses and by movement (replacing earlier ones, and forgetting their
    /// names and doors).
    pub fn set_occluders(&mut self, occluders: Occluders) {
        // The old doors release the links they held closed.
        for index in 0..self.walls_info.door.len() {
            // The index exists: the door flags cover the old walls only.
            let _ = self.set_door(index, false);
        }
        let blocked = std::mem::take(&mut self.walls_info.blocked_links);
        self.walls_info = dynamic::WallInfo {
            blocked_links: blocked,
            ..dynamic::WallInfo::default()
        };
        self.occluders = Some(occluders);
        self.stale_clearance.all = true;
    }

    /// Caps the occlusion rays of each sense stage (`None`: no cap, the
    /// default). Rays go round-robin over the agents, deterministically:
    /// see [`PerceptionBudget`] for the exact rule. The budget and the
    /// round-robin cursor are simulation state (in the state hash); the
    /// cursor is kept when the budget changes.
    pub fn set_perception_budget(&mut self, budget: Option<PerceptionBudget>) {
        self.perception_budget = budget;
    }

    /// Sets how many waypoints the route searches of one tick may expand
    /// (`None`: no limit, every route is found in the tick it is asked
    /// for; the default is [`DEFAULT_ROUTE_BUDGET`](crate::DEFAULT_ROUTE_BUDGET)).
    /// Walkers whose request waits walk toward their goal by article 001's
    /// selection until their route comes. A tick may go over the budget by
    /// the searches it started last (at most one per parallel slot). The
    /// budget is simulation state: results are the same at any thread
    /// count, and the same budget gives the same run.
    pub fn set_route_budget(&mut self, budget: Option<u32>) {
        self.routes.budget = budget.map(|b| b.max(1));
    }

    /// The route search budget per tick (waypoints expanded); `None`: none.
    pub fn route_budget(&self) -> Option<u32> {
        self.routes.budget
    }

    /// How many walkers wait for a route.
    pub fn routes_waiting(&self) -> usize {
        self.routes.requests.len()
    }

    /// The cap on occlusion rays per sense stage, if any.
    pub fn perception_budget(&self) -> Option<PerceptionBudget> {
        self.perception_budget
    }

    /// Where the next budgeted sense stage starts casting rays.
    pub fn ray_cursor(&self) -> RayCursor {
        self.ray_cursor
    }

    /// Sets the waypoint graph that waypoint walkers walk (article 001). Links
    /// blocked through [`World::set_link_blocked`] and by closed doors stay
    /// blocked in it; walkers re-plan.
    ///
    /// On a big graph (2,000 waypoints or more) this also readies the
    /// route queue's search memory (about 20 bytes per waypoint for each
    /// of 4 searches, and 9 for a distance field), so that the first
    /// tick that searches does not pay for it.
    pub fn set_nav(&mut self, nav: kiai_nav::NavGraph) {
        self.routes.prepare(&nav);
        self.nav = Some(nav);
        let blocked: Vec<_> = self.walls_info.blocked_links.iter().copied().collect();
        if let Some(nav) = &mut self.nav {
            for (from, to) in blocked {
                nav.block_link(from, to);
            }
        }
        self.relink_doors();
        self.replan.all = true;
        self.stale_clearance.all = true;
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
    /// last sensed (senses with `memory_ticks > 0` only); empty for a
    /// handle that is not alive.
    pub fn memory(&self, agent: AgentId) -> &[MemoryEntry] {
        if !self.agents.is_alive(agent) {
            return &[];
        }
        &self.agents.memory[agent.index()]
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

    /// Whether `agent` is in the world (a despawned agent's handle is
    /// refused everywhere).
    pub fn is_alive(&self, agent: AgentId) -> bool {
        self.agents.is_alive(agent)
    }

    /// The agents that `agent` noticed with its sense called `sense` in the
    /// last sense stage (ascending), or `None` when the agent is not alive
    /// or has no such sense.
    pub fn sensed_by_name(&self, agent: AgentId, sense: &str) -> Option<&[AgentId]> {
        if !self.agents.is_alive(agent) {
            return None;
        }
        let archetype = self
            .archetypes
            .get(self.agents.archetype[agent.index()].index())?;
        let s = archetype.sense_index(sense)?;
        Some(self.percepts.sensed(agent, s))
    }
}
