//! Nearest-point queries over waypoint positions.
//!
//! Why an R*-tree (`rstar`) rather than a kd-tree (`kiddo`) or a hand-written
//! uniform grid: the editor inserts, moves and deletes waypoints one at a time,
//! which an R*-tree supports in O(log n) without rebuilds (a kd-tree degrades
//! or needs rebuilding); waypoint maps are sparse and unbounded in 3D, where a
//! uniform grid needs a cell size tuned per level and degenerates when the
//! nearest waypoint is far away. The frozen [`NavGraph`](crate::NavGraph),
//! whose points never change, uses a grid sized to them instead
//! (`point_grid.rs`).

use glam::Vec3;
use rstar::RTree;
use rstar::primitives::GeomWithData;

type Entry = GeomWithData<[f32; 3], u32>;

/// A set of points, each carrying a `u32` key (waypoint index or dense index).
#[derive(Clone, Debug, Default)]
pub(crate) struct PointIndex {
    tree: RTree<Entry>,
}

impl PointIndex {
    pub(crate) fn insert(&mut self, pos: Vec3, key: u32) {
        self.tree.insert(Entry::new(pos.to_array(), key));
    }

    pub(crate) fn remove(&mut self, pos: Vec3, key: u32) {
        self.tree.remove(&Entry::new(pos.to_array(), key));
    }

    /// The key nearest to `pos` among keys accepted by `accept`; among points at
    /// exactly the same distance the one with the smallest `rank(key)` wins
    /// (deterministic).
    pub(crate) fn nearest(
        &self,
        pos: Vec3,
        mut accept: impl FnMut(u32) -> bool,
        rank: impl Fn(u32) -> u32,
    ) -> Option<u32> {
        let mut best: Option<(f32, u32)> = None;
        for (entry, d2) in self
            .tree
            .nearest_neighbor_iter_with_distance_2(pos.to_array())
        {
            if let Some((best_d2, _)) = best
                && d2 > best_d2
            {
                break;
            }
            if !accept(entry.data) {
                continue;
            }
            best = match best {
                Some((bd, bk)) if rank(bk) <= rank(entry.data) => Some((bd, bk)),
                _ => Some((d2, entry.data)),
            };
        }
        best.map(|(_, k)| k)
    }

    /// Keys within `radius` of `pos` (inclusive), in ascending key order.
    pub(crate) fn within(&self, pos: Vec3, radius: f32, out: &mut Vec<u32>) {
        out.clear();
        out.extend(
            self.tree
                .locate_within_distance(pos.to_array(), radius * radius)
                .map(|e| e.data),
        );
        out.sort_unstable();
    }
}
