//! [`DistanceField`]: Dijkstra from one goal over reversed links.

use crate::frozen::NONE;
use crate::heap::{MinHeap4, heap_key, heap_unkey};
use crate::{NavError, NavGraph, PathFilter, SliceStatus, WaypointId};

/// Cost-to-goal for every waypoint, for many agents heading to one
/// destination: one Dijkstra search over reversed links instead of one A*
/// per agent. Reusable: [`NavGraph::distance_field`] refills it without
/// allocating once it has grown to the graph's size.
#[derive(Clone, Debug, Default)]
pub struct DistanceField {
    graph_key: u64,
    goal: Option<WaypointId>,
    cost: Vec<f32>,
    next: Vec<u32>,
    excluded: Vec<bool>,
    heap: MinHeap4,
    /// The filter of the fill under way: its list's first link cost,
    /// length limit and clearance.
    list_base: usize,
    max_len: f32,
    min_clearance: f32,
    /// Waypoints settled since `begin`.
    settled: u64,
}

impl DistanceField {
    /// An empty field; fill it with [`NavGraph::distance_field`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Grows the field's memory to `nav`'s size now (about 9 bytes per
    /// waypoint besides the open list), so that filling it on `nav`
    /// allocates nothing: call it at load time, not in a frame.
    pub fn reserve(&mut self, nav: &NavGraph) {
        let n = nav.ids.len();
        self.cost.reserve(n.saturating_sub(self.cost.len()));
        self.next.reserve(n.saturating_sub(self.next.len()));
        self.excluded.reserve(n.saturating_sub(self.excluded.len()));
        // Touch the memory, so that the first fill does not pay for the
        // pages either.
        self.cost.resize(n, f32::INFINITY);
        self.next.resize(n, NONE);
        self.excluded.resize(n, false);
        self.heap.reserve(n / 8);
    }

    /// The goal of the last fill.
    pub fn goal(&self) -> Option<WaypointId> {
        self.goal
    }

    /// Waypoints settled (given their final cost) since the last
    /// [`begin`](Self::begin): the work done so far.
    pub fn settled(&self) -> u64 {
        self.settled
    }

    /// Cheapest cost from `id` to the goal (link length x multiplier summed,
    /// at least 0), or `None` if the goal is unreachable from `id`, `id` is unusable,
    /// or `nav` is not the graph the field was filled on.
    pub fn cost_to_goal(&self, nav: &NavGraph, id: WaypointId) -> Option<f32> {
        if nav.key != self.graph_key {
            return None;
        }
        let c = self.cost[nav.dense(id)? as usize];
        c.is_finite().then_some(c)
    }

    /// The next waypoint on a cheapest path from `id` to the goal; `None` at
    /// the goal itself or when unreachable.
    pub fn next_hop(&self, nav: &NavGraph, id: WaypointId) -> Option<WaypointId> {
        if nav.key != self.graph_key {
            return None;
        }
        let n = self.next[nav.dense(id)? as usize];
        (n != NONE).then(|| nav.ids[n as usize])
    }
}

impl DistanceField {
    /// Starts filling the field with the cheapest cost from every waypoint
    /// to `goal` under `filter`, a slice at a time: call
    /// [`update`](Self::update) until it is done. Inactive and excluded
    /// waypoints, links longer than `max_distance` and links narrower than
    /// `min_clearance` are not used.
    pub fn begin(
        &mut self,
        nav: &NavGraph,
        goal: WaypointId,
        filter: &PathFilter<'_>,
    ) -> Result<(), NavError> {
        let g = nav.dense(goal).ok_or(NavError::UnknownWaypoint(goal))?;
        if !nav.has_cost_list(filter.cost_list) {
            return Err(NavError::UnknownCostList(filter.cost_list));
        }
        let n = nav.ids.len();
        self.graph_key = nav.key;
        self.goal = Some(goal);
        self.cost.clear();
        self.cost.resize(n, f32::INFINITY);
        self.next.clear();
        self.next.resize(n, NONE);
        self.excluded.clear();
        self.excluded.extend(nav.active.iter().map(|a| !a));
        for id in filter.exclude {
            if let Some(d) = nav.dense(*id) {
                self.excluded[d as usize] = true;
            }
        }
        self.heap.clear();
        self.list_base = filter.cost_list.index() * nav.targets.len();
        self.max_len = filter.max_distance.unwrap_or(f32::INFINITY);
        self.min_clearance = filter.min_clearance;
        self.settled = 0;
        if !self.excluded[g as usize] {
            self.cost[g as usize] = 0.0;
            self.heap.push(heap_key(0.0, g));
        }
        Ok(())
    }

    /// Settles at most `max_iterations` waypoints (>= 1 to make progress);
    /// `Done` when every waypoint that can reach the goal has its cost.
    pub fn update(&mut self, nav: &NavGraph, max_iterations: u32) -> Result<SliceStatus, NavError> {
        if self.goal.is_none() || nav.key != self.graph_key {
            return Err(NavError::NoSearch);
        }
        let mut settled = 0;
        while settled < max_iterations {
            let Some(top) = self.heap.pop() else {
                return Ok(SliceStatus::Done);
            };
            let (f_bits, v) = heap_unkey(top);
            let g_v = f32::from_bits(f_bits);
            if g_v > self.cost[v as usize] {
                continue;
            }
            settled += 1;
            self.settled += 1;
            let lo = nav.rev_first[v as usize] as usize;
            let hi = nav.rev_first[v as usize + 1] as usize;
            for &(u, e) in &nav.rev[lo..hi] {
                let e = e as usize;
                if self.excluded[u as usize]
                    || nav.lengths[e] > self.max_len
                    || nav.clearance[e] < self.min_clearance
                {
                    continue;
                }
                let nd = g_v + nav.weighted[self.list_base + e].1;
                if nd < self.cost[u as usize] {
                    self.cost[u as usize] = nd;
                    self.next[u as usize] = v;
                    self.heap.push(heap_key(nd, u));
                }
            }
        }
        Ok(if self.heap.is_empty() {
            SliceStatus::Done
        } else {
            SliceStatus::InProgress
        })
    }
}

impl NavGraph {
    /// Fills `field` with the cheapest cost from every waypoint to `goal`
    /// under `filter` (inactive and excluded waypoints, links longer than
    /// `max_distance` and links narrower than `min_clearance` are not
    /// used). Follows links backwards, so the costs are those of walking
    /// *towards* the goal. O((n + m) log n). The same as
    /// [`DistanceField::begin`] and [`DistanceField::update`] until done.
    pub fn distance_field(
        &self,
        goal: WaypointId,
        filter: &PathFilter<'_>,
        field: &mut DistanceField,
    ) -> Result<(), NavError> {
        field.begin(self, goal, filter)?;
        while field.update(self, u32::MAX)? == SliceStatus::InProgress {}
        Ok(())
    }
}
