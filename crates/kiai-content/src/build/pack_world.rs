//! The runtime world straight from a pack: factions, archetypes, agents,
//! sounds and regions by the pack's indices, the navigation graph from its
//! columns. No name is looked up and nothing is turned back into content
//! definitions; the result is the world the content it was exported from
//! builds, bit for bit (same state hash after any number of ticks).

use std::sync::Arc;

use kiai_core::perception::hearing::NO_SOURCE;
use kiai_core::plugins::Plugins;
use kiai_core::{AgentSpawn, ArchetypeId, FactionId, Occluders, World, WorldError};

use super::{
    ResolvedArchetype, archetype, enable_fog, occluders_of, schedule_sound, set_budget,
    world_config,
};
use crate::pack::{Pack, PackError};

impl Pack {
    /// The runtime world of this pack; `seed` overrides the pack's. A pack
    /// may come from anywhere, so its structure ([`Pack::check`]) and the
    /// value rules of content are checked first; the first problem is the
    /// error.
    pub fn world(&self, seed: Option<u64>) -> Result<World, PackError> {
        self.check()?;
        if let Some(e) = crate::pack::value_errors(self, "pack").first() {
            return Err(PackError::Invalid(e.message.clone()));
        }
        build_world(self, seed, Arc::default()).map_err(|e| PackError::Invalid(e.to_string()))
    }
}

/// Builds the world of a checked pack with the game's `plugins`; an
/// unregistered decider or steering behaviour is an error.
pub(crate) fn build_world(
    pack: &Pack,
    seed: Option<u64>,
    plugins: Arc<Plugins>,
) -> Result<World, WorldError> {
    let mut world = World::new(world_config(
        seed.unwrap_or(pack.seed),
        pack.tick_seconds,
        pack.bounds,
    ));
    let index = |what: &str, i: u32| WorldError::UnknownHandle(format!("{what} index {i}"));
    let mut factions: Vec<FactionId> = Vec::with_capacity(pack.factions.len());
    for f in &pack.factions {
        let id = world
            .factions_mut()
            .add(f.name.clone())
            .map_err(|_| WorldError::Full("factions"))?;
        factions.push(id);
    }
    let faction = |i: u32| {
        factions
            .get(i as usize)
            .copied()
            .ok_or_else(|| index("faction", i))
    };
    for (f, &from) in pack.factions.iter().zip(&factions) {
        for &h in &f.hostile {
            world.factions_mut().set_hostile(from, faction(h)?);
        }
    }
    for (i, a) in pack.archetypes.iter().enumerate() {
        let resolved = ResolvedArchetype {
            name: &a.name,
            values: a.into(),
            profile: a
                .profile
                .and_then(|i| pack.profiles.get(i as usize))
                .map(|p| &p.profile),
            cost_list: a.cost_list.map(|i| i as usize),
            lod: pack.lod.tiers_of(i),
        };
        world.add_archetype(archetype(&resolved, &plugins)?)?;
    }
    let mut interest = Vec::new();
    for (i, a) in pack.agents.iter().enumerate() {
        let id = world.spawn(AgentSpawn {
            name: a.name.clone(),
            archetype: ArchetypeId::from_index(a.archetype as usize),
            faction: faction(a.faction)?,
            position: super::v3(a.pos),
            facing: super::v3(a.facing),
        })?;
        world.set_goal(id, a.goal.map(super::v3))?;
        if pack.lod.is_interest(i) {
            interest.push(id);
        }
    }
    super::lod::set_interest(&mut world, &pack.lod.interest, interest)?;
    world.set_plugins(plugins);
    if !pack.waypoints.is_empty() {
        let (graph, _) =
            super::nav::pack_graph(pack).map_err(|e| WorldError::UnknownHandle(e.to_string()))?;
        world.set_nav(graph.freeze());
    }
    if let Some(occluders) = occluders(pack, world.config().seed) {
        super::set_occluders(&mut world, occluders, &pack.walls);
    }
    set_budget(&mut world, pack.perception_budget);
    world.set_route_budget(pack.nav.budget);
    for snd in &pack.sounds {
        let source = snd.source.unwrap_or(NO_SOURCE);
        schedule_sound(&mut world, snd.tick, (snd.pos, snd.volume), source, snd.tag);
    }
    enable_fog(&mut world, pack.fog.as_ref(), pack.bounds)?;
    Ok(world)
}

/// The pack's walls and regions; the regions' `sees` lists are indices
/// already.
fn occluders(pack: &Pack, seed: u64) -> Option<Occluders> {
    let authored = pack.regions.iter().all(|r| r.sees.is_some()).then(|| {
        pack.regions
            .iter()
            .map(|r| r.sees.iter().flatten().map(|&i| i as usize).collect())
            .collect()
    });
    occluders_of(
        &pack.walls,
        pack.regions.iter().map(|r| r.polygon.as_slice()),
        authored,
        seed,
    )
}
