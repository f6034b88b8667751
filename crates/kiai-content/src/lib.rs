//! # kiai-content — the content format
//!
//! Content files are RON text (format version [`FORMAT_VERSION`]; older
//! versions are migrated on load, see [`migrate`]) holding a
//! level's AI: factions, archetypes with named senses and movement, agents,
//! and the waypoint graph with its movement-cost lists.
//! This crate parses them into serde types ([`def`]), reports every problem
//! at once as `file:line:col: error: message` ([`Diagnostic`]), and builds a
//! runtime [`kiai_core::World`] from valid content. [`save`] writes content
//! back atomically, keeping the file's comments and layout ([`write`]);
//! [`value_path`] reads and sets single values by path (`agents.g1.pos`);
//! [`pack`] is the resolved binary form a game loads. [`recording`] is the
//! `.kiairec` file of a recorded run; [`scenario`] and [`expect`] read the
//! scenario files `kiai test` runs.
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
pub mod def;
mod diag;
pub mod events;
pub mod expect;
mod export;
mod fast;
mod ids;
pub mod limits;
mod lint;
mod load;
mod locate;
pub mod migrate;
mod nav;
pub mod pack;
mod pack_body;
mod pack_check;
mod pack_world;
pub mod recording;
mod rules;
mod save;
pub mod scenario;
mod script_path;
mod validate;
pub mod value_path;
pub mod write;

pub use build::{build_world, build_world_with, occluders, profile, shape};
pub use def::{FORMAT_VERSION, OLDEST_FORMAT_VERSION};
pub use diag::{Diagnostic, Diagnostics, Severity, did_you_mean};
pub use export::ExportError;
pub use load::{Content, MAX_FILE_BYTES, MAX_NESTING, ScriptRef, parse};
pub use locate::{Pos, SpanIndex};
pub use nav::{DEFAULT_COST_LIST, NavMap, build_nav};
pub use pack::{Pack, PackError};
pub use save::{backup_path, pack_to_ron, save, save_preserving, write_atomic};
pub use script_path::{lexically_normal, script_path};
pub use validate::validate;
pub use write::{Layout, WriteError, Written, to_ron, to_ron_preserving};
