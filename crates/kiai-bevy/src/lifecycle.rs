//! Entities joining and leaving: an entity given [`KiaiAgent`] becomes an
//! agent before the next tick; removing the component or despawning the
//! entity despawns the agent at once.

use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use kiai::core::{AgentSpawn, ArchetypeId, World};

use crate::components::{KiaiAgent, KiaiId};
use crate::runtime::Kiai;

/// Why the plugin could not make an entity's agent (an archetype or
/// faction the content does not have); remove it after fixing the
/// [`KiaiAgent`] to try again.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct KiaiRefused(pub String);

/// What makes an entity's agent: the entity, what it asks for, where it
/// stands and its name.
type NewAgent = (
    Entity,
    &'static KiaiAgent,
    Option<&'static Transform>,
    Option<&'static Name>,
);

/// Spawns the agents of entities that have [`KiaiAgent`] but no agent
/// yet, in entity order (so the same app makes the same agents in the
/// same slots).
pub(crate) fn spawn_agents(
    mut kiai: ResMut<Kiai>,
    mut commands: Commands,
    new: Query<NewAgent, (Without<KiaiId>, Without<KiaiRefused>)>,
) {
    if !kiai.is_ready() || new.is_empty() {
        return;
    }
    let mut new: Vec<_> = new.iter().collect();
    new.sort_by_key(|(e, ..)| *e);
    let plane = kiai.plane;
    for (entity, agent, transform, name) in new {
        let Some(world) = kiai.world.as_mut() else {
            return;
        };
        let transform = transform.copied().unwrap_or_default();
        let spawn = resolve(world, agent).map(|(archetype, faction)| AgentSpawn {
            name: name.map_or_else(
                || format!("{}#{entity}", agent.archetype),
                |n| n.to_string(),
            ),
            archetype,
            faction,
            position: plane.to_kiai(transform.translation),
            facing: plane.facing(transform.rotation),
        });
        match spawn.and_then(|s| world.spawn(s).map_err(|e| format!("{e:?}"))) {
            Ok(id) => {
                kiai.entities.insert(id, entity);
                commands.entity(entity).insert(KiaiId(id));
            }
            Err(why) => {
                let why = format!("entity {entity}: cannot make a kiai agent: {why}");
                kiai.problem(why.clone());
                commands.entity(entity).insert(KiaiRefused(why));
            }
        }
    }
}

/// The archetype and faction an entity names, or what is wrong.
fn resolve(
    world: &World,
    agent: &KiaiAgent,
) -> Result<(ArchetypeId, kiai::core::FactionId), String> {
    let archetype = world
        .archetypes()
        .iter()
        .position(|a| a.name == agent.archetype)
        .ok_or_else(|| {
            let names: Vec<_> = world.archetypes().iter().map(|a| a.name.as_str()).collect();
            format!(
                "no archetype `{}` (the content has {})",
                agent.archetype,
                names.join(", ")
            )
        })?;
    let faction = world
        .factions()
        .find(&agent.faction)
        .ok_or_else(|| format!("no faction `{}` in the content", agent.faction))?;
    Ok((ArchetypeId::from_index(archetype), faction))
}

/// Despawns the agent of an entity that loses [`KiaiAgent`] (or is
/// despawned). Its entity stays known until its `Despawned` event went
/// out.
pub(crate) fn despawn_agent(
    remove: On<Remove, KiaiAgent>,
    mut kiai: ResMut<Kiai>,
    mut commands: Commands,
) {
    let entity = remove.event().entity;
    let Some(agent) = kiai.entities.agent(entity) else {
        return;
    };
    // The handle goes with the agent, so that a new `KiaiAgent` on the
    // entity makes a new agent (a despawned entity ignores this).
    commands.entity(entity).try_remove::<KiaiId>();
    if let Some(world) = kiai.world.as_mut()
        && world.is_alive(agent)
    {
        // The agent is alive (checked): despawn cannot fail.
        let _ = world.despawn(agent);
    }
}
