//! Auto-connect: link waypoints that are close and can see each other.

use glam::Vec3;

use crate::{NavError, WaypointGraph, WaypointId};

/// Options of [`WaypointGraph::auto_connect`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoConnect {
    /// Pairs at most this far apart (world units, > 0, inclusive) are tested.
    pub range: f32,
    /// `true`: each unordered pair is tested once with `line_of_sight(lower
    /// id, higher id)` and linked both ways. `false`: each ordered pair is
    /// tested on its own (`line_of_sight(from, to)`), so a one-way ledge can
    /// be linked in one direction only.
    pub two_way: bool,
    /// Skip inactive waypoints.
    pub active_only: bool,
}

impl WaypointGraph {
    /// Adds links between waypoints within `opts.range` for which
    /// `line_of_sight(from_pos, to_pos)` returns true (an editor passes its
    /// walls). Existing links are kept and not tested again. Pairs are visited
    /// in ascending id order, so the new [`LinkId`](crate::LinkId)s are
    /// deterministic. New links get multiplier 1.0 in every cost list.
    /// Returns the number of links added.
    pub fn auto_connect(
        &mut self,
        opts: &AutoConnect,
        mut line_of_sight: impl FnMut(Vec3, Vec3) -> bool,
    ) -> Result<usize, NavError> {
        let ids: Vec<WaypointId> = self
            .waypoint_ids()
            .filter(|&id| !opts.active_only || self.waypoint(id).is_some_and(|w| w.active))
            .collect();
        let mut added = 0;
        let mut near = Vec::new();
        for &a in &ids {
            let Some(pa) = self.waypoint(a).map(|w| w.pos()) else {
                continue;
            };
            near.clear();
            near.extend(self.waypoints_within(pa, opts.range));
            for &b in &near {
                if b == a
                    || (opts.two_way && b < a)
                    || (opts.active_only && !self.waypoint(b).is_some_and(|w| w.active))
                {
                    continue;
                }
                let Some(pb) = self.waypoint(b).map(|w| w.pos()) else {
                    continue;
                };
                let ab = self.find_link(a, b).is_some();
                let ba = !opts.two_way || self.find_link(b, a).is_some();
                if ab && ba {
                    continue;
                }
                if !line_of_sight(pa, pb) {
                    continue;
                }
                if !ab {
                    self.add_link(a, b)?;
                    added += 1;
                }
                if !ba {
                    self.add_link(b, a)?;
                    added += 1;
                }
            }
        }
        Ok(added)
    }
}
