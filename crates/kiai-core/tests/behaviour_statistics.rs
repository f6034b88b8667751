//! Statistical scenario tests of article 002's profiles on the real pipeline:
//! a hunter stands in front of a profiled agent and chases it every tick, so
//! every decision of the profiled agent is contested (it sees the hunter and,
//! being chased, notices it on its radar).

use kiai_core::glam::Vec3;
use kiai_core::{
    Archetype, BehaviourState, DefaultDecider, Movement, Pipeline, Profile, Sense, SenseFilter,
    Shape, World, WorldConfig,
};

mod common;
use common::{red_and_blue, spawn_at};

fn senses() -> Vec<Sense> {
    vec![
        Sense {
            name: "radar".into(),
            shape: Shape::Sphere { radius: 10.0 },
            filter: SenseFilter::Hostile,
            occluded: false,
            lose_range: None,
            memory_ticks: 0,
        },
        Sense {
            name: "eyes".into(),
            shape: Shape::Cone {
                range: 20.0,
                fov_deg: 90.0,
            },
            filter: SenseFilter::Hostile,
            occluded: false,
            lose_range: None,
            memory_ticks: 0,
        },
    ]
}

/// The profiled agent's states over `ticks` contested decisions.
fn decisions(profile: Profile, seed: u64, ticks: usize) -> Vec<BehaviourState> {
    let mut world = World::new(WorldConfig {
        seed,
        ..WorldConfig::default()
    });
    let (red, blue) = red_and_blue(&mut world);
    let make = |world: &mut World, name: &str, profile| {
        world
            .add_archetype(Archetype {
                name: name.into(),
                senses: senses(),
                movement: Movement::Static,
                sight: None,
                profile: Some(profile),
                ..Archetype::default()
            })
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let subject = make(&mut world, "subject", profile);
    let hunter = make(
        &mut world,
        "hunter",
        Profile {
            chase: 1.0,
            evade: 0.0,
            ..Profile::default()
        },
    );
    spawn_at(&mut world, "s", (subject, red), Vec3::ZERO, Vec3::X);
    spawn_at(
        &mut world,
        "h",
        (hunter, blue),
        Vec3::new(5.0, 0.0, 0.0),
        Vec3::NEG_X,
    );
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::with_traces();
    let mut out = Vec::new();
    // The first tick nobody is chased yet.
    pipeline.tick(&mut world, &mut decider);
    for _ in 0..ticks {
        pipeline.tick(&mut world, &mut decider);
        let t = decider.traces()[0];
        assert!(
            t.chase_option.is_some() && t.evade_option.is_some(),
            "contested"
        );
        out.push(world.agents().decisions()[0].state);
    }
    out
}

fn coward(keep_decision: f32) -> Profile {
    Profile {
        chase: 2.0,
        evade: 8.0,
        use_profile: 100.0,
        keep_decision,
        learning: None,
    }
}

#[test]
fn a_coward_evades_80_percent_of_contested_decisions() {
    for seed in 0..10 {
        let d = decisions(coward(0.0), seed, 2000);
        let evade =
            d.iter().filter(|s| **s == BehaviourState::Evade).count() as f64 / d.len() as f64;
        assert!((0.75..=0.85).contains(&evade), "seed {seed}: {evade}");
    }
}

#[test]
fn keeping_decisions_cuts_flip_flopping() {
    let flips = |keep| -> usize {
        (0..10)
            .map(|seed| {
                decisions(coward(keep), seed, 2000)
                    .windows(2)
                    .filter(|w| w[0] != w[1])
                    .count()
            })
            .sum()
    };
    let (without, with) = (flips(0.0), flips(90.0));
    assert!(
        without >= 5 * with,
        "flips: keep 0 -> {without}, keep 90 -> {with}"
    );
    assert!(with > 0, "keeping is not freezing");
}

#[test]
fn a_profile_never_used_always_evades_when_both_are_possible() {
    let never = Profile {
        use_profile: 0.0,
        ..coward(0.0)
    };
    let d = decisions(
        Profile {
            chase: 100.0,
            evade: 0.0,
            ..never
        },
        3,
        500,
    );
    assert!(d.iter().all(|s| *s == BehaviourState::Evade));
}
