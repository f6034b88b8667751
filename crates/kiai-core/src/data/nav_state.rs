//! Where a waypoint walker is on the waypoint graph.

use kiai_nav::WaypointId;

/// Where a waypoint walker is on the graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NavState {
    /// The waypoint it last reached.
    pub at: Option<WaypointId>,
    /// The waypoint it walks to.
    pub next: Option<WaypointId>,
    /// The rest of its A* route after `next` (first hop last).
    pub route: Vec<WaypointId>,
    /// The destination the route leads to.
    pub route_goal: Option<WaypointId>,
}
