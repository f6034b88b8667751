//! `KiaiInterest`: an entity with a `Transform` is a point of interest of
//! kiai's tick level of detail, read before every tick, beside the
//! content's own points; a far post thinks every tick once the entity
//! comes near, and less often when it leaves.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use bevy::prelude::*;
use common::{app_with, step};
use kiai_bevy::kiai::core::glam::Vec3 as KVec3;
use kiai_bevy::prelude::*;

/// A post 50 units east of the origin that thinks every tick within 20
/// units of a point of interest and every 8th tick farther; the content's
/// own point of interest is far west.
const FIELD: &str = r#"(
    format: 2,
    name: "field",
    factions: [(name: "town")],
    archetypes: {
        "post": (
            senses: [(name: "eyes", shape: Sphere(radius: 5.0))],
            lod: [(within: 20.0, every: 1), (every: 8)],
        ),
    },
    agents: [(name: "post", archetype: "post", faction: "town", pos: (50.0, 0.0, 0.0))],
    interest: [(-100.0, 0.0, 0.0)],
)"#;

fn world(app: &App) -> &kiai_bevy::kiai::core::World {
    app.world().resource::<Kiai>().world().unwrap()
}

fn post_tier(app: &App) -> Option<usize> {
    let w = world(app);
    w.lod_tier(w.agents().find("post").unwrap())
}

#[test]
fn entities_with_kiai_interest_are_points_of_interest_before_each_tick() {
    let mut app = app_with(FIELD);
    step(&mut app, 2);
    assert_eq!(
        world(&app).interest_points(),
        [KVec3::new(-100.0, 0.0, 0.0)]
    );
    assert_eq!(post_tier(&app), Some(1), "far from every point");

    let player = app
        .world_mut()
        .spawn((KiaiInterest, Transform::from_xyz(45.0, 0.0, 0.0)))
        .id();
    step(&mut app, 1);
    assert_eq!(
        world(&app).interest_points(),
        [KVec3::new(-100.0, 0.0, 0.0), KVec3::new(45.0, 0.0, 0.0)],
        "the content's point, then the entity's"
    );
    assert_eq!(post_tier(&app), Some(0), "near the player");
    // Near: it thinks every tick.
    for _ in 0..8 {
        step(&mut app, 1);
        let w = world(&app);
        assert!(w.thinks(w.agents().find("post").unwrap()));
    }

    // The player walks away: the post thinks one tick in 8.
    app.world_mut()
        .get_mut::<Transform>(player)
        .unwrap()
        .translation = Vec3::new(-20.0, 0.0, 0.0);
    let mut thought = 0;
    for _ in 0..16 {
        step(&mut app, 1);
        let w = world(&app);
        thought += usize::from(w.thinks(w.agents().find("post").unwrap()));
    }
    assert_eq!(post_tier(&app), Some(1));
    assert_eq!(thought, 2, "twice in 16 ticks");

    // Gone: the content's point alone.
    app.world_mut().despawn(player);
    step(&mut app, 1);
    assert_eq!(
        world(&app).interest_points(),
        [KVec3::new(-100.0, 0.0, 0.0)]
    );
}
