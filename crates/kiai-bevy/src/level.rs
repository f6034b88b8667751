//! Building the world from the level: once the content asset and its
//! scripts have loaded, and again when the content changes (hot reload).
//! The content's own agents become entities ([`FromContent`]); entities
//! the game made keep their components and join the new world.

use bevy_asset::{
    AssetEvent, AssetLoadError, AssetLoadFailedEvent, AssetPath, AssetServer, Assets,
};
use bevy_ecs::prelude::*;
use bevy_time::{Fixed, Time};
use bevy_transform::components::Transform;
use kiai::content::ScriptRef;
use kiai::core::{AgentId, ArchetypeId, World};
use kiai::lua::Limits;

use crate::assets::{KiaiContent, KiaiScript, LoadError};
use crate::components::{KiaiAgent, KiaiId};
use crate::coords::Plane;
use crate::lifecycle::KiaiRefused;
use crate::runtime::{Deciders, Kiai, KiaiLevel};

/// Marks an entity the plugin made for one of kiai's own agents (the
/// content's, or one a script spawned); a content reload despawns it (and
/// makes the new content's).
#[derive(Component, Clone, Copy, Debug)]
pub struct FromContent;

/// Whether the plugin sets `Time<Fixed>`'s step to the content's
/// `tick_seconds` (it does when kiai ticks in `FixedUpdate`).
#[derive(Resource, Clone, Copy, Debug)]
pub(crate) struct SyncTimestep(pub bool);

/// Logs content files that did not load (`file:line:col: error: ...`, one
/// line per diagnostic); the world keeps running on what it had.
pub(crate) fn report_failures(
    mut failures: MessageReader<AssetLoadFailedEvent<KiaiContent>>,
    mut script_failures: MessageReader<AssetLoadFailedEvent<KiaiScript>>,
    mut kiai: ResMut<Kiai>,
) {
    let lines = failures
        .read()
        .map(|f| failure_line(&f.path, &f.error))
        .chain(
            script_failures
                .read()
                .map(|f| failure_line(&f.path, &f.error)),
        )
        .collect::<Vec<_>>();
    for line in lines {
        kiai.problem(line);
    }
}

/// The diagnostics of a file that did not load (`file:line:col: error:
/// ...`, one line each), without Bevy's wrapping and backtrace.
fn failure_line(path: &AssetPath, error: &AssetLoadError) -> String {
    match error {
        AssetLoadError::AssetLoaderError(e) => match e.error().downcast_ref::<LoadError>() {
            Some(ours) => ours.to_string(),
            None => format!("{path}:1:1: error: {}", e.error()),
        },
        other => format!("{path}:1:1: error: {other}"),
    }
}

/// Entities the previous world knew: agents, and entities refused one.
type InOldWorld = Or<(With<KiaiId>, With<KiaiRefused>)>;

/// Builds the world when the level's content is ready and the world was
/// not built from it yet, or when the content asset changed.
#[allow(clippy::too_many_arguments)] // a system: each parameter is one thing it touches
pub(crate) fn build_when_ready(
    level: Option<Res<KiaiLevel>>,
    contents: Res<Assets<KiaiContent>>,
    scripts: Res<Assets<KiaiScript>>,
    mut changes: MessageReader<AssetEvent<KiaiContent>>,
    mut kiai: ResMut<Kiai>,
    mut deciders: NonSendMut<Deciders>,
    mut commands: Commands,
    old: Query<(Entity, Has<FromContent>), InOldWorld>,
    sync: Res<SyncTimestep>,
    mut fixed: Option<ResMut<Time<Fixed>>>,
    server: Res<AssetServer>,
) {
    let Some(level) = level else { return };
    let id = level.0.id();
    let changed = changes
        .read()
        .any(|e| matches!(e, AssetEvent::Modified { id: m } if *m == id));
    // A change seen while the new content's scripts still load is kept
    // until the world could be rebuilt.
    kiai.stale |= changed;
    if kiai.built_from == Some(id) && !kiai.stale {
        return;
    }
    let Some(content) = contents.get(id) else {
        return;
    };
    let Some(texts) = script_texts(content, &scripts, &server) else {
        return;
    };
    kiai.stale = false;
    let world = match content.content.world(None) {
        Ok(w) => w,
        Err(e) => {
            let line = format!(
                "{}:1:1: error: cannot build the world: {e:?}",
                content.content.file
            );
            kiai.problem(line);
            kiai.built_from = Some(id);
            return;
        }
    };
    if sync.0
        && let Some(fixed) = fixed.as_mut()
    {
        fixed.set_timestep_seconds(f64::from(world.config().tick_seconds));
    }
    for (entity, from_content) in &old {
        if from_content {
            commands.entity(entity).despawn();
        } else {
            commands.entity(entity).remove::<(KiaiId, KiaiRefused)>();
        }
    }
    install(
        &mut kiai,
        &mut deciders,
        content,
        texts,
        world,
        &mut commands,
    );
    deciders.missing = content
        .scripts
        .iter()
        .filter_map(|(_, h)| h.as_ref().filter(|h| scripts.get(*h).is_none()))
        .map(|h| h.id())
        .collect();
    kiai.built_from = Some(id);
}

/// Every script's text (bundled, or from its loaded asset), or `None`
/// while one is still loading. A script whose asset failed to load counts
/// as empty text (its archetype decides with the default; the failure was
/// logged).
fn script_texts(
    content: &KiaiContent,
    scripts: &Assets<KiaiScript>,
    server: &AssetServer,
) -> Option<Vec<ScriptRef>> {
    content
        .scripts
        .iter()
        .map(|(s, handle)| {
            let text = match (&s.bundled, handle) {
                (Some(text), _) => text.clone(),
                (None, Some(h)) => match scripts.get(h) {
                    Some(script) => script.source.clone(),
                    None if server.load_state(h).is_failed() => String::new(),
                    None => return None,
                },
                (None, None) => std::fs::read_to_string(&s.path).unwrap_or_default(),
            };
            Some(ScriptRef {
                bundled: Some(text),
                ..s.clone()
            })
        })
        .collect()
}

/// Swaps in `world` with its deciders and makes an entity for each of its
/// agents.
fn install(
    kiai: &mut Kiai,
    deciders: &mut Deciders,
    content: &KiaiContent,
    texts: Vec<ScriptRef>,
    world: World,
    commands: &mut Commands,
) {
    let (lua, errors) = kiai::lua::decider_for_scripts(&texts, Limits::default());
    for e in errors {
        kiai.problem(e.to_string());
    }
    deciders.scripts = content
        .scripts
        .iter()
        .filter_map(|(s, h)| {
            let script = lua.as_ref()?.script_of(ArchetypeId::from_index(s.index))?;
            Some((h.as_ref()?.id(), script))
        })
        .collect();
    // Archetypes sharing a file share its script: reload it once.
    deciders.scripts.sort();
    deciders.scripts.dedup();
    deciders.lua = lua;
    kiai.entities.clear();
    for agent in world.agents().ids().collect::<Vec<_>>() {
        let entity = commands.spawn(agent_entity(&world, agent, kiai.plane)).id();
        kiai.entities.insert(agent, entity);
    }
    kiai.world = Some(world);
    kiai.fresh_walls = true;
    kiai.fresh_interest = true;
}

/// What the plugin puts on an entity it makes for one of kiai's own agents
/// (the content's, or one a script spawned): the agent, its handle, the
/// [`FromContent`] mark, where it stands and its name.
pub(crate) fn agent_entity(world: &World, agent: AgentId, plane: Plane) -> impl Bundle {
    let a = world.agents();
    let i = agent.index();
    let archetype = world
        .archetype(a.archetypes()[i])
        .map_or_else(String::new, |x| x.name.clone());
    let faction = world.factions().name(a.factions()[i]).unwrap_or("?");
    let transform = Transform::from_translation(plane.to_bevy(a.positions()[i], 0.0))
        .with_rotation(plane.rotation(a.facings()[i]));
    (
        KiaiAgent::new(archetype, faction),
        KiaiId(agent),
        FromContent,
        transform,
        bevy_ecs::name::Name::new(a.names()[i].clone()),
    )
}
