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

/// The window size when none is asked for, points.
pub const DEFAULT_SIZE: (f32, f32) = (1440.0, 900.0);

/// The window's size in points (`--size`, else [`DEFAULT_SIZE`]) and
/// whether eframe may restore the size and place remembered from the last
/// session instead: only when neither `--size` nor `--reset-layout` was
/// given.
pub fn window_size(size: Option<(f32, f32)>, reset_layout: bool) -> ((f32, f32), bool) {
    (
        size.unwrap_or(DEFAULT_SIZE),
        size.is_none() && !reset_layout,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_asked_for_wins_over_the_one_remembered() {
        assert_eq!(
            window_size(Some((800.0, 600.0)), false),
            ((800.0, 600.0), false)
        );
        assert_eq!(window_size(None, true), (DEFAULT_SIZE, false));
        assert_eq!(window_size(None, false), (DEFAULT_SIZE, true));
    }
}
