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
    /// The destination the route leads to (or, while `waiting`, the one
    /// it asked for).
    pub route_goal: Option<WaypointId>,
    /// It asked for a route to `route_goal` that the navigate stage has
    /// not found yet (the search budget of a tick went to older requests);
    /// meanwhile it walks toward the goal by article 001's selection.
    pub waiting: bool,
    /// A point it walks straight to this tick instead of `next` (walkers
    /// that smooth their routes): its destination once the way there is
    /// clear, or a point on its link when `next` is hidden from it.
    pub direct: Option<glam::Vec3>,
    /// Ticks in a row it made no progress toward where it walks (walkers
    /// that walls or crowds can hold up); see the navigate stage.
    pub stalled: u16,
}

impl NavState {
    /// The point the walker walks to now, given the graph: `direct`, else
    /// `next`'s position.
    pub fn heading_point(&self, nav: &kiai_nav::NavGraph) -> Option<glam::Vec3> {
        self.direct.or_else(|| nav.pos(self.next?))
    }
}
