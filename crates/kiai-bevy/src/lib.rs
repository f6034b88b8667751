//! # kiai-bevy — kiai for Bevy games
//!
//! One [`KiaiPlugin`] gives a Bevy app kiai's perception, navigation,
//! decisions and Lua scripts, as a thin adapter over the engine-agnostic
//! runtime:
//!
//! - **Content as assets**: `.ron` content and `.kiaipack` packs load as
//!   [`KiaiContent`], `.lua` scripts as [`KiaiScript`]; a file that does not
//!   load is logged as `file:line:col: error: ...` ([`Kiai::problems`]) and
//!   the app runs on; with Bevy's `file_watcher`, an edited script swaps in
//!   before the next tick (a script that no longer compiles keeps its last
//!   good version) and edited content rebuilds the world.
//! - **Components**: [`KiaiAgent`] makes an entity an agent (despawning the
//!   entity despawns it); `Transform` is read for the bodies the game moves
//!   (`Driven`, `Kinematic`) and written for the ones kiai moves
//!   (`Simulated`); [`DesiredVelocity`] for `Driven` bodies; [`Senses`] and
//!   [`Kiai::sensed`] give percepts as entities.
//! - **Events**: [`KiaiPercept`] (seen, lost) and [`KiaiEvent`] (heard,
//!   decision changed, arrived, route failed, ...) messages carry entities.
//! - **Doors and nav edits**: [`KiaiWall`] components and
//!   [`KiaiCommandsExt`] commands.
//! - **Tick level of detail**: [`KiaiInterest`] on the player or camera
//!   makes it a point of interest; agents of archetypes with `lod` tiers
//!   far from every one think less often.
//! - **Debug drawing** (feature `debug-draw`, on by default):
//!   `KiaiDebugPlugin` draws walls, senses, percepts, routes, states and
//!   fog with gizmos, switched by the `KiaiDebug` resource.
//!
//! kiai ticks in `FixedUpdate` by default, at the content's `tick_seconds`,
//! in three sets ([`KiaiSet::SyncIn`], [`KiaiSet::Tick`],
//! [`KiaiSet::SyncOut`]). `examples/stealth.rs` is a small game built on it;
//! [`prelude`] brings what a game usually needs in one `use`.

mod assets;
mod commands;
mod components;
mod coords;
#[cfg(feature = "debug-draw")]
mod debug_draw;
mod entity_map;
mod events;
mod interest;
mod level;
mod lifecycle;
mod plugin;
pub mod prelude;
mod runtime;
mod scripts;
mod sync;

pub use assets::{ContentLoader, KiaiContent, KiaiScript, LoadError, ScriptLoader};
pub use commands::KiaiCommandsExt;
pub use components::{DesiredVelocity, KiaiAgent, KiaiId, KiaiWall, Senses};
pub use coords::Plane;
#[cfg(feature = "debug-draw")]
pub use debug_draw::{KiaiDebug, KiaiDebugPlugin, state_colour};
pub use events::{KiaiEvent, KiaiEventKind, KiaiEventKinds, KiaiPercept};
pub use interest::KiaiInterest;
pub use level::FromContent;
pub use lifecycle::KiaiRefused;
pub use plugin::{KiaiPlugin, KiaiSet};
pub use runtime::{Kiai, KiaiLevel};

/// kiai itself (the runtime, content, Lua), as the plugin uses it.
pub use kiai;
