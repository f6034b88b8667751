//! The views: each draws part of the editor from a read-only
//! [`ViewCtx`], keeps its own view state (scroll, text being typed,
//! caches of what it draws) and says what it wants changed through
//! [`Out`]: model [`Command`]s and UI requests ([`UiIntent`]). The app
//! applies them after the frame's views ran.

pub mod breakpoints;
pub mod canvas;
pub mod console;
pub mod cost_lists;
pub mod dialogs;
pub mod elevation;
pub mod icons;
pub mod inspector;
pub mod layers;
pub mod lod;
pub mod menus;
pub mod navgen;
pub mod outliner;
pub mod profiles;
pub mod status;
pub mod timings;
pub mod toolbar;
pub mod transport;
pub mod validation;
pub mod what_if;
pub mod why;
pub mod widgets;

use std::path::PathBuf;

use crate::model::{Command, Model};
use crate::theme::Palette;

/// A panel of the dock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Pane {
    /// The top-down map.
    Canvas,
    /// Properties of the selection.
    Inspector,
    /// Every object by collection.
    Outliner,
    /// Diagnostics of kiai-content.
    Validation,
    /// Behaviour profiles and their decision chart.
    Profiles,
    /// Cost lists: create, rename, delete, pick the painted one.
    CostLists,
    /// Why the selected agent did what it did (live).
    Why,
    /// Lua console (live).
    Console,
    /// Per-stage timings (live).
    Timings,
    /// Side elevation: heights.
    Elevation,
    /// What the map draws: overlays, fog of war, labels.
    Layers,
    /// Breakpoints.
    Breakpoints,
}

impl Pane {
    /// The tab's title.
    pub fn title(self) -> &'static str {
        match self {
            Pane::Canvas => "Map",
            Pane::Inspector => "Inspector",
            Pane::Outliner => "Outliner",
            Pane::Validation => "Validation",
            Pane::Profiles => "Profiles",
            Pane::CostLists => "Cost lists",
            Pane::Why => "Why",
            Pane::Console => "Console",
            Pane::Timings => "Timings",
            Pane::Elevation => "Elevation",
            Pane::Layers => "Layers",
            Pane::Breakpoints => "Breakpoints",
        }
    }
}

/// What a file asked for is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathFor {
    /// Open content (`.ron`).
    Open,
    /// Save the document under a new name.
    SaveAs,
    /// Export the runtime pack (`.kiaipack`).
    ExportAs,
    /// Save the recorded run (`.kiairec`).
    SaveRecording,
    /// Open a recorded run.
    OpenRecording,
    /// Open a `kiai run --trace` file (`.jsonl`).
    OpenTrace,
    /// Pick a Lua script for archetype `i` (`.lua`).
    Script(usize),
}

impl PathFor {
    /// Prompt title, file-type label and extension.
    pub fn describe(self) -> (&'static str, &'static str, &'static str) {
        match self {
            PathFor::Open => ("Open", "kiai content", "ron"),
            PathFor::SaveAs => ("Save as", "kiai content", "ron"),
            PathFor::ExportAs => ("Export pack as", "kiai pack", "kiaipack"),
            PathFor::SaveRecording => ("Save recording as", "kiai recording", "kiairec"),
            PathFor::OpenRecording => ("Open recording", "kiai recording", "kiairec"),
            PathFor::OpenTrace => ("Open trace", "kiai trace", "jsonl"),
            PathFor::Script(_) => ("Script", "Lua script", "lua"),
        }
    }

    /// Whether the file is written (the prompt suggests a name).
    pub fn saves(self) -> bool {
        matches!(
            self,
            PathFor::SaveAs | PathFor::ExportAs | PathFor::SaveRecording
        )
    }
}

/// A request to the app rather than the model.
#[derive(Clone, Debug, PartialEq)]
pub enum UiIntent {
    /// Bring a panel's tab to the front.
    Focus(Pane),
    /// Frame everything on the map.
    Fit,
    /// Frame the selection on the map.
    FitSelection,
    /// Ask for a file (the system's dialog, else the editor's prompt).
    Ask(PathFor),
    /// A file was chosen for `PathFor`.
    Chosen(PathFor, PathBuf),
    /// Start a new untitled document (asks to save first).
    New,
    /// Start a new untitled document now, unsaved changes discarded.
    NewNow,
    /// Open a file (asks to save first).
    Open(PathBuf),
    /// Open a file now, unsaved changes discarded.
    OpenNow(PathBuf),
    /// Save to the document's path (asks for one when untitled).
    Save,
    /// Save, then (only when it was saved) do the other thing.
    SaveThen(Box<UiIntent>),
    /// Export the pack next to the document.
    Export,
    /// Replace the document by its recovery file.
    Recover(PathBuf),
    /// Delete a recovery file.
    DiscardRecovery(PathBuf),
    /// Close the window (asks to save first).
    Quit,
    /// Close the window now, unsaved changes discarded or saved.
    CloseNow,
    /// Open a file (at a line, when known) with the system's opener.
    OpenFile(PathBuf, Option<u32>),
    /// Switch the theme.
    Theme(crate::model::Theme),
    /// Reset the dock layout.
    ResetLayout,
}

/// What views want: model commands and UI requests, in order.
#[derive(Debug, Default)]
pub struct Out {
    /// Model commands.
    pub commands: Vec<Command>,
    /// UI requests.
    pub intents: Vec<UiIntent>,
}

impl Out {
    /// Asks the model for `command`.
    pub fn push(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// Asks the app for `intent`.
    pub fn ui(&mut self, intent: UiIntent) {
        self.intents.push(intent);
    }
}

/// What every view reads.
pub struct ViewCtx<'a> {
    /// The model, read-only.
    pub model: &'a Model,
    /// The colours.
    pub palette: &'a Palette,
    /// Hide what changes from run to run (timings), for screenshots.
    pub screenshot: bool,
}
