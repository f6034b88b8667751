//! [`Buckets`]: points bucketed by X-Z cell, for "who is within this
//! distance" questions while points are still being added.

use glam::Vec2;

/// Point indices per square cell of a fixed side.
pub(super) struct Buckets {
    /// Cell side, world units, > 0.
    cell: f32,
    /// Indices per cell, keyed by cell coordinates (sorted map: no hash
    /// order reaches a result).
    cells: std::collections::BTreeMap<(i32, i32), Vec<u32>>,
}

impl Buckets {
    /// Empty buckets of side `cell` (world units; clamped to >= 0.01).
    pub(super) fn new(cell: f32) -> Self {
        Self {
            cell: cell.max(1e-2),
            cells: std::collections::BTreeMap::new(),
        }
    }

    /// The cell holding `p`.
    fn key(&self, p: Vec2) -> (i32, i32) {
        (
            (p.x / self.cell).floor() as i32,
            (p.y / self.cell).floor() as i32,
        )
    }

    /// Adds point `index` at `p`.
    pub(super) fn insert(&mut self, index: u32, p: Vec2) {
        self.cells.entry(self.key(p)).or_default().push(index);
    }

    /// Indices of the points that may lie within `dist` of `p` (a
    /// superset; the caller measures), ascending.
    pub(super) fn near(&self, p: Vec2, dist: f32) -> Vec<u32> {
        let (x0, z0) = self.key(p - Vec2::splat(dist));
        let (x1, z1) = self.key(p + Vec2::splat(dist));
        let mut out = Vec::new();
        for z in z0..=z1 {
            for x in x0..=x1 {
                if let Some(v) = self.cells.get(&(x, z)) {
                    out.extend_from_slice(v);
                }
            }
        }
        out.sort_unstable();
        out
    }
}
