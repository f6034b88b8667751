//! # kiai-content — the content format
//!
//! Content files are RON text (format version [`FORMAT_VERSION`]; older
//! versions are migrated on load, see [`migrate`]) holding a
//! level's AI: factions, archetypes with named senses and movement, agents,
//! and the waypoint graph with its movement-cost lists.
//! This crate parses them into serde types ([`def`]), reports every problem
//! at once as `file:line:col: error: message` ([`Diagnostic`]), and builds a
//! runtime [`kiai_core::World`] from valid content. [`save`] writes content
//! back atomically, keeping the file's comments and layout ([`write`](mod@write));
//! [`value_path`] reads and sets single values by path (`agents.g1.pos`);
//! [`pack`] is the resolved binary form a game loads. [`recording`] is the
//! `.kiairec` file of a recorded run; [`scenario`] and [`expect`] read the
//! scenario files `kiai test` runs.
//!
//! ## Layers
//!
//! The crate's top-level modules are layers: each imports only modules of
//! lower layers, never one beside or above it (`tests/layers.rs` checks
//! this and that no top-level modules import each other in a circle).
//!
//! | layer | modules | what |
//! |---|---|---|
//! | 0 | `format` | the serde types ([`def`]), text positions, diagnostics, size limits |
//! | 1 | `read`, `check`, [`navgen`] | text into definitions (fast reader, `ron`, migration); the rules definitions must keep (validation, lints); generated waypoints read from and merged into definitions |
//! | 2 | [`pack`], [`write`](mod@write) | the binary pack (resolve, encode, decode, check); the format-preserving text writer |
//! | 3 | `load`, [`value_path`] | [`Content`]: a file read and checked, text or pack; single values by path |
//! | 4 | `build`, `save` | the runtime world, nav graph and export of content; atomic saves, backups and [`migrate::migrate_text`] |
//! | 5 | `runs` | files of a run: [`events`], [`scenario`], [`expect`], [`recording`] |
//!
//! The crate root only re-exports: the public paths (`kiai_content::def`,
//! `kiai_content::migrate`, `kiai_content::Content`, ...) stay the same
//! whichever layer an item lives in.
//!
//! ```
//! use kiai_content::Content;
//!
//! let text = r#"(
//!     format: 2,
//!     factions: [(name: "red")],
//!     archetypes: { "guard": (senses: [(name: "radar", shape: Sphere(radius: 8.0))]) },
//!     agents: [(name: "g1", archetype: "gaurd", faction: "red", pos: (0.0, 0.0, 0.0))],
//! )"#;
//! let errors = Content::from_str(text, "level.ron").unwrap_err();
//! assert_eq!(
//!     errors.to_string(),
//!     "level.ron:5:38: error: unknown archetype `gaurd`; did you mean `guard`?"
//! );
//!
//! let fixed = Content::from_str(&text.replace("gaurd", "guard"), "level.ron")?;
//! let world = fixed.world(None)?;
//! assert_eq!(world.agents().len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod check;
mod format;
mod load;
pub mod navgen;
pub mod pack;
mod read;
mod runs;
mod save;
pub mod value_path;
pub mod write;

pub use format::{def, limits};
pub use runs::{events, expect, recording, scenario};

pub mod migrate {
    //! Older content format versions and their migration to the newest:
    //! the version-1 types, [`migrate_v1`], [`peek_format`], and
    //! [`migrate_text`], which rewrites a file's text keeping its comments
    //! and layout.

    pub use crate::read::migrate::*;
    pub use crate::save::{TextMigration, migrate_text};
}

pub use build::export::ExportError;
pub use build::nav::{NavMap, build_nav};
pub use build::{build_world, build_world_with, occluders, profile, shape};
pub use check::validate::validate;
pub use format::def::{DEFAULT_COST_LIST, FORMAT_VERSION, OLDEST_FORMAT_VERSION};
pub use format::diag::{Diagnostic, Diagnostics, Severity, did_you_mean};
pub use format::limits::{MAX_FILE_BYTES, MAX_NESTING};
pub use format::locate::{Pos, SpanIndex};
pub use format::script_path::{lexically_normal, script_path};
pub use load::{Content, ScriptRef};
pub use pack::{Pack, PackError};
pub use read::parse::parse;
pub use save::{backup_path, pack_to_ron, save, save_preserving, write_atomic};
pub use write::{Layout, WriteError, Written, to_ron, to_ron_preserving};
