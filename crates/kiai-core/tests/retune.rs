//! A running world retuned between ticks (`World::set_archetype`,
//! `Factions::set_hostility`): the next tick senses and decides with the
//! new values; changes a running world cannot take are refused and leave it
//! as it was.

use kiai_core::glam::Vec3;
use kiai_core::{
    Archetype, ArchetypeId, BehaviourState, DefaultDecider, FactionId, Pipeline, Profile, Sense,
    SenseFilter, Shape, World, WorldConfig, WorldError, state_hash,
};

mod common;
use common::spawn_at;

fn cone(range: f32) -> Sense {
    Sense::new(
        "eyes",
        Shape::Cone {
            range,
            fov_deg: 90.0,
        },
        SenseFilter::Hostile,
    )
}

fn guard(range: f32) -> Archetype {
    Archetype {
        name: "guard".into(),
        senses: vec![cone(range)],
        ..Archetype::default()
    }
}

/// A guard at the origin facing +X and a thief 20 units ahead.
fn world() -> (World, ArchetypeId, [FactionId; 2]) {
    let mut world = World::new(WorldConfig::default());
    let f = world.factions_mut();
    let (Ok(red), Ok(blue)) = (f.add("red"), f.add("blue")) else {
        panic!("factions");
    };
    f.set_hostile(red, blue);
    let g = world
        .add_archetype(guard(10.0))
        .unwrap_or_else(|e| panic!("{e}"));
    let t = world
        .add_archetype(Archetype {
            name: "thief".into(),
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    spawn_at(&mut world, "g", (g, red), Vec3::ZERO, Vec3::X);
    spawn_at(
        &mut world,
        "t",
        (t, blue),
        Vec3::new(20.0, 0.0, 0.0),
        Vec3::X,
    );
    (world, g, [red, blue])
}

fn tick(world: &mut World, pipeline: &mut Pipeline) {
    pipeline.tick(world, &mut DefaultDecider::default());
}

#[test]
fn a_longer_cone_sees_from_the_next_tick_and_the_guard_chases() {
    let (mut world, g, _) = world();
    let mut pipeline = Pipeline::new();
    tick(&mut world, &mut pipeline);
    let guard_id = world.agents().find("g").unwrap_or_else(|| panic!("g"));
    assert_eq!(world.sensed_by_name(guard_id, "eyes"), Some(&[][..]));
    world
        .set_archetype(g, guard(30.0))
        .unwrap_or_else(|e| panic!("{e}"));
    tick(&mut world, &mut pipeline);
    assert_eq!(
        world.sensed_by_name(guard_id, "eyes").map(<[_]>::len),
        Some(1)
    );
    assert_eq!(world.agents().state(guard_id), Some(BehaviourState::Chase));
}

#[test]
fn peace_between_factions_takes_the_chase_away() {
    let (mut world, g, [red, blue]) = world();
    world
        .set_archetype(g, guard(30.0))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut pipeline = Pipeline::new();
    tick(&mut world, &mut pipeline);
    let guard_id = world.agents().find("g").unwrap_or_else(|| panic!("g"));
    assert_eq!(world.agents().state(guard_id), Some(BehaviourState::Chase));
    world.factions_mut().set_hostility(red, blue, false);
    assert!(!world.factions().is_hostile(red, blue));
    tick(&mut world, &mut pipeline);
    assert_eq!(
        world.agents().state(guard_id),
        Some(BehaviourState::RandomWalk)
    );
}

#[test]
fn new_profile_weights_replace_the_agents_weights() {
    let (mut world, g, _) = world();
    let profile = Profile {
        chase: 3.0,
        evade: 7.0,
        use_profile: 100.0,
        keep_decision: 0.0,
        learning: None,
    };
    world
        .set_archetype(
            g,
            Archetype {
                profile: Some(profile),
                ..guard(10.0)
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(world.agents().minds()[0].weights, [3.0, 7.0]);
    assert_eq!(
        world.agents().minds()[1].weights,
        [1.0, 1.0],
        "the thief keeps its own"
    );
}

#[test]
fn changes_a_running_world_cannot_take_are_refused_and_change_nothing() {
    let (mut world, g, _) = world();
    let before = state_hash(&world);
    let two_senses = Archetype {
        senses: vec![
            cone(10.0),
            Sense::new(
                "ears",
                Shape::Hearing {
                    threshold: 1.0,
                    falloff: kiai_core::perception::hearing::Falloff::InverseSquare,
                },
                SenseFilter::All,
            ),
        ],
        ..guard(10.0)
    };
    let Err(e) = world.set_archetype(g, two_senses) else {
        panic!("a second sense was taken");
    };
    assert!(matches!(e, WorldError::Refused(_)), "{e}");
    assert_eq!(
        e.to_string(),
        "archetype `guard`: it has 1 senses; a running world keeps their number (not 2)"
    );
    let walker = Archetype {
        movement: kiai_core::Movement::Walker {
            min_speed: 1.0,
            max_speed: 2.0,
            direction_change_factor: 10,
            planar: true,
        },
        ..guard(10.0)
    };
    let Err(e) = world.set_archetype(g, walker) else {
        panic!("a new movement kind was taken");
    };
    assert!(e.to_string().contains("movement cannot change kind"), "{e}");
    assert_eq!(state_hash(&world), before);
}
