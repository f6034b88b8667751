//! # kiai-core — the kiai runtime
//!
//! A [`World`] holds agents as a struct of arrays. Each agent is made from an
//! [`Archetype`] (its named [`Sense`]s and its [`Movement`]) and belongs to a
//! faction. A [`Pipeline`] advances the world one tick at a time through the
//! [`Stage`]s, in this order, each reading only what earlier stages wrote:
//!
//! The stages: sense -> decide -> navigate -> steer -> avoid -> integrate -> noise -> fog
//!
//! [`Stage`] describes each (the [`Decider`] of the decide stage is where
//! the [`DefaultDecider`], game code and scripts plug in; [`World::percepts`]
//! is what the sense stage found).
//!
//! The modules come in one-way layers: the data layer (archetypes,
//! movement, profiles, decisions, senses, percepts, walls, missiles) at the
//! bottom imports nothing else; the [`World`] holds it; each stage module
//! ([`perception`], [`behaviour`], [`navigate`], [`steering`], and the
//! integrate, noise and fog stages) imports data and the world, never
//! another stage; the pipeline runs the stages (`tests/layers.rs` checks it).
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

mod awake;
mod data;
mod fog_update;
mod hash;
mod integrate;
mod lod;
mod noise;
mod par;
mod pipeline;
mod tick_times;
mod world;

pub mod behaviour;
pub mod navigate;
pub mod perception;
pub mod steering;

pub use data::rng;
pub use world::plugins;

pub use behaviour::{
    Choice, DecidedBy, Decider, DecisionTrace, DefaultDecider, Roll, RollKind, RollLog,
};
pub use data::archetype::{Archetype, Sight};
pub use data::avoidance::Avoidance;
pub use data::body::BodyMode;
pub use data::budget::{PerceptionBudget, RayCursor};
pub use data::decision::{BehaviourState, Decision, Mind};
pub use data::event::{Event, EventKind};
pub use data::faction::{Factions, MAX_FACTIONS, TooManyFactions};
pub use data::ids::{AgentId, ArchetypeId, FactionId};
pub use data::lod::{LOD_HYSTERESIS, LodTier, MAX_LOD_PERIOD, MAX_LOD_TIERS};
pub use data::message::{Message, Recipient};
pub use data::movement::Movement;
pub use data::occluders::Occluders;
pub use data::outline::{OUTLINE_VOLUME, Outline};
pub use data::percepts::{MemoryEntry, Percepts};
pub use data::profile::{Learning, Outcome, Profile};
pub use data::route_queue::DEFAULT_ROUTE_BUDGET;
pub use data::sense::{Sense, SenseFilter};
pub use data::sensed_index::SensedIndex;
pub use data::shape::{SenseKind, Shape};
pub use hash::state_hash;
pub use pipeline::{Pipeline, Stage, StageTimings};
pub use tick_times::{Spread, TickTimes};
pub use world::{
    Aabb, AgentSpawn, Agents, Deferred, Fog, FogSettings, World, WorldConfig, WorldError,
};

pub use glam;
pub use kiai_fog as fog;
pub use kiai_nav as nav;
