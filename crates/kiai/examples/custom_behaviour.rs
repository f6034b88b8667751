//! Adding a game's own behaviour: a "zigzag" steering and a "sniper" decider,
//! registered by name and used from content.
//!
//! ```text
//! cargo run -p kiai --example custom_behaviour
//! ```

use std::sync::Arc;

use kiai::content::Content;
use kiai::core::Mind;
use kiai::core::plugins::{AgentDecider, Plugins, SteeringBehaviour};
use kiai::core::steering::SteerInput;
use kiai::prelude::*;

/// Runs along +X, swinging left and right every 5 world units.
struct Zigzag;

impl SteeringBehaviour for Zigzag {
    fn steer(&self, input: &SteerInput, _mind: &mut Mind, _dt: f32) -> (Vec3, Vec3) {
        let left = (input.position.x / 5.0).floor() as i64 % 2 == 0;
        let heading = Vec3::new(1.0, 0.0, if left { 0.5 } else { -0.5 }).normalize();
        (heading * 3.0, heading)
    }
}

/// Never chases: holds position and keeps its eyes on the nearest target.
struct Sniper;

impl AgentDecider for Sniper {
    fn decide(&self, world: &World, agent: AgentId, _mind: &mut Mind) -> Option<Decision> {
        let seen = world.sensed_by_name(agent, "scope")?;
        let target = *seen.first()?;
        Some(Decision {
            state: BehaviourState::RandomWalk,
            target: Some(target),
            goal: None,
        })
    }
}

const LEVEL: &str = r#"(
    format: 1,
    factions: [(name: "red", hostile: ["blue"]), (name: "blue", hostile: ["red"])],
    archetypes: {
        "runner": (movement: Custom(name: "zigzag", max_speed: 3.0)),
        "sniper": (senses: [(name: "scope", shape: Cone(range: 80.0, fov_deg: 30.0), filter: Hostile)], decider: Some("sniper")),
    },
    agents: [
        (name: "runner", archetype: "runner", faction: "blue", pos: (0.0, 0.0, 0.0)),
        (name: "sniper", archetype: "sniper", faction: "red", pos: (40.0, 0.0, 0.0), facing: (-1.0, 0.0, 0.0)),
    ],
)"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let plugins = Arc::new(
        Plugins::new()
            .with_steering("zigzag", Zigzag)
            .with_decider("sniper", Sniper),
    );
    let content = Content::from_str(LEVEL, "level.ron")?;
    let mut world = content.world_with(None, plugins)?;
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    for _ in 0..30 {
        pipeline.tick(&mut world, &mut decider);
        let p = world.agents().positions()[0];
        let aim = world.agents().decisions()[1]
            .target
            .map(|t| world.agents().names()[t.index()].clone());
        println!(
            "tick {:>2}: runner at ({:5.1}, {:5.1}); sniper aims at {:?}",
            world.tick(),
            p.x,
            p.z,
            aim
        );
    }
    Ok(())
}
