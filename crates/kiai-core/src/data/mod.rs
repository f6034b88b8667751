//! The data layer: what a world is made of. Nothing here imports the world,
//! a stage or the pipeline (`tests/layering.rs` checks it), so every stage
//! can use every type here without pulling in another stage.
//!
//! - Handles and identity: [`ids`], [`faction`], [`rng`].
//! - Templates: [`archetype`], [`avoidance`], [`movement`], [`profile`], [`sense`],
//!   [`shape`].
//! - Per-agent state: [`body`] (who moves it), [`decision`] (decision and
//!   mind), [`nav_state`], [`route_queue`] (walkers waiting for routes),
//!   [`missile`] (a missile's frame and article 004's turning).
//! - Where agents are, bucketed: [`agent_grid`].
//! - What the senses work with and report: [`percepts`] (and
//!   [`sensed_index`], its lists located by agent), [`message`],
//!   [`hearing`] (sounds and loudness), [`budget`] (the ray budget),
//!   [`walls`] and [`pvs`] (geometry, in [`occluders`]).
//! - What a steering behaviour sees: [`steer_input`].
//! - What happened, for the game: [`event`].
//! - Who thinks this tick: [`lod`] (tick level of detail).

pub(crate) mod agent_grid;
pub(crate) mod archetype;
pub(crate) mod avoidance;
pub(crate) mod body;
pub(crate) mod budget;
pub(crate) mod decision;
pub(crate) mod event;
pub(crate) mod faction;
pub mod hearing;
pub(crate) mod ids;
pub(crate) mod lod;
pub(crate) mod message;
pub mod missile;
pub(crate) mod movement;
pub(crate) mod nav_state;
pub(crate) mod occluders;
pub(crate) mod outline;
pub(crate) mod percepts;
pub(crate) mod profile;
pub mod pvs;
pub mod rng;
pub(crate) mod route_queue;
pub(crate) mod sense;
pub(crate) mod sensed_index;
pub(crate) mod shape;
pub(crate) mod steer_input;
pub mod walls;

pub(crate) use archetype::Archetype;
pub(crate) use avoidance::Avoidance;
pub(crate) use body::BodyMode;
pub(crate) use budget::{PerceptionBudget, RayCursor};
pub(crate) use decision::{BehaviourState, Decision, Mind};
pub(crate) use event::{Event, EventKind};
pub(crate) use faction::{Factions, MAX_FACTIONS};
pub(crate) use hearing::{Falloff, Heard, NO_SOURCE, Sound};
pub(crate) use ids::{AgentId, ArchetypeId, FactionId};
pub(crate) use lod::{Lod, LodTier};
pub(crate) use message::{Message, Recipient};
pub(crate) use missile::{ControlMode, Guidance, Missile};
pub(crate) use movement::Movement;
pub(crate) use nav_state::NavState;
pub(crate) use occluders::Occluders;
pub(crate) use percepts::{CHUNK, PerceptChunk};
pub(crate) use percepts::{MemoryEntry, Perceived, PerceptRecord, Percepts};
pub(crate) use profile::{Learning, Outcome, Profile};
pub(crate) use pvs::Pvs;
pub(crate) use rng::AgentRng;
pub(crate) use route_queue::RouteQueue;
pub(crate) use sense::{CompiledSense, CompiledSenses};
pub(crate) use sense::{Sense, SenseFilter};
pub(crate) use shape::{CompiledShape, SenseKind, Shape};
pub(crate) use steer_input::SteerInput;
pub(crate) use walls::{NearWalls, RayScratch, Walls};
