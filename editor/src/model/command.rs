//! Commands: every change views ask of the model, as data. The one owner
//! ([`super::Model::apply`]) applies them after the views ran, so a view
//! only reads the model and says what it wants.

use super::breakpoints::Breakpoint;
use super::doc::Edit;
use super::selection::Sel;
use super::settings::{Overlays, Tool, ToolSettings};

/// A change of the model.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Applies an edit as one undo step.
    Edit(Edit),
    /// Applies an edit without recording it (a drag under way shows its
    /// result live); finish with [`Command::Record`].
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
    /// Switches the selected waypoints on or off.
    ToggleActive,
    /// Links or unlinks two waypoints (content ids).
    ToggleLink(u32, u32),
    /// A waypoint at world `(x, z)`.
    PlaceWaypoint((f32, f32)),
    /// An agent at world `(x, z)` of the tool bar's archetype and faction.
    PlaceAgent((f32, f32)),
    /// A wall between two world points.
    PlaceWall((f32, f32), (f32, f32)),
    /// A region with these corners.
    CloseRegion(Vec<(f32, f32)>),
    /// A new archetype, profile or faction.
    AddArchetype,
    /// A new profile.
    AddProfile,
    /// A new faction.
    AddFaction,
    /// A new cost list (becomes the current one).
    AddCostList(String),
    /// Renames the current cost list everywhere.
    RenameCostList(String),
    /// Deletes the current cost list with its costs.
    DeleteCostList,
    /// Selects exactly these objects.
    Select(Vec<Sel>),
    /// Adds these objects to the selection.
    SelectMore(Vec<Sel>),
    /// Selects or deselects one object.
    ToggleSelect(Sel),
    /// Selects every waypoint.
    SelectAllWaypoints,
    /// Selects nothing.
    ClearSelection,
    /// Picks a canvas tool.
    SetTool(Tool),
    /// Replaces the tool settings.
    Tools(Box<ToolSettings>),
    /// Replaces the live overlays.
    Overlays(Overlays),
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
    /// Adds a breakpoint.
    AddBreakpoint(Breakpoint),
    /// Replaces breakpoint `i`.
    SetBreakpoint(usize, Breakpoint),
    /// Removes breakpoint `i`.
    RemoveBreakpoint(usize),
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
    ClearConsole,
    /// Shows a message in the status bar.
    Say(String),
    /// Opens "What if…" at the run's current tick: edits from now on are
    /// the fork's changes.
    WhatIf,
    /// Moves the what-if's fork to another tick.
    WhatIfAt(u64),
    /// Runs the fork and compares the branches.
    WhatIfRun,
    /// Shows a branch of the fork that ran on the map (and the timeline).
    WhatIfShow(super::what_if::Branch),
    /// Leaves "What if…": its edits are dropped, or kept in the document
    /// (`keep`).
    WhatIfLeave {
        /// Keep the edits as the document's.
        keep: bool,
    },
}
