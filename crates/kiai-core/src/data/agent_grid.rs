//! Uniform grid broadphase on the X-Z plane, rebuilt every tick by counting
//! sort (two passes over the agents, no per-cell allocation). The sense
//! stage builds it; the avoid stage finds neighbours in it (positions have
//! not changed in between).
//!
//! Besides the buckets, the grid keeps the agents' positions as separate
//! `x`, `y`, `z` arrays in cell order, so that the candidate filter of the
//! sense stage runs over contiguous memory (and vectorises), and the
//! permutation between agent ids and cell order in both directions, so that
//! the sense stage can process agents in cell order (neighbouring agents
//! read the same cells) and still report per agent id.

use glam::{Vec2, Vec3};

use rayon::prelude::*;

use crate::data::{ArchetypeId, FactionId};

/// Fewest agents per parallel work item of the grid's passes.
const PAR_MIN: usize = 4096;

/// Positions are read in blocks of this many by the sense stage's kernels;
/// the position arrays are padded by one block.
pub(crate) const BLOCK: usize = 16;

/// Most cells per agent the grid will allocate; beyond that cells grow.
const MAX_CELLS_PER_AGENT: usize = 4;

/// Agents bucketed by X-Z cell. Items within a cell keep ascending agent order
/// (the counting sort is stable).
#[derive(Debug, Default)]
pub(crate) struct UniformGrid {
    origin: Vec2,
    inv_cell: f32,
    dims: [usize; 2],
    cell_start: Vec<u32>,
    /// Live agents' slots in cell order (rows of cells along X, then Z;
    /// ascending slot within a cell).
    pub(crate) order: Vec<u32>,
    /// Per slot, its position in `order` (`u32::MAX` for a free slot).
    pub(crate) rank: Vec<u32>,
    /// Positions of `order`, in the same (cell) order, one array per axis,
    /// followed by [`BLOCK`] points at infinity.
    pub(crate) xs: Vec<f32>,
    pub(crate) ys: Vec<f32>,
    pub(crate) zs: Vec<f32>,
    /// Per-agent inputs of the sense stage gathered into cell order (see
    /// [`UniformGrid::gather`]).
    pub(crate) sorted: SortedInputs,
    cell_of: Vec<u32>,
}

/// Per-agent inputs in the grid's cell order.
#[derive(Debug, Default)]
pub(crate) struct SortedInputs {
    pub(crate) facing: Vec<Vec3>,
    pub(crate) archetype: Vec<ArchetypeId>,
    pub(crate) faction: Vec<FactionId>,
    /// The agent's generation (with its slot in `order`, its handle).
    pub(crate) generation: Vec<u32>,
    /// The agent's position in the previous sense stage's order, or
    /// `u32::MAX` when it did not exist then.
    pub(crate) prev: Vec<u32>,
}

/// The per-slot inputs [`UniformGrid::gather`] puts into cell order.
#[derive(Clone, Copy)]
pub(crate) struct GatherInputs<'a> {
    pub(crate) facings: &'a [Vec3],
    pub(crate) archetypes: &'a [ArchetypeId],
    pub(crate) factions: &'a [FactionId],
    pub(crate) generations: &'a [u32],
}

impl UniformGrid {
    /// Buckets the `positions` of live slots (`alive`) into square cells of
    /// at least `cell_size` world units (larger when the positions spread so
    /// far that the grid would exceed a few cells per agent). Free slots are
    /// left out: they neither sense nor are sensed.
    pub(crate) fn rebuild(&mut self, positions: &[Vec3], alive: &[bool], cell_size: f32) {
        let slots = positions.len();
        let (n, min, max) = live_extent(positions, alive);
        self.order.clear();
        self.rank.clear();
        self.xs.clear();
        self.ys.clear();
        self.zs.clear();
        self.cell_of.clear();
        self.rank.resize(slots, u32::MAX);
        if n == 0 {
            self.dims = [0, 0];
            self.cell_start.clear();
            return;
        }
        let extent = (max - min).max(Vec2::splat(1e-3));
        // Cells of half the reach: the query square then spans 2.5 reaches
        // instead of 3, about a third fewer candidates. One percent more, so
        // that the padded reach around a whole cell still spans 5 cells.
        let mut cell = (cell_size * 0.505).max(1e-3);
        let budget = (n * MAX_CELLS_PER_AGENT).max(64) as f32;
        let cells = |c: f32| ((extent.x / c).floor() + 1.0) * ((extent.y / c).floor() + 1.0);
        if cells(cell) > budget {
            cell = (extent.x * extent.y / budget).sqrt().max(cell);
            while cells(cell) > budget {
                cell *= 1.25;
            }
        }
        self.origin = min;
        self.inv_cell = 1.0 / cell;
        self.dims = [
            (extent.x * self.inv_cell) as usize + 1,
            (extent.y * self.inv_cell) as usize + 1,
        ];
        let cell_count = self.dims[0] * self.dims[1];
        self.cell_start.clear();
        self.cell_start.resize(cell_count + 1, 0);
        let mut cell_of = std::mem::take(&mut self.cell_of);
        let this = &*self;
        cell_of.par_extend(
            positions
                .par_iter()
                .zip(alive.par_iter())
                .with_min_len(PAR_MIN)
                .map(|(p, &live)| match live {
                    true => this.cell_index(Vec2::new(p.x, p.z)) as u32,
                    false => u32::MAX,
                }),
        );
        for &c in cell_of.iter().filter(|&&c| c != u32::MAX) {
            self.cell_start[c as usize + 1] += 1;
        }
        self.cell_of = cell_of;
        for c in 0..cell_count {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.order.resize(n, 0);
        self.xs.resize(n, 0.0);
        self.ys.resize(n, 0.0);
        self.zs.resize(n, 0.0);
        // `cell_start[c]` serves as the write cursor of cell c; afterwards it
        // holds the cell's end, so shift back by one cell.
        for (i, (&c, p)) in self.cell_of.iter().zip(positions).enumerate() {
            if c == u32::MAX {
                self.rank[i] = u32::MAX;
                continue;
            }
            let slot = &mut self.cell_start[c as usize];
            let k = *slot as usize;
            *slot += 1;
            self.order[k] = i as u32;
            self.rank[i] = k as u32;
            self.xs[k] = p.x;
            self.ys[k] = p.y;
            self.zs[k] = p.z;
        }
        for c in (1..=cell_count).rev() {
            self.cell_start[c] = self.cell_start[c - 1];
        }
        self.cell_start[0] = 0;
        // Padding, so that a block of `BLOCK` positions may be read from
        // anywhere before the end.
        for axis in [&mut self.xs, &mut self.ys, &mut self.zs] {
            axis.resize(n + BLOCK, f32::INFINITY);
        }
    }

    /// Copies the per-agent inputs the sense stage reads into cell order, so
    /// that it reads them sequentially: in parallel over cell order (one
    /// pass in agent order, scattering, overlaps its cache misses better
    /// on one thread, but cannot be split). `prev_rank` is the previous
    /// stage's agent-to-position map.
    pub(crate) fn gather(&mut self, agents: GatherInputs<'_>, prev_rank: &[u32]) {
        let n = self.order.len();
        let s = &mut self.sorted;
        s.facing.resize(n, Vec3::ZERO);
        s.archetype.resize(n, ArchetypeId(0));
        s.faction.resize(n, FactionId(0));
        s.generation.resize(n, 0);
        s.prev.resize(n, u32::MAX);
        s.facing
            .par_iter_mut()
            .zip(s.archetype.par_iter_mut())
            .zip(s.faction.par_iter_mut())
            .zip(s.generation.par_iter_mut())
            .zip(s.prev.par_iter_mut())
            .zip(self.order.par_iter())
            .with_min_len(PAR_MIN)
            .for_each(
                |(((((facing, archetype), faction), generation), prev), &i)| {
                    let i = i as usize;
                    *facing = agents.facings[i];
                    *archetype = agents.archetypes[i];
                    *faction = agents.factions[i];
                    *generation = agents.generations[i];
                    *prev = prev_rank.get(i).copied().unwrap_or(u32::MAX);
                },
            );
    }

    fn axis_cell(&self, v: f32, axis: usize) -> usize {
        let origin = if axis == 0 {
            self.origin.x
        } else {
            self.origin.y
        };
        // Truncation is the floor here: negative and NaN go to cell 0
        // first (and no library call runs per agent).
        let c = (v - origin) * self.inv_cell;
        if c >= 0.0 {
            (c as usize).min(self.dims[axis] - 1)
        } else {
            0
        }
    }

    fn cell_index(&self, p: Vec2) -> usize {
        self.axis_cell(p.y, 1) * self.dims[0] + self.axis_cell(p.x, 0)
    }

    /// The cell holding position `k` in cell order, searching from `from`
    /// (a cell at or before it).
    pub(crate) fn cell_at(&self, k: usize, from: usize) -> usize {
        let mut c = from;
        while self.cell_start[c + 1] as usize <= k {
            c += 1;
        }
        c
    }

    /// The cell holding position `k` in cell order.
    pub(crate) fn cell_of_position(&self, k: usize) -> usize {
        self.cell_start
            .partition_point(|&s| s as usize <= k)
            .saturating_sub(1)
    }

    /// Calls `f` with the range of positions of each row of cells that may
    /// hold an agent within `reach` on X-Z of any point of cell `cell`, and
    /// returns the index of the call whose row holds `cell` itself.
    pub(crate) fn for_each_cell_span(
        &self,
        cell: usize,
        reach: f32,
        f: impl FnMut(std::ops::Range<usize>),
    ) -> usize {
        let (cx, cz) = (cell % self.dims[0], cell / self.dims[0]);
        let h = 1.0 / self.inv_cell;
        let low = self.origin + Vec2::new(cx as f32, cz as f32) * h;
        let z0 = self.for_each_span_in_box((low, low + h), reach, f);
        cz - z0
    }

    /// Calls `f` with the range of positions of each row of cells that may
    /// hold an agent within `reach` on X-Z of `center`: a few agents more
    /// than those in reach, where the spans of its cell hold those in
    /// reach of any point of the cell (about twice as many when the reach
    /// is near the cell size).
    pub(crate) fn for_each_span_near(
        &self,
        center: Vec2,
        reach: f32,
        f: impl FnMut(std::ops::Range<usize>),
    ) {
        if !self.order.is_empty() {
            self.for_each_span_in_box((center, center), reach, f);
        }
    }

    /// Calls `f` with the range of positions of each row of cells that may
    /// hold an agent within `reach` of the box `low..high` on X-Z; returns
    /// the first row's index.
    fn for_each_span_in_box(
        &self,
        (low, high): (Vec2, Vec2),
        reach: f32,
        mut f: impl FnMut(std::ops::Range<usize>),
    ) -> usize {
        let h = 1.0 / self.inv_cell;
        // Slack for the rounding of a position into its cell.
        let magnitude = self.origin.abs().max_element() + low.abs().max_element() + h;
        let reach = reach + h * 1e-3 + magnitude * 8.0 * f32::EPSILON;
        let x0 = self.axis_cell(low.x - reach, 0);
        let x1 = self.axis_cell(high.x + reach, 0);
        let z0 = self.axis_cell(low.y - reach, 1);
        let z1 = self.axis_cell(high.y + reach, 1);
        for z in z0..=z1 {
            let row = z * self.dims[0];
            let start = self.cell_start[row + x0] as usize;
            let end = self.cell_start[row + x1 + 1] as usize;
            f(start..end);
        }
        z0
    }

    /// Calls `f` with the index and position of every agent whose position
    /// lies in the cells [`for_each_cell_span`](Self::for_each_cell_span)
    /// gives for `center`'s cell (a superset of the agents within `reach`
    /// on X-Z).
    #[cfg(test)]
    pub(crate) fn for_each_near(&self, center: Vec2, reach: f32, mut f: impl FnMut(u32, Vec3)) {
        if self.order.is_empty() {
            return;
        }
        self.for_each_cell_span(self.cell_index(center), reach, |span| {
            for k in span {
                f(self.order[k], Vec3::new(self.xs[k], self.ys[k], self.zs[k]));
            }
        });
    }
}

/// The number of live agents and the corners of the X-Z box around them
/// (infinite when none), in parallel.
fn live_extent(positions: &[Vec3], alive: &[bool]) -> (usize, Vec2, Vec2) {
    let none = || {
        (
            0usize,
            Vec2::splat(f32::INFINITY),
            Vec2::splat(f32::NEG_INFINITY),
        )
    };
    positions
        .par_iter()
        .zip(alive.par_iter())
        .with_min_len(PAR_MIN)
        .fold(none, |(n, min, max), (p, &live)| match live {
            true => {
                let h = Vec2::new(p.x, p.z);
                (n + 1, min.min(h), max.max(h))
            }
            false => (n, min, max),
        })
        .reduce(none, |a, b| (a.0 + b.0, a.1.min(b.1), a.2.max(b.2)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_agent_within_reach() {
        let positions: Vec<Vec3> = (0..200)
            .map(|i| {
                let t = i as f32 * 0.37;
                Vec3::new(t.sin() * 40.0, 0.0, (t * 1.7).cos() * 25.0)
            })
            .collect();
        let mut grid = UniformGrid::default();
        grid.rebuild(&positions, &vec![true; positions.len()], 3.0);
        for p in &positions {
            let c = Vec2::new(p.x, p.z);
            let mut found = Vec::new();
            grid.for_each_near(c, 5.0, |i, _| found.push(i));
            for (j, q) in positions.iter().enumerate() {
                if (q.x - p.x).abs() <= 5.0 && (q.z - p.z).abs() <= 5.0 {
                    assert!(found.contains(&(j as u32)));
                }
            }
        }
    }

    #[test]
    fn the_spans_near_a_point_hold_every_agent_within_reach_of_it() {
        let positions: Vec<Vec3> = (0..300)
            .map(|i| {
                let t = i as f32 * 0.61;
                Vec3::new(t.cos() * 30.0 + 5.0, 0.0, (t * 1.3).sin() * 45.0)
            })
            .collect();
        let mut grid = UniformGrid::default();
        grid.rebuild(&positions, &vec![true; positions.len()], 4.0);
        for reach in [0.5, 3.0, 9.0, 40.0] {
            for q in positions.iter().step_by(7) {
                let center = Vec2::new(q.x, q.z);
                let mut found = Vec::new();
                grid.for_each_span_near(center, reach, |span| {
                    found.extend(span.map(|k| grid.order[k]));
                });
                for (j, r) in positions.iter().enumerate() {
                    if Vec2::new(r.x, r.z).distance(center) <= reach {
                        assert!(
                            found.contains(&(j as u32)),
                            "{j} within {reach} of {center}"
                        );
                    }
                }
                let cells_of_whole_cell = {
                    let mut n = 0;
                    grid.for_each_cell_span(grid.cell_index(center), reach, |s| n += s.len());
                    n
                };
                assert!(found.len() <= cells_of_whole_cell);
            }
        }
    }

    #[test]
    fn free_slots_are_left_out() {
        let positions = vec![Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::ONE];
        let mut grid = UniformGrid::default();
        grid.rebuild(&positions, &[true, false, true, false], 3.0);
        assert_eq!(grid.order.len(), 2);
        assert_eq!(grid.rank[1], u32::MAX);
        assert_eq!(grid.rank[3], u32::MAX);
        let mut found = Vec::new();
        grid.for_each_near(Vec2::ZERO, 5.0, |i, _| found.push(i));
        found.sort_unstable();
        assert_eq!(found, [0, 2]);
    }

    #[test]
    fn huge_spread_does_not_explode_cell_count() {
        let positions = vec![Vec3::new(-1e6, 0.0, -1e6), Vec3::new(1e6, 0.0, 1e6)];
        let mut grid = UniformGrid::default();
        grid.rebuild(&positions, &vec![true; positions.len()], 0.5);
        assert!(grid.dims[0] * grid.dims[1] <= 64);
        let mut found = Vec::new();
        grid.for_each_near(Vec2::splat(1e6), 1.0, |i, _| found.push(i));
        assert_eq!(found, vec![1]);
    }
}
