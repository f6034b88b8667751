//! [`PointGrid`]: nearest-waypoint queries on a frozen graph, in a uniform
//! grid over X-Z.
//!
//! The editable graph keeps an R*-tree (points come and go one at a time);
//! a frozen graph never changes its points, so it can afford a grid sized
//! to them: about two points per cell, searched ring by ring outward from
//! the query's cell until no unsearched cell can hold anything nearer. On
//! a 90,000-waypoint map a query costs a few hundred instructions where
//! the R*-tree's nearest-neighbour search costs over ten thousand, which
//! matters when a thousand walkers enter the graph in one tick.

use glam::{Vec2, Vec3};

/// A point as the grid stores it: its position beside its dense index, so
/// that a query reads a cell's points from one run of memory.
#[derive(Clone, Copy, Debug, Default)]
struct Item {
    pos: Vec3,
    dense: u32,
}

/// Points bucketed by X-Z cell; each carries its dense index.
#[derive(Clone, Debug, Default)]
pub(crate) struct PointGrid {
    /// Smallest X-Z corner of the grid, world units.
    origin: Vec2,
    /// Cell side, world units (> 0).
    cell: f32,
    /// Cells along X and Z (>= 1 each).
    dims: (usize, usize),
    /// Cell `c`'s points are `items[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    /// The points, by cell, ascending dense index within a cell.
    items: Vec<Item>,
}

impl PointGrid {
    /// A grid over `pos` (dense index = position in the slice).
    pub(crate) fn new(pos: &[Vec3]) -> Self {
        let n = pos.len();
        if n == 0 {
            return Self::default();
        }
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for p in pos {
            lo = lo.min(Vec2::new(p.x, p.z));
            hi = hi.max(Vec2::new(p.x, p.z));
        }
        let size = (hi - lo).max(Vec2::splat(1e-3));
        // About two points per cell over the box the points span.
        let cell = (size.x * size.y * 2.0 / n as f32)
            .sqrt()
            .max(size.max_element() / 4096.0);
        let dims = (
            ((size.x / cell) as usize + 1).max(1),
            ((size.y / cell) as usize + 1).max(1),
        );
        let mut grid = Self {
            origin: lo,
            cell,
            dims,
            start: vec![0; dims.0 * dims.1 + 1],
            items: vec![Item::default(); n],
        };
        let cells: Vec<usize> = pos.iter().map(|p| grid.cell_of(*p)).collect();
        for &c in &cells {
            grid.start[c + 1] += 1;
        }
        for c in 0..dims.0 * dims.1 {
            grid.start[c + 1] += grid.start[c];
        }
        let mut fill = grid.start.clone();
        for (d, &c) in cells.iter().enumerate() {
            grid.items[fill[c] as usize] = Item {
                pos: pos[d],
                dense: d as u32,
            };
            fill[c] += 1;
        }
        grid
    }

    /// The cell coordinates of `p`, clamped into the grid.
    fn coords(&self, p: Vec3) -> (usize, usize) {
        let q = (Vec2::new(p.x, p.z) - self.origin) / self.cell;
        let clamp = |v: f32, dim: usize| (v.max(0.0) as usize).min(dim - 1);
        (clamp(q.x, self.dims.0), clamp(q.y, self.dims.1))
    }

    fn cell_of(&self, p: Vec3) -> usize {
        let (x, z) = self.coords(p);
        z * self.dims.0 + x
    }

    /// The point nearest to `pos` (3D distance) among those `accept`ed;
    /// among points at exactly the same distance the smallest `rank` wins.
    pub(crate) fn nearest(
        &self,
        pos: Vec3,
        accept: impl Fn(u32) -> bool,
        rank: impl Fn(u32) -> u32,
    ) -> Option<u32> {
        if self.items.is_empty() {
            return None;
        }
        let (cx, cz) = self.coords(pos);
        let (nx, nz) = self.dims;
        let mut best: Option<(f32, u32, u32)> = None;
        for r in 0..nx.max(nz) {
            let (x0, x1) = (cx.saturating_sub(r), (cx + r).min(nx - 1));
            let (z0, z1) = (cz.saturating_sub(r), (cz + r).min(nz - 1));
            for z in z0..=z1 {
                // Only the ring's border: inner cells were searched before.
                let edge = z + r == cz || z == cz + r;
                let xs: &mut dyn Iterator<Item = usize> = if edge {
                    &mut (x0..=x1)
                } else {
                    &mut [cx.checked_sub(r), (cx + r < nx).then_some(cx + r)]
                        .into_iter()
                        .flatten()
                };
                for x in xs {
                    let c = z * nx + x;
                    for item in &self.items[self.start[c] as usize..self.start[c + 1] as usize] {
                        let d = item.dense;
                        if !accept(d) {
                            continue;
                        }
                        let d2 = item.pos.distance_squared(pos);
                        let k = rank(d);
                        if best.is_none_or(|(b2, bk, _)| d2 < b2 || (d2 == b2 && k < bk)) {
                            best = Some((d2, k, d));
                        }
                    }
                }
            }
            // Every cell outside the rings searched so far lies at least
            // `margin` away on X-Z; stop once the best is nearer than that.
            let margin = self.margin(pos, (x0, x1), (z0, z1));
            if best.is_some_and(|(b2, _, _)| b2 < margin * margin) {
                break;
            }
        }
        best.map(|(_, _, d)| d)
    }

    /// The X-Z distance from `pos` to the nearest cell outside the block
    /// `xs` x `zs` (infinity on sides where the grid ends).
    fn margin(&self, pos: Vec3, xs: (usize, usize), zs: (usize, usize)) -> f32 {
        let lo = self.origin + Vec2::new(xs.0 as f32, zs.0 as f32) * self.cell;
        let hi = self.origin + Vec2::new(xs.1 as f32 + 1.0, zs.1 as f32 + 1.0) * self.cell;
        let side = |open: bool, d: f32| if open { d.max(0.0) } else { f32::INFINITY };
        side(xs.0 > 0, pos.x - lo.x)
            .min(side(xs.1 + 1 < self.dims.0, hi.x - pos.x))
            .min(side(zs.0 > 0, pos.z - lo.y))
            .min(side(zs.1 + 1 < self.dims.1, hi.y - pos.z))
    }
}
