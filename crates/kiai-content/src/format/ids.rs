//! Waypoint id lookups shared by validation and lints.

use super::def::WaypointDef;

/// Waypoint id -> index of the first waypoint with that id.
///
/// Ids are usually dense (`0..n`, as editors and generators number them):
/// then the index is a table by id, one load per lookup. Sparse ids (largest
/// id above `4n + 1024`) fall back to binary search over sorted pairs. Both
/// give the same answers.
pub(crate) struct WaypointIndex {
    /// By id: the first index with that id, or `u32::MAX` for none.
    table: Vec<u32>,
    /// `(id, first index)` sorted by id, when the ids are sparse.
    sorted: Vec<(u32, u32)>,
    /// Whether some id appears twice.
    duplicates: bool,
}

const NONE: u32 = u32::MAX;

impl WaypointIndex {
    /// The index of `waypoints` (at most `u32::MAX - 1` of them).
    pub(crate) fn new(waypoints: &[WaypointDef]) -> Self {
        let n = waypoints.len();
        let max = waypoints.iter().map(|w| w.id).max().unwrap_or(0) as usize;
        let mut out = Self {
            table: Vec::new(),
            sorted: Vec::new(),
            duplicates: false,
        };
        if max <= 4 * n + 1024 {
            out.table = vec![NONE; max + 1];
            for (i, w) in waypoints.iter().enumerate() {
                let slot = &mut out.table[w.id as usize];
                if *slot == NONE {
                    *slot = i as u32;
                } else {
                    out.duplicates = true;
                }
            }
        } else {
            out.sorted = waypoints
                .iter()
                .enumerate()
                .map(|(i, w)| (w.id, i as u32))
                .collect();
            out.sorted.sort_unstable();
            out.duplicates = out.sorted.windows(2).any(|p| p[0].0 == p[1].0);
            out.sorted.dedup_by_key(|e| e.0);
        }
        out
    }

    /// The index of the first waypoint with `id`, if any.
    pub(crate) fn get(&self, id: u32) -> Option<usize> {
        if self.sorted.is_empty() {
            match self.table.get(id as usize) {
                Some(&i) if i != NONE => Some(i as usize),
                _ => None,
            }
        } else {
            self.sorted
                .binary_search_by_key(&id, |e| e.0)
                .ok()
                .map(|k| self.sorted[k].1 as usize)
        }
    }

    /// Whether some waypoint id appears more than once.
    pub(crate) fn has_duplicates(&self) -> bool {
        self.duplicates
    }
}

#[cfg(test)]
mod tests {
    use super::WaypointIndex;
    use crate::format::def::WaypointDef;

    fn waypoints(ids: &[u32]) -> Vec<WaypointDef> {
        ids.iter()
            .map(|&id| WaypointDef {
                id,
                pos: (0.0, 0.0, 0.0),
                active: true,
                name: None,
                tags: Vec::new(),
            })
            .collect()
    }

    /// The table and the binary search agree with a linear scan.
    #[test]
    fn dense_and_sparse_ids_find_the_first_waypoint() {
        for ids in [
            vec![],
            vec![0],
            vec![3, 1, 2, 0],
            vec![5, 7, 5, 9],
            vec![4_000_000_000, 1, 4_000_000_000, 17],
            vec![u32::MAX, 0],
            (0..3000).rev().collect(),
        ] {
            let w = waypoints(&ids);
            let index = WaypointIndex::new(&w);
            let mut sorted = ids.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(index.has_duplicates(), sorted.len() != ids.len(), "{ids:?}");
            for probe in ids.iter().copied().chain([2, 6, 8, 10_000, u32::MAX - 1]) {
                let expected = ids.iter().position(|&i| i == probe);
                assert_eq!(index.get(probe), expected, "{probe} in {ids:?}");
            }
        }
    }
}
