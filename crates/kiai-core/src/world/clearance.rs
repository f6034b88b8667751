//! Which waypoint links are wide enough for which units: every link's
//! clearance (its distance to the nearest wall) measured once, and again
//! near walls that change, before the navigate stage that needs it.

use glam::{Vec2, Vec3};

use crate::data::walls::{Sweep, Wall};
use crate::data::{Movement, RayScratch};

use super::World;

/// Links measured since the last navigate stage must be measured again:
/// all of them, or those near these X-Z boxes (world units).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct StaleClearance {
    /// Everything: new walls, a new graph or a new archetype.
    pub(crate) all: bool,
    /// Boxes around walls that stood up or came down.
    pub(crate) near: Vec<(Vec2, Vec2)>,
}

impl StaleClearance {
    /// Marks the links near `wall` stale.
    pub(crate) fn wall(&mut self, wall: &Wall) {
        if wall.is_finite() {
            self.near
                .push((wall.from.min(wall.to), wall.from.max(wall.to)));
        }
    }
}

impl World {
    /// Measures the clearance of the waypoint links that changes made
    /// stale, up to the largest radius of the world's waypoint walkers
    /// (wider clearances count as unlimited). Without walls every link is
    /// unlimited.
    pub(crate) fn refresh_clearance(&mut self) {
        let stale = std::mem::take(&mut self.stale_clearance);
        let Some(nav) = self.nav.as_mut() else {
            return;
        };
        if !stale.all && stale.near.is_empty() {
            return;
        }
        let Some(walls) = self.occluders.as_ref().map(|o| &o.walls) else {
            nav.clear_clearances();
            return;
        };
        let reach = self
            .archetypes
            .iter()
            .filter(|a| matches!(a.movement, Movement::WaypointWalker { .. }))
            .map(|a| a.radius)
            .fold(0.0f32, f32::max)
            * 1.01
            + 0.01;
        let mut scratch = RayScratch::new();
        let xz = |p: Vec3| Vec2::new(p.x, p.z);
        nav.set_clearances(|from, to| {
            let (lo, hi) = (xz(from).min(xz(to)) - reach, xz(from).max(xz(to)) + reach);
            let near = stale
                .near
                .iter()
                .any(|(a, b)| a.cmple(hi).all() && b.cmpge(lo).all());
            (stale.all || near).then(|| {
                let floor = from.y.min(to.y) + Sweep::STEP_HEIGHT;
                walls.segment_clearance((xz(from), xz(to)), reach, floor, &mut scratch)
            })
        });
    }
}
