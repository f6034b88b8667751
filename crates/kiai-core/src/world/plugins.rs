//! Plugins: a game's own deciders and steering behaviours, registered by name.
//!
//! A game builds a [`Plugins`] registry, hands it to the world
//! ([`World::set_plugins`](crate::World::set_plugins), or the content
//! builder), and content refers to the entries by name: an archetype's
//! `decider: Some("sniper")` or `movement: Custom(name: "zigzag", ...)`.
//! Plugins run inside the same deterministic pipeline as the built-in logic:
//! they get the agent's own [`Mind`] (and so its random stream) and must not
//! read clocks or unordered maps.
//!
//! ```
//! use kiai_core::glam::Vec3;
//! use kiai_core::plugins::{Plugins, SteeringBehaviour};
//! use kiai_core::steering::SteerInput;
//! use kiai_core::Mind;
//!
//! /// Runs in circles.
//! struct Circler;
//! impl SteeringBehaviour for Circler {
//!     fn steer(&self, input: &SteerInput, _mind: &mut Mind, _dt: f32) -> (Vec3, Vec3) {
//!         let left = Vec3::new(-input.facing.z, 0.0, input.facing.x);
//!         let facing = (input.facing + left * 0.1).normalize_or_zero();
//!         (facing * 2.0, facing)
//!     }
//! }
//!
//! let plugins = Plugins::new().with_steering("circler", Circler);
//! assert_eq!(plugins.steering_index("circler"), Some(0));
//! ```

use std::fmt;

use glam::Vec3;

use crate::data::{AgentId, Decision, Mind, SteerInput};
use crate::world::World;

/// A game-defined decision rule for the agents of some archetypes.
pub trait AgentDecider: Send + Sync {
    /// Decides for `agent` this tick, or returns `None` to leave the decision
    /// to the built-in logic (article 002 with the archetype's profile). `world`
    /// holds this tick's percepts; `mind` is the agent's own state and random
    /// stream.
    fn decide(&self, world: &World, agent: AgentId, mind: &mut Mind) -> Option<Decision>;
}

/// A game-defined way of moving, used by archetypes whose movement is
/// `Custom`.
pub trait SteeringBehaviour: Send + Sync {
    /// The agent's new `(velocity, facing)` for this tick: velocity in world
    /// units per second (the pipeline caps it at the movement's max speed),
    /// facing a unit vector. `dt` is the tick length in seconds.
    fn steer(&self, input: &SteerInput, mind: &mut Mind, dt: f32) -> (Vec3, Vec3);
}

/// The registry of a game's deciders and steering behaviours, by name.
#[derive(Default)]
pub struct Plugins {
    deciders: Vec<(String, Box<dyn AgentDecider>)>,
    steering: Vec<(String, Box<dyn SteeringBehaviour>)>,
}

impl fmt::Debug for Plugins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plugins")
            .field("deciders", &self.decider_names().collect::<Vec<_>>())
            .field("steering", &self.steering_names().collect::<Vec<_>>())
            .finish()
    }
}

impl Plugins {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a decider under `name` (a later one with the same name
    /// replaces it).
    pub fn with_decider(
        mut self,
        name: impl Into<String>,
        decider: impl AgentDecider + 'static,
    ) -> Self {
        let name = name.into();
        self.deciders.retain(|(n, _)| *n != name);
        self.deciders.push((name, Box::new(decider)));
        self
    }

    /// Registers a steering behaviour under `name` (a later one with the same
    /// name replaces it).
    pub fn with_steering(
        mut self,
        name: impl Into<String>,
        behaviour: impl SteeringBehaviour + 'static,
    ) -> Self {
        let name = name.into();
        self.steering.retain(|(n, _)| *n != name);
        self.steering.push((name, Box::new(behaviour)));
        self
    }

    /// The index of the decider called `name`.
    pub fn decider_index(&self, name: &str) -> Option<usize> {
        self.deciders.iter().position(|(n, _)| n == name)
    }

    /// The index of the steering behaviour called `name`.
    pub fn steering_index(&self, name: &str) -> Option<usize> {
        self.steering.iter().position(|(n, _)| n == name)
    }

    /// The decider at `index`.
    pub fn decider(&self, index: usize) -> Option<&dyn AgentDecider> {
        self.deciders.get(index).map(|(_, d)| d.as_ref())
    }

    /// The steering behaviour at `index`.
    pub fn steering(&self, index: usize) -> Option<&dyn SteeringBehaviour> {
        self.steering.get(index).map(|(_, s)| s.as_ref())
    }

    /// Registered decider names, in registration order.
    pub fn decider_names(&self) -> impl Iterator<Item = &str> {
        self.deciders.iter().map(|(n, _)| n.as_str())
    }

    /// Registered steering names, in registration order.
    pub fn steering_names(&self) -> impl Iterator<Item = &str> {
        self.steering.iter().map(|(n, _)| n.as_str())
    }
}
