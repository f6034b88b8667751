//! What a game using kiai-bevy usually needs, in one import:
//! `use kiai_bevy::prelude::*;` brings the plugin, its sets, the
//! components, the messages, the commands and the `Kiai` resource.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use kiai_bevy::prelude::*;
//!
//! App::new()
//!     .add_plugins(MinimalPlugins)
//!     .add_plugins(KiaiPlugin::new("levels/stealth.ron").on_plane(Plane::Xy))
//!     .add_systems(Update, |mut seen: MessageReader<KiaiPercept>| {
//!         for percept in seen.read() {
//!             info!("{percept:?}");
//!         }
//!     })
//!     .run();
//! ```

pub use crate::{
    DesiredVelocity, Kiai, KiaiAgent, KiaiCommandsExt, KiaiContent, KiaiEvent, KiaiEventKind,
    KiaiId, KiaiInterest, KiaiLevel, KiaiPercept, KiaiPlugin, KiaiScript, KiaiSet, KiaiWall, Plane,
    Senses,
};

#[cfg(feature = "debug-draw")]
pub use crate::{KiaiDebug, KiaiDebugPlugin};
