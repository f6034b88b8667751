//! The editor's settings that are not part of the document: the canvas
//! tool and its options, the live overlays, the theme.

/// The canvas tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Tool {
    /// Select, move, box-select, drag handles.
    Select,
    /// Click to place a waypoint.
    Waypoint,
    /// Click (or drag) from one waypoint to another to link or unlink them.
    Link,
    /// Paint the current cost list's multiplier onto links under the brush.
    Paint,
    /// Click two points to draw a wall.
    Wall,
    /// Click corners of a PVS region; Enter or double-click closes it.
    Region,
    /// Click to place an agent.
    Agent,
    /// Pick two waypoints to preview the route between them.
    Path,
}

impl Tool {
    /// Every tool, in tool-bar order.
    pub const ALL: [Tool; 8] = [
        Tool::Select,
        Tool::Waypoint,
        Tool::Link,
        Tool::Paint,
        Tool::Wall,
        Tool::Region,
        Tool::Agent,
        Tool::Path,
    ];

    /// The tool-bar label.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Waypoint => "Waypoint",
            Tool::Link => "Link",
            Tool::Paint => "Paint cost",
            Tool::Wall => "Wall",
            Tool::Region => "Region",
            Tool::Agent => "Agent",
            Tool::Path => "Path",
        }
    }

    /// The letter of the key that picks the tool.
    pub fn key_name(self) -> &'static str {
        match self {
            Tool::Select => "V",
            Tool::Waypoint => "W",
            Tool::Link => "L",
            Tool::Paint => "C",
            Tool::Wall => "X",
            Tool::Region => "R",
            Tool::Agent => "A",
            Tool::Path => "H",
        }
    }

    /// What the tool does, for its tooltip and the status bar.
    pub fn help(self) -> &'static str {
        match self {
            Tool::Select => {
                "Click to select, Shift+click to add, drag empty space to box-select; drag waypoints, agents, wall ends, region corners and sense handles; right-click for actions"
            }
            Tool::Waypoint => "Click to place a waypoint (snaps to the grid when snapping is on)",
            Tool::Link => {
                "Click or drag from a waypoint to another: links them (two-way per the tool bar); again on a linked pair unlinks"
            }
            Tool::Paint => {
                "Drag over links to set their multiplier in the current cost list; Shift+drag resets to 1"
            }
            Tool::Wall => "Click the two ends of a wall",
            Tool::Region => {
                "Click the corners of a region; Enter or double-click closes it, Esc cancels"
            }
            Tool::Agent => "Click to place an agent of the tool bar's archetype and faction",
            Tool::Path => {
                "Click the start waypoint, then the goal: A* (green) and article 001's greedy walk (orange) for the current cost list"
            }
        }
    }
}

/// The multiplier the paint tool writes by default: a link painted with
/// it costs more than going around it through two neighbours at the same
/// spacing (three links), so routes visibly avoid it.
pub const DEFAULT_BRUSH: f32 = 5.0;

/// The canvas tool and the options of each tool.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSettings {
    /// The active tool.
    pub tool: Tool,
    /// Index into the cost-list names of the list painted and previewed.
    pub cost_list: usize,
    /// Multiplier the paint tool writes, in [0, 100].
    pub brush_value: f32,
    /// Brush radius in screen points, in [4, 120].
    pub brush_radius: f32,
    /// Links made by the link tool and auto-connect are two-way.
    pub two_way: bool,
    /// Auto-connect range, world units, > 0.
    pub connect_range: f32,
    /// Snap placed and dragged points to the grid.
    pub snap: bool,
    /// Grid spacing, world units, > 0.
    pub grid_step: f32,
    /// Colour links by the current list's multiplier.
    pub heat_map: bool,
    /// Shade what the selected agent senses.
    pub show_sight: bool,
    /// Archetype name the agent tool places.
    pub place_archetype: String,
    /// Faction name the agent tool places.
    pub place_faction: String,
    /// Waypoint ids picked by the path tool: start, goal.
    pub path_pick: (Option<u32>, Option<u32>),
}

impl Default for ToolSettings {
    fn default() -> Self {
        Self {
            tool: Tool::Select,
            cost_list: 0,
            brush_value: DEFAULT_BRUSH,
            brush_radius: 24.0,
            two_way: true,
            connect_range: 12.0,
            snap: true,
            grid_step: 1.0,
            heat_map: true,
            show_sight: true,
            place_archetype: String::new(),
            place_faction: String::new(),
            path_pick: (None, None),
        }
    }
}

/// Which live overlays the map draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlays {
    /// Sense shapes of every agent (the selected one's always show).
    pub senses_all: bool,
    /// Lines to what the selected agent sees, hears and remembers.
    pub percepts: bool,
    /// Agents filled by behaviour state (else by faction).
    pub states: bool,
    /// Waypoint routes and next waypoints.
    pub paths: bool,
    /// Velocity vectors.
    pub steering: bool,
    /// Missiles' heading vs the direction to their target.
    pub missiles: bool,
    /// Fog of war: `None` off, `Some(None)` spectator (all factions),
    /// `Some(Some(f))` faction `f`.
    pub fog: Option<Option<u8>>,
    /// Rings of this tick's sounds.
    pub sounds: bool,
    /// While the run is past tick 0: where agents started, as faint rings.
    pub start_positions: bool,
    /// Agent and waypoint names on the map.
    pub labels: bool,
    /// Each agent's body: a circle of its radius.
    pub bodies: bool,
    /// Preferred and chosen (after avoidance) velocities where they differ.
    pub avoidance: bool,
    /// The way smoothing waypoint walkers take now.
    pub smoothed: bool,
    /// Tick level of detail: each agent's tier as a ring, and the points
    /// of interest (only when some archetype has tiers).
    pub lod_tiers: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Self {
            senses_all: false,
            percepts: true,
            states: true,
            paths: true,
            steering: false,
            missiles: true,
            fog: None,
            sounds: true,
            start_positions: true,
            labels: true,
            bodies: false,
            avoidance: false,
            smoothed: false,
            lod_tiers: true,
        }
    }
}

/// The editor's colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Theme {
    /// Light text on dark panels (the default).
    #[default]
    Dark,
    /// Dark text on light panels.
    Light,
}
