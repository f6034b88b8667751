//! Commands: every change views ask of the model, as data. The one owner
//! ([`super::Model::apply`]) applies them after the views ran, so a view
//! only reads the model and says what it wants.
//!
//! A [`Command`] names its area (the document, the selection, the run…)
//! and carries that area's own command; each area is applied by one
//! `match` without a catch-all arm (`model/apply.rs`, and
//! `model/what_if.rs` for "What if…"), so a new command that nothing
//! applies does not compile.

use kiai::fork::Branch;

use super::breakpoints::Breakpoint;
use super::doc::Edit;
use super::selection::Sel;
use super::settings::{Overlays, Tool, ToolSettings};

/// A change of the model, by area.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A change of the document (each one undo step, or a live preview).
    Edit(EditCommand),
    /// A new object in the document, which becomes the selection.
    Add(AddCommand),
    /// A change of what is selected.
    Select(SelectCommand),
    /// A change of the canvas tool, the tool settings or the overlays.
    Settings(SettingsCommand),
    /// Playing, stepping, seeking or rebuilding the run.
    Run(RunCommand),
    /// A change of the breakpoints.
    Breakpoint(BreakpointCommand),
    /// The Lua console and the scripts.
    Console(ConsoleCommand),
    /// "What if…": fork the run with changes and compare.
    WhatIf(WhatIfCommand),
    /// The Generate waypoints panel.
    NavGen(NavGenCommand),
    /// Shows a message in the status bar.
    Say(String),
}

/// A change of the document.
#[derive(Clone, Debug, PartialEq)]
pub enum EditCommand {
    /// Applies an edit as one undo step.
    Apply(Edit),
    /// Applies an edit without recording it (a drag under way shows its
    /// result live); finish with [`EditCommand::Record`].
    Preview(Edit),
    /// Records a change already applied by previews as one undo step.
    Record(Edit),
    /// Undoes one step.
    Undo,
    /// Redoes one step.
    Redo,
    /// Deletes the selection (waypoints with their links).
    Delete,
    /// Links the selected waypoints (all when none) within the tool bar's
    /// range that walls do not separate.
    AutoConnect,
    /// Fills every region's `sees` list by sample rays.
    ComputePvs,
    /// Merges the Generate waypoints panel's preview into the map (one
    /// undo step) and closes the panel.
    GenerateWaypoints,
    /// Switches the selected waypoints on or off.
    ToggleActive,
    /// Links or unlinks two waypoints (content ids).
    ToggleLink(u32, u32),
    /// A new cost list (becomes the current one).
    AddCostList(String),
    /// Renames the current cost list everywhere.
    RenameCostList(String),
    /// Deletes the current cost list with its costs.
    DeleteCostList,
}

/// A new object, selected once made.
#[derive(Clone, Debug, PartialEq)]
pub enum AddCommand {
    /// A waypoint at world `(x, z)`.
    Waypoint((f32, f32)),
    /// An agent at world `(x, z)` of the tool bar's archetype and faction.
    Agent((f32, f32)),
    /// A wall between two world points.
    Wall((f32, f32), (f32, f32)),
    /// A region with these corners.
    Region(Vec<(f32, f32)>),
    /// A new archetype.
    Archetype,
    /// A new profile.
    Profile,
    /// A new faction.
    Faction,
}

/// A change of the selection.
#[derive(Clone, Debug, PartialEq)]
pub enum SelectCommand {
    /// Selects exactly these objects.
    Set(Vec<Sel>),
    /// Adds these objects to the selection.
    Add(Vec<Sel>),
    /// Selects or deselects one object.
    Toggle(Sel),
    /// Selects every waypoint.
    AllWaypoints,
    /// Selects nothing.
    Clear,
}

/// A change of the tools and overlays.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsCommand {
    /// Picks a canvas tool.
    Tool(Tool),
    /// Replaces the tool settings.
    Tools(Box<ToolSettings>),
    /// Replaces the live overlays.
    Overlays(Overlays),
}

/// A change of the run.
#[derive(Clone, Debug, PartialEq)]
pub enum RunCommand {
    /// Starts or pauses playing.
    TogglePlay,
    /// Pauses and runs one tick.
    Step,
    /// Pauses and runs until the selected agent has an event.
    StepToEvent,
    /// Rebuilds the run from the document and the seed.
    Reset,
    /// Goes to a tick of the recorded run.
    Seek(u64),
    /// Play speed, × real time.
    Speed(f32),
    /// Seed of the next reset.
    Seed(u64),
}

/// A change of the breakpoints.
#[derive(Clone, Debug, PartialEq)]
pub enum BreakpointCommand {
    /// Adds a breakpoint.
    Add(Breakpoint),
    /// Replaces breakpoint `i`.
    Set(usize, Breakpoint),
    /// Removes breakpoint `i`.
    Remove(usize),
}

/// The Lua console and the scripts.
#[derive(Clone, Debug, PartialEq)]
pub enum ConsoleCommand {
    /// Evaluates Lua in the sandbox of the agent in a slot.
    Eval {
        /// The agent's slot.
        agent: usize,
        /// The code.
        code: String,
    },
    /// Reloads every script now.
    ReloadScripts,
    /// Empties the console.
    Clear,
}

/// "What if…".
#[derive(Clone, Debug, PartialEq)]
pub enum WhatIfCommand {
    /// Opens "What if…" at the run's current tick: edits from now on are
    /// the fork's changes.
    Open,
    /// Moves the what-if's fork to another tick.
    At(u64),
    /// Runs the fork and compares the branches.
    Run,
    /// Shows a branch of the fork that ran on the map (and the timeline).
    Show(Branch),
    /// Leaves "What if…": its edits are dropped, or kept in the document
    /// (`keep`).
    Leave {
        /// Keep the edits as the document's.
        keep: bool,
    },
}

/// The Generate waypoints panel (Edit → Generate waypoints…).
#[derive(Clone, Debug, PartialEq)]
pub enum NavGenCommand {
    /// Opens the panel; its preview is drawn over the map.
    Open,
    /// New parameters: agent radius and spacing, world units.
    Params {
        /// Agent radius (>= 0).
        radius: f32,
        /// Coverage spacing and distance (> 0.01).
        spacing: f32,
    },
    /// Closes the panel without changing the map.
    Close,
}
