//! Copying bodies between the app and kiai: before a tick, the game's
//! bodies (`Driven`, `Kinematic`) and doors in; after it, kiai's bodies
//! (`Simulated`), desired velocities (`Driven`) and percepts out.

use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use kiai::core::BodyMode;

use crate::components::{DesiredVelocity, KiaiId, KiaiWall, Senses};
use crate::runtime::Kiai;

/// Reads the position, velocity (from the move since the last tick) and
/// facing of every body the game moves.
pub(crate) fn read_bodies(mut kiai: ResMut<Kiai>, bodies: Query<(&KiaiId, &Transform)>) {
    let plane = kiai.plane;
    let Some(world) = kiai.world.as_mut() else {
        return;
    };
    let dt = world.config().tick_seconds;
    for (id, transform) in &bodies {
        let i = id.0.index();
        if !world.is_alive(id.0) || world.agents().body_modes()[i] == BodyMode::Simulated {
            continue;
        }
        let position = plane.to_kiai(transform.translation);
        let old = world.agents().positions()[i];
        world.positions_mut()[i] = position;
        world.velocities_mut()[i] = (position - old) / dt;
        if let Some(facing) = plane.facing(transform.rotation).try_normalize() {
            world.facings_mut()[i] = facing;
        }
    }
}

/// Opens and closes the walls whose [`KiaiWall`] changed.
pub(crate) fn apply_walls(mut kiai: ResMut<Kiai>, walls: Query<Ref<KiaiWall>>) {
    let mut problems = Vec::new();
    // A new world has the content's walls: every `KiaiWall` applies once.
    let fresh = std::mem::take(&mut kiai.fresh_walls);
    if let Some(world) = kiai.world.as_mut() {
        for wall in walls.iter().filter(|w| fresh || w.is_changed()) {
            let result = match world.wall_index(&wall.name) {
                Some(index) => world
                    .set_wall_enabled(index, wall.enabled)
                    .map_err(|e| format!("{e:?}")),
                None => Err("the content has no wall of that name".to_owned()),
            };
            if let Err(e) = result {
                problems.push(format!("KiaiWall `{}`: {e}", wall.name));
            }
        }
    }
    for p in problems {
        kiai.problem(p);
    }
}

/// Writes kiai's bodies back: `Simulated` transforms (position and a
/// rotation about the up axis), `Driven` desired velocities.
pub(crate) fn write_bodies(
    kiai: Res<Kiai>,
    mut bodies: Query<(&KiaiId, &mut Transform, Option<&mut DesiredVelocity>)>,
) {
    let plane = kiai.plane;
    let Some(world) = kiai.world() else { return };
    let agents = world.agents();
    for (id, mut transform, desired) in &mut bodies {
        let i = id.0.index();
        if !agents.is_alive(id.0) {
            continue;
        }
        match agents.body_modes()[i] {
            BodyMode::Simulated => {
                // Only bodies that moved or turned are marked changed (the
                // game's transform propagation skips the others).
                let next = Transform {
                    translation: plane.to_bevy(agents.positions()[i], transform.translation.z),
                    rotation: plane.rotation(agents.facings()[i]),
                    scale: transform.scale,
                };
                transform.set_if_neq(next);
            }
            BodyMode::Driven => {
                if let Some(mut desired) = desired {
                    let next = DesiredVelocity(plane.to_bevy(agents.desired_velocities()[i], 0.0));
                    desired.set_if_neq(next);
                }
            }
            BodyMode::Kinematic => {}
        }
    }
}

/// Fills the [`Senses`] of the entities that have one.
pub(crate) fn write_senses(kiai: Res<Kiai>, mut senses: Query<(&KiaiId, &mut Senses)>) {
    let Some(world) = kiai.world() else { return };
    for (id, mut out) in &mut senses {
        if !world.is_alive(id.0) {
            out.senses.clear();
            continue;
        }
        let Some(archetype) = world.agents().archetypes().get(id.0.index()) else {
            continue;
        };
        let Some(archetype) = world.archetype(*archetype) else {
            continue;
        };
        let senses = &mut out.senses;
        senses.resize_with(archetype.senses.len(), Default::default);
        for (k, sense) in archetype.senses.iter().enumerate() {
            let (name, entities) = &mut senses[k];
            if *name != sense.name {
                name.clone_from(&sense.name);
            }
            entities.clear();
            let sensed = world.percepts().sensed(id.0, k);
            entities.extend(sensed.iter().filter_map(|&a| kiai.entity(a)));
        }
    }
}
