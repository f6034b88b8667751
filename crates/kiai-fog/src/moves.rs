//! One-tile moves on open ground: a cached template with the tiles entering and leaving its
//! sight for each of the nine moves of at most one tile (and, built on first use, for each
//! turn to another template), as precomputed offsets applied without any span arithmetic.

use crate::occupancy::Occupancy;
use crate::spans::{AbsSpan, diff_spans};
use crate::storage::Planes;
use crate::template::LosTemplate;

/// What changes when an unoccluded template moves by one tile: the tiles leaving and
/// entering sight, as row-major offsets from the unit's old tile, and again as `(dx, dz)`
/// for units near the edge (clipping to the grid commutes with the difference).
#[derive(Clone, Debug, Default)]
pub(crate) struct ShiftDiff {
    /// Tiles leaving sight, as row-major offsets.
    removed: Vec<isize>,
    /// Tiles entering sight, as row-major offsets.
    added: Vec<isize>,
    /// The same tiles as `removed`, as `(dx, dz)`.
    removed_xz: Vec<[i16; 2]>,
    /// The same tiles as `added`, as `(dx, dz)`.
    added_xz: Vec<[i16; 2]>,
}

/// Which cached difference `FogGrid::apply_move` (in `fog/stamp.rs`) applies.
#[derive(Clone, Copy, Debug)]
pub(crate) enum MoveDiff {
    /// `shifts[k]` of the template.
    Shift(usize),
    /// `turns[k]` of the old template.
    Turn(usize),
}

/// A cached template plus its one-tile move differences for this grid's width.
#[derive(Clone, Debug)]
pub(crate) struct TemplateEntry {
    /// The template itself.
    pub(crate) template: LosTemplate,
    /// Index `(sx + 1) * 3 + (sz + 1)` for a move by `(sx, sz)` in `-1..=1`; offsets are
    /// relative to the unit's old tile.
    pub(crate) shifts: Vec<ShiftDiff>,
    /// Turns (changes of template, e.g. flashlight bucket) with a move of at most one tile:
    /// the difference to (template index, shift index), built on first use, sorted by key.
    pub(crate) turns: Vec<((u32, u8), ShiftDiff)>,
}

impl TemplateEntry {
    /// Caches `template` with its nine one-tile move differences on a grid `width` tiles wide.
    pub(crate) fn new(template: LosTemplate, width: usize) -> Self {
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

/// The difference between two template span lists placed at `(0, 0)` and `(sx, sz)`, as
/// row-major offsets from `(0, 0)`.
pub(crate) fn offsets_diff(
    from: &LosTemplate,
    to: &LosTemplate,
    sx: i32,
    sz: i32,
    width: usize,
) -> ShiftDiff {
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
#[inline]
pub(crate) fn apply_offsets_clipped(
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
#[inline]
pub(crate) fn apply_offsets(
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
