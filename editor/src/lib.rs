//! # kiai-editor — the kiai editor
//!
//! An [eframe] application to build waypoint maps, paint movement-cost
//! lists, draw walls and PVS regions, place agents, drag their senses'
//! handles, tune behaviour profiles against a chart sampled from the
//! runtime's decider, validate with kiai-content's diagnostics, save
//! atomically and export runtime packs.
//!
//! The document ([`doc::Document`]) is a [`kiai_content::def::ContentDef`]
//! changed only through [`doc::Edit`]s, which makes every change undoable
//! at the cost of the items it touches. The canvas ([`canvas`]) shows the
//! map top-down in an [`egui::Scene`](eframe::egui::Scene); the dock
//! ([egui_tiles]) holds the inspector, outliner, validation, profile and
//! cost-list panels, and its layout is remembered between runs.
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

pub mod analysis;
pub mod app;
pub mod canvas;
pub mod doc;
pub mod live;
mod live_canvas;
pub mod panels;
mod raster;
pub mod sim;

pub use app::{EditorApp, Options, Pane, State, Tool};
pub use doc::{Document, Edit, Item, Sel};
