//! Events: [`FogEvent`] (a faction spotted or lost a unit) and [`FogGrid`]'s drain, which
//! compares who sees each re-examined unit now with what was last reported.

use super::FogGrid;
use crate::faction::{FactionId, FactionMask};
use crate::unit::UnitId;

/// A change in who sees a unit, reported by [`FogGrid::drain_events`]. A unit is seen by
/// faction `F` when its tile is visible to `F`; a unit's own faction is never reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FogEvent {
    /// `unit` became visible to faction `by`.
    Spotted {
        /// The unit now seen.
        unit: UnitId,
        /// The faction that now sees it.
        by: FactionId,
    },
    /// `unit` stopped being visible to faction `by` (it, or the last watcher, moved
    /// away or was removed).
    Lost {
        /// The unit no longer seen.
        unit: UnitId,
        /// The faction that no longer sees it.
        by: FactionId,
    },
}

impl FogEvent {
    /// The unit concerned.
    pub fn unit(&self) -> UnitId {
        match *self {
            Self::Spotted { unit, .. } | Self::Lost { unit, .. } => unit,
        }
    }

    /// The faction concerned.
    pub fn by(&self) -> FactionId {
        match *self {
            Self::Spotted { by, .. } | Self::Lost { by, .. } => by,
        }
    }

    /// Drain order: unit, then faction, then `Lost` before `Spotted`.
    fn sort_key(&self) -> (UnitId, FactionId, bool) {
        (self.unit(), self.by(), matches!(self, Self::Spotted { .. }))
    }
}

impl FogGrid {
    /// Appends the events since the last drain to `out`, sorted by unit, then faction
    /// (`Lost` before `Spotted` for a removed and re-added id).
    ///
    /// Events are the difference between who saw each unit at the last drain and now; a
    /// unit that is seen, lost and seen again between two drains yields nothing. Only units
    /// whose tile changed, or whose tile's mask changed, are examined (event-driven: a
    /// tile whose mask flips notifies the units standing on it).
    pub fn drain_events_into(&mut self, out: &mut Vec<FogEvent>) {
        let start = out.len();
        let (units, planes) = (&mut self.units, &self.planes);
        self.occ.drain_dirty(|slot| {
            let u = &mut units[slot as usize];
            if !u.alive {
                return;
            }
            let i = planes.slot(u.tile.0 as usize, u.tile.1 as usize);
            let now = planes.mask(i) & !u.desc.faction.mask().0;
            let changed = FactionMask(now ^ u.reported);
            for by in changed.iter() {
                out.push(if now & by.mask().0 != 0 {
                    FogEvent::Spotted { unit: u.id, by }
                } else {
                    FogEvent::Lost { unit: u.id, by }
                });
            }
            u.reported = now;
        });
        out.append(&mut self.pending);
        out[start..].sort_unstable_by_key(FogEvent::sort_key);
    }

    /// The events since the last drain, sorted; see [`FogGrid::drain_events_into`].
    pub fn drain_events(&mut self) -> Vec<FogEvent> {
        let mut out = Vec::new();
        self.drain_events_into(&mut out);
        out
    }
}
