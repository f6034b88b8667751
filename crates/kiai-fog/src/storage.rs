//! Per-tile storage: each faction's visibility counter and explored state packed in a
//! 4-bit cell, the exact overflow counts of crowded tiles, the visible and explored masks
//! read off the cells, and the running per-faction tile totals.

use crate::occupancy::Occupancy;

/// Per-tile data, tile-major: each tile owns `factions.div_ceil(2)` bytes, one 4-bit cell
/// per faction (faction `f` in the low nibble of byte `f / 2` when `f` is even, the high
/// one when odd). A cell holds the faction's explored state and counter at once: 0 =
/// never seen, otherwise explored with counter `cell - 1`. A tile's visible and explored
/// masks are read off its cells, so a counter update touches one byte and nothing else,
/// and 8 factions at 512 x 512 tiles take 1 MB, which stays in a 2 MB L2 cache.
///
/// A cell stops at 15 (counter 14): watchers beyond that are kept exactly in `high` (a `u16`
/// plane per faction, touched only for tiles whose cell is saturated, and allocated zeroed
/// so that its untouched pages are never mapped in); `FogGrid::counter` reports
/// `14 + high` there.
///
/// (Earlier layouts, measured slower on the `fog circle` bench: `u16` counter planes plus an
/// 8-byte mask cell per tile (6 MB, two cache misses per update); tile-major blocks of `u8`
/// counters and explored bits (2.4 MB); `u8` counter planes per faction plus
/// visible/explored bit planes; 4-bit counters plus explored bits (1.3 MB); 4 x 4 tile
/// blocks instead of rows.)
#[derive(Clone, Debug)]
pub(crate) struct Planes {
    /// Tiles per row (the grid's width).
    pub(crate) width: usize,
    /// Tiles in the grid.
    tiles: usize,
    /// Bytes per tile: `factions.div_ceil(2)`.
    stride: usize,
    /// Tile blocks of 4-bit cells.
    data: Vec<u8>,
    /// `high[faction * tiles + tile]`: watchers beyond the 14 counted by a saturated cell.
    high: Vec<u16>,
    /// Per faction: how many tiles it sees now.
    pub(crate) visible_count: Vec<u32>,
    /// Per faction: how many tiles it has ever seen.
    pub(crate) explored_count: Vec<u32>,
}

/// Where one faction's data lies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lane {
    /// Byte of the cell inside a tile block.
    byte: usize,
    /// Shift of the cell in that byte (0 or 4).
    shift: u32,
    /// Start of the faction's `high` plane.
    high: usize,
}

impl Planes {
    // The counter loops are branch-free except for the (rare, well predicted) occupied-tile
    // notification and saturation checks: whether a counter crosses 0 <-> 1 is close to
    // random, and a mispredicted branch there would stop the CPU from overlapping the cache
    // misses of the next tiles.

    /// Zeroed storage (nothing seen) for `tiles` tiles, `width` per row, and `factions` factions.
    pub(crate) fn new(tiles: usize, width: usize, factions: usize) -> Self {
        let stride = factions.div_ceil(2);
        Self {
            width,
            tiles,
            stride,
            data: vec![0; tiles * stride],
            high: vec![0; tiles * factions],
            visible_count: vec![0; factions],
            explored_count: vec![0; factions],
        }
    }

    /// Storage slot of tile `(x, z)`.
    #[inline]
    pub(crate) fn slot(&self, x: usize, z: usize) -> usize {
        z * self.width + x
    }

    /// Where faction `f`'s cells and `high` plane lie.
    #[inline]
    pub(crate) fn lane(&self, f: usize) -> Lane {
        Lane {
            byte: f >> 1,
            shift: (f as u32 & 1) * 4,
            high: f * self.tiles,
        }
    }

    /// Bit `f` set when faction `f`'s cell of tile `t` is at least `min`.
    #[inline]
    fn cells_at_least(&self, t: usize, min: u8) -> u32 {
        let b = t * self.stride;
        let cells = &self.data[b..b + self.stride];
        cells.iter().enumerate().fold(0, |m, (i, &n)| {
            let pair = u32::from(n & 0x0f >= min) | u32::from(n >> 4 >= min) << 1;
            m | pair << (2 * i)
        })
    }

    /// The visible mask of tile `t`: bit `f` set when faction `f`'s counter is > 0.
    #[inline]
    pub(crate) fn mask(&self, t: usize) -> u32 {
        self.cells_at_least(t, 2)
    }

    /// The explored mask of tile `t`.
    #[inline]
    pub(crate) fn explored(&self, t: usize) -> u32 {
        self.cells_at_least(t, 1)
    }

    /// Faction `f`'s exact counter on tile `t`.
    pub(crate) fn counter(&self, f: usize, t: usize) -> u32 {
        let lane = self.lane(f);
        let cell = u32::from(self.data[t * self.stride + lane.byte] >> lane.shift) & 15;
        if cell == 15 {
            14 + u32::from(self.high[lane.high + t])
        } else {
            cell.saturating_sub(1)
        }
    }

    /// Adds one to the counter of tile `t` (a row-major index) for `lane`'s faction;
    /// returns (tile became visible, tile became explored) as 0/1.
    #[inline(always)]
    pub(crate) fn add_tile(&mut self, occ: &mut Occupancy, lane: Lane, t: usize) -> (u32, u32) {
        let i = t * self.stride + lane.byte;
        let byte = self.data[i];
        let cell = (byte >> lane.shift) & 15;
        if cell == 15 {
            self.high[lane.high + t] += 1;
            return (0, 0);
        }
        // 0 (never seen) -> 2; 1 (explored, hidden) -> 2; n -> n + 1.
        let fresh = u8::from(cell == 0);
        self.data[i] = byte + ((1 + fresh) << lane.shift);
        let became = cell <= 1;
        // `&`, not `&&`: one well-predicted branch, not one on the near-random `became`.
        if occ.is_occupied(t) & became {
            occ.notify(t);
        }
        (u32::from(became), u32::from(fresh))
    }

    /// Subtracts one from the counter of tile `t` for `lane`'s faction; returns 1 if it
    /// became hidden.
    #[inline(always)]
    pub(crate) fn remove_tile(&mut self, occ: &mut Occupancy, lane: Lane, t: usize) -> u32 {
        let i = t * self.stride + lane.byte;
        let byte = self.data[i];
        let cell = (byte >> lane.shift) & 15;
        if cell == 15 {
            let h = &mut self.high[lane.high + t];
            if *h > 0 {
                *h -= 1;
                return 0;
            }
        }
        self.data[i] = byte - (1 << lane.shift);
        let gone = cell == 2;
        if occ.is_occupied(t) & gone {
            occ.notify(t);
        }
        u32::from(gone)
    }

    /// Adds one to faction `f`'s counters on row `z`, columns `x0..=x1`.
    #[inline]
    pub(crate) fn add(&mut self, occ: &mut Occupancy, f: usize, z: i32, x0: i32, x1: i32) {
        let (t0, t1) = (
            self.slot(x0 as usize, z as usize),
            self.slot(x1 as usize, z as usize),
        );
        let lane = self.lane(f);
        let (mut visible, mut explored) = (0, 0);
        for t in t0..=t1 {
            let (v, e) = self.add_tile(occ, lane, t);
            visible += v;
            explored += e;
        }
        self.visible_count[f] += visible;
        self.explored_count[f] += explored;
    }

    /// Subtracts one from faction `f`'s counters on row `z`, columns `x0..=x1`.
    #[inline]
    pub(crate) fn remove(&mut self, occ: &mut Occupancy, f: usize, z: i32, x0: i32, x1: i32) {
        let (t0, t1) = (
            self.slot(x0 as usize, z as usize),
            self.slot(x1 as usize, z as usize),
        );
        let lane = self.lane(f);
        let mut hidden = 0;
        for t in t0..=t1 {
            hidden += self.remove_tile(occ, lane, t);
        }
        self.visible_count[f] -= hidden;
    }
}
