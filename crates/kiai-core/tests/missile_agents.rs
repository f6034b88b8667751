//! Missiles as agents: the seeker sees the target, article 002 chooses to chase,
//! the missile turns at a bounded rate and arrives.

use kiai_core::glam::Vec3;
use kiai_core::steering::missile::{ControlMode, Guidance};
use kiai_core::{
    Archetype, DefaultDecider, Movement, Pipeline, Profile, Sense, SenseFilter, Shape, World,
    WorldConfig,
};

mod common;
use common::spawn_at;

fn world(control: ControlMode, guidance: Guidance, start_facing: Vec3) -> World {
    let mut world = World::new(WorldConfig {
        seed: 1,
        tick_seconds: 0.02,
        bounds: None,
    });
    let def = world
        .factions_mut()
        .add("def")
        .unwrap_or_else(|e| panic!("{e}"));
    let foe = world
        .factions_mut()
        .add("foe")
        .unwrap_or_else(|e| panic!("{e}"));
    world.factions_mut().set_hostile(def, foe);
    let missile = world
        .add_archetype(Archetype {
            name: "missile".into(),
            senses: vec![Sense {
                name: "seeker".into(),
                shape: Shape::Cone {
                    range: 1000.0,
                    fov_deg: 360.0,
                },
                filter: SenseFilter::Hostile,
                occluded: false,
                lose_range: None,
                memory_ticks: 0,
            }],
            movement: Movement::Missile {
                speed: 20.0,
                turn_rate: 2.0,
                control,
                guidance,
                arrival_distance: 1.0,
                precision: 0.95,
            },
            sight: None,
            profile: Some(Profile {
                chase: 1.0,
                evade: 0.0,
                ..Profile::default()
            }),
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let target = world
        .add_archetype(Archetype {
            name: "target".into(),
            senses: vec![],
            movement: Movement::Static,
            ..Archetype::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    spawn_at(&mut world, "m", (missile, def), Vec3::ZERO, start_facing);
    spawn_at(
        &mut world,
        "t",
        (target, foe),
        Vec3::new(60.0, 10.0, 40.0),
        Vec3::X,
    );
    world
}

#[test]
fn missiles_reach_a_stationary_target_turning_at_a_bounded_rate() {
    for control in [ControlMode::SeedTwoAxis, ControlMode::MaxRate] {
        for guidance in [
            Guidance::PurePursuit,
            Guidance::ProportionalNavigation { n: 4.0 },
        ] {
            for facing in [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::new(-1.0, 0.0, -1.0)] {
                let mut w = world(control, guidance, facing);
                let mut p = Pipeline::new();
                let mut d = DefaultDecider::default();
                let mut last = w.agents().facings()[0];
                let mut arrived = false;
                for _ in 0..3000 {
                    p.tick(&mut w, &mut d);
                    let f = w.agents().facings()[0];
                    let turn = last.dot(f).clamp(-1.0, 1.0).acos();
                    // Per axis 2 rad/s x 0.02 s; both axes together at most sqrt(2) times that.
                    assert!(
                        turn <= 0.04 * std::f32::consts::SQRT_2 + 1e-4,
                        "{control:?} {guidance:?}: turned {turn}"
                    );
                    last = f;
                    if w.agents().velocities()[0] == Vec3::ZERO {
                        arrived = true;
                        break;
                    }
                }
                let gap = w.agents().positions()[0].distance(w.agents().positions()[1]);
                assert!(
                    arrived && gap <= 1.0 + 20.0 * 0.02,
                    "{control:?} {guidance:?} from {facing}: gap {gap}"
                );
            }
        }
    }
}
