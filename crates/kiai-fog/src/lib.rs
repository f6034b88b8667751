//! Tile line of sight and fog of war.
//!
//! The world's X-Z plane is cut into square **tiles** ([`GridSpec`]). Each unit belongs to a
//! **faction** ([`FactionId`], up to 32) and sees the tiles of its **LOS template**
//! ([`LosTemplate`]): a circle of sight radius `r` tiles, or a **flashlight** cone whose
//! facing is snapped to one of `N` **direction buckets**. Templates are precomputed as row
//! spans, so stamping a unit costs the tiles it sees, never the map size.
//!
//! Per tile, [`FogGrid`] keeps
//! * a **counter** per faction: how many of that faction's units see the tile (shared
//!   vision; exact up to `u16::MAX`, and a faction may have at most
//!   [`MAX_UNITS_PER_FACTION`] units, so a counter never overflows). Stored with the
//!   explored state in 4 bits per faction, the excess over 14 kept apart for crowded tiles;
//! * a **visible mask** ([`FactionMask`], bit `f` = counter of `f` > 0) for O(1)
//!   "does `F` see this?" and for **spectators**: one faction, an alliance (several bits) or all;
//! * an **explored mask**: bit `f` stays set once `f` has seen the tile, so a tile is
//!   [`TileState::Visible`], [`TileState::Explored`] (seen before, fogged now) or
//!   [`TileState::Unexplored`].
//!
//! Updates are **incremental**: [`FogGrid::set_pose`] re-stamps a unit only when it changes
//! tile or direction bucket, and then touches only the tiles entering or leaving its sight
//! (per-row span difference). With [`FogConfig::occlusion`], **blocking** tiles cast
//! shadows by a per-tile line test (exact rule in [`template`]).
//!
//! Instead of polling, a tile whose mask changes notifies the units standing on it, and a
//! unit entering a tile checks it; [`FogGrid::drain_events`] then reports [`FogEvent::Spotted`]
//! and [`FogEvent::Lost`] (never for a unit's own faction), sorted by unit and faction.
//!
//! ```
//! use kiai_fog::*;
//!
//! // 32 x 32 tiles of 2 world units; 2 factions.
//! let spec = GridSpec::new(32, 32, 2.0);
//! let mut fog = FogGrid::new(spec, FogConfig { factions: 2, ..FogConfig::default() })?;
//! let (red, blue) = (FactionId(0), FactionId(1));
//! let scout = UnitDesc { faction: red, sight_radius: 4.0, shape: SightShape::Circle };
//! let spy = UnitDesc { faction: blue, sight_radius: 1.0, shape: SightShape::Circle };
//!
//! fog.add_unit(UnitId(1), scout, Pose::new([5.0, 5.0], 0.0))?; // tile (2, 2)
//! fog.add_unit(UnitId(2), spy, Pose::new([41.0, 5.0], 0.0))?; // tile (20, 2), far away
//! assert!(fog.is_visible(TilePos::new(6, 2), red)); // 4 tiles east: on the circle
//! assert!(!fog.is_visible(TilePos::new(7, 2), red));
//! assert!(fog.drain_events().is_empty());
//!
//! // The spy walks into red's sight: red spots it. The scout leaves, its trail stays explored.
//! fog.set_pose(UnitId(2), Pose::new([13.0, 5.0], 0.0))?; // tile (6, 2)
//! assert_eq!(fog.drain_events(), vec![FogEvent::Spotted { unit: UnitId(2), by: red }]);
//! fog.set_pose(UnitId(1), Pose::new([5.0, 55.0], 0.0))?; // tile (2, 27)
//! assert_eq!(fog.drain_events(), vec![FogEvent::Lost { unit: UnitId(2), by: red }]);
//! assert_eq!(fog.state(TilePos::new(2, 2), red.mask()), TileState::Explored);
//! assert_eq!(fog.state(TilePos::new(2, 27), red.mask()), TileState::Visible);
//! assert_eq!(fog.state(TilePos::new(30, 30), FactionMask::ALL), TileState::Unexplored);
//! # Ok::<(), FogError>(())
//! ```
//!
//! # Where things are
//!
//! Public vocabulary:
//! * `grid.rs`: [`GridSpec`], [`TilePos`], world <-> tile conversion;
//! * `faction.rs`: [`FactionId`], [`FactionMask`];
//! * `unit.rs`: [`UnitId`], [`UnitDesc`], [`SightShape`], [`Pose`], [`MAX_UNITS_PER_FACTION`]
//!   (and what the grid keeps per unit slot: a small record every move reads, and the
//!   tables beside it that only the slower paths read);
//! * `template.rs` (public module [`template`]): [`LosTemplate`], the exact visibility and
//!   occlusion rules, direction buckets;
//! * `error.rs`: [`FogError`].
//!
//! The grid, [`FogGrid`], is `fog.rs` (fields, constructor, [`FogConfig`]) with its methods
//! grouped in `fog/`: `units.rs` (add, move, remove units), `events.rs` ([`FogEvent`], the
//! drain), `queries.rs` ([`TileState`], tile and faction queries), `blocking.rs` (blocking
//! tiles) and `stamp.rs` (re-stamping a unit's sight, choosing the cheapest path).
//!
//! Internals the grid is built from:
//! * `storage.rs`: per-tile counters, explored state and masks (4-bit cells per faction);
//! * `occupancy.rs`: which units stand on which tile, and which to re-examine for events
//!   (and `NONE`, the "no slot" sentinel);
//! * `spans.rs`: row spans and their per-row difference, applied to the counters;
//! * `moves.rs`: the template cache entries with their precomputed one-tile move and turn
//!   differences;
//! * `shadows.rs`: blocking tiles and the tiles a unit sees once clipped and shadowed;
//! * `unit_index.rs`: unit id -> slot lookup.
//!
//! Modules import one way, from the vocabulary up through occupancy, storage, spans, what
//! is stamped (units, the template cache, shadows) to the grid: `tests/layers.rs` holds
//! the order and fails on an import that runs back up.
//!
//! With the `bench` feature, `bench.rs` (public module `bench`) times the grid against a
//! naive per-tick rebuild.

mod error;
mod faction;
mod fog;
mod grid;
mod moves;
mod occupancy;
mod shadows;
mod spans;
mod storage;
pub mod template;
mod unit;
mod unit_index;

pub use error::FogError;
pub use faction::{FactionId, FactionMask, MAX_FACTIONS};
pub use fog::{FogConfig, FogEvent, FogGrid, TileState};
pub use grid::{GridSpec, MAX_GRID_SIDE, TilePos};
pub use template::{LosTemplate, MAX_SIGHT_RADIUS, RowSpan, direction_bucket};
pub use unit::{MAX_UNITS_PER_FACTION, Pose, SightShape, UnitDesc, UnitId};
