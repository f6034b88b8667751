//! Clearance: how wide a body may be and still walk a link. The graph
//! knows nothing of walls; the game (or kiai-core, from its walls) measures
//! each link once with [`NavGraph::set_clearances`] and again when walls
//! change, and searches skip links narrower than the filter's
//! `min_clearance` (a unit's radius).

use glam::Vec3;

use crate::{NavGraph, WaypointId};

impl NavGraph {
    /// Measures links: `measure(from, to)` gets the positions of a link's
    /// ends (world units) and returns its clearance, the largest radius
    /// (world units, >= 0; infinity: no limit) of a body that can walk it,
    /// or `None` to keep the link's current value (to re-measure only the
    /// links near a wall that changed). Links are visited in ascending
    /// dense order, so a deterministic `measure` gives the same graph every
    /// time. Until this is called every link's clearance is infinite.
    pub fn set_clearances(&mut self, mut measure: impl FnMut(Vec3, Vec3) -> Option<f32>) {
        for d in 0..self.ids.len() {
            for e in self.first_out[d] as usize..self.first_out[d + 1] as usize {
                if let Some(c) = measure(self.pos[d], self.pos[self.targets[e] as usize]) {
                    self.clearance[e] = if c.is_nan() { 0.0 } else { c.max(0.0) };
                }
            }
        }
        self.narrowest = self.clearance.iter().copied().fold(f32::INFINITY, f32::min);
    }

    /// Every link's clearance back to infinite (no walls).
    pub fn clear_clearances(&mut self) {
        self.clearance.fill(f32::INFINITY);
        self.narrowest = f32::INFINITY;
    }

    /// The clearance of link `from -> to` in world units (see
    /// [`NavGraph::set_clearances`]), if the link exists.
    pub fn link_clearance(&self, from: WaypointId, to: WaypointId) -> Option<f32> {
        let d = self.dense(from)? as usize;
        let t = self.dense(to)?;
        (self.first_out[d] as usize..self.first_out[d + 1] as usize)
            .find(|&e| self.targets[e] == t)
            .map(|e| self.clearance[e])
    }
}
