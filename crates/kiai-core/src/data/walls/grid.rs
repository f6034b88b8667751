//! The uniform grid on X-Z that indexes the walls, and the DDA walk of a
//! segment through its cells.

use super::{MAX_CELLS, Wall};

#[derive(Clone, Debug, Default)]
pub(super) struct Grid {
    pub(super) origin: [f64; 2],
    pub(super) cell: f64,
    pub(super) nx: usize,
    pub(super) nz: usize,
    /// Compressed rows: walls of cell `c` are `items[start[c]..start[c + 1]]`.
    pub(super) start: Vec<u32>,
    pub(super) items: Vec<u32>,
    /// How far (world units) a wall's cells reach beyond its segment: far
    /// above f64 rounding, fixed when the grid was built.
    pub(super) margin: f64,
}

impl Grid {
    /// The cells `[x0, z0, x1, z1]` (clamped to the grid) of the box
    /// `lo..hi`.
    pub(super) fn block_of(&self, lo: [f64; 2], hi: [f64; 2]) -> [usize; 4] {
        [
            self.clamp_index(lo[0], 0),
            self.clamp_index(lo[1], 1),
            self.clamp_index(hi[0], 0),
            self.clamp_index(hi[1], 1),
        ]
    }

    /// The X-Z box (world units) of the points that lie in `block`'s
    /// cells away from its inner borders by far more than rounding (a few
    /// millionths of a cell): every point of a segment between two such points,
    /// and every cell the grid walk visits for it, is in the block. Borders
    /// at the grid's edge are open (`clamp_index` puts everything beyond them
    /// in the edge cells).
    pub(super) fn block_box(&self, block: [usize; 4]) -> [f64; 4] {
        const EPS: f64 = 4e-6;
        let [x0, z0, x1, z1] = block;
        let lo = |c: usize, axis: usize| {
            if c == 0 {
                f64::NEG_INFINITY
            } else {
                let b = self.origin[axis] + c as f64 * self.cell;
                b + EPS * self.cell + b.abs() * 1e-12
            }
        };
        let hi = |c: usize, axis: usize, n: usize| {
            if c + 1 >= n {
                f64::INFINITY
            } else {
                let b = self.origin[axis] + (c + 1) as f64 * self.cell;
                b - EPS * self.cell - b.abs() * 1e-12
            }
        };
        [lo(x0, 0), lo(z0, 1), hi(x1, 0, self.nx), hi(z1, 1, self.nz)]
    }

    pub(super) fn build(walls: &[Wall], indexed: &[bool], cell_size: Option<f32>) -> Grid {
        let finite: Vec<usize> = (0..walls.len())
            .filter(|&i| indexed[i] && walls[i].is_finite())
            .collect();
        if finite.is_empty() {
            return Grid {
                cell: f64::from(
                    cell_size
                        .filter(|c| c.is_finite() && *c > 0.0)
                        .unwrap_or(1.0),
                ),
                ..Grid::default()
            };
        }
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for &i in &finite {
            for p in [walls[i].from, walls[i].to] {
                for (k, v) in [f64::from(p.x), f64::from(p.y)].into_iter().enumerate() {
                    lo[k] = lo[k].min(v);
                    hi[k] = hi[k].max(v);
                }
            }
        }
        let (w, h) = (hi[0] - lo[0], hi[1] - lo[1]);
        let mut cell = match cell_size {
            Some(c) if c.is_finite() && c > 0.0 => f64::from(c),
            _ => {
                let n = finite.len() as f64;
                let mut c = (w * h / n).sqrt();
                if c.is_nan() || c <= 0.0 {
                    c = w.max(h) / n;
                }
                c = c.max(w.max(h) / 1024.0);
                if c > 0.0 { c } else { 1.0 }
            }
        };
        let dims = |cell: f64| {
            // One spare cell on every side keeps walls away from the border.
            let nx = ((w / cell).floor() as usize).saturating_add(3);
            let nz = ((h / cell).floor() as usize).saturating_add(3);
            (nx, nz)
        };
        let (mut nx, mut nz) = dims(cell);
        while nx.saturating_mul(nz) > MAX_CELLS {
            cell *= 2.0;
            (nx, nz) = dims(cell);
        }
        let origin = [lo[0] - cell, lo[1] - cell];
        let mut grid = Grid {
            origin,
            cell,
            nx,
            nz,
            start: vec![0; nx * nz + 1],
            items: Vec::new(),
            margin: 0.0,
        };
        // Inflate by a margin far above f64 rounding so DDA and crossing
        // computations can never disagree about which cell holds a wall.
        let mag = lo
            .iter()
            .chain(hi.iter())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let margin = cell * 1e-4 + mag * 1e-9;
        grid.margin = margin;
        // Two passes: count, then fill (compressed sparse rows).
        let mut counts = vec![0u32; nx * nz];
        for &i in &finite {
            grid.for_cells_of(&walls[i], margin, |c| counts[c] += 1);
        }
        let mut acc = 0u32;
        for (c, n) in counts.iter().enumerate() {
            grid.start[c] = acc;
            acc += n;
        }
        grid.start[nx * nz] = acc;
        grid.items = vec![0; acc as usize];
        let mut fill = grid.start.clone();
        for &i in &finite {
            let mut cells = Vec::new();
            grid.for_cells_of(&walls[i], margin, |c| cells.push(c));
            for c in cells {
                grid.items[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
        grid
    }

    /// Whether `wall` lies well inside the grid (its cells then hold it
    /// exactly as a fresh build would); otherwise the grid must be built
    /// again to take it.
    pub(super) fn holds(&self, wall: &Wall) -> bool {
        if self.nx < 3 || self.nz < 3 {
            return false;
        }
        let inside = |v: f32, axis: usize| {
            let (origin, n) = (self.origin[axis], [self.nx, self.nz][axis]);
            let v = f64::from(v);
            v - self.margin > origin + self.cell
                && v + self.margin < origin + (n - 1) as f64 * self.cell
        };
        [wall.from, wall.to]
            .iter()
            .all(|p| inside(p.x, 0) && inside(p.y, 1))
    }

    /// Enters wall `index` into the cells `wall` touches, keeping each
    /// cell's walls ascending. One pass over the rows.
    pub(super) fn insert(&mut self, index: u32, wall: &Wall) {
        let mut cells = Vec::new();
        self.for_cells_of(wall, self.margin, |c| cells.push(c));
        cells.sort_unstable();
        cells.dedup();
        self.rewrite(|c, items| {
            if cells.binary_search(&c).is_ok() {
                let at = items.partition_point(|&w| w < index);
                items.insert(at, index);
            }
        });
    }

    /// Takes wall `index` out of every cell.
    pub(super) fn remove(&mut self, index: u32) {
        self.rewrite(|_, items| items.retain(|&w| w != index));
    }

    /// Rebuilds the compressed rows, letting `edit` change each cell's list.
    fn rewrite(&mut self, mut edit: impl FnMut(usize, &mut Vec<u32>)) {
        let cells = self.start.len().saturating_sub(1);
        let mut items = Vec::with_capacity(self.items.len() + 4);
        let mut cell = Vec::new();
        for c in 0..cells {
            cell.clear();
            cell.extend_from_slice(self.cell_items(c));
            edit(c, &mut cell);
            self.start[c] = items.len() as u32;
            items.extend_from_slice(&cell);
        }
        if let Some(end) = self.start.last_mut() {
            *end = items.len() as u32;
        }
        self.items = items;
    }

    pub(super) fn cell_items(&self, cell: usize) -> &[u32] {
        &self.items[self.start[cell] as usize..self.start[cell + 1] as usize]
    }

    pub(super) fn coord(&self, v: f64, axis: usize) -> f64 {
        (v - self.origin[axis]) / self.cell
    }

    pub(super) fn clamp_index(&self, v: f64, axis: usize) -> usize {
        let n = if axis == 0 { self.nx } else { self.nz };
        let i = self.coord(v, axis).floor();
        if i <= 0.0 { 0 } else { (i as usize).min(n - 1) }
    }

    /// Calls `f` with every cell whose square, inflated by `margin`, meets the
    /// wall's segment (a conservative supercover).
    pub(super) fn for_cells_of(&self, wall: &Wall, margin: f64, mut f: impl FnMut(usize)) {
        let (p, q) = (
            [f64::from(wall.from.x), f64::from(wall.from.y)],
            [f64::from(wall.to.x), f64::from(wall.to.y)],
        );
        let z_lo = self.clamp_index(p[1].min(q[1]) - margin, 1);
        let z_hi = self.clamp_index(p[1].max(q[1]) + margin, 1);
        for row in z_lo..=z_hi {
            let slab_lo = self.origin[1] + row as f64 * self.cell - margin;
            let slab_hi = slab_lo + self.cell + 2.0 * margin;
            let dz = q[1] - p[1];
            let (x0, x1) = if dz == 0.0 {
                (p[0].min(q[0]), p[0].max(q[0]))
            } else {
                let ta = ((slab_lo - p[1]) / dz).clamp(0.0, 1.0);
                let tb = ((slab_hi - p[1]) / dz).clamp(0.0, 1.0);
                let xa = p[0] + ta * (q[0] - p[0]);
                let xb = p[0] + tb * (q[0] - p[0]);
                (xa.min(xb), xa.max(xb))
            };
            let c_lo = self.clamp_index(x0 - margin, 0);
            let c_hi = self.clamp_index(x1 + margin, 0);
            for col in c_lo..=c_hi {
                f(row * self.nx + col);
            }
        }
    }

    /// Amanatides-Woo walk over the cells the X-Z segment `a -> b` passes
    /// through (clipped to the grid), calling `visit(cell, t_exit)` where
    /// `t_exit` is the segment parameter where the walk leaves that cell.
    /// Stops when `visit` returns false. Always ends in the cell of the clipped
    /// end point; exact corner crossings step X before Z.
    pub(super) fn walk(&self, a: [f64; 2], b: [f64; 2], mut visit: impl FnMut(usize, f64) -> bool) {
        if self.nx == 0 || self.nz == 0 {
            return;
        }
        let d = [b[0] - a[0], b[1] - a[1]];
        // Clip to the grid rectangle (slab method).
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for k in 0..2 {
            let n = if k == 0 { self.nx } else { self.nz };
            let lo = self.origin[k];
            let hi = lo + n as f64 * self.cell;
            if d[k] == 0.0 {
                if a[k] < lo || a[k] > hi {
                    return;
                }
            } else {
                let (mut te, mut tx) = ((lo - a[k]) / d[k], (hi - a[k]) / d[k]);
                if te > tx {
                    std::mem::swap(&mut te, &mut tx);
                }
                t0 = t0.max(te);
                t1 = t1.min(tx);
            }
        }
        if t0 > t1 {
            return;
        }
        let start = [a[0] + t0 * d[0], a[1] + t0 * d[1]];
        let end = [a[0] + t1 * d[0], a[1] + t1 * d[1]];
        let mut c = [self.clamp_index(start[0], 0), self.clamp_index(start[1], 1)];
        let c_end = [self.clamp_index(end[0], 0), self.clamp_index(end[1], 1)];
        let mut remaining = [c[0].abs_diff(c_end[0]), c[1].abs_diff(c_end[1])];
        let mut t_max = [f64::INFINITY; 2];
        let mut t_delta = [f64::INFINITY; 2];
        for k in 0..2 {
            if remaining[k] > 0 && d[k] != 0.0 {
                let next = if d[k] > 0.0 { c[k] + 1 } else { c[k] };
                let boundary = self.origin[k] + next as f64 * self.cell;
                t_max[k] = (boundary - a[k]) / d[k];
                t_delta[k] = self.cell / d[k].abs();
            }
        }
        loop {
            let exit = match (remaining[0] > 0, remaining[1] > 0) {
                (false, false) => t1,
                (true, false) => t_max[0],
                (false, true) => t_max[1],
                (true, true) => t_max[0].min(t_max[1]),
            };
            if !visit(c[1] * self.nx + c[0], exit) {
                return;
            }
            let k = match (remaining[0] > 0, remaining[1] > 0) {
                (false, false) => return,
                (true, false) => 0,
                (false, true) => 1,
                (true, true) => usize::from(t_max[1] < t_max[0]),
            };
            if d[k] > 0.0 {
                c[k] += 1;
            } else {
                c[k] -= 1;
            }
            remaining[k] -= 1;
            t_max[k] += t_delta[k];
        }
    }
}
