//! # kiai — a game-AI toolkit
//!
//! One dependency for games: the runtime ([`core`]: the world, perception,
//! behaviour, steering and the tick pipeline), content loading
//! ([`content`]: the RON format with file:line:col diagnostics) and Lua
//! scripting ([`lua`]: sandboxed deciders and hooks, and
//! [`lua::decider_for`], which gives content's archetypes their scripts).
//!
//! ```no_run
//! use kiai::prelude::*;
//!
//! let content = kiai::content::Content::load("content/demo/arena.ron".as_ref())?;
//! let mut world = content.world(None)?;
//! let mut pipeline = Pipeline::new();
//! for _ in 0..60 {
//!     pipeline.tick(&mut world, &mut DefaultDecider::default());
//! }
//! println!("{} agents at tick {}", world.agents().len(), world.tick());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`scenario`] runs scenario tests (`*.scenario.ron`: content, events and
//! expectations checked every tick), [`fork`] replays a recording and
//! runs a changed branch beside it, and [`driver::Driver`] is the run both
//! step.
//!
//! See `examples/embed.rs` for a complete fixed-step game loop, and
//! `examples/game_loop.rs` for a game that moves its own bodies, opens a
//! door, kills and spawns agents and reacts to kiai's events.

pub use kiai_content as content;
pub use kiai_core as core;

pub mod driver;
pub mod fork;
pub mod lua;
pub mod scenario;

/// The names a game loop needs: the world and its pipeline, handles,
/// bodies the game moves, and the events it reacts to.
pub mod prelude {
    pub use kiai_core::glam::Vec3;
    pub use kiai_core::{
        AgentId, AgentSpawn, BehaviourState, BodyMode, Decider, Decision, DefaultDecider, Event,
        EventKind, Pipeline, World, state_hash,
    };
}
