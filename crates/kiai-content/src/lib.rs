//! # kiai-content — the content format
//!
//! Content files are RON text (format version [`FORMAT_VERSION`]) holding a
//! level's AI: factions, archetypes with named senses and movement, agents,
//! and the waypoint graph with its movement-cost lists.
//! This crate parses them into serde types ([`def`]), reports every problem
//! at once as `file:line:col: error: message` ([`Diagnostic`]), and builds a
//! runtime [`kiai_core::World`] from valid content.
//!
//! ```
//! use kiai_content::Content;
//!
//! let text = r#"(
//!     format: 1,
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
mod load;
mod locate;
mod nav;
mod validate;

pub use build::{build_world, build_world_with, profile, shape};
pub use def::FORMAT_VERSION;
pub use diag::{Diagnostic, Diagnostics, Severity, did_you_mean};
pub use load::{Content, MAX_FILE_BYTES, MAX_NESTING, ScriptRef, parse};
pub use locate::{Pos, SpanIndex};
pub use nav::{DEFAULT_COST_LIST, NavMap, build_nav};
pub use validate::validate;
