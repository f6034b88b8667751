//! Queries of [`FogGrid`]: what a faction or a spectator sees of a tile ([`TileState`]),
//! counters, per-faction tile totals, and whole-grid dumps for tools.

use super::FogGrid;
use crate::faction::{FactionId, FactionMask};
use crate::grid::TilePos;

/// What a spectator sees of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum TileState {
    /// Never seen by the spectator's factions (black).
    Unexplored = 0,
    /// Seen before, not now (fogged).
    Explored = 1,
    /// Seen now by at least one of the spectator's factions.
    Visible = 2,
}

impl FogGrid {
    /// True when `faction` sees `tile` now (false off the grid). O(1).
    pub fn is_visible(&self, tile: TilePos, faction: FactionId) -> bool {
        self.visible_mask(tile).contains(faction)
    }

    /// The factions that see `tile` now (empty off the grid). O(1).
    pub fn visible_mask(&self, tile: TilePos) -> FactionMask {
        FactionMask(if self.spec.contains(tile) {
            self.planes
                .mask(self.planes.slot(tile.x as usize, tile.z as usize))
        } else {
            0
        })
    }

    /// The factions that have ever seen `tile` (including those seeing it now).
    pub fn explored_mask(&self, tile: TilePos) -> FactionMask {
        FactionMask(if self.spec.contains(tile) {
            self.planes
                .explored(self.planes.slot(tile.x as usize, tile.z as usize))
        } else {
            0
        })
    }

    /// True when `faction` has ever seen `tile` (it may also see it now).
    pub fn is_explored(&self, tile: TilePos, faction: FactionId) -> bool {
        self.explored_mask(tile).contains(faction)
    }

    /// How many units of `faction` see `tile` now (0 off the grid or for an unknown faction).
    pub fn counter(&self, tile: TilePos, faction: FactionId) -> u16 {
        if !self.spec.contains(tile) || faction.0 >= self.config.factions {
            return 0;
        }
        let i = self.planes.slot(tile.x as usize, tile.z as usize);
        // At most MAX_UNITS_PER_FACTION (u16::MAX) units of a faction exist.
        self.planes.counter(usize::from(faction.0), i) as u16
    }

    /// What a spectator showing the factions in `spectator` (one faction, an alliance, or
    /// [`FactionMask::ALL`]) sees of `tile`.
    pub fn state(&self, tile: TilePos, spectator: FactionMask) -> TileState {
        if self.visible_mask(tile).intersects(spectator) {
            TileState::Visible
        } else if self.explored_mask(tile).intersects(spectator) {
            TileState::Explored
        } else {
            TileState::Unexplored
        }
    }

    /// Tiles `faction` sees now (a running total, O(1)).
    pub fn visible_tile_count(&self, faction: FactionId) -> u32 {
        self.planes
            .visible_count
            .get(usize::from(faction.0))
            .copied()
            .unwrap_or(0)
    }

    /// Tiles `faction` has ever seen (a running total, O(1)).
    pub fn explored_tile_count(&self, faction: FactionId) -> u32 {
        self.planes
            .explored_count
            .get(usize::from(faction.0))
            .copied()
            .unwrap_or(0)
    }

    /// Writes every tile's [`TileState`] as a `u8` (0 unexplored, 1 explored, 2 visible)
    /// for `spectator`, row-major (`z * width + x`), replacing the contents of `out`.
    pub fn write_states(&self, spectator: FactionMask, out: &mut Vec<u8>) {
        out.clear();
        out.extend(self.masks_row_major().map(|(mask, explored)| {
            if mask & spectator.0 != 0 {
                TileState::Visible as u8
            } else if explored & spectator.0 != 0 {
                TileState::Explored as u8
            } else {
                TileState::Unexplored as u8
            }
        }));
    }

    /// Every tile's state for `spectator`, row-major; see [`FogGrid::write_states`].
    pub fn states(&self, spectator: FactionMask) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.spec.tile_count());
        self.write_states(spectator, &mut out);
        out
    }

    /// The per-tile visible masks, row-major (raw access for tools).
    pub fn visible_masks(&self) -> impl ExactSizeIterator<Item = FactionMask> + '_ {
        self.masks_row_major().map(|(m, _)| FactionMask(m))
    }

    /// The per-tile explored masks, row-major (raw access for tools).
    pub fn explored_masks(&self) -> impl ExactSizeIterator<Item = FactionMask> + '_ {
        self.masks_row_major().map(|(_, e)| FactionMask(e))
    }

    /// Number of distinct LOS templates built so far.
    pub fn template_count(&self) -> usize {
        self.templates.len()
    }

    /// Every tile's (visible, explored) masks in row-major tile order.
    fn masks_row_major(&self) -> impl ExactSizeIterator<Item = (u32, u32)> + '_ {
        (0..self.spec.tile_count()).map(|t| (self.planes.mask(t), self.planes.explored(t)))
    }
}
