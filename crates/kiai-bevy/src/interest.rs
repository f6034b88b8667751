//! Points of interest of kiai's tick level of detail from the app:
//! [`KiaiInterest`] on the player, the camera, anything with a `Transform`;
//! before every tick the plugin sets the world's points of interest to the
//! content's `interest` points plus where those entities stand.

use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use kiai::core::glam::Vec3;

use crate::runtime::Kiai;

/// Makes an entity with a `Transform` a point of interest of kiai's tick
/// level of detail: agents of archetypes with `lod` tiers near it sense and
/// decide more often (docs/format.md, `LodTierDef`). Its `Transform`'s
/// translation is read before every tick (for an entity in a hierarchy,
/// the translation relative to its parent: put it on a top-level entity).
///
/// While some entity has it, the plugin owns the world's points of
/// interest: the content's `interest` points plus these entities', set
/// before every tick (a point set through [`Kiai::world_mut`] is replaced).
/// Agents that are points of interest in the content stay so.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KiaiInterest;

/// What [`set_interest`] remembers between runs.
#[derive(Debug, Default)]
pub(crate) struct InterestState {
    /// The content's own points, read when the world was built.
    content: Vec<Vec3>,
    /// Whether some entity had [`KiaiInterest`] at the last run.
    had_entities: bool,
}

/// Sets the world's points of interest from the [`KiaiInterest`]
/// entities (after the world is built and the bodies are read); leaves
/// them alone while no entity has it.
pub(crate) fn set_interest(
    mut kiai: ResMut<Kiai>,
    entities: Query<&Transform, With<KiaiInterest>>,
    mut state: Local<InterestState>,
) {
    let plane = kiai.plane;
    let fresh = std::mem::take(&mut kiai.fresh_interest);
    let Some(world) = kiai.world.as_mut() else {
        return;
    };
    if fresh {
        state.content = world.interest_points().to_vec();
    }
    let has_entities = !entities.is_empty();
    if !(has_entities || state.had_entities) {
        return;
    }
    state.had_entities = has_entities;
    let mut points = state.content.clone();
    let mut mine: Vec<Vec3> = entities
        .iter()
        .map(|t| plane.to_kiai(t.translation))
        .filter(|p| p.is_finite())
        .collect();
    // Query order is the ECS's: sort, so that the world is the same
    // whatever order entities were spawned in.
    mine.sort_by(|a, b| {
        a.to_array()
            .partial_cmp(&b.to_array())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    points.extend(mine);
    if world.interest_points() != points.as_slice() {
        world.set_interest_points(points);
    }
}
