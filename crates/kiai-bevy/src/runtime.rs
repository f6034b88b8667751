//! The plugin's state: the kiai world, its pipeline and deciders, and which
//! entity is which agent.

use bevy_asset::{AssetId, Handle};
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use kiai::core::{AgentId, DefaultDecider, Pipeline, World, state_hash};
use kiai::lua::{LuaDecider, ScriptId};

use crate::assets::{KiaiContent, KiaiScript};
use crate::coords::Plane;
use crate::entity_map::EntityMap;

/// The level kiai runs: set it (or give [`crate::KiaiPlugin::content`] a
/// path) and the plugin builds the world once the content and its scripts
/// have loaded, and again whenever the content asset changes.
#[derive(Resource, Clone, Debug)]
pub struct KiaiLevel(pub Handle<KiaiContent>);

/// kiai's world inside the app: read it in systems with `Res<Kiai>`.
/// Empty until the level has loaded.
#[derive(Resource, Debug, Default)]
pub struct Kiai {
    pub(crate) world: Option<World>,
    pub(crate) pipeline: Pipeline,
    pub(crate) entities: EntityMap,
    /// The content asset the world was built from.
    pub(crate) built_from: Option<AssetId<KiaiContent>>,
    /// The content changed since the world was built.
    pub(crate) stale: bool,
    /// The world was just built: every `KiaiWall` applies, changed or not.
    pub(crate) fresh_walls: bool,
    /// The world was just built: its points of interest are the content's.
    pub(crate) fresh_interest: bool,
    pub(crate) plane: Plane,
    /// Problems logged so far (`file:line:col: error: ...`), oldest first.
    pub(crate) problems: Vec<String>,
    /// Scripts' labels of the last tick: per agent slot an index into
    /// `label_names` (0: none).
    pub(crate) labels: Vec<u16>,
    pub(crate) label_names: Vec<String>,
}

impl Kiai {
    /// The kiai world, once the level has loaded.
    pub fn world(&self) -> Option<&World> {
        self.world.as_ref()
    }

    /// The kiai world, to change it between ticks (spawn sounds, move
    /// goals, retune archetypes); walls, doors and links also have
    /// components and commands ([`crate::KiaiWall`], [`crate::KiaiCommandsExt`]).
    pub fn world_mut(&mut self) -> Option<&mut World> {
        self.world.as_mut()
    }

    /// Whether the level has loaded and kiai ticks.
    pub fn is_ready(&self) -> bool {
        self.world.is_some()
    }

    /// The entity of `agent`, if it has one.
    pub fn entity(&self, agent: AgentId) -> Option<Entity> {
        self.entities.entity(agent)
    }

    /// The agent of `entity`, if it is one.
    pub fn agent(&self, entity: Entity) -> Option<AgentId> {
        self.entities.agent(entity)
    }

    /// The entities sense `sense` (by name) of `entity`'s agent senses, in
    /// kiai's rank order; empty when it is not an agent or has no such
    /// sense.
    pub fn sensed(&self, entity: Entity, sense: &str) -> Vec<Entity> {
        let (Some(world), Some(agent)) = (self.world(), self.agent(entity)) else {
            return Vec::new();
        };
        world
            .sensed_by_name(agent, sense)
            .unwrap_or(&[])
            .iter()
            .filter_map(|&a| self.entity(a))
            .collect()
    }

    /// The name of `agent`'s state: its script's label (`"search"`) or the
    /// built-in state (`"random_walk"`, `"chase"`, `"evade"`); `None` when
    /// it is not alive.
    pub fn state_name(&self, agent: AgentId) -> Option<&str> {
        let world = self.world()?;
        let state = world.agents().state(agent)?;
        let label = self.labels.get(agent.index()).copied().unwrap_or(0);
        Some(match self.label_names.get(usize::from(label)) {
            Some(name) if label != 0 => name,
            _ => state.name(),
        })
    }

    /// The name of sense `sense` (an index, as events carry it) of
    /// `entity`'s archetype.
    pub fn sense_name(&self, entity: Entity, sense: u16) -> Option<&str> {
        let world = self.world()?;
        let agent = self.agent(entity)?;
        let archetype = world.agents().archetypes().get(agent.index())?;
        let sense = world
            .archetype(*archetype)?
            .senses
            .get(usize::from(sense))?;
        Some(&sense.name)
    }

    /// The number of ticks run (0 before the level loads).
    pub fn tick(&self) -> u64 {
        self.world.as_ref().map_or(0, World::tick)
    }

    /// The state hash of the world (`kiai run --json`'s `state_hash`), the
    /// determinism check; `None` before the level loads.
    pub fn state_hash(&self) -> Option<u64> {
        self.world.as_ref().map(state_hash)
    }

    /// How long each stage of the last tick took (for a profiling HUD).
    pub fn timings(&self) -> &kiai::core::StageTimings {
        self.pipeline.timings()
    }

    /// How kiai's space maps onto the app's.
    pub fn plane(&self) -> Plane {
        self.plane
    }

    /// Every problem logged so far (content that did not load, scripts
    /// that did not compile or failed), one `file:line:col: error: ...`
    /// line each, oldest first.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Logs `line` as an error and keeps it for [`Kiai::problems`].
    pub(crate) fn problem(&mut self, line: String) {
        bevy_log::error!("{line}");
        self.problems.push(line);
    }
}

/// The deciders (Lua states are not `Send`: a non-send resource, so the
/// tick runs on the main thread).
#[derive(Default)]
pub(crate) struct Deciders {
    pub(crate) rust: DefaultDecider,
    pub(crate) lua: Option<LuaDecider>,
    /// Which script each script asset is (sorted, no repeats).
    pub(crate) scripts: Vec<(AssetId<KiaiScript>, ScriptId)>,
    /// Script assets that had failed to load when the world was built:
    /// their first successful load reloads them.
    pub(crate) missing: Vec<AssetId<KiaiScript>>,
}
