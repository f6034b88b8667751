//! # kiai-editor — the kiai editor
//!
//! An [eframe] application to build waypoint maps, paint movement-cost
//! lists, draw walls and PVS regions, place agents, drag their senses'
//! handles, tune behaviour profiles against a chart sampled from the
//! runtime's decider, validate with kiai-content's diagnostics, play the
//! map with the runtime's own pipeline, debug it with breakpoints, ask
//! "what if" of a recorded run (fork it at a tick with edits and compare
//! the branches), save keeping the file's text and export runtime packs.
//!
//! Three layers, imported one way (`tests/modules.rs` checks it):
//!
//! - [`model`]: the document ([`model::Document`], changed only through
//!   undoable [`model::Edit`]s), the selection, tool settings, the run
//!   ([`model::sim::Sim`]) and breakpoints, changed only by
//!   [`model::Command`]s applied by [`model::Model::apply`]. No egui.
//! - [`views`] (and the [`theme`]'s palette): each view draws from a
//!   read-only [`views::ViewCtx`], keeps its own view state and says what
//!   it wants as commands and UI requests ([`views::Out`]).
//! - [`app`]: the one owner, [`EditorApp`], which runs the views, applies
//!   what they ask, and handles files, dialogs and the dock.
//!
//! ```no_run
//! let app = kiai_editor::EditorApp::new(
//!     kiai_editor::Options {
//!         file: Some("content/demo/village.ron".into()),
//!         ..Default::default()
//!     },
//!     None,
//! );
//! assert!(!app.doc().def().waypoints.is_empty());
//! ```

pub mod app;
pub mod model;
pub mod theme;
pub mod views;

pub use app::{EditorApp, Options};
pub use model::{Document, Edit, Item, Sel};
pub use views::Pane;
pub use views::canvas;
