//! The default decider's targets as a game that drives the stages itself
//! sees them: after the sense stage, two agents of factions at war chase
//! each other; made friends before the decider runs (percepts not sensed
//! again), neither chases the other, although their senses that report
//! hostiles still list each other. And its nearest hostiles worked out
//! ahead, while something else runs, decide as looking them up does.

use kiai_core::glam::Vec3;
use kiai_core::{
    Archetype, BehaviourState, Decider, DefaultDecider, Learning, Movement, Pipeline, Profile,
    Sense, SenseFilter, Shape, World, WorldConfig,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod common;
use common::{on_threads, red_and_blue, spawn_at};

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

/// Two armies of `n` soldiers in all, mixed on a square where each has
/// about a dozen others in eye range, with a cone and a sphere, and
/// profiles that learn; ticked `ticks` times so that chases (which the
/// evade option needs) and learning outcomes are under way.
fn skirmish(n: usize, ticks: usize) -> World {
    let mut world = World::new(WorldConfig {
        seed: 11,
        ..WorldConfig::default()
    });
    let (red, blue) = red_and_blue(&mut world);
    let senses = vec![
        Sense::new(
            "eyes",
            Shape::Cone {
                range: 12.0,
                fov_deg: 120.0,
            },
            SenseFilter::Hostile,
        ),
        Sense::new("radar", Shape::Sphere { radius: 6.0 }, SenseFilter::Hostile),
    ];
    let soldier = world
        .add_archetype(Archetype {
            name: "soldier".into(),
            senses,
            movement: Movement::Walker {
                min_speed: 0.5,
                max_speed: 2.0,
                direction_change_factor: 20,
                planar: true,
            },
            profile: Some(Profile {
                chase: 6.0,
                evade: 4.0,
                use_profile: 80.0,
                keep_decision: 50.0,
                learning: Some(Learning {
                    rate: 0.5,
                    min_weight: 1.0,
                    max_weight: 10.0,
                    catch_distance: 1.5,
                }),
            }),
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let side = (n as f32 * std::f32::consts::PI * 144.0 / 12.0).sqrt();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for i in 0..n {
        let at = Vec3::new(
            rng.random_range(0.0..side),
            0.0,
            rng.random_range(0.0..side),
        );
        let facing = Vec3::new(
            rng.random_range(-1.0..1.0),
            0.0,
            rng.random_range(-1.0..1.0),
        );
        let faction = if i % 2 == 0 { red } else { blue };
        spawn_at(&mut world, &format!("s{i}"), (soldier, faction), at, facing);
    }
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    for _ in 0..ticks {
        pipeline.tick(&mut world, &mut decider);
    }
    pipeline.sense(&mut world);
    world
}

#[test]
fn nearest_hostiles_worked_out_ahead_decide_as_looking_them_up() {
    let world = skirmish(1_500, 12);
    // Every third agent is left to another decider, as a script would.
    let skip: Vec<bool> = (0..world.agents().len()).map(|i| i % 3 == 0).collect();
    let decide = |ahead: bool| {
        let mut minds = world.agents().minds().to_vec();
        let mut out = world.agents().decisions().to_vec();
        let mut decider = DefaultDecider::with_traces();
        let mut ran = false;
        if ahead {
            let foreseen = decider.foresee_while(&world, (true, || {}), || ran = true);
            assert!(ran, "what runs meanwhile runs");
            assert_eq!(
                foreseen,
                rayon::current_num_threads() > 1,
                "worked out ahead"
            );
        }
        decider.decide_unless(&world, &mut minds, &mut out, &skip, None);
        let minds: Vec<_> = minds
            .iter()
            .map(|m| (m.rng.get_word_pos(), m.saved, m.weights))
            .collect();
        (minds, out, decider.traces().to_vec())
    };
    let looked_up = on_threads(2, || decide(false));
    let ahead = on_threads(2, || decide(true));
    let chases = looked_up
        .2
        .iter()
        .filter(|t| t.chase_option.is_some())
        .count();
    let evades = looked_up
        .2
        .iter()
        .filter(|t| t.evade_option.is_some())
        .count();
    assert!(
        chases > 500 && evades > 50,
        "{chases} chase and {evades} evade options"
    );
    assert_eq!(first_difference(&ahead.0, &looked_up.0), None, "minds");
    assert_eq!(first_difference(&ahead.1, &looked_up.1), None, "decisions");
    assert_eq!(first_difference(&ahead.2, &looked_up.2), None, "traces");
    // On one thread nothing is worked out ahead: the same again.
    let one = on_threads(1, || decide(true));
    assert_eq!(first_difference(&one.1, &looked_up.1), None, "one thread");
}

/// The first index where `a` and `b` differ (a length counts).
fn first_difference<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}
