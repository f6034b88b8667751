//! [`DistanceField`]: Dijkstra from one goal over reversed links.

use crate::frozen::NONE;
use crate::heap::MinHeap4;
use crate::query::{heap_key, heap_unkey};
use crate::{NavError, NavGraph, PathFilter, WaypointId};

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
}

impl DistanceField {
    /// An empty field; fill it with [`NavGraph::distance_field`].
    pub fn new() -> Self {
        Self::default()
    }

    /// The goal of the last fill.
    pub fn goal(&self) -> Option<WaypointId> {
        self.goal
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

impl NavGraph {
    /// Fills `field` with the cheapest cost from every waypoint to `goal`
    /// under `filter` (inactive and excluded waypoints and links longer than
    /// `max_distance` are not used). Follows links backwards, so the costs are
    /// those of walking *towards* the goal. O((n + m) log n).
    pub fn distance_field(
        &self,
        goal: WaypointId,
        filter: &PathFilter<'_>,
        field: &mut DistanceField,
    ) -> Result<(), NavError> {
        let g = self.dense(goal).ok_or(NavError::UnknownWaypoint(goal))?;
        if !self.has_cost_list(filter.cost_list) {
            return Err(NavError::UnknownCostList(filter.cost_list));
        }
        let n = self.ids.len();
        field.graph_key = self.key;
        field.goal = Some(goal);
        field.cost.clear();
        field.cost.resize(n, f32::INFINITY);
        field.next.clear();
        field.next.resize(n, NONE);
        field.excluded.clear();
        field.excluded.extend_from_slice(&self.active);
        for v in &mut field.excluded {
            *v = !*v;
        }
        for id in filter.exclude {
            if let Some(d) = self.dense(*id) {
                field.excluded[d as usize] = true;
            }
        }
        field.heap.clear();
        if field.excluded[g as usize] {
            return Ok(());
        }
        let base = filter.cost_list.index() * self.targets.len();
        let max_len = filter.max_distance.unwrap_or(f32::INFINITY);
        field.cost[g as usize] = 0.0;
        field.heap.push(heap_key(0.0, g));
        while let Some(top) = field.heap.pop() {
            let (f_bits, v) = heap_unkey(top);
            let g_v = f32::from_bits(f_bits);
            if g_v > field.cost[v as usize] {
                continue;
            }
            let lo = self.rev_first[v as usize] as usize;
            let hi = self.rev_first[v as usize + 1] as usize;
            for &(u, e) in &self.rev[lo..hi] {
                if field.excluded[u as usize] || self.lengths[e as usize] > max_len {
                    continue;
                }
                let nd = g_v + self.weighted[base + e as usize].1;
                if nd < field.cost[u as usize] {
                    field.cost[u as usize] = nd;
                    field.next[u as usize] = v;
                    field.heap.push(heap_key(nd, u));
                }
            }
        }
        Ok(())
    }
}
