//! Game plugins: deciders and steering behaviours registered by name and
//! referred to from content.

use std::sync::Arc;

use kiai::content::Content;
use kiai::core::plugins::{AgentDecider, Plugins, SteeringBehaviour};
use kiai::core::steering::SteerInput;
use kiai::core::{DecidedBy, Mind};
use kiai::prelude::*;

struct Sprint;
impl SteeringBehaviour for Sprint {
    fn steer(&self, _input: &SteerInput, _mind: &mut Mind, _dt: f32) -> (Vec3, Vec3) {
        (Vec3::X * 100.0, Vec3::X)
    }
}

struct AlwaysChaseFirst;
impl AgentDecider for AlwaysChaseFirst {
    fn decide(&self, world: &World, agent: AgentId, _mind: &mut Mind) -> Option<Decision> {
        let other = AgentId::from_index(1 - agent.index());
        (world.agents().len() > 1).then_some(Decision {
            state: BehaviourState::Chase,
            target: Some(other),
            goal: None,
        })
    }
}

const LEVEL: &str = r#"(
    format: 1,
    factions: [(name: "f")],
    archetypes: {
        "sprinter": (movement: Custom(name: "sprint", max_speed: 4.0), decider: Some("hunter")),
    },
    agents: [
        (name: "a", archetype: "sprinter", faction: "f", pos: (0.0, 0.0, 0.0)),
        (name: "b", archetype: "sprinter", faction: "f", pos: (5.0, 0.0, 0.0)),
    ],
)"#;

#[test]
fn registered_plugins_decide_and_steer() {
    let plugins = Arc::new(
        Plugins::new()
            .with_steering("sprint", Sprint)
            .with_decider("hunter", AlwaysChaseFirst),
    );
    let content = Content::from_str(LEVEL, "level.ron").unwrap_or_else(|e| panic!("{e}"));
    let mut world = content
        .world_with(None, plugins)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut decider = DefaultDecider::with_traces();
    Pipeline::new().tick(&mut world, &mut decider);
    assert_eq!(
        world.agents().decisions()[0],
        Decision {
            state: BehaviourState::Chase,
            target: Some(AgentId::from_index(1)),
            goal: None,
        }
    );
    assert_eq!(decider.traces()[0].decided_by, DecidedBy::Plugin);
    // The custom steering asked for 100 units/s; the movement caps it at 4.
    assert!((world.agents().velocities()[0].length() - 4.0).abs() < 1e-5);
    assert!(
        (world.agents().positions()[0].x - 0.4).abs() < 1e-5,
        "one 0.1 s tick at 4 units/s"
    );
}

#[test]
fn unregistered_names_are_errors_that_list_what_is_registered() {
    let content = Content::from_str(LEVEL, "level.ron").unwrap_or_else(|e| panic!("{e}"));
    let err = content
        .world(None)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("steering behaviour `sprint`"), "{err}");
    let only_steering = Arc::new(Plugins::new().with_steering("sprint", Sprint));
    let err = content
        .world_with(None, only_steering)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("decider `hunter` (registered: none"), "{err}");
}
