//! The route queue: walkers' requests for A* routes, served by the
//! navigate stage within a budget of search work per tick, the searches
//! under way (a search may take several ticks), and the distance fields
//! that walkers sent to one place share.

use std::sync::Arc;

use kiai_nav::{CostListId, DistanceField, NavGraph, NavQuery, WaypointId};

use super::AgentId;

/// Waypoints a tick's route searches may expand by default (see
/// [`World::set_route_budget`](crate::World::set_route_budget)): about
/// 0.2 ms of search on a 90,000-waypoint map on two cores, so that a
/// thousand walkers sent across it cost a tick at most about twice a
/// scripted tick without navigation (BENCHMARKS.md, "walkers").
pub const DEFAULT_ROUTE_BUDGET: u32 = 1_024;

/// Searches under way side by side (a fixed number, so that which
/// searches run, and with them the results, do not depend on the thread
/// count).
pub(crate) const SLOTS: usize = 4;

/// Largest number of waypoints one A* search may expand.
pub(crate) const MAX_SEARCH_NODES: u32 = 65_536;

/// Graphs from this many waypoints on get their search memory when the
/// world gets the graph: on smaller ones growing it in the first tick
/// costs microseconds, on a 90,000-waypoint map fresh pages cost
/// milliseconds.
const PREPARE_FROM: usize = 2_000;

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

/// A cheapest route, start first, and its cost.
pub(crate) type Route = (Vec<WaypointId>, f32);

/// A search under way in a slot, kept from tick to tick until it is done,
/// so that no tick spends more than its budget on one long search.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Flight {
    /// The request it serves.
    pub(crate) request: RouteRequest,
    /// Where the walker was heading when the search began: the onward
    /// search starts there.
    pub(crate) onward: WaypointId,
    /// For a re-plan mid-link, the waypoint the walker came from: searched
    /// from after the onward search.
    pub(crate) back: Option<WaypointId>,
    /// The onward search's result once it is done (`Some(None)`: no route).
    pub(crate) onward_found: Option<Option<Route>>,
    /// The back search's result once it is done (`None` while `back` is
    /// to be searched or under way).
    pub(crate) back_found: Option<Option<Route>>,
    /// Waypoints expanded so far, both searches.
    pub(crate) expanded: u64,
}

/// One slot: an A* query and the search under way in it.
#[derive(Debug)]
pub(crate) struct Slot {
    /// The search's memory (and, while a flight is under way, its state).
    pub(crate) query: NavQuery,
    /// The search under way, if any.
    pub(crate) flight: Option<Flight>,
}

impl Slot {
    fn empty() -> Self {
        Self {
            query: NavQuery::new(MAX_SEARCH_NODES),
            flight: None,
        }
    }
}

impl Clone for Slot {
    /// A slot with a search under way copies its query (the search's
    /// state); an idle one only needs memory, which the clone grows when
    /// it searches.
    fn clone(&self) -> Self {
        match &self.flight {
            Some(flight) => Self {
                query: self.query.clone(),
                flight: Some(flight.clone()),
            },
            None => Self::empty(),
        }
    }
}

/// The queue's searches: a slot per search under way, and memory for the
/// next shared field.
#[derive(Debug, Default)]
pub(crate) struct Searches {
    /// [`SLOTS`] slots once the queue has searched or been prepared.
    pub(crate) slots: Vec<Slot>,
    /// Memory for the next shared field (one that was dropped, or one
    /// made ready with the graph). Not part of the state.
    pub(crate) spare_field: Option<DistanceField>,
}

impl Clone for Searches {
    fn clone(&self) -> Self {
        Self {
            slots: self.slots.clone(),
            spare_field: None,
        }
    }
}

impl Searches {
    /// Gives the queue its [`SLOTS`] slots.
    pub(crate) fn ensure_slots(&mut self) {
        self.slots.resize_with(SLOTS, Slot::empty);
    }

    /// The slots, with their memory grown to `nav` when it is big.
    fn prepare(&mut self, nav: &NavGraph) {
        self.ensure_slots();
        if nav.waypoint_count() < PREPARE_FROM {
            return;
        }
        for slot in &mut self.slots {
            slot.query.reserve(nav);
        }
        self.spare_field
            .get_or_insert_with(DistanceField::new)
            .reserve(nav);
    }

    /// Keeps a dropped field's memory for the next one, if it is not
    /// shared with a clone of the world.
    pub(crate) fn recycle(&mut self, field: SharedField) {
        if self.spare_field.is_none() {
            self.spare_field = Arc::try_unwrap(field.field).ok();
        }
    }

    /// The searches under way, in slot order.
    pub(crate) fn flights(&self) -> impl Iterator<Item = &Flight> {
        self.slots.iter().filter_map(|s| s.flight.as_ref())
    }
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

/// Walkers' route requests, the searches under way and the fields kept
/// for shared goals.
#[derive(Clone, Debug, Default)]
pub(crate) struct RouteQueue {
    /// Waypoints the searches of one tick may expand; `None`: every
    /// request is served in the tick it is made.
    pub(crate) budget: Option<u32>,
    /// Waiting requests, oldest first, then by agent slot (those being
    /// searched for included).
    pub(crate) requests: Vec<RouteRequest>,
    /// Finished fields for shared goals, kept while the graph stands.
    pub(crate) fields: Vec<SharedField>,
    /// The field being filled, if any.
    pub(crate) filling: Option<SharedField>,
    /// The searches under way.
    pub(crate) searches: Searches,
}

impl RouteQueue {
    /// A queue with the default budget.
    pub(crate) fn new() -> Self {
        Self {
            budget: Some(DEFAULT_ROUTE_BUDGET),
            ..Self::default()
        }
    }

    /// Adds a request, or updates the agent's waiting one (it keeps its
    /// place in the queue). `waiting`: whether the agent was waiting
    /// already (only then can it have a request to update: the navigate
    /// stage drops the requests of walkers that stopped waiting), which
    /// spares a thousand walkers asking in one tick a search of the queue
    /// each.
    pub(crate) fn ask(&mut self, request: RouteRequest, waiting: bool) {
        if !waiting {
            self.requests.push(request);
            return;
        }
        match self.requests.iter_mut().find(|r| r.agent == request.agent) {
            Some(waiting) => {
                waiting.key = request.key;
                waiting.replan |= request.replan;
            }
            None => self.requests.push(request),
        }
    }

    /// Forgets every field and every search under way: the graph changed
    /// (the requests stay and are searched anew).
    pub(crate) fn graph_changed(&mut self) {
        for field in self.fields.drain(..).chain(self.filling.take()) {
            self.searches.recycle(field);
        }
        for slot in &mut self.searches.slots {
            slot.flight = None;
        }
    }

    /// Makes the search memory ready for `nav`, the world's new graph.
    pub(crate) fn prepare(&mut self, nav: &NavGraph) {
        self.searches.prepare(nav);
    }
}
