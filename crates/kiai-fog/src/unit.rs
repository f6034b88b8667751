//! What a unit is: the public description types ([`UnitId`], [`UnitDesc`], [`SightShape`],
//! [`Pose`]), the per-faction unit limit, and the record the grid keeps per unit slot.

use crate::faction::FactionId;
use crate::spans::AbsSpan;

/// Most units one faction may have: one unit adds at most 1 to a tile's counter, so
/// counters (reported as `u16`) can never overflow.
pub const MAX_UNITS_PER_FACTION: u32 = u16::MAX as u32;

/// A unit, named by the caller: any `u32`, unique among the registered units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitId(pub u32);

/// The shape of a unit's sight; see [`crate::template`] for the exact tile rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SightShape {
    /// All tiles within the sight radius.
    Circle,
    /// A cone around the unit's facing (snapped to a direction bucket), cut to the sight radius.
    Flashlight {
        /// Full opening angle in degrees, finite, in `(0, 360]`.
        fov_deg: f32,
    },
}

/// What a unit is: who it sees for and how far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitDesc {
    /// The faction the unit gives vision to, below `FogConfig::factions`.
    pub faction: FactionId,
    /// Sight radius in tiles, finite, `0..=MAX_SIGHT_RADIUS` (0 sees only its own tile).
    pub sight_radius: f32,
    /// Circle or flashlight.
    pub shape: SightShape,
}

/// Where a unit is and where it looks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// World `[x, z]`; outside the grid it is clamped to the nearest edge tile.
    pub pos: [f32; 2],
    /// Facing in radians from +X towards +Z (any value; only flashlights use it).
    pub facing: f32,
}

impl Pose {
    /// A pose at world `[x, z]` facing `facing` radians.
    pub fn new(pos: [f32; 2], facing: f32) -> Self {
        Self { pos, facing }
    }
}

/// One unit slot of the grid: the unit's description, where it stands, which template it
/// is stamped with and what its faction was last told about it.
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    pub(crate) id: UnitId,
    pub(crate) desc: UnitDesc,
    /// False for a free slot (the unit was removed).
    pub(crate) alive: bool,
    /// Tile `(x, z)` the unit stands on.
    pub(crate) tile: (i32, i32),
    /// Direction bucket (always 0 for circles).
    pub(crate) bucket: u16,
    /// Index of the template the unit is stamped with.
    pub(crate) template: u32,
    /// True when the unit's seen tiles are exactly its template at its tile, clipped to the
    /// grid (nothing occluded); its [`UnitTables::spans`] are then empty.
    pub(crate) full: bool,
    /// The factions last reported (by events) as seeing this unit.
    pub(crate) reported: u32,
}

/// What a unit slot keeps beside its [`Unit`], read only on the slower paths (a new
/// flashlight bucket, an occluded sight). Kept apart so that the record every unit's move
/// reads stays small: the fog stage looks at every unit each tick, and with these two
/// tables inside, the records of 10,000 units took 0.9 MB instead of 0.4 MB.
#[derive(Clone, Debug, Default)]
pub(crate) struct UnitTables {
    /// Flashlights: template index per bucket, `NONE` until first used.
    pub(crate) bucket_templates: Vec<u32>,
    /// When the unit's `full` is false: the tiles it adds to its faction's counters,
    /// sorted by `(z, x0)`.
    pub(crate) spans: Vec<AbsSpan>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record every unit's move reads stays small (it was 88 bytes with the tables
    /// inside); a field added to it should earn its place.
    #[test]
    fn a_units_record_stays_small() {
        assert!(std::mem::size_of::<Unit>() <= 40);
    }
}
