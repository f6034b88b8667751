//! [`FogGrid`], the fog-of-war grid, and its settings ([`FogConfig`]).
//!
//! This file holds the grid's fields and constructor; its methods are grouped by concern
//! in the submodules:
//!
//! * `units.rs`: add, move and remove units, and what the grid knows about each;
//! * `events.rs`: [`FogEvent`] and the event drain;
//! * `queries.rs`: [`TileState`] and the per-tile and per-faction queries;
//! * `blocking.rs`: marking tiles as blocking sight;
//! * `stamp.rs`: (internal) re-stamping a unit's sight when it moves or turns, through
//!   the cached one-tile move differences or the general per-row span difference.
//!
//! The data they work on lives in the crate's other files: counters and masks in
//! `storage.rs`, who stands where in `occupancy.rs`, span arithmetic in `spans.rs`, move
//! differences in `moves.rs`, the unit lookup in `unit_index.rs`, blocking tiles and their
//! shadows in `shadows.rs`.

mod blocking;
mod events;
mod queries;
mod stamp;
mod units;

use std::collections::BTreeMap;

pub use events::FogEvent;
pub use queries::TileState;

use crate::error::FogError;
use crate::faction::{FactionMask, MAX_FACTIONS};
use crate::grid::GridSpec;
use crate::moves::TemplateEntry;
use crate::occupancy::Occupancy;
use crate::shadows::Blockers;
use crate::spans::AbsSpan;
use crate::storage::Planes;
use crate::template::TemplateKey;
use crate::unit::{Unit, UnitTables};
use crate::unit_index::UnitIndex;

/// Grid-wide settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FogConfig {
    /// Number of factions, `1..=MAX_FACTIONS` (32). Memory is `factions.div_ceil(2)` bytes
    /// per tile (a 4-bit explored-and-counter cell per faction), plus `2 * factions` zeroed
    /// bytes per tile for crowded tiles, touched only where used.
    pub factions: u8,
    /// Direction buckets for flashlights, `1..=1024`: facing is snapped to multiples of
    /// `360° / direction_buckets`; one template per (radius, bucket, fov).
    pub direction_buckets: u16,
    /// When true, blocking tiles cast shadows (see [`crate::template`] for the line rule).
    pub occlusion: bool,
}

impl Default for FogConfig {
    fn default() -> Self {
        Self {
            factions: 8,
            direction_buckets: 16,
            occlusion: false,
        }
    }
}

/// The fog-of-war grid. See the [crate docs](crate) for the vocabulary and an example.
///
/// Every mutation (`add_unit`, `set_pose`, `remove_unit`, `set_blocking`) updates counters,
/// masks and explored bits at once, touching only the tiles that change; events are
/// collected and handed out by [`FogGrid::drain_events`].
///
/// Memory: `factions.div_ceil(2)` bytes per tile, plus `2 * factions` bytes per tile for
/// tiles seen by more than 14 units of one faction (allocated zeroed, so the OS maps in
/// only the pages used), plus about 4.1 bytes per tile for occupancy, plus the template
/// cache: one template per (radius, bucket, fov) in use, each with its precomputed
/// one-tile move differences and, per turn met (old template, new template, move), a
/// cached difference. Everything is deterministic: no hashing, no clocks.
#[derive(Clone, Debug)]
pub struct FogGrid {
    spec: GridSpec,
    config: FogConfig,
    /// Per-tile counters, explored state and masks.
    planes: Planes,
    /// Which unit slots stand on which tile; slots to re-examine at the next drain.
    occ: Occupancy,
    /// Unit slots (a removed unit's slot is dead until reused).
    units: Vec<Unit>,
    /// Per unit slot, its tables (see [`UnitTables`]).
    tables: Vec<UnitTables>,
    /// Dead slots, reused last-freed first.
    free: Vec<u32>,
    /// Unit id -> slot.
    by_id: UnitIndex,
    /// Per faction: registered units (at most `MAX_UNITS_PER_FACTION`).
    faction_units: Vec<u32>,
    /// Templates built so far, in order of first use, with their move differences.
    templates: Vec<TemplateEntry>,
    /// Template key -> index in `templates`.
    template_index: BTreeMap<TemplateKey, u32>,
    /// Blocking tiles.
    blockers: Blockers,
    /// `Lost` events of removed units, handed out at the next drain.
    pending: Vec<FogEvent>,
    /// Reused buffer for the new seen spans of the general re-stamp path.
    scratch: Vec<AbsSpan>,
}

impl FogGrid {
    /// An empty grid: no units, nothing explored, no blocking tiles.
    pub fn new(spec: GridSpec, config: FogConfig) -> Result<Self, FogError> {
        if !spec.is_valid() {
            return Err(FogError::InvalidGrid(spec));
        }
        if !(1..=MAX_FACTIONS).contains(&config.factions) {
            return Err(FogError::InvalidFactionCount(config.factions));
        }
        if !(1..=1024).contains(&config.direction_buckets) {
            return Err(FogError::InvalidBuckets(config.direction_buckets));
        }
        let tiles = spec.tile_count();
        let nf = usize::from(config.factions);
        Ok(Self {
            spec,
            config,
            planes: Planes::new(tiles, spec.width as usize, nf),
            occ: Occupancy::new(tiles),
            units: Vec::new(),
            tables: Vec::new(),
            free: Vec::new(),
            by_id: UnitIndex::default(),
            faction_units: vec![0; nf],
            templates: Vec::new(),
            template_index: BTreeMap::new(),
            blockers: Blockers::new(&spec),
            pending: Vec::new(),
            scratch: Vec::new(),
        })
    }

    /// The grid geometry.
    pub fn spec(&self) -> &GridSpec {
        &self.spec
    }

    /// The grid settings.
    pub fn config(&self) -> &FogConfig {
        &self.config
    }

    /// The mask of every configured faction.
    pub fn all_factions(&self) -> FactionMask {
        FactionMask(u32::MAX >> (32 - u32::from(self.config.factions)))
    }
}
