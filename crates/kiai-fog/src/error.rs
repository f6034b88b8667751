//! [`FogError`]: every way the fog grid rejects its input (grid, configuration, units).

use crate::faction::{FactionId, MAX_FACTIONS};
use crate::grid::GridSpec;
use crate::template::MAX_SIGHT_RADIUS;
use crate::unit::{MAX_UNITS_PER_FACTION, UnitId};

/// Bad input to the fog grid.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum FogError {
    /// Grid sizes out of `1..=32768` or tile size not finite and positive.
    #[error("invalid grid {0:?}: sides must be 1..=32768 tiles, tile size finite and > 0")]
    InvalidGrid(GridSpec),
    /// Faction count out of `1..=32`.
    #[error("faction count must be 1..={MAX_FACTIONS}, got {0}")]
    InvalidFactionCount(u8),
    /// Direction bucket count out of `1..=1024`.
    #[error("direction buckets must be 1..=1024, got {0}")]
    InvalidBuckets(u16),
    /// A unit's faction is not below the configured count.
    #[error("{0} is out of range (the grid has {1} factions)")]
    UnknownFaction(FactionId, u8),
    /// Sight radius not finite or out of `0..=127` tiles.
    #[error("sight radius must be finite and 0..={MAX_SIGHT_RADIUS} tiles, got {0}")]
    InvalidRadius(f32),
    /// Flashlight field of view not finite or out of `(0, 360]` degrees.
    #[error("flashlight field of view must be finite and in (0, 360] degrees, got {0}")]
    InvalidFov(f32),
    /// The unit id is already registered.
    #[error("unit {0:?} is already registered")]
    DuplicateUnit(UnitId),
    /// The unit id is not registered.
    #[error("unit {0:?} is not registered")]
    UnknownUnit(UnitId),
    /// The faction already has [`MAX_UNITS_PER_FACTION`] units.
    #[error("{0} already has {MAX_UNITS_PER_FACTION} units")]
    FactionFull(FactionId),
}
