//! The route queue: walkers' requests for A* routes, served by the
//! navigate stage within a budget of search work per tick, and the
//! distance fields that walkers sent to one place share.

use std::sync::Arc;

use kiai_nav::{CostListId, DistanceField, WaypointId};

use super::AgentId;

/// Waypoints a tick's route searches may expand by default (see
/// [`World::set_route_budget`](crate::World::set_route_budget)): about
/// 1 ms of search on a 90,000-waypoint map, on two cores.
pub const DEFAULT_ROUTE_BUDGET: u32 = 4_096;

/// What a walker asked for: a route to `goal` under its archetype's cost
/// list and clearance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct RouteKey {
    /// The goal waypoint.
    pub(crate) goal: WaypointId,
    /// The cost list pricing the links.
    pub(crate) cost_list: CostListId,
    /// The walker's radius (`f32` bits): narrower links are not used.
    pub(crate) clearance_bits: u32,
}

/// One walker's request, waiting in the queue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RouteRequest {
    /// The tick it was made in (requests are served oldest first, then by
    /// agent slot).
    pub(crate) tick: u64,
    /// Who asked.
    pub(crate) agent: AgentId,
    /// What for.
    pub(crate) key: RouteKey,
    /// A re-plan after the graph changed: the walker may turn back to the
    /// waypoint it came from if that is shorter.
    pub(crate) replan: bool,
}

/// A distance field some walkers share, or one being filled a slice per
/// tick.
#[derive(Clone, Debug)]
pub(crate) struct SharedField {
    /// What it answers.
    pub(crate) key: RouteKey,
    /// The field (shared by clones of the world; copied only when a clone
    /// keeps filling it).
    pub(crate) field: Arc<DistanceField>,
    /// The tick it was last used in (the least recently used goes first
    /// when too many are kept).
    pub(crate) used: u64,
}

/// Walkers' route requests and the fields kept for shared goals.
#[derive(Clone, Debug, Default)]
pub(crate) struct RouteQueue {
    /// Waypoints the searches of one tick may expand; `None`: every
    /// request is served in the tick it is made.
    pub(crate) budget: Option<u32>,
    /// Waiting requests, oldest first, then by agent slot.
    pub(crate) requests: Vec<RouteRequest>,
    /// Finished fields for shared goals, kept while the graph stands.
    pub(crate) fields: Vec<SharedField>,
    /// The field being filled, if any.
    pub(crate) filling: Option<SharedField>,
    /// Waypoints a search has expanded lately (a running mean, >= 1): how
    /// many searches a tick's rest of the budget starts at once.
    pub(crate) typical_search: u32,
}

impl RouteQueue {
    /// A queue with the default budget.
    pub(crate) fn new() -> Self {
        Self {
            budget: Some(DEFAULT_ROUTE_BUDGET),
            typical_search: 256,
            ..Self::default()
        }
    }

    /// Adds a request, or updates the agent's waiting one (it keeps its
    /// place in the queue).
    pub(crate) fn ask(&mut self, request: RouteRequest) {
        match self.requests.iter_mut().find(|r| r.agent == request.agent) {
            Some(waiting) => {
                waiting.key = request.key;
                waiting.replan |= request.replan;
            }
            None => self.requests.push(request),
        }
    }

    /// Forgets every field: the graph changed.
    pub(crate) fn graph_changed(&mut self) {
        self.fields.clear();
        self.filling = None;
    }
}
