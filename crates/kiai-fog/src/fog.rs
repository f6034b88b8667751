//! The fog-of-war grid: counters, masks, explored bits, units, incremental stamping, events.

use std::collections::BTreeMap;

use crate::faction::{FactionId, FactionMask, MAX_FACTIONS};
use crate::grid::{GridSpec, TilePos};
use crate::template::{LosTemplate, MAX_SIGHT_RADIUS, TemplateKey, direction_bucket, reach_sq};

/// "No slot" in the occupancy lists and template tables.
const NONE: u32 = u32::MAX;
/// Side of the blocker-count chunks used to skip occlusion work on open ground, as a shift (8 tiles).
const CHUNK_SHIFT: u32 = 3;
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
    /// The faction the unit gives vision to, below [`FogConfig::factions`].
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

/// What a spectator sees of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum TileState {
    /// Never seen by the spectator's factions (black).
    Unexplored = 0,
    /// Seen before, not now (fogged).
    Explored = 1,
    /// Seen now by at least one of the spectator's factions.
    Visible = 2,
}

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

/// A stamped run of tiles in grid coordinates: row `z`, columns `x0..=x1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AbsSpan {
    z: i32,
    x0: i32,
    x1: i32,
}

#[derive(Clone, Debug)]
struct Unit {
    id: UnitId,
    desc: UnitDesc,
    alive: bool,
    tile: (i32, i32),
    bucket: u16,
    template: u32,
    /// Flashlights: template index per bucket, `NONE` until first used.
    bucket_templates: Vec<u32>,
    /// True when the unit's seen tiles are exactly its template at its tile, clipped to the
    /// grid (nothing occluded); `spans` is then empty.
    full: bool,
    /// Otherwise: the tiles this unit adds to its faction's counters, sorted by `(z, x0)`.
    spans: Vec<AbsSpan>,
    /// The factions last reported (by events) as seeing this unit.
    reported: u32,
}

/// Per-tile data, tile-major: each tile owns `factions.div_ceil(2)` bytes, one 4-bit cell
/// per faction (faction `f` in the low nibble of byte `f / 2` when `f` is even, the high
/// one when odd). A cell holds the faction's explored state and counter at once: 0 =
/// never seen, otherwise explored with counter `cell - 1`. A tile's visible and explored
/// masks are read off its cells, so a counter update touches one byte and nothing else,
/// and 8 factions at 512 x 512 tiles take 1 MB, which stays in a 2 MB L2 cache.
///
/// A cell stops at 15 (counter 14): watchers beyond that are kept exactly in `high` (a `u16`
/// plane per faction, touched only for tiles whose cell is saturated, and allocated zeroed
/// so that its untouched pages are never mapped in); [`FogGrid::counter`] reports
/// `14 + high` there.
///
/// (Earlier layouts, measured slower on the `fog circle` bench: `u16` counter planes plus an
/// 8-byte mask cell per tile (6 MB, two cache misses per update); tile-major blocks of `u8`
/// counters and explored bits (2.4 MB); `u8` counter planes per faction plus
/// visible/explored bit planes; 4-bit counters plus explored bits (1.3 MB); 4 x 4 tile
/// blocks instead of rows.)
#[derive(Clone, Debug)]
struct Planes {
    width: usize,
    /// Tiles in the grid.
    tiles: usize,
    /// Bytes per tile: `factions.div_ceil(2)`.
    stride: usize,
    /// Tile blocks of 4-bit cells.
    data: Vec<u8>,
    /// `high[faction * tiles + tile]`: watchers beyond the 14 counted by a saturated cell.
    high: Vec<u16>,
    visible_count: Vec<u32>,
    explored_count: Vec<u32>,
}

/// Where one faction's data lies.
#[derive(Clone, Copy, Debug)]
struct Lane {
    /// Byte of the cell inside a tile block.
    byte: usize,
    /// Shift of the cell in that byte (0 or 4).
    shift: u32,
    /// Start of the faction's `high` plane.
    high: usize,
}
/// Which units stand on which tile (intrusive doubly linked lists), and the units whose
/// tile's mask changed since the last drain. `occupied` (one bit per tile, small enough to
/// stay in cache) spares the counter loops a look at `head` for the many empty tiles.
#[derive(Clone, Debug)]
struct Occupancy {
    head: Vec<u32>,
    occupied: Vec<u64>,
    next: Vec<u32>,
    prev: Vec<u32>,
    dirty: Vec<bool>,
    dirty_list: Vec<u32>,
}

impl Occupancy {
    fn mark(&mut self, slot: u32) {
        let d = &mut self.dirty[slot as usize];
        if !*d {
            *d = true;
            self.dirty_list.push(slot);
        }
    }

    #[inline]
    fn is_occupied(&self, tile: usize) -> bool {
        self.occupied[tile >> 6] & (1 << (tile & 63)) != 0
    }

    /// A tile's mask changed: every unit standing on it must re-check who sees it.
    #[inline]
    fn notify(&mut self, tile: usize) {
        let mut s = self.head[tile];
        while s != NONE {
            self.mark(s);
            s = self.next[s as usize];
        }
    }

    fn link(&mut self, slot: u32, tile: usize) {
        // Most tiles are empty: skip the (likely cache-missing) load of their list head.
        let h = if self.is_occupied(tile) {
            self.head[tile]
        } else {
            NONE
        };
        self.next[slot as usize] = h;
        self.prev[slot as usize] = NONE;
        if h != NONE {
            self.prev[h as usize] = slot;
        }
        self.head[tile] = slot;
        self.occupied[tile >> 6] |= 1 << (tile & 63);
    }

    fn unlink(&mut self, slot: u32, tile: usize) {
        let (p, n) = (self.prev[slot as usize], self.next[slot as usize]);
        if p == NONE {
            self.head[tile] = n;
            if n == NONE {
                self.occupied[tile >> 6] &= !(1 << (tile & 63));
            }
        } else {
            self.next[p as usize] = n;
        }
        if n != NONE {
            self.prev[n as usize] = p;
        }
    }
}

impl Planes {
    // The counter loops are branch-free except for the (rare, well predicted) occupied-tile
    // notification and saturation checks: whether a counter crosses 0 <-> 1 is close to
    // random, and a mispredicted branch there would stop the CPU from overlapping the cache
    // misses of the next tiles.

    fn new(tiles: usize, width: usize, factions: usize) -> Self {
        let stride = factions.div_ceil(2);
        Self {
            width,
            tiles,
            stride,
            data: vec![0; tiles * stride],
            high: vec![0; tiles * factions],
            visible_count: vec![0; factions],
            explored_count: vec![0; factions],
        }
    }

    /// Storage slot of tile `(x, z)`.
    #[inline]
    fn slot(&self, x: usize, z: usize) -> usize {
        z * self.width + x
    }

    #[inline]
    fn lane(&self, f: usize) -> Lane {
        Lane {
            byte: f >> 1,
            shift: (f as u32 & 1) * 4,
            high: f * self.tiles,
        }
    }

    /// Bit `f` set when faction `f`'s cell of tile `t` is at least `min`.
    #[inline]
    fn cells_at_least(&self, t: usize, min: u8) -> u32 {
        let b = t * self.stride;
        let cells = &self.data[b..b + self.stride];
        cells.iter().enumerate().fold(0, |m, (i, &n)| {
            let pair = u32::from(n & 0x0f >= min) | u32::from(n >> 4 >= min) << 1;
            m | pair << (2 * i)
        })
    }

    /// The visible mask of tile `t`: bit `f` set when faction `f`'s counter is > 0.
    #[inline]
    fn mask(&self, t: usize) -> u32 {
        self.cells_at_least(t, 2)
    }

    /// The explored mask of tile `t`.
    #[inline]
    fn explored(&self, t: usize) -> u32 {
        self.cells_at_least(t, 1)
    }

    /// Faction `f`'s exact counter on tile `t`.
    fn counter(&self, f: usize, t: usize) -> u32 {
        let lane = self.lane(f);
        let cell = u32::from(self.data[t * self.stride + lane.byte] >> lane.shift) & 15;
        if cell == 15 {
            14 + u32::from(self.high[lane.high + t])
        } else {
            cell.saturating_sub(1)
        }
    }

    /// Adds one to the counter of tile `t` (a row-major index) for `lane`'s faction;
    /// returns (tile became visible, tile became explored) as 0/1.
    #[inline(always)]
    fn add_tile(&mut self, occ: &mut Occupancy, lane: Lane, t: usize) -> (u32, u32) {
        let i = t * self.stride + lane.byte;
        let byte = self.data[i];
        let cell = (byte >> lane.shift) & 15;
        if cell == 15 {
            self.high[lane.high + t] += 1;
            return (0, 0);
        }
        // 0 (never seen) -> 2; 1 (explored, hidden) -> 2; n -> n + 1.
        let fresh = u8::from(cell == 0);
        self.data[i] = byte + ((1 + fresh) << lane.shift);
        let became = cell <= 1;
        // `&`, not `&&`: one well-predicted branch, not one on the near-random `became`.
        if occ.is_occupied(t) & became {
            occ.notify(t);
        }
        (u32::from(became), u32::from(fresh))
    }

    /// Subtracts one from the counter of tile `t` for `lane`'s faction; returns 1 if it
    /// became hidden.
    #[inline(always)]
    fn remove_tile(&mut self, occ: &mut Occupancy, lane: Lane, t: usize) -> u32 {
        let i = t * self.stride + lane.byte;
        let byte = self.data[i];
        let cell = (byte >> lane.shift) & 15;
        if cell == 15 {
            let h = &mut self.high[lane.high + t];
            if *h > 0 {
                *h -= 1;
                return 0;
            }
        }
        self.data[i] = byte - (1 << lane.shift);
        let gone = cell == 2;
        if occ.is_occupied(t) & gone {
            occ.notify(t);
        }
        u32::from(gone)
    }

    /// Adds one to faction `f`'s counters on row `z`, columns `x0..=x1`.
    fn add(&mut self, occ: &mut Occupancy, f: usize, z: i32, x0: i32, x1: i32) {
        let (t0, t1) = (
            self.slot(x0 as usize, z as usize),
            self.slot(x1 as usize, z as usize),
        );
        let lane = self.lane(f);
        let (mut visible, mut explored) = (0, 0);
        for t in t0..=t1 {
            let (v, e) = self.add_tile(occ, lane, t);
            visible += v;
            explored += e;
        }
        self.visible_count[f] += visible;
        self.explored_count[f] += explored;
    }

    /// Subtracts one from faction `f`'s counters on row `z`, columns `x0..=x1`.
    fn remove(&mut self, occ: &mut Occupancy, f: usize, z: i32, x0: i32, x1: i32) {
        let (t0, t1) = (
            self.slot(x0 as usize, z as usize),
            self.slot(x1 as usize, z as usize),
        );
        let lane = self.lane(f);
        let mut hidden = 0;
        for t in t0..=t1 {
            hidden += self.remove_tile(occ, lane, t);
        }
        self.visible_count[f] -= hidden;
    }
}

/// Calls `emit(x0, x1)` for each maximal run of `a` not covered by `b` (one row each,
/// both sorted, disjoint).
#[inline]
fn row_difference(a: &[AbsSpan], b: &[AbsSpan], mut emit: impl FnMut(i32, i32)) {
    let mut j = 0;
    for s in a {
        while j < b.len() && b[j].x1 < s.x0 {
            j += 1;
        }
        let mut cur = s.x0;
        let mut k = j;
        while cur <= s.x1 {
            if k < b.len() && b[k].x0 <= s.x1 {
                if b[k].x0 > cur {
                    emit(cur, b[k].x0 - 1);
                }
                cur = cur.max(b[k].x1 + 1);
                k += 1;
            } else {
                emit(cur, s.x1);
                break;
            }
        }
    }
}

/// Calls `emit(added, z, x0, x1)` for the runs in `old` but not `new` (`added` false) and
/// in `new` but not `old` (`added` true), row by row. Both lists sorted by `(z, x0)`.
fn diff_spans(old: &[AbsSpan], new: &[AbsSpan], mut emit: impl FnMut(bool, i32, i32, i32)) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let z = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) => a.z.min(b.z),
            (Some(a), None) => a.z,
            (None, Some(b)) => b.z,
            (None, None) => break,
        };
        let i_end = i + old[i..].iter().take_while(|s| s.z == z).count();
        let j_end = j + new[j..].iter().take_while(|s| s.z == z).count();
        let (o, n) = (&old[i..i_end], &new[j..j_end]);
        if o != n {
            row_difference(o, n, |x0, x1| emit(false, z, x0, x1));
            row_difference(n, o, |x0, x1| emit(true, z, x0, x1));
        }
        i = i_end;
        j = j_end;
    }
}

/// Moves faction `f`'s contribution from `old` to `new`, touching only tiles in one but not both.
fn apply_diff(
    planes: &mut Planes,
    occ: &mut Occupancy,
    f: usize,
    old: &[AbsSpan],
    new: &[AbsSpan],
) {
    diff_spans(old, new, |added, z, x0, x1| {
        if added {
            planes.add(occ, f, z, x0, x1);
        } else {
            planes.remove(occ, f, z, x0, x1);
        }
    });
}

/// What changes when an unoccluded template moves by one tile: the tiles leaving and
/// entering sight, as row-major offsets from the unit's old tile, and again as `(dx, dz)`
/// for units near the edge (clipping to the grid commutes with the difference).
#[derive(Clone, Debug, Default)]
struct ShiftDiff {
    removed: Vec<isize>,
    added: Vec<isize>,
    removed_xz: Vec<[i16; 2]>,
    added_xz: Vec<[i16; 2]>,
}

/// Which cached difference [`FogGrid::apply_move`] applies.
#[derive(Clone, Copy, Debug)]
enum MoveDiff {
    /// `shifts[k]` of the template.
    Shift(usize),
    /// `turns[k]` of the old template.
    Turn(usize),
}

/// A cached template plus its one-tile move differences for this grid's width.
#[derive(Clone, Debug)]
struct TemplateEntry {
    template: LosTemplate,
    /// Index `(sx + 1) * 3 + (sz + 1)` for a move by `(sx, sz)` in `-1..=1`; offsets are
    /// relative to the unit's old tile.
    shifts: Vec<ShiftDiff>,
    /// Turns (changes of template, e.g. flashlight bucket) with a move of at most one tile:
    /// the difference to (template index, shift index), built on first use, sorted by key.
    turns: Vec<((u32, u8), ShiftDiff)>,
}

/// The difference between two template span lists placed at `(0, 0)` and `(sx, sz)`, as
/// row-major offsets from `(0, 0)`.
fn offsets_diff(from: &LosTemplate, to: &LosTemplate, sx: i32, sz: i32, width: usize) -> ShiftDiff {
    let rel = |t: &LosTemplate, sx: i32, sz: i32| -> Vec<AbsSpan> {
        let spans = t.spans().iter();
        spans
            .map(|s| AbsSpan {
                z: s.dz + sz,
                x0: s.x0 + sx,
                x1: s.x1 + sx,
            })
            .collect()
    };
    let mut d = ShiftDiff::default();
    diff_spans(&rel(from, 0, 0), &rel(to, sx, sz), |added, z, x0, x1| {
        let row = z as isize * width as isize;
        let tiles = (x0..=x1).map(|x| row + x as isize);
        // Offsets are within 2 * MAX_SIGHT_RADIUS + 1 of the unit: they fit `i16`.
        let xz = (x0..=x1).map(|x| [x as i16, z as i16]);
        if added {
            d.added.extend(tiles);
            d.added_xz.extend(xz);
        } else {
            d.removed.extend(tiles);
            d.removed_xz.extend(xz);
        }
    });
    d
}

/// Applies precomputed offsets around tile `centre` (x, z) for faction `f`, skipping the
/// tiles off the grid (for units near the edge).
fn apply_offsets_clipped(
    planes: &mut Planes,
    occ: &mut Occupancy,
    f: usize,
    (grid_w, grid_h): (i32, i32),
    centre: (i32, i32),
    diff: &ShiftDiff,
) {
    let (lane, width) = (planes.lane(f), planes.width);
    let on_grid = |d: &[i16; 2]| {
        let (x, z) = (centre.0 + i32::from(d[0]), centre.1 + i32::from(d[1]));
        (x >= 0 && x < grid_w && z >= 0 && z < grid_h).then(|| z as usize * width + x as usize)
    };
    let mut hidden = 0;
    for t in diff.removed_xz.iter().filter_map(on_grid) {
        hidden += planes.remove_tile(occ, lane, t);
    }
    let (mut visible, mut explored) = (0, 0);
    for t in diff.added_xz.iter().filter_map(on_grid) {
        let (v, e) = planes.add_tile(occ, lane, t);
        visible += v;
        explored += e;
    }
    planes.visible_count[f] = planes.visible_count[f] + visible - hidden;
    planes.explored_count[f] += explored;
}

/// Applies precomputed offsets around row-major tile `centre` for faction `f`.
fn apply_offsets(
    planes: &mut Planes,
    occ: &mut Occupancy,
    f: usize,
    centre: isize,
    diff: &ShiftDiff,
) {
    let lane = planes.lane(f);
    let mut hidden = 0;
    for &off in &diff.removed {
        hidden += planes.remove_tile(occ, lane, (centre + off) as usize);
    }
    let (mut visible, mut explored) = (0, 0);
    for &off in &diff.added {
        let (v, e) = planes.add_tile(occ, lane, (centre + off) as usize);
        visible += v;
        explored += e;
    }
    planes.visible_count[f] = planes.visible_count[f] + visible - hidden;
    planes.explored_count[f] += explored;
}

impl TemplateEntry {
    fn new(template: LosTemplate, width: usize) -> Self {
        let mut shifts = Vec::with_capacity(9);
        for sx in -1..=1 {
            for sz in -1..=1 {
                shifts.push(offsets_diff(&template, &template, sx, sz, width));
            }
        }
        Self {
            template,
            shifts,
            turns: Vec::new(),
        }
    }
}

/// Unit id -> slot: a table indexed by id for ids below [`DENSE_IDS`] (O(1), 4 bytes per
/// id up to the largest one used), an ordered map above.
#[derive(Clone, Debug, Default)]
struct UnitIndex {
    dense: Vec<u32>,
    sparse: BTreeMap<UnitId, u32>,
    len: usize,
}

/// Ids below this use the direct lookup table.
const DENSE_IDS: u32 = 1 << 20;

impl UnitIndex {
    #[inline]
    fn get(&self, id: UnitId) -> Option<u32> {
        match self.dense.get(id.0 as usize) {
            Some(&s) => (s != NONE).then_some(s),
            None if id.0 < DENSE_IDS => None,
            None => self.sparse.get(&id).copied(),
        }
    }

    fn insert(&mut self, id: UnitId, slot: u32) {
        if id.0 < DENSE_IDS {
            let i = id.0 as usize;
            if self.dense.len() <= i {
                self.dense.resize(i + 1, NONE);
            }
            self.dense[i] = slot;
        } else {
            self.sparse.insert(id, slot);
        }
        self.len += 1;
    }

    fn remove(&mut self, id: UnitId) -> Option<u32> {
        let slot = if id.0 < DENSE_IDS {
            let s = self.dense.get_mut(id.0 as usize)?;
            std::mem::replace(s, NONE)
        } else {
            self.sparse.remove(&id)?
        };
        if slot == NONE {
            return None;
        }
        self.len -= 1;
        Some(slot)
    }

    /// All ids in increasing order.
    fn ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        let dense = self
            .dense
            .iter()
            .enumerate()
            .filter(|(_, s)| **s != NONE)
            .map(|(i, _)| UnitId(i as u32));
        dense.chain(self.sparse.keys().copied())
    }
}

/// Blocking tiles plus per-chunk counts to skip the line test on open ground.
#[derive(Clone, Debug)]
struct Blockers {
    tiles: Vec<bool>,
    chunk_w: usize,
    chunks: Vec<u32>,
}

impl Blockers {
    fn any_in(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> bool {
        let (cx0, cx1) = ((x0 as usize) >> CHUNK_SHIFT, (x1 as usize) >> CHUNK_SHIFT);
        let (cz0, cz1) = ((z0 as usize) >> CHUNK_SHIFT, (z1 as usize) >> CHUNK_SHIFT);
        (cz0..=cz1).any(|cz| {
            self.chunks[cz * self.chunk_w + cx0..=cz * self.chunk_w + cx1]
                .iter()
                .any(|&c| c > 0)
        })
    }
}

/// Fills `out` with the tiles a unit on `tile` sees through `template` on this map:
/// the template shifted and clipped to the grid, minus occluded tiles when `blockers` is given.
fn visible_spans(
    spec: &GridSpec,
    template: &LosTemplate,
    tile: (i32, i32),
    blockers: Option<&Blockers>,
    out: &mut Vec<AbsSpan>,
) {
    out.clear();
    let (w, h) = (spec.width as i32, spec.height as i32);
    let (ux, uz) = tile;
    let r = template.reach();
    let blockers = blockers.filter(|b| {
        b.any_in(
            (ux - r).max(0),
            (uz - r).max(0),
            (ux + r).min(w - 1),
            (uz + r).min(h - 1),
        )
    });
    let (Some(b), Some(ld)) = (blockers, template.line_deps.as_ref()) else {
        for s in template.spans() {
            let z = uz + s.dz;
            let (x0, x1) = ((ux + s.x0).max(0), (ux + s.x1).min(w - 1));
            if z >= 0 && z < h && x0 <= x1 {
                out.push(AbsSpan { z, x0, x1 });
            }
        }
        return;
    };
    let width = spec.width as usize;
    let mut k = 0usize;
    for s in template.spans() {
        let z = uz + s.dz;
        let len = (s.x1 - s.x0 + 1) as usize;
        if z < 0 || z >= h {
            k += len;
            continue;
        }
        let mut run: Option<i32> = None;
        for dx in s.x0..=s.x1 {
            let x = ux + dx;
            let seen = x >= 0 && x < w && {
                let deps = &ld.deps[ld.start[k] as usize..ld.start[k + 1] as usize];
                deps.iter().all(|d| {
                    let t =
                        (uz + i32::from(d[1])) as usize * width + (ux + i32::from(d[0])) as usize;
                    !b.tiles[t]
                })
            };
            k += 1;
            match (seen, run) {
                (true, None) => run = Some(x),
                (false, Some(x0)) => {
                    out.push(AbsSpan { z, x0, x1: x - 1 });
                    run = None;
                }
                _ => {}
            }
        }
        if let Some(x0) = run {
            out.push(AbsSpan {
                z,
                x0,
                x1: (ux + s.x1).min(w - 1),
            });
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
    planes: Planes,
    occ: Occupancy,
    units: Vec<Unit>,
    free: Vec<u32>,
    by_id: UnitIndex,
    faction_units: Vec<u32>,
    templates: Vec<TemplateEntry>,
    template_index: BTreeMap<TemplateKey, u32>,
    blockers: Blockers,
    pending: Vec<FogEvent>,
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
        let chunk_w = ((spec.width as usize - 1) >> CHUNK_SHIFT) + 1;

        let chunk_h = ((spec.height as usize - 1) >> CHUNK_SHIFT) + 1;
        Ok(Self {
            spec,
            config,
            planes: Planes::new(tiles, spec.width as usize, nf),
            occ: Occupancy {
                head: vec![NONE; tiles],
                occupied: vec![0; tiles.div_ceil(64)],
                next: Vec::new(),
                prev: Vec::new(),
                dirty: Vec::new(),
                dirty_list: Vec::new(),
            },
            units: Vec::new(),
            free: Vec::new(),
            by_id: UnitIndex::default(),
            faction_units: vec![0; nf],
            templates: Vec::new(),
            template_index: BTreeMap::new(),
            blockers: Blockers {
                tiles: vec![false; tiles],
                chunk_w,
                chunks: vec![0; chunk_w * chunk_h],
            },
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

    // ----- units -----

    /// Registers a unit at `pose` and stamps its sight at once.
    pub fn add_unit(&mut self, id: UnitId, desc: UnitDesc, pose: Pose) -> Result<(), FogError> {
        if desc.faction.0 >= self.config.factions {
            return Err(FogError::UnknownFaction(desc.faction, self.config.factions));
        }
        if !desc.sight_radius.is_finite() || !(0.0..=MAX_SIGHT_RADIUS).contains(&desc.sight_radius)
        {
            return Err(FogError::InvalidRadius(desc.sight_radius));
        }
        if let SightShape::Flashlight { fov_deg } = desc.shape
            && !(fov_deg.is_finite() && fov_deg > 0.0 && fov_deg <= 360.0)
        {
            return Err(FogError::InvalidFov(fov_deg));
        }
        if self.by_id.get(id).is_some() {
            return Err(FogError::DuplicateUnit(id));
        }
        let f = usize::from(desc.faction.0);
        if self.faction_units[f] >= MAX_UNITS_PER_FACTION {
            return Err(FogError::FactionFull(desc.faction));
        }
        self.faction_units[f] += 1;

        let t = self.spec.tile_at_clamped(pose.pos);
        let tile = (t.x as i32, t.z as i32);
        let (bucket, bucket_templates) = match desc.shape {
            SightShape::Circle => (0, Vec::new()),
            SightShape::Flashlight { .. } => (
                direction_bucket(pose.facing, self.config.direction_buckets),
                vec![NONE; usize::from(self.config.direction_buckets)],
            ),
        };
        let unit = Unit {
            id,
            desc,
            alive: true,
            tile,
            bucket,
            template: NONE,
            bucket_templates,
            full: false,
            spans: Vec::new(),
            reported: 0,
        };
        let slot = match self.free.pop() {
            Some(s) => {
                self.units[s as usize] = unit;
                s
            }
            None => {
                self.units.push(unit);
                self.occ.next.push(NONE);
                self.occ.prev.push(NONE);
                self.occ.dirty.push(false);
                (self.units.len() - 1) as u32
            }
        };
        self.by_id.insert(id, slot);
        self.units[slot as usize].template = self.template_for(slot, bucket);
        self.occ.link(slot, self.spec.index(t));
        self.occ.mark(slot);
        let tile = self.units[slot as usize].tile;
        self.restamp(slot, tile, NONE);
        Ok(())
    }

    /// Unregisters a unit, removing its sight at once. Factions that saw it get a `Lost`
    /// event at the next drain. Returns the unit's description, or `None` if unknown.
    pub fn remove_unit(&mut self, id: UnitId) -> Option<UnitDesc> {
        let slot = self.by_id.remove(id)?;
        self.unstamp(slot);
        let unit = &mut self.units[slot as usize];
        let f = usize::from(unit.desc.faction.0);
        let tile = unit.tile.1 as usize * self.planes.width + unit.tile.0 as usize;
        self.occ.unlink(slot, tile);
        for by in FactionMask(unit.reported).iter() {
            self.pending.push(FogEvent::Lost { unit: id, by });
        }
        unit.alive = false;
        unit.reported = 0;
        self.faction_units[f] -= 1;
        self.free.push(slot);
        Some(unit.desc)
    }

    /// Moves and turns a unit. Only a unit that changed tile (or, for flashlights, direction
    /// bucket) is re-stamped, and then only the tiles entering or leaving its sight are touched.
    pub fn set_pose(&mut self, id: UnitId, pose: Pose) -> Result<(), FogError> {
        let slot = self.by_id.get(id).ok_or(FogError::UnknownUnit(id))?;
        let s = slot as usize;
        let t = self.spec.tile_at_clamped(pose.pos);
        let tile = (t.x as i32, t.z as i32);
        let unit = &self.units[s];
        let bucket = match unit.desc.shape {
            SightShape::Circle => 0,
            SightShape::Flashlight { .. } => {
                direction_bucket(pose.facing, self.config.direction_buckets)
            }
        };
        if tile == unit.tile && bucket == unit.bucket {
            return Ok(());
        }
        if tile != unit.tile {
            let old = unit.tile.1 as usize * self.planes.width + unit.tile.0 as usize;
            self.occ.unlink(slot, old);
            self.occ.link(slot, self.spec.index(t));
            self.occ.mark(slot);
        }
        let (old_tile, old_template) = (unit.tile, unit.template);
        if bucket != unit.bucket {
            let template = self.template_for(slot, bucket);
            self.units[s].template = template;
        }
        let unit = &mut self.units[s];
        unit.tile = tile;
        unit.bucket = bucket;
        self.restamp(slot, old_tile, old_template);
        Ok(())
    }

    /// Number of registered units.
    pub fn unit_count(&self) -> usize {
        self.by_id.len
    }

    /// True when `id` is registered.
    pub fn contains_unit(&self, id: UnitId) -> bool {
        self.by_id.get(id).is_some()
    }

    /// The registered unit ids, in increasing order.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.by_id.ids()
    }

    /// A unit's description.
    pub fn unit(&self, id: UnitId) -> Option<&UnitDesc> {
        self.by_id.get(id).map(|s| &self.units[s as usize].desc)
    }

    /// The tile a unit stands on.
    pub fn unit_tile(&self, id: UnitId) -> Option<TilePos> {
        let u = &self.units[self.by_id.get(id)? as usize];
        Some(TilePos::new(u.tile.0 as u32, u.tile.1 as u32))
    }

    /// The other factions that see a unit now (its tile's mask minus its own faction).
    pub fn unit_seen_by(&self, id: UnitId) -> Option<FactionMask> {
        let u = &self.units[self.by_id.get(id)? as usize];
        let i = self.planes.slot(u.tile.0 as usize, u.tile.1 as usize);
        Some(FactionMask(self.planes.mask(i)) & !u.desc.faction.mask())
    }

    /// Number of tiles a unit currently sees (after clipping and occlusion).
    pub fn unit_visible_tile_count(&self, id: UnitId) -> Option<u32> {
        let u = &self.units[self.by_id.get(id)? as usize];
        let mut full = Vec::new();
        let spans = if u.full {
            let t = &self.templates[u.template as usize].template;
            visible_spans(&self.spec, t, u.tile, None, &mut full);
            &full
        } else {
            &u.spans
        };
        Some(spans.iter().map(|s| (s.x1 - s.x0 + 1) as u32).sum())
    }

    // ----- events -----

    /// Appends the events since the last drain to `out`, sorted by unit, then faction
    /// (`Lost` before `Spotted` for a removed and re-added id).
    ///
    /// Events are the difference between who saw each unit at the last drain and now; a
    /// unit that is seen, lost and seen again between two drains yields nothing. Only units
    /// whose tile changed, or whose tile's mask changed, are examined (event-driven: a
    /// tile whose mask flips notifies the units standing on it).
    pub fn drain_events_into(&mut self, out: &mut Vec<FogEvent>) {
        let start = out.len();
        let mut dirty = std::mem::take(&mut self.occ.dirty_list);
        for &slot in &dirty {
            self.occ.dirty[slot as usize] = false;
            let u = &mut self.units[slot as usize];
            if !u.alive {
                continue;
            }
            let i = self.planes.slot(u.tile.0 as usize, u.tile.1 as usize);
            let now = self.planes.mask(i) & !u.desc.faction.mask().0;
            let changed = FactionMask(now ^ u.reported);
            for by in changed.iter() {
                out.push(if now & by.mask().0 != 0 {
                    FogEvent::Spotted { unit: u.id, by }
                } else {
                    FogEvent::Lost { unit: u.id, by }
                });
            }
            u.reported = now;
        }
        dirty.clear();
        self.occ.dirty_list = dirty;
        out.append(&mut self.pending);
        out[start..].sort_unstable_by_key(FogEvent::sort_key);
    }

    /// The events since the last drain, sorted; see [`FogGrid::drain_events_into`].
    pub fn drain_events(&mut self) -> Vec<FogEvent> {
        let mut out = Vec::new();
        self.drain_events_into(&mut out);
        out
    }

    // ----- occlusion -----

    /// Marks a tile as blocking sight (or clears it). With [`FogConfig::occlusion`] on, the
    /// units in range are re-stamped at once. Returns false (and does nothing) for a tile
    /// off the grid or already in that state.
    pub fn set_blocking(&mut self, tile: TilePos, blocking: bool) -> bool {
        if !self.spec.contains(tile) {
            return false;
        }
        let i = self.spec.index(tile);
        if self.blockers.tiles[i] == blocking {
            return false;
        }
        self.blockers.tiles[i] = blocking;
        let c = (tile.z as usize >> CHUNK_SHIFT) * self.blockers.chunk_w
            + (tile.x as usize >> CHUNK_SHIFT);
        if blocking {
            self.blockers.chunks[c] += 1;
        } else {
            self.blockers.chunks[c] -= 1;
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
        self.spec.contains(tile) && self.blockers.tiles[self.spec.index(tile)]
    }

    // ----- queries -----

    /// True when `faction` sees `tile` now (false off the grid). O(1).
    pub fn is_visible(&self, tile: TilePos, faction: FactionId) -> bool {
        self.visible_mask(tile).contains(faction)
    }

    /// The factions that see `tile` now (empty off the grid). O(1).
    pub fn visible_mask(&self, tile: TilePos) -> FactionMask {
        FactionMask(if self.spec.contains(tile) {
            self.planes
                .mask(self.planes.slot(tile.x as usize, tile.z as usize))
        } else {
            0
        })
    }

    /// The factions that have ever seen `tile` (including those seeing it now).
    pub fn explored_mask(&self, tile: TilePos) -> FactionMask {
        FactionMask(if self.spec.contains(tile) {
            self.planes
                .explored(self.planes.slot(tile.x as usize, tile.z as usize))
        } else {
            0
        })
    }

    /// True when `faction` has ever seen `tile` (it may also see it now).
    pub fn is_explored(&self, tile: TilePos, faction: FactionId) -> bool {
        self.explored_mask(tile).contains(faction)
    }

    /// How many units of `faction` see `tile` now (0 off the grid or for an unknown faction).
    pub fn counter(&self, tile: TilePos, faction: FactionId) -> u16 {
        if !self.spec.contains(tile) || faction.0 >= self.config.factions {
            return 0;
        }
        let i = self.planes.slot(tile.x as usize, tile.z as usize);
        // At most MAX_UNITS_PER_FACTION (u16::MAX) units of a faction exist.
        self.planes.counter(usize::from(faction.0), i) as u16
    }

    /// What a spectator showing the factions in `spectator` (one faction, an alliance, or
    /// [`FactionMask::ALL`]) sees of `tile`.
    pub fn state(&self, tile: TilePos, spectator: FactionMask) -> TileState {
        if self.visible_mask(tile).intersects(spectator) {
            TileState::Visible
        } else if self.explored_mask(tile).intersects(spectator) {
            TileState::Explored
        } else {
            TileState::Unexplored
        }
    }

    /// Tiles `faction` sees now (a running total, O(1)).
    pub fn visible_tile_count(&self, faction: FactionId) -> u32 {
        self.planes
            .visible_count
            .get(usize::from(faction.0))
            .copied()
            .unwrap_or(0)
    }

    /// Tiles `faction` has ever seen (a running total, O(1)).
    pub fn explored_tile_count(&self, faction: FactionId) -> u32 {
        self.planes
            .explored_count
            .get(usize::from(faction.0))
            .copied()
            .unwrap_or(0)
    }

    /// Writes every tile's [`TileState`] as a `u8` (0 unexplored, 1 explored, 2 visible)
    /// for `spectator`, row-major (`z * width + x`), replacing the contents of `out`.
    pub fn write_states(&self, spectator: FactionMask, out: &mut Vec<u8>) {
        out.clear();
        out.extend(self.masks_row_major().map(|(mask, explored)| {
            if mask & spectator.0 != 0 {
                TileState::Visible as u8
            } else if explored & spectator.0 != 0 {
                TileState::Explored as u8
            } else {
                TileState::Unexplored as u8
            }
        }));
    }

    /// Every tile's state for `spectator`, row-major; see [`FogGrid::write_states`].
    pub fn states(&self, spectator: FactionMask) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.spec.tile_count());
        self.write_states(spectator, &mut out);
        out
    }

    /// The per-tile visible masks, row-major (raw access for tools).
    pub fn visible_masks(&self) -> impl ExactSizeIterator<Item = FactionMask> + '_ {
        self.masks_row_major().map(|(m, _)| FactionMask(m))
    }

    /// The per-tile explored masks, row-major (raw access for tools).
    pub fn explored_masks(&self) -> impl ExactSizeIterator<Item = FactionMask> + '_ {
        self.masks_row_major().map(|(_, e)| FactionMask(e))
    }

    /// Number of distinct LOS templates built so far.
    pub fn template_count(&self) -> usize {
        self.templates.len()
    }

    // ----- internals -----

    /// Every tile's (visible, explored) masks in row-major tile order.
    fn masks_row_major(&self) -> impl ExactSizeIterator<Item = (u32, u32)> + '_ {
        (0..self.spec.tile_count()).map(|t| (self.planes.mask(t), self.planes.explored(t)))
    }

    /// The template index for a unit's shape and `bucket`, building it on first use.
    fn template_for(&mut self, slot: u32, bucket: u16) -> u32 {
        let u = &self.units[slot as usize];
        let r = u.desc.sight_radius;
        let key = match u.desc.shape {
            SightShape::Circle => TemplateKey::Circle {
                reach_sq: reach_sq(r),
            },
            SightShape::Flashlight { fov_deg } => {
                let cached = u.bucket_templates[usize::from(bucket)];
                if cached != NONE {
                    return cached;
                }
                TemplateKey::Flashlight {
                    reach_sq: reach_sq(r),
                    bucket,
                    fov_bits: fov_deg.to_bits(),
                }
            }
        };
        let index = match self.template_index.get(&key) {
            Some(&i) => i,
            None => {
                let t = match u.desc.shape {
                    SightShape::Circle => LosTemplate::circle(r),
                    SightShape::Flashlight { fov_deg } => {
                        LosTemplate::flashlight(r, bucket, self.config.direction_buckets, fov_deg)
                    }
                };
                let t = if self.config.occlusion {
                    t.with_line_deps()
                } else {
                    t
                };
                self.templates
                    .push(TemplateEntry::new(t, self.planes.width));
                let i = (self.templates.len() - 1) as u32;
                self.template_index.insert(key, i);
                i
            }
        };
        if let Some(b) = self.units[slot as usize]
            .bucket_templates
            .get_mut(usize::from(bucket))
        {
            *b = index;
        }
        index
    }

    /// True when no blocking tile lies in the template's square at `tile` (or occlusion is
    /// off): the unit then sees exactly its template, clipped to the grid.
    fn sees_full_template(&self, template: u32, tile: (i32, i32)) -> bool {
        if !self.config.occlusion {
            return true;
        }
        let r = self.templates[template as usize].template.reach();
        let (w, h) = (self.spec.width as i32, self.spec.height as i32);
        let (x, z) = tile;
        !self.blockers.any_in(
            (x - r).max(0),
            (z - r).max(0),
            (x + r).min(w - 1),
            (z + r).min(h - 1),
        )
    }

    /// True when the template at `tile` lies fully on the grid.
    fn inside_grid(&self, template: u32, tile: (i32, i32)) -> bool {
        let r = self.templates[template as usize].template.reach();
        let (w, h) = (self.spec.width as i32, self.spec.height as i32);
        let (x, z) = tile;
        x - r >= 0 && z - r >= 0 && x + r < w && z + r < h
    }

    /// Applies a one-tile move difference (`turn`: cached in `turns[turn]` of the old
    /// template, else `shifts[shift]` of the template) from `old_tile`, clipped to the grid
    /// when either placement reaches past an edge.
    fn apply_move(
        &mut self,
        f: usize,
        old_tile: (i32, i32),
        template: u32,
        diff: MoveDiff,
        clip: bool,
    ) {
        let entry = &self.templates[template as usize];
        let diff = match diff {
            MoveDiff::Shift(k) => &entry.shifts[k],
            MoveDiff::Turn(k) => &entry.turns[k].1,
        };
        let (planes, occ) = (&mut self.planes, &mut self.occ);
        if clip {
            let size = (self.spec.width as i32, self.spec.height as i32);
            apply_offsets_clipped(planes, occ, f, size, old_tile, diff);
        } else {
            let centre = planes.slot(old_tile.0 as usize, old_tile.1 as usize) as isize;
            apply_offsets(planes, occ, f, centre, diff);
        }
    }

    /// Moves a unit's contribution from what it saw at (`old_tile`, `old_template`) to what
    /// it sees at its current tile and template, touching only tiles that change.
    /// `old_template == NONE` means it saw nothing (a new unit).
    fn restamp(&mut self, slot: u32, old_tile: (i32, i32), old_template: u32) {
        let s = slot as usize;
        let (tile, template) = (self.units[s].tile, self.units[s].template);
        let f = usize::from(self.units[s].desc.faction.0);
        let full = self.sees_full_template(template, tile);
        let (sx, sz) = (tile.0 - old_tile.0, tile.1 - old_tile.1);
        if self.units[s].full && full && template == old_template && sx.abs() <= 1 && sz.abs() <= 1
        {
            // Fast path: a one-tile move on open ground; the difference is precomputed.
            let clip = !self.inside_grid(template, old_tile) || !self.inside_grid(template, tile);
            let k = ((sx + 1) * 3 + sz + 1) as usize;
            self.apply_move(f, old_tile, template, MoveDiff::Shift(k), clip);
            return;
        }
        if self.units[s].full && full && sx.abs() <= 1 && sz.abs() <= 1 && old_template != NONE {
            // Fast path: a turn (and a move of at most one tile) on open ground; the
            // difference is cached per (old template, new template, move).
            let key = (template, ((sx + 1) * 3 + sz + 1) as u8);
            let turns = &self.templates[old_template as usize].turns;
            let k = match turns.binary_search_by_key(&key, |(to, _)| *to) {
                Ok(k) => k,
                Err(k) => {
                    let (from, to) = (old_template as usize, template as usize);
                    let (a, b) = (&self.templates[from].template, &self.templates[to].template);
                    let diff = offsets_diff(a, b, sx, sz, self.planes.width);
                    self.templates[from].turns.insert(k, (key, diff));
                    k
                }
            };
            let clip =
                !self.inside_grid(old_template, old_tile) || !self.inside_grid(template, tile);
            self.apply_move(f, old_tile, old_template, MoveDiff::Turn(k), clip);
            return;
        }
        // General path: old and new seen sets as grid spans, per-row difference.
        let mut old = std::mem::take(&mut self.units[s].spans);
        if self.units[s].full {
            let t = &self.templates[old_template as usize].template;
            visible_spans(&self.spec, t, old_tile, None, &mut old);
        }
        let blockers = self.config.occlusion.then_some(&self.blockers);
        let t = &self.templates[template as usize].template;
        visible_spans(&self.spec, t, tile, blockers, &mut self.scratch);
        apply_diff(&mut self.planes, &mut self.occ, f, &old, &self.scratch);
        let unit = &mut self.units[s];
        unit.full = full;
        if full {
            old.clear();
            unit.spans = old;
        } else {
            unit.spans = std::mem::replace(&mut self.scratch, old);
        }
    }

    /// Removes a unit's whole contribution.
    fn unstamp(&mut self, slot: u32) {
        let s = slot as usize;
        let mut old = std::mem::take(&mut self.units[s].spans);
        let u = &self.units[s];
        if u.full {
            let t = &self.templates[u.template as usize].template;
            visible_spans(&self.spec, t, u.tile, None, &mut old);
        }
        let f = usize::from(u.desc.faction.0);
        apply_diff(&mut self.planes, &mut self.occ, f, &old, &[]);
        self.units[s].full = false;
    }
}
