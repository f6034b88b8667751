//! [`NavGraph`]: a frozen, compact (CSR) copy of a [`WaypointGraph`] for fast queries.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use glam::Vec3;

use crate::alt::Landmarks;
use crate::point_grid::PointGrid;
use crate::{CostListId, LinkId, WaypointGraph, WaypointId};

/// Sentinel for "no dense index".
pub(crate) const NONE: u32 = u32::MAX;

static NEXT_GRAPH_KEY: AtomicU64 = AtomicU64::new(1);

/// A read-only, cache-friendly snapshot of a [`WaypointGraph`], built by
/// [`WaypointGraph::freeze`]. All path searches run on it.
///
/// Layout (compressed sparse rows): waypoints get *dense* indices `0..n`,
/// sorted along a 3D Morton (Z-order) curve so that waypoints close in space
/// are close in memory (an A* expansion then touches few cache lines); the outgoing links of dense node `i` are
/// `first_out[i]..first_out[i + 1]`, in ascending [`LinkId`] order; for every
/// cost list the `(target, length x multiplier)` pairs of all links are one
/// contiguous array, so an A* expansion reads one short contiguous run of
/// memory. Reversed links (for [`distance_field`](Self::distance_field)) are
/// stored the same way.
///
/// Edits to the source graph are not seen; freeze again after editing.
#[derive(Clone, Debug)]
pub struct NavGraph {
    pub(crate) key: u64,
    pub(crate) ids: Vec<WaypointId>,
    pub(crate) dense_of: Vec<u32>,
    pub(crate) pos: Vec<Vec3>,
    pub(crate) active: Vec<bool>,
    pub(crate) first_out: Vec<u32>,
    pub(crate) targets: Vec<u32>,
    pub(crate) links: Vec<LinkId>,
    pub(crate) lengths: Vec<f32>,
    /// `list * m + e`: raw multiplier.
    pub(crate) multipliers: Vec<f32>,
    /// `list * m + e`: `(target, length * multiplier)`, infinity into inactive waypoints.
    pub(crate) weighted: Vec<(u32, f32)>,
    pub(crate) list_live: Vec<bool>,
    pub(crate) min_multiplier: Vec<f32>,
    pub(crate) rev_first: Vec<u32>,
    /// `(source, forward edge index)` per reversed link.
    pub(crate) rev: Vec<(u32, u32)>,
    /// Per link, how many blocks hold it closed (see
    /// [`NavGraph::block_link`]); a blocked link costs infinity.
    pub(crate) link_blocks: Vec<u16>,
    /// Per link, the widest radius that can walk it (world units; see
    /// [`NavGraph::set_clearances`]).
    pub(crate) clearance: Vec<f32>,
    /// The smallest of `clearance` (infinity without links): a search for
    /// a body no wider skips no link for clearance and need not look.
    pub(crate) narrowest: f32,
    /// The largest of `lengths` (0 without links): a search whose length
    /// limit is at least this skips no link for length.
    pub(crate) longest: f32,
    /// Landmark lower bounds for A* (shared by clones: never changed
    /// after freezing).
    pub(crate) landmarks: Option<Arc<Landmarks>>,
    grid: PointGrid,
}

/// Interleaves the low 21 bits of `v` with two zero bits between each.
fn spread3(v: u64) -> u64 {
    let mut x = v & 0x1f_ffff;
    x = (x | (x << 32)) & 0x1f_0000_0000_ffff;
    x = (x | (x << 16)) & 0x1f_0000_ff00_00ff;
    x = (x | (x << 8)) & 0x100f_00f0_0f00_f00f;
    x = (x | (x << 4)) & 0x10c3_0c30_c30c_30c3;
    x = (x | (x << 2)) & 0x1249_2492_4924_9249;
    x
}

/// Waypoint ids sorted by the Morton code of their position (ties by id).
fn spatial_order(g: &WaypointGraph) -> Vec<WaypointId> {
    let mut min = Vec3::splat(f32::INFINITY);
    let mut max = Vec3::splat(f32::NEG_INFINITY);
    for id in g.waypoint_ids() {
        if let Some(w) = g.waypoint(id) {
            min = min.min(w.pos());
            max = max.max(w.pos());
        }
    }
    let scale = ((1u32 << 21) - 1) as f32 / (max - min).max_element().max(f32::MIN_POSITIVE);
    let mut keyed: Vec<(u64, WaypointId)> = g
        .waypoint_ids()
        .filter_map(|id| {
            let q = ((g.waypoint(id)?.pos() - min) * scale).as_uvec3();
            let code = spread3(u64::from(q.x))
                | (spread3(u64::from(q.y)) << 1)
                | (spread3(u64::from(q.z)) << 2);
            Some((code, id))
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, id)| id).collect()
}

impl WaypointGraph {
    /// The compact graph without landmarks.
    pub(crate) fn freeze_plain(&self) -> NavGraph {
        let g = self.petgraph();
        let ids = spatial_order(self);
        let n = ids.len();
        let mut dense_of = vec![NONE; self.waypoint_bound()];
        for (d, id) in ids.iter().enumerate() {
            dense_of[id.0 as usize] = d as u32;
        }
        let mut pos = Vec::with_capacity(n);
        let mut active = Vec::with_capacity(n);
        for &id in &ids {
            if let Some(w) = g.node_weight(id.node()) {
                pos.push(w.pos());
                active.push(w.active);
            }
        }
        let slots = self.cost_list_slots();
        let list_live: Vec<bool> = (0..slots)
            .map(|s| self.cost_list_name(CostListId(s as u16)).is_some())
            .collect();

        let mut first_out = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(g.edge_count());
        let mut links = Vec::with_capacity(g.edge_count());
        first_out.push(0u32);
        for &id in &ids {
            for (link, to) in self.links_from(id) {
                targets.push(dense_of[to.0 as usize]);
                links.push(link);
            }
            first_out.push(targets.len() as u32);
        }
        let m = targets.len();
        let mut lengths = Vec::with_capacity(m);
        let mut src_of = Vec::with_capacity(m);
        for d in 0..n {
            for e in first_out[d] as usize..first_out[d + 1] as usize {
                lengths.push(pos[d].distance(pos[targets[e] as usize]));
                src_of.push(d as u32);
            }
        }
        let mut multipliers = vec![1.0f32; slots * m];
        let mut weighted = vec![(0u32, 0.0f32); slots * m];
        let mut min_multiplier = vec![f32::INFINITY; slots];
        for (e, link) in links.iter().enumerate() {
            let l = g.edge_weight(link.edge());
            for s in 0..slots {
                let mult = l.and_then(|l| l.cost(CostListId(s as u16))).unwrap_or(1.0);
                multipliers[s * m + e] = mult;
                // Links into inactive waypoints cost infinity, so A* skips
                // them without reading the target's `active` flag.
                let w = if active[targets[e] as usize] {
                    lengths[e] * mult
                } else {
                    f32::INFINITY
                };
                weighted[s * m + e] = (targets[e], w);
                min_multiplier[s] = min_multiplier[s].min(mult);
            }
        }
        for mm in &mut min_multiplier {
            if !mm.is_finite() {
                *mm = 1.0;
            }
        }

        let (rev_first, rev) = reverse_csr(n, &targets, &src_of);
        let grid = PointGrid::new(&pos);
        let longest = lengths.iter().copied().fold(0.0, f32::max);
        NavGraph {
            key: NEXT_GRAPH_KEY.fetch_add(1, Ordering::Relaxed),
            ids,
            dense_of,
            pos,
            active,
            first_out,
            targets,
            links,
            lengths,
            multipliers,
            weighted,
            list_live,
            min_multiplier,
            rev_first,
            rev,
            link_blocks: vec![0; m],
            clearance: vec![f32::INFINITY; m],
            narrowest: f32::INFINITY,
            longest,
            landmarks: None,
            grid,
        }
    }
}

/// The reversed CSR of `n` waypoints' links (`targets` and `src_of` per
/// link), by counting sort on targets (stable: ascending source, then
/// link): per waypoint the first index into the list of (source, link)
/// pairs, and that list.
fn reverse_csr(n: usize, targets: &[u32], src_of: &[u32]) -> (Vec<u32>, Vec<(u32, u32)>) {
    let mut rev_first = vec![0u32; n + 1];
    for &t in targets {
        rev_first[t as usize + 1] += 1;
    }
    for i in 0..n {
        rev_first[i + 1] += rev_first[i];
    }
    let mut fill = rev_first.clone();
    let mut rev = vec![(0u32, 0u32); targets.len()];
    for (e, &t) in targets.iter().enumerate() {
        let t = t as usize;
        rev[fill[t] as usize] = (src_of[e], e as u32);
        fill[t] += 1;
    }
    (rev_first, rev)
}

impl NavGraph {
    /// Number of waypoints.
    pub fn waypoint_count(&self) -> usize {
        self.ids.len()
    }

    /// Number of links.
    pub fn link_count(&self) -> usize {
        self.targets.len()
    }

    /// Every waypoint, in the graph's memory order: sorted along a Morton
    /// curve over the positions (ties by id), so neighbours in space are
    /// mostly neighbours in this order. Fixed for one frozen graph.
    pub fn waypoint_ids(&self) -> impl ExactSizeIterator<Item = WaypointId> + '_ {
        self.ids.iter().copied()
    }

    /// How many landmarks bound its A* searches (0: straight-line distance
    /// only); see [`WaypointGraph::freeze_with_landmarks`].
    pub fn landmark_count(&self) -> usize {
        self.landmarks.as_ref().map_or(0, |l| l.count())
    }

    /// Bytes the landmark tables take (0 without landmarks).
    pub fn landmark_bytes(&self) -> usize {
        self.landmarks.as_ref().map_or(0, |l| l.bytes())
    }

    /// True if `list` existed when the graph was frozen.
    pub fn has_cost_list(&self, list: CostListId) -> bool {
        self.list_live.get(list.index()).copied().unwrap_or(false)
    }

    /// The smallest multiplier of `list` over all links (1.0 if there are no
    /// links); the A* heuristic is straight-line distance times this.
    pub fn min_multiplier(&self, list: CostListId) -> Option<f32> {
        self.has_cost_list(list)
            .then(|| self.min_multiplier[list.index()])
    }

    pub(crate) fn dense(&self, id: WaypointId) -> Option<u32> {
        self.dense_of
            .get(id.0 as usize)
            .copied()
            .filter(|&d| d != NONE)
    }

    /// True if the waypoint existed when frozen.
    pub fn contains(&self, id: WaypointId) -> bool {
        self.dense(id).is_some()
    }

    /// Position (world units) of a waypoint.
    pub fn pos(&self, id: WaypointId) -> Option<Vec3> {
        self.dense(id).map(|d| self.pos[d as usize])
    }

    /// Whether a waypoint is active.
    pub fn is_active(&self, id: WaypointId) -> Option<bool> {
        self.dense(id).map(|d| self.active[d as usize])
    }

    /// Outgoing links of `id` as `(link, to)`, in ascending [`LinkId`] order.
    pub fn links_from(&self, id: WaypointId) -> impl Iterator<Item = (LinkId, WaypointId)> + '_ {
        let range = match self.dense(id) {
            Some(d) => self.first_out[d as usize] as usize..self.first_out[d as usize + 1] as usize,
            None => 0..0,
        };
        range.map(|e| (self.links[e], self.ids[self.targets[e] as usize]))
    }

    /// The cost (length in world units x multiplier) of walking `from -> to`
    /// under `list`, if that link exists.
    pub fn link_cost(&self, from: WaypointId, to: WaypointId, list: CostListId) -> Option<f32> {
        if !self.has_cost_list(list) {
            return None;
        }
        let d = self.dense(from)? as usize;
        let t = self.dense(to)?;
        let m = self.targets.len();
        (self.first_out[d] as usize..self.first_out[d + 1] as usize)
            .find(|&e| self.targets[e] == t)
            .map(|e| self.lengths[e] * self.multipliers[list.index() * m + e])
    }

    /// The waypoint nearest to `pos` (3D distance), optionally only among
    /// active ones; ties go to the smallest id. O(log n).
    pub fn nearest_waypoint(&self, pos: Vec3, active_only: bool) -> Option<WaypointId> {
        self.grid
            .nearest(
                pos,
                |d| !active_only || self.active[d as usize],
                |d| self.ids[d as usize].0,
            )
            .map(|d| self.ids[d as usize])
    }
}
