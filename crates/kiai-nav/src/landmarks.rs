//! Landmark lower bounds for A* (ALT: A*, landmarks, triangle inequality;
//! Goldberg & Harrelson 2005).
//!
//! A few waypoints far apart are picked as *landmarks*; for each, the
//! cheapest cost from it to every waypoint and from every waypoint to it is
//! stored, per cost list. For any waypoint `v` and goal `t`, the triangle
//! inequality gives two lower bounds on the cost `v -> t`:
//! `d(L, t) - d(L, v)` and `d(v, L) - d(t, L)`. A* takes the largest over a
//! few landmarks chosen per search (those that bound the start best),
//! together with the straight-line bound. On maps where costs vary
//! (swamps, roads) this bound is far tighter than straight-line distance x
//! the smallest multiplier, so A* expands a small fraction of the
//! waypoints it would otherwise.
//!
//! The tables are computed on the graph *with every link open and every
//! waypoint active*, under each list's own multipliers. Everything that can
//! change at run time — blocked links, waypoints switched off, clearance,
//! a filter's exclusions and length limit — only removes links, which can
//! only make true costs higher: the bounds stay lower bounds, and A* with
//! them still returns a cheapest route.

use std::sync::Arc;

use rayon::prelude::*;

use crate::alt::{Landmarks, Table};
use crate::frozen::NavGraph;
use crate::graph::WaypointGraph;
use crate::heap::{MinHeap4, heap_key, heap_unkey};

/// Landmarks a graph gets from [`WaypointGraph::freeze`](crate::WaypointGraph::freeze)
/// when it has at least [`LANDMARKS_FROM`] waypoints.
pub const DEFAULT_LANDMARKS: usize = 8;

/// The smallest graph (waypoints) that [`WaypointGraph::freeze`](crate::WaypointGraph::freeze)
/// gives landmarks. Below it a search costs microseconds and the tables
/// would cost more to build than they save.
pub const LANDMARKS_FROM: usize = 2_000;

impl WaypointGraph {
    /// Builds the compact [`NavGraph`] used by path searches: O(n + m log
    /// m), and for graphs of [`LANDMARKS_FROM`] waypoints or more
    /// [`DEFAULT_LANDMARKS`] landmarks for A* (see
    /// [`freeze_with_landmarks`](Self::freeze_with_landmarks)).
    pub fn freeze(&self) -> NavGraph {
        let landmarks = if self.waypoint_count() >= LANDMARKS_FROM {
            DEFAULT_LANDMARKS
        } else {
            0
        };
        self.freeze_with_landmarks(landmarks)
    }

    /// [`freeze`](Self::freeze) with `count` landmarks (0: none). A* then
    /// bounds the cost to its goal by the triangle inequality over the
    /// landmarks (ALT) as well as by straight-line distance, and expands far
    /// fewer waypoints where costs vary; its routes cost the same. The
    /// tables take `count x 2 x 4` bytes per waypoint and live cost list
    /// and `count x 2` Dijkstra searches per list to build (in parallel):
    /// on 100,000 waypoints and 8 landmarks, 6.4 MB and about 0.2 s per
    /// list on two cores.
    pub fn freeze_with_landmarks(&self, count: usize) -> NavGraph {
        let mut nav = self.freeze_plain();
        nav.landmarks = build(&nav, count);
        nav
    }
}

/// Picks `count` landmarks of `nav` far apart and fills the tables of
/// every live cost list. O(count x (n + m) log n) work, the tables
/// filled in parallel.
pub(crate) fn build(nav: &NavGraph, count: usize) -> Option<Arc<Landmarks>> {
    let n = nav.ids.len();
    let first = nav.list_live.iter().position(|&l| l)?;
    if n == 0 || count == 0 {
        return None;
    }
    let (nodes, mut forward_first) = select(nav, first, count);
    if nodes.is_empty() {
        return None;
    }
    let k = nodes.len();
    let mut jobs: Vec<(usize, usize, Direction)> = Vec::new();
    for (list, &live) in nav.list_live.iter().enumerate() {
        if !live {
            continue;
        }
        for l in 0..k {
            if list != first {
                jobs.push((list, l, Direction::Forward));
            }
            jobs.push((list, l, Direction::Backward));
        }
    }
    let mut done: Vec<Vec<f32>> = jobs
        .par_iter()
        .map(|&(list, l, dir)| dijkstra(nav, list, nodes[l], dir))
        .collect();
    let mut tables: Vec<Option<Table>> = (0..nav.list_live.len()).map(|_| None).collect();
    let mut forward_first = forward_first.drain(..);
    let mut done_iter = done.drain(..);
    for (list, &live) in nav.list_live.iter().enumerate() {
        if !live {
            continue;
        }
        let mut storage = Table::zeros(n * 2 * k);
        let table = storage.values_mut();
        for l in 0..k {
            let fwd = if list == first {
                forward_first.next()?
            } else {
                done_iter.next()?
            };
            let bwd = done_iter.next()?;
            for v in 0..n {
                table[v * 2 * k + l] = fwd[v];
                table[v * 2 * k + k + l] = bwd[v];
            }
        }
        tables[list] = Some(storage);
    }
    Some(Arc::new(Landmarks { nodes, tables }))
}

/// Picks up to `count` landmarks, with their forward cost tables under
/// list slot `first`. Each connected part of the graph gets landmarks in
/// proportion to its size (parts too small for one get none: searches
/// there are short anyway, and landmarks elsewhere tell that their goals
/// are out of reach); within a part, farthest-point selection: each new
/// landmark is the waypoint farthest from those picked so far.
fn select(nav: &NavGraph, first: usize, count: usize) -> (Vec<u32>, Vec<Vec<f32>>) {
    let part = parts(nav);
    let mut sizes: std::collections::BTreeMap<u32, usize> = Default::default();
    for (v, &p) in part.iter().enumerate() {
        if is_linked(nav, v) {
            *sizes.entry(p).or_default() += 1;
        }
    }
    let linked: usize = sizes.values().sum();
    // Largest first; ties by the part's smallest waypoint (its root).
    let mut order: Vec<(usize, u32)> = sizes.iter().map(|(&p, &s)| (s, p)).collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut nodes = Vec::new();
    let mut tables = Vec::new();
    let mut nearest = vec![f32::INFINITY; nav.ids.len()];
    for (rank, &(size, p)) in order.iter().enumerate() {
        let quota = if rank == 0 {
            (count * size).div_ceil(linked.max(1)).max(1)
        } else {
            count * size / linked.max(1)
        }
        .min(count - nodes.len());
        if quota == 0 {
            break;
        }
        // The part's first waypoint (its name) only seeds the search for
        // the waypoint farthest from it.
        let seed = dijkstra(nav, first, p, Direction::Forward);
        let mut next = farthest(nav, &part, p, &seed).or(Some(p));
        for _ in 0..quota {
            let Some(source) = next else { break };
            let d = dijkstra(nav, first, source, Direction::Forward);
            for (near, &x) in nearest.iter_mut().zip(&d) {
                *near = near.min(x);
            }
            nodes.push(source);
            tables.push(d);
            next = farthest(nav, &part, p, &nearest).filter(|v| !nodes.contains(v));
        }
        if nodes.len() >= count {
            break;
        }
    }
    (nodes, tables)
}

/// Whether dense waypoint `v` has a link in or out.
fn is_linked(nav: &NavGraph, v: usize) -> bool {
    nav.first_out[v + 1] > nav.first_out[v] || nav.rev_first[v + 1] > nav.rev_first[v]
}

/// Each waypoint's connected part (links taken both ways), named by its
/// smallest waypoint.
fn parts(nav: &NavGraph) -> Vec<u32> {
    let n = nav.ids.len();
    let mut root: Vec<u32> = (0..n as u32).collect();
    fn find(root: &mut [u32], mut v: u32) -> u32 {
        while root[v as usize] != v {
            root[v as usize] = root[root[v as usize] as usize];
            v = root[v as usize];
        }
        v
    }
    for v in 0..n {
        for e in nav.first_out[v] as usize..nav.first_out[v + 1] as usize {
            let (a, b) = (find(&mut root, v as u32), find(&mut root, nav.targets[e]));
            // The smaller waypoint names the part.
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            root[hi as usize] = lo;
        }
    }
    (0..n as u32).map(|v| find(&mut root, v)).collect()
}

/// The linked waypoint of part `p` with the largest `score` above 0
/// (infinity, not reached at all, first); ties to the smallest index.
/// `None` when each scores 0 (each is a landmark already).
fn farthest(nav: &NavGraph, part: &[u32], p: u32, score: &[f32]) -> Option<u32> {
    let mut best: Option<(f32, u32)> = None;
    for (v, &s) in score.iter().enumerate() {
        if part[v] == p && is_linked(nav, v) && s > 0.0 && best.is_none_or(|(b, _)| s > b) {
            best = Some((s, v as u32));
        }
    }
    best.map(|(_, v)| v)
}

/// Which way a table's Dijkstra follows links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    /// Costs from the source to every waypoint.
    Forward,
    /// Costs from every waypoint to the source (links followed backwards).
    Backward,
}

/// Cheapest costs from (or to) dense waypoint `source` under cost list
/// slot `list`, with every link open and every waypoint active.
fn dijkstra(nav: &NavGraph, list: usize, source: u32, dir: Direction) -> Vec<f32> {
    let n = nav.ids.len();
    let m = nav.targets.len();
    let multipliers = &nav.multipliers[list * m..(list + 1) * m];
    let mut cost = vec![f32::INFINITY; n];
    let mut heap = MinHeap4::default();
    cost[source as usize] = 0.0;
    heap.push(heap_key(0.0, source));
    while let Some(top) = heap.pop() {
        let (bits, v) = heap_unkey(top);
        let c = f32::from_bits(bits);
        if c > cost[v as usize] {
            continue;
        }
        let mut relax = |u: u32, e: usize| {
            let nc = c + nav.lengths[e] * multipliers[e];
            if nc < cost[u as usize] {
                cost[u as usize] = nc;
                heap.push(heap_key(nc, u));
            }
        };
        match dir {
            Direction::Forward => {
                let (lo, hi) = (
                    nav.first_out[v as usize] as usize,
                    nav.first_out[v as usize + 1] as usize,
                );
                for e in lo..hi {
                    relax(nav.targets[e], e);
                }
            }
            Direction::Backward => {
                let (lo, hi) = (
                    nav.rev_first[v as usize] as usize,
                    nav.rev_first[v as usize + 1] as usize,
                );
                for &(u, e) in &nav.rev[lo..hi] {
                    relax(u, e as usize);
                }
            }
        }
    }
    cost
}

#[cfg(test)]
mod tests {
    use crate::{CostListId, DistanceField, PathFilter, WaypointGraph};
    use glam::Vec3;

    #[test]
    fn tables_hold_the_costs_to_and_from_every_landmark_in_every_list() {
        let mut g = WaypointGraph::new();
        let lists: Vec<CostListId> = (0..4)
            .filter_map(|i| g.add_cost_list(&format!("l{i}"), 1.0).ok())
            .collect();
        let ids: Vec<_> = (0..30)
            .filter_map(|k| {
                g.add_waypoint(Vec3::new((k % 6) as f32 * 3.0, 0.0, (k / 6) as f32 * 3.0))
                    .ok()
            })
            .collect();
        let mut x = 1u32;
        for &a in &ids {
            for &b in &ids {
                if a != b
                    && g.waypoint(a)
                        .map(|w| w.pos())
                        .unwrap_or_default()
                        .distance(g.waypoint(b).map(|w| w.pos()).unwrap_or_default())
                        < 4.5
                    && let Ok(l) = g.add_link(a, b)
                {
                    for &c in &lists {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        let _ = g.set_link_cost(l, c, 0.5 + (x >> 16) as f32 / 65536.0 * 2.5);
                    }
                }
            }
        }
        let nav = g.freeze_with_landmarks(3);
        let lm = nav.landmarks.clone();
        let Some(lm) = lm else {
            unreachable!("a linked graph gets landmarks");
        };
        let k = lm.count();
        for &list in &lists {
            let table = lm.table(list.index());
            for (l, &node) in lm.nodes.iter().enumerate() {
                let mut field = DistanceField::new();
                let goal = nav.ids[node as usize];
                nav.distance_field(goal, &PathFilter::new(list), &mut field)
                    .ok();
                for v in 0..nav.ids.len() {
                    let to_l = field
                        .cost_to_goal(&nav, nav.ids[v])
                        .unwrap_or(f32::INFINITY);
                    let got = table[v * 2 * k + k + l];
                    assert!(
                        (to_l - got).abs() < 1e-3,
                        "list {list:?} lm {l} v {v}: {to_l} vs {got}"
                    );
                }
            }
        }
    }
}
