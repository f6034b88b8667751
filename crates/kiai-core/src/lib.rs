//! # kiai-core — the kiai runtime
//!
//! A [`World`] holds agents as a struct of arrays. Each agent is made from an
//! [`Archetype`] (its named [`Sense`]s and its [`Movement`]) and belongs to a
//! faction. A [`Pipeline`] advances the world one tick at a time through four
//! stages, each reading only what earlier stages wrote:
//!
//! 1. **sense** — every sense of every agent finds the agents inside its
//!    [`Shape`] ([`World::percepts`]);
//! 2. **decide** — a [`Decider`] picks a [`BehaviourState`] and target per
//!    agent (the [`DefaultDecider`], or game and script logic);
//! 3. **steer** — decisions become velocities (seed 000's random walk, seek,
//!    flee);
//! 4. **integrate** — positions move by one `tick_seconds` step;
//! 5. **fog** — when enabled ([`World::enable_fog`]), agents with a [`Sight`]
//!    re-stamp the tile fog of war ([`fog`]) if they changed tile or heading.
//!
//! Everything is deterministic: the same world, seed and inputs give a
//! bit-identical [`state_hash`] at any thread count.
//!
//! ```
//! use kiai_core::{
//!     AgentSpawn, Archetype, DefaultDecider, Movement, Pipeline, Sense, SenseFilter, Shape,
//!     World, WorldConfig,
//! };
//! use glam::Vec3;
//!
//! let mut world = World::new(WorldConfig { seed: 7, ..WorldConfig::default() });
//! let red = world.factions_mut().add("red")?;
//! let guard = world.add_archetype(Archetype {
//!     name: "guard".into(),
//!     senses: vec![Sense::new(
//!         "eyes",
//!         Shape::Cone { range: 30.0, fov_deg: 120.0 },
//!         SenseFilter::All,
//!     )],
//!     movement: Movement::Static,
//!     ..Archetype::default()
//! })?;
//! let a = world.spawn(AgentSpawn {
//!     name: "a".into(), archetype: guard, faction: red,
//!     position: Vec3::ZERO, facing: Vec3::X,
//! })?;
//! let b = world.spawn(AgentSpawn {
//!     name: "b".into(), archetype: guard, faction: red,
//!     position: Vec3::new(10.0, 0.0, 0.0), facing: Vec3::X,
//! })?;
//!
//! let mut pipeline = Pipeline::new();
//! pipeline.tick(&mut world, &mut DefaultDecider::default());
//! assert_eq!(world.sensed_by_name(a, "eyes"), Some(&[b][..])); // b is ahead of a
//! assert_eq!(world.sensed_by_name(b, "eyes"), Some(&[][..])); // a is behind b
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod archetype;
pub mod behaviour;
mod faction;
mod hash;
mod ids;
pub mod navigate;
pub mod perception;
mod pipeline;
pub mod plugins;
pub mod rng;
pub mod steering;
mod world;

pub use archetype::{Archetype, Movement, Sight};
pub use behaviour::{
    BehaviourState, Choice, DecidedBy, Decider, Decision, DecisionTrace, DefaultDecider, Learning,
    Mind, Outcome, Profile, Roll, RollKind, RollLog,
};
pub use faction::{Factions, MAX_FACTIONS, TooManyFactions};
pub use hash::state_hash;
pub use ids::{AgentId, ArchetypeId, FactionId};
pub use perception::{
    MemoryEntry, Message, Occluders, PerceptEvent, PerceptionBudget, Percepts, RayCursor,
    Recipient, Sense, SenseFilter, SenseKind, Shape,
};
pub use pipeline::{Pipeline, StageTimings};
pub use world::{Aabb, AgentSpawn, Agents, Fog, FogSettings, World, WorldConfig, WorldError};

pub use glam;
pub use kiai_fog as fog;
pub use kiai_nav as nav;
