//! The agents near one grid cell, copied into contiguous arrays for the
//! kernels.

use super::kernels::BLOCK;
use crate::data::agent_grid::UniformGrid;

/// The agents near one grid cell: everything the agents of that cell test
/// their senses against, their positions copied into contiguous arrays
/// (padded to a multiple of [`BLOCK`] with points at infinity, which no
/// shape contains).
#[derive(Clone, Debug, Default)]
pub(crate) struct Neighbourhood {
    /// The cell, or `usize::MAX` when none is loaded.
    pub(crate) cell: usize,
    pub(crate) xs: Vec<f32>,
    pub(crate) ys: Vec<f32>,
    pub(crate) zs: Vec<f32>,
    /// Per element, its position in cell order.
    pub(crate) pos: Vec<u32>,
    /// Elements, padding included: the first `padded` of `xs`, `ys`, `zs`.
    pub(crate) padded: usize,
    /// Per row of cells: the index of its first element and its first
    /// position in cell order (rows hold consecutive positions).
    rows: Vec<(usize, usize)>,
    /// Index of the element at the first position of the row span holding
    /// the cell, and that position.
    own_row: (usize, usize),
}

impl Neighbourhood {
    pub(crate) fn load(&mut self, grid: &UniformGrid, cell: usize, reach: f32) {
        self.cell = cell;
        self.rows.clear();
        let mut total = 0;
        let own = grid.for_each_cell_span(cell, reach, |span| {
            self.rows.push((total, span.start));
            total += span.len();
        });
        self.own_row = self.rows.get(own).copied().unwrap_or((0, 0));
        // Whole blocks are copied (the grid's arrays have a block of
        // padding at the end), each row's next block overwriting what the
        // last one copied beyond the row: few, predictable iterations.
        // The arrays only grow (no refill on every load); `padded` says how
        // much of them is this neighbourhood.
        let room = total + BLOCK;
        if self.xs.len() < room {
            for axis in [&mut self.xs, &mut self.ys, &mut self.zs] {
                axis.resize(room, 0.0);
            }
            self.pos.resize(room, 0);
        }
        let mut row_end = self.rows.iter().skip(1).map(|r| r.0).chain([total]);
        for &(first, start) in &self.rows {
            let end = row_end.next().unwrap_or(total);
            let (mut m, mut k) = (first, start);
            while m < end {
                for (to, from) in [
                    (&mut self.xs, &grid.xs),
                    (&mut self.ys, &grid.ys),
                    (&mut self.zs, &grid.zs),
                ] {
                    copy_block(&mut to[m..], &from[k..]);
                }
                if let Some(pos) = self.pos[m..].first_chunk_mut::<BLOCK>() {
                    for (e, p) in pos.iter_mut().enumerate() {
                        *p = (k + e) as u32;
                    }
                }
                m += BLOCK;
                k += BLOCK;
            }
        }
        for axis in [&mut self.xs, &mut self.ys, &mut self.zs] {
            if let Some(tail) = axis[total..].first_chunk_mut::<BLOCK>() {
                *tail = [f32::INFINITY; BLOCK];
            }
        }
        self.padded = total.div_ceil(BLOCK) * BLOCK;
    }

    /// The element of the agent at position `k` in cell order (which lies
    /// in the loaded cell).
    pub(crate) fn own(&self, k: usize) -> usize {
        self.own_row.0 + (k - self.own_row.1)
    }
}

/// Copies the first [`BLOCK`] values of `from` to the start of `to` (a
/// fixed-size copy: a few vector moves).
#[inline(always)]
fn copy_block(to: &mut [f32], from: &[f32]) {
    let (Some(to), Some(from)) = (to.first_chunk_mut::<BLOCK>(), from.first_chunk::<BLOCK>())
    else {
        return;
    };
    *to = *from;
}
