//! The default decider's targets as a game that drives the stages itself
//! sees them: after the sense stage, two agents of factions at war chase
//! each other; made friends before the decider runs (percepts not sensed
//! again), neither chases the other, although their senses that report
//! hostiles still list each other.

use kiai_core::glam::Vec3;
use kiai_core::{
    Archetype, BehaviourState, Decider, DefaultDecider, Movement, Pipeline, Sense, SenseFilter,
    Shape, World, WorldConfig,
};

mod common;
use common::{red_and_blue, spawn_at};

#[test]
fn a_target_made_a_friend_after_sensing_is_not_chased() {
    let mut world = World::new(WorldConfig::default());
    let (red, blue) = red_and_blue(&mut world);
    let eyes = Sense::new(
        "eyes",
        Shape::Cone {
            range: 10.0,
            fov_deg: 120.0,
        },
        SenseFilter::Hostile,
    );
    let archetype = world
        .add_archetype(Archetype {
            name: "soldier".into(),
            senses: vec![eyes],
            movement: Movement::Walker {
                min_speed: 1.0,
                max_speed: 1.0,
                direction_change_factor: 20,
                planar: true,
            },
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // Face to face, 3 units apart.
    spawn_at(&mut world, "r", (archetype, red), Vec3::ZERO, Vec3::X);
    spawn_at(
        &mut world,
        "b",
        (archetype, blue),
        Vec3::new(3.0, 0.0, 0.0),
        -Vec3::X,
    );
    // Who each could chase (the nearest hostile its eyes list), and the
    // decisions.
    let decide = |world: &World| {
        let mut minds = world.agents().minds().to_vec();
        let mut out = world.agents().decisions().to_vec();
        let mut decider = DefaultDecider::with_traces();
        decider.decide(world, &mut minds, &mut out);
        let options: Vec<_> = decider.traces().iter().map(|t| t.chase_option).collect();
        (options, out)
    };
    Pipeline::new().sense(&mut world);
    let ids: Vec<_> = world.agents().ids().collect();
    let (options, at_war) = decide(&world);
    assert_eq!(options, [Some(ids[1]), Some(ids[0])]);
    assert!(
        at_war.iter().all(|d| d.state == BehaviourState::Chase),
        "{at_war:?}"
    );
    let f = world.factions_mut();
    f.set_hostility(red, blue, false);
    f.set_hostility(blue, red, false);
    assert_eq!(world.percepts().sensed(ids[0], 0), [ids[1]], "still listed");
    let (options, friends) = decide(&world);
    assert_eq!(options, [None, None]);
    assert!(friends.iter().all(|d| d.target.is_none()), "{friends:?}");
}
