//! Blocking tiles in [`FogGrid`]'s API: marking a tile as blocking sight re-stamps the
//! units within reach (the shadows themselves are computed in `shadows.rs`).

use super::FogGrid;
use crate::grid::TilePos;

impl FogGrid {
    /// Marks a tile as blocking sight (or clears it). With [`crate::FogConfig::occlusion`]
    /// on, the units in range are re-stamped at once. Returns false (and does nothing) for a
    /// tile off the grid or already in that state.
    pub fn set_blocking(&mut self, tile: TilePos, blocking: bool) -> bool {
        if !self.blockers.set(&self.spec, tile, blocking) {
            return false;
        }
        if self.config.occlusion {
            let (x, z) = (tile.x as i32, tile.z as i32);
            for slot in 0..self.units.len() {
                let u = &self.units[slot];
                let r = self.templates[u.template as usize].template.reach();
                if u.alive && (u.tile.0 - x).abs() <= r && (u.tile.1 - z).abs() <= r {
                    let (tile, template) = (u.tile, u.template);
                    self.restamp(slot as u32, tile, template);
                }
            }
        }
        true
    }

    /// True when the tile is marked blocking (false off the grid).
    pub fn is_blocking(&self, tile: TilePos) -> bool {
        self.blockers.is_blocking(&self.spec, tile)
    }
}
