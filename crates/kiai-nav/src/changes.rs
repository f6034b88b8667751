//! Changing a frozen graph while agents walk it: waypoints switched on and
//! off, links blocked and unblocked (doors, bridges), without freezing
//! again. Costs are updated in place, so searches see the change at once;
//! a search sliced over several calls (`begin`/`update`) should be started
//! again after a change.

use crate::frozen::NONE;
use crate::{NavGraph, WaypointId};

impl NavGraph {
    /// Switches waypoint `id` on or off (article 001 skips inactive waypoints;
    /// searches never enter them). Returns the previous state, or `None`
    /// for an unknown waypoint.
    pub fn set_active(&mut self, id: WaypointId, active: bool) -> Option<bool> {
        let d = self.dense(id)? as usize;
        let was = std::mem::replace(&mut self.active[d], active);
        if was != active {
            let (lo, hi) = (self.rev_first[d] as usize, self.rev_first[d + 1] as usize);
            for r in lo..hi {
                let e = self.rev[r].1 as usize;
                self.reweigh(e);
            }
        }
        Some(was)
    }

    /// The index of link `from -> to`, if it exists.
    fn link_index(&self, from: WaypointId, to: WaypointId) -> Option<usize> {
        let d = self.dense(from)? as usize;
        let t = self.dense(to)?;
        (self.first_out[d] as usize..self.first_out[d + 1] as usize).find(|&e| self.targets[e] == t)
    }

    /// Adds one block to link `from -> to`: it is closed while any block
    /// holds (two doors across one link each hold one). Returns `None` for
    /// a link that does not exist.
    pub fn block_link(&mut self, from: WaypointId, to: WaypointId) -> Option<()> {
        let e = self.link_index(from, to)?;
        self.link_blocks[e] = self.link_blocks[e].saturating_add(1);
        self.reweigh(e);
        Some(())
    }

    /// Removes one block from link `from -> to` (nothing when it holds
    /// none). Returns `None` for a link that does not exist.
    pub fn unblock_link(&mut self, from: WaypointId, to: WaypointId) -> Option<()> {
        let e = self.link_index(from, to)?;
        self.link_blocks[e] = self.link_blocks[e].saturating_sub(1);
        self.reweigh(e);
        Some(())
    }

    /// Whether link `from -> to` is closed by a block; `None` when it does
    /// not exist.
    pub fn is_link_blocked(&self, from: WaypointId, to: WaypointId) -> Option<bool> {
        self.link_index(from, to).map(|e| self.link_blocks[e] > 0)
    }

    /// Whether an agent may walk `from -> to` now: the link exists, is not
    /// blocked and leads to an active waypoint.
    pub fn is_walkable(&self, from: WaypointId, to: WaypointId) -> bool {
        self.link_index(from, to)
            .is_some_and(|e| self.link_blocks[e] == 0 && self.active[self.targets[e] as usize])
    }

    /// Recomputes link `e`'s weighted cost in every cost list: its length
    /// times the list's multiplier, or infinity when it is blocked or leads
    /// into an inactive waypoint.
    fn reweigh(&mut self, e: usize) {
        let m = self.targets.len();
        let t = self.targets[e];
        debug_assert_ne!(t, NONE);
        let open = self.link_blocks[e] == 0 && self.active[t as usize];
        for list in 0..self.list_live.len() {
            let w = if open {
                self.lengths[e] * self.multipliers[list * m + e]
            } else {
                f32::INFINITY
            };
            self.weighted[list * m + e] = (t, w);
        }
    }
}
