//! A* with a reusable [`NavQuery`] (Detour's design), time-sliced search.

use glam::Vec3;

use crate::alt::AltGoal;
use crate::frozen::NONE;
use crate::heap::{IndexedHeap4, alt_key, open_key};
use crate::{CostListId, NavError, NavGraph, WaypointId};

/// What a search may use: which cost list prices the links, which waypoints
/// are off limits, how long a single link may be. Passed into every query
/// (Detour's `dtQueryFilter`), never stored in the graph.
///
/// Inactive waypoints are always skipped.
#[derive(Clone, Copy, Debug)]
pub struct PathFilter<'a> {
    /// The cost list pricing each link: cost = link length x multiplier.
    pub cost_list: CostListId,
    /// Waypoints the path must not enter (ids not in the graph are ignored).
    pub exclude: &'a [WaypointId],
    /// Links longer than this (world units, > 0) are not used; `None` = no limit.
    pub max_distance: Option<f32>,
    /// Links whose clearance ([`NavGraph::set_clearances`]) is below this
    /// (world units, a unit's radius; 0 = any) are not used.
    pub min_clearance: f32,
}

impl<'a> PathFilter<'a> {
    /// A filter that only picks the cost list.
    pub fn new(cost_list: CostListId) -> Self {
        Self {
            cost_list,
            exclude: &[],
            max_distance: None,
            min_clearance: 0.0,
        }
    }
}

/// Why a search ended without reaching the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartialReason {
    /// Every reachable waypoint was searched; the goal is not among them
    /// (disconnected, inactive, excluded).
    Unreachable,
    /// The query's `max_nodes` limit stopped the search.
    OutOfNodes,
}

/// Whether the path in [`NavQuery::path`] ends at the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathStatus {
    /// The path ends at the goal and is a cheapest one (unless `hit_node_limit`).
    Complete,
    /// The path ends at the searched waypoint closest (straight line) to the goal.
    Partial {
        /// Why the goal was not reached.
        reason: PartialReason,
    },
}

/// Summary of a finished search; the waypoints are in [`NavQuery::path`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathResult {
    /// Complete or partial.
    pub status: PathStatus,
    /// Sum of link length x multiplier along the path (world units x multiplier), >= 0.
    pub cost: f32,
    /// The `max_nodes` limit prevented visiting some waypoint; a complete path
    /// may then not be the cheapest.
    pub hit_node_limit: bool,
    /// Waypoints expanded (popped from the open list), for profiling.
    pub expanded: u32,
}

impl PathResult {
    /// True if the path reaches the goal.
    pub fn is_complete(&self) -> bool {
        self.status == PathStatus::Complete
    }
}

/// Progress of a time-sliced search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceStatus {
    /// Call [`NavQuery::update`] again.
    InProgress,
    /// Call [`NavQuery::finish`].
    Done,
}

const OPEN: u32 = 1;
const CLOSED: u32 = 2;
const EXCLUDED: u32 = 4;
const FLAG_BITS: u32 = 3;
const FLAG_MASK: u32 = (1 << FLAG_BITS) - 1;
/// Generations live in the upper 29 bits of `Slot::stamp`.
const MAX_GENERATION: u32 = u32::MAX >> FLAG_BITS;

/// One node-pool entry (16 bytes). `stamp` = generation << 3 | flags; a slot
/// whose generation is not the query's current one is "untouched".
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    stamp: u32,
    parent: u32,
    g: f32,
    h: f32,
}

#[derive(Clone, Copy, Debug)]
struct Search {
    graph_key: u64,
    start: u32,
    goal: u32,
    goal_pos: Vec3,
    /// The cost list's slot.
    list: usize,
    list_base: usize,
    h_scale: f32,
    max_len: f32,
    /// Links narrower than this are skipped (world units).
    min_clearance: f32,
    /// The landmarks bounding this search, if the graph has them.
    alt: Option<AltGoal>,
    touched: u32,
    expanded: u32,
    best: u32,
    best_d2: f32,
    best_g: f32,
    hit_node_limit: bool,
    found: bool,
    done: bool,
}

impl Search {
    /// Keeps waypoint `d` (cost `g`, heuristic `h_d`) if it is the closest
    /// to the goal so far (for partial paths): smallest h, i.e.
    /// straight-line distance (h_scale > 0), else compare distances.
    #[inline(always)]
    fn note_closest<const ALT: bool>(&mut self, nav: &NavGraph, d: u32, g: f32, h_d: f32) {
        let d2 = if self.h_scale > 0.0 && !ALT {
            h_d
        } else {
            nav.pos[d as usize].distance_squared(self.goal_pos)
        };
        if d2 < self.best_d2 || (d2 == self.best_d2 && g < self.best_g) {
            self.best = d;
            self.best_d2 = d2;
            self.best_g = g;
        }
    }

    /// The heuristic of waypoint `t`: the straight-line bound, raised to
    /// the landmarks' (`table`, `k` of them) with `ALT`.
    #[inline(always)]
    fn heuristic<const ALT: bool>(
        &self,
        nav: &NavGraph,
        alt: &AltGoal,
        table: &[f32],
        k: usize,
        t: u32,
    ) -> f32 {
        let mut h = nav.pos[t as usize].distance(self.goal_pos) * self.h_scale;
        if ALT {
            // Infinity where the goal cannot be reached from `t` even with
            // every link open (one-way links): such a waypoint keeps the
            // straight-line bound, so that the open list stays ordered by
            // cost.
            let bound = alt.h(table, k, t);
            if bound.is_finite() {
                h = h.max(bound);
            }
        }
        h
    }
}

/// Reusable scratch memory for A* searches on a [`NavGraph`].
///
/// Owns a node pool indexed by dense waypoint index with generation stamps
/// (starting a search is O(1), not O(n)), a 4-ary open-list heap with decrease-key
/// (one entry per open waypoint, no stale entries) and the path buffer.
/// After the first searches have grown them, a search allocates nothing. Keep
/// one per thread or per agent group; it can be dropped and recreated at any
/// time.
#[derive(Clone, Debug)]
pub struct NavQuery {
    max_nodes: u32,
    generation: u32,
    pool: Vec<Slot>,
    /// Heap index of each queued (`OPEN`) waypoint; other entries are stale.
    heap_at: Vec<u32>,
    heap: IndexedHeap4,
    path: Vec<WaypointId>,
    search: Option<Search>,
}

impl Default for NavQuery {
    fn default() -> Self {
        Self::new(u32::MAX)
    }
}

impl NavQuery {
    /// A query that visits at most `max_nodes` waypoints per search (>= 1;
    /// `u32::MAX` = unlimited). Hitting the limit yields a partial path.
    pub fn new(max_nodes: u32) -> Self {
        Self {
            max_nodes: max_nodes.max(1),
            generation: 0,
            pool: Vec::new(),
            heap_at: Vec::new(),
            heap: IndexedHeap4::default(),
            path: Vec::new(),
            search: None,
        }
    }

    /// Grows this query's memory to `nav`'s size now (about 20 bytes per
    /// waypoint), so that its first search on `nav` allocates nothing:
    /// call it at load time, not in a frame.
    pub fn reserve(&mut self, nav: &NavGraph) {
        let n = nav.ids.len();
        if self.pool.len() < n {
            self.pool.resize(n, Slot::default());
        }
        if self.heap_at.len() < n {
            self.heap_at.resize(n, 0);
        }
        // Open lists stay far smaller than the graph; room for the common
        // ones, the pages touched only as they are used.
        self.heap
            .reserve(n.min(self.max_nodes as usize).min(1 << 14));
    }

    /// Waypoints the search under way has expanded so far (0 when none
    /// is): the work of a time-sliced search, to budget it by.
    pub fn expanded(&self) -> u32 {
        self.search.map_or(0, |s| s.expanded)
    }

    /// The node limit per search.
    pub fn max_nodes(&self) -> u32 {
        self.max_nodes
    }

    /// The waypoints of the last finished search, start first. Empty before
    /// the first search or after an error.
    pub fn path(&self) -> &[WaypointId] {
        &self.path
    }

    #[inline]
    fn slot(&mut self, d: u32) -> &mut Slot {
        let stamp = self.generation << FLAG_BITS;
        let s = &mut self.pool[d as usize];
        if s.stamp & !FLAG_MASK != stamp {
            *s = Slot {
                stamp,
                parent: NONE,
                g: f32::INFINITY,
                h: 0.0,
            };
        }
        s
    }

    /// Starts a time-sliced search from `from` to `to`. Errors if either does
    /// not exist, the cost list does not exist, or `from` is inactive/excluded.
    pub fn begin(
        &mut self,
        nav: &NavGraph,
        from: WaypointId,
        to: WaypointId,
        filter: &PathFilter<'_>,
    ) -> Result<(), NavError> {
        self.search = None;
        self.path.clear();
        let start = nav.dense(from).ok_or(NavError::UnknownWaypoint(from))?;
        let goal = nav.dense(to).ok_or(NavError::UnknownWaypoint(to))?;
        if !nav.has_cost_list(filter.cost_list) {
            return Err(NavError::UnknownCostList(filter.cost_list));
        }
        if !nav.active[start as usize] || filter.exclude.contains(&from) {
            return Err(NavError::StartNotUsable(from));
        }
        self.reserve(nav);
        self.generation += 1;
        if self.generation > MAX_GENERATION {
            // Wrapped: stale stamps could collide, so clear once every 2^29 searches.
            self.pool.fill(Slot::default());
            self.generation = 1;
        }
        self.heap.clear();
        for id in filter.exclude {
            if let Some(d) = nav.dense(*id) {
                let slot = self.slot(d);
                slot.stamp |= EXCLUDED;
                // No path improves on -infinity, so A* never enters it.
                slot.g = f32::NEG_INFINITY;
            }
        }
        let list = filter.cost_list.index();
        let goal_pos = nav.pos[goal as usize];
        let h_scale = nav.min_multiplier[list];
        let start_pos = nav.pos[start as usize];
        let straight = start_pos.distance(goal_pos) * h_scale;
        // Landmarks that find the goal out of reach even with every link
        // open are no help: such a search must visit everything it can
        // reach (for the partial path), in straight-line order.
        let (alt, h) = match &nav.landmarks {
            Some(l) => match l.goal(list, start, goal) {
                Some(a) => match a.h(l.table(list), l.count(), start) {
                    b if b.is_finite() => (Some(a), straight.max(b)),
                    _ => (None, straight),
                },
                None => (None, straight),
            },
            None => (None, straight),
        };
        let s = self.slot(start);
        s.g = 0.0;
        s.h = h;
        s.stamp |= OPEN;
        let key = match alt {
            Some(_) => alt_key(0.0, h, start),
            None => open_key(h, start),
        };
        self.heap.push(key, &mut self.heap_at);
        self.search = Some(Search {
            graph_key: nav.key,
            start,
            goal,
            goal_pos,
            list,
            list_base: list * nav.targets.len(),
            h_scale,
            max_len: filter.max_distance.unwrap_or(f32::INFINITY),
            min_clearance: filter.min_clearance,
            alt,
            touched: 1,
            expanded: 0,
            best: start,
            // Partial paths end nearest the goal in a straight line: with
            // landmarks `h` is no longer proportional to that distance.
            best_d2: if h_scale > 0.0 && alt.is_none() {
                straight
            } else {
                start_pos.distance_squared(goal_pos)
            },
            best_g: 0.0,
            hit_node_limit: false,
            found: false,
            done: false,
        });
        Ok(())
    }

    /// Expands at most `max_iterations` waypoints (>= 1 to make progress).
    pub fn update(&mut self, nav: &NavGraph, max_iterations: u32) -> Result<SliceStatus, NavError> {
        let mut s = match self.search {
            Some(s) if s.graph_key == nav.key => s,
            _ => return Err(NavError::NoSearch),
        };
        // Four copies of the loop, so the common ones test neither lengths
        // nor landmarks.
        // Limits that no link of the graph reaches need no test per link.
        let limit = s.max_len < nav.longest || s.min_clearance > nav.narrowest;
        match (limit, s.alt.is_some()) {
            (true, true) => self.expand::<true, true>(nav, &mut s, max_iterations),
            (true, false) => self.expand::<true, false>(nav, &mut s, max_iterations),
            (false, true) => self.expand::<false, true>(nav, &mut s, max_iterations),
            (false, false) => self.expand::<false, false>(nav, &mut s, max_iterations),
        }
        self.search = Some(s);
        Ok(if s.done {
            SliceStatus::Done
        } else {
            SliceStatus::InProgress
        })
    }

    /// Starts loading the links of the likely next waypoint, so that
    /// memory latency overlaps with relaxing this one's links.
    #[inline(always)]
    fn prefetch_next(&self, nav: &NavGraph, weighted: &[(u32, f32)]) {
        if let Some(next) = self.heap.peek() {
            let n = next as u32;
            if let Some(&first) = nav.first_out.get(n as usize) {
                std::hint::black_box(weighted.get(first as usize).copied());
            }
        }
    }

    /// The A* loop of [`update`](Self::update); `LIMIT_LENGTH` = skip links
    /// longer than `s.max_len` or narrower than `s.min_clearance`; `ALT` =
    /// the heuristic also takes the landmarks' bound (`s.alt`).
    #[inline(always)]
    fn expand<const LIMIT_LENGTH: bool, const ALT: bool>(
        &mut self,
        nav: &NavGraph,
        s: &mut Search,
        max_iterations: u32,
    ) {
        let mut iterations = 0;
        let stamp = self.generation << FLAG_BITS;
        let m = nav.targets.len();
        let weighted = &nav.weighted[s.list_base..s.list_base + m];
        let (table, k) = match &nav.landmarks {
            Some(l) if ALT => (l.table(s.list), l.count()),
            _ => (&[][..], 0),
        };
        let alt = s.alt.unwrap_or(AltGoal::NONE);
        while !s.done && iterations < max_iterations {
            let Some(top) = self.heap.pop(&mut self.heap_at) else {
                s.done = true;
                break;
            };
            let d = top as u32;
            let slot = &mut self.pool[d as usize];
            slot.stamp = (slot.stamp & !OPEN) | CLOSED;
            let g = slot.g;
            let h_d = slot.h;
            iterations += 1;
            s.expanded += 1;
            if d == s.goal {
                s.found = true;
                s.done = true;
                break;
            }
            s.note_closest::<ALT>(nav, d, g, h_d);
            let lo = nav.first_out[d as usize] as usize;
            let hi = nav.first_out[d as usize + 1] as usize;
            self.prefetch_next(nav, weighted);
            for (e, &(t, w)) in weighted[lo..hi].iter().enumerate() {
                if LIMIT_LENGTH
                    && (nav.lengths[lo + e] > s.max_len || nav.clearance[lo + e] < s.min_clearance)
                {
                    continue;
                }
                let ng = g + w;
                let ts = &mut self.pool[t as usize];
                let touched = ts.stamp & !FLAG_MASK == stamp;
                // One test for every case: an untouched waypoint counts as
                // g = infinity, an excluded one has g = -infinity, and a link
                // into an inactive waypoint costs infinity (ng = infinity).
                // Nothing is NaN: g is finite and w finite or infinity.
                if ng >= if touched { ts.g } else { f32::INFINITY } {
                    continue;
                }
                if !touched {
                    let h = s.heuristic::<ALT>(nav, &alt, table, k, t);
                    if s.touched >= self.max_nodes {
                        s.hit_node_limit = true;
                        continue;
                    }
                    s.touched += 1;
                    *ts = Slot {
                        stamp,
                        parent: d,
                        g: ng,
                        h,
                    };
                } else {
                    ts.g = ng;
                    ts.parent = d;
                    if ts.stamp & OPEN != 0 {
                        let key = if ALT {
                            alt_key(ng, ts.h, t)
                        } else {
                            open_key(ng + ts.h, t)
                        };
                        self.heap.decrease(key, &mut self.heap_at);
                        continue;
                    }
                }
                ts.stamp = (ts.stamp & !CLOSED) | OPEN;
                let key = if ALT {
                    alt_key(ts.g, ts.h, t)
                } else {
                    open_key(ts.g + ts.h, t)
                };
                self.heap.push(key, &mut self.heap_at);
            }
        }
    }

    /// Ends the search and writes the path (to the goal, or partial to the
    /// searched waypoint closest to it) into [`path`](Self::path). If called
    /// before the search is done, returns the partial path found so far with
    /// reason `OutOfNodes`.
    pub fn finish(&mut self, nav: &NavGraph) -> Result<PathResult, NavError> {
        let s = match self.search.take() {
            Some(s) if s.graph_key == nav.key => s,
            _ => return Err(NavError::NoSearch),
        };
        let (end, status) = if s.found {
            (s.goal, PathStatus::Complete)
        } else {
            let reason = if s.hit_node_limit || !s.done {
                PartialReason::OutOfNodes
            } else {
                PartialReason::Unreachable
            };
            (s.best, PathStatus::Partial { reason })
        };
        self.path.clear();
        let mut d = end;
        let cost = self.pool[end as usize].g;
        loop {
            self.path.push(nav.ids[d as usize]);
            if d == s.start {
                break;
            }
            d = self.pool[d as usize].parent;
            if d == NONE {
                break;
            }
        }
        self.path.reverse();
        Ok(PathResult {
            status,
            cost,
            hit_node_limit: s.hit_node_limit,
            expanded: s.expanded,
        })
    }
}

impl NavGraph {
    /// A* from `from` to `to` under `filter`, using `query`'s scratch memory.
    ///
    /// Edge cost = link length (world units) x the cost list's multiplier;
    /// heuristic = straight-line distance x the list's *smallest* multiplier
    /// ([`min_multiplier`](Self::min_multiplier)). Scaling by the smallest
    /// multiplier keeps the heuristic admissible (never above the true cost)
    /// even when multipliers are below 1.0, where the plain distance would
    /// overestimate and return non-optimal paths. It is also consistent, so
    /// the result is a cheapest path.
    ///
    /// An unreachable goal or the node limit gives a `Partial` path to the
    /// searched waypoint closest to the goal, not an error. The waypoints are
    /// in [`NavQuery::path`]. Same result as
    /// [`begin`](NavQuery::begin)/[`update`](NavQuery::update)/[`finish`](NavQuery::finish).
    pub fn find_path(
        &self,
        from: WaypointId,
        to: WaypointId,
        filter: &PathFilter<'_>,
        query: &mut NavQuery,
    ) -> Result<PathResult, NavError> {
        query.begin(self, from, to, filter)?;
        while query.update(self, u32::MAX)? == SliceStatus::InProgress {}
        query.finish(self)
    }
}
