//! The tick and the scripts it runs: a script asset that changes is
//! swapped in before the next tick (agents keep their memory); one that
//! no longer compiles is logged and the last good version goes on.

use bevy_asset::{AssetEvent, Assets};
use bevy_ecs::prelude::*;

use crate::assets::KiaiScript;
use crate::runtime::{Deciders, Kiai};

/// Reloads the scripts whose asset changed, and the ones that had failed
/// to load when the world was built once they load.
pub(crate) fn reload_scripts(
    mut changes: MessageReader<AssetEvent<KiaiScript>>,
    scripts: Res<Assets<KiaiScript>>,
    mut deciders: NonSendMut<Deciders>,
    mut kiai: ResMut<Kiai>,
) {
    let deciders = &mut *deciders;
    for change in changes.read() {
        // A changed script, or the first load of one that had failed when
        // the world was built (fixed since).
        let id = match change {
            AssetEvent::Modified { id } => id,
            AssetEvent::Added { id } if deciders.missing.contains(id) => {
                deciders.missing.retain(|m| m != id);
                id
            }
            _ => continue,
        };
        let (Some(lua), Some(script)) = (deciders.lua.as_mut(), scripts.get(*id)) else {
            continue;
        };
        for (_, slot) in deciders.scripts.iter().filter(|(a, _)| a == id) {
            match lua.reload(*slot, &script.source) {
                Ok(()) => bevy_log::info!("{}: reloaded", script.file),
                Err(e) => kiai.problem(format!("{e} (the last good version runs)")),
            }
        }
    }
}

/// Runs one kiai tick: sense, decide (scripts, then article 002's default),
/// navigate, steer, avoid, integrate, noise, fog.
pub(crate) fn tick(mut kiai: ResMut<Kiai>, mut deciders: NonSendMut<Deciders>) {
    let kiai = &mut *kiai;
    let Some(world) = kiai.world.as_mut() else {
        return;
    };
    let deciders = &mut *deciders;
    match deciders.lua.as_mut() {
        Some(lua) => {
            kiai.pipeline.tick(world, lua);
            for line in lua.take_log() {
                bevy_log::info!("{line}");
            }
            kiai.labels.clear();
            kiai.labels.extend_from_slice(lua.label_indices());
            if kiai.label_names.len() != lua.label_names().len() {
                kiai.label_names = lua.label_names().to_vec();
            }
            let reports = lua.take_reports();
            for r in reports {
                kiai.problem(format!("tick {}: {}", r.tick, r.error));
            }
        }
        None => kiai.pipeline.tick(world, &mut deciders.rust),
    }
}
