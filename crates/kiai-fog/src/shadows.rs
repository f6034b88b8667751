//! Blocking tiles and their shadows: the blocking flags with per-chunk counts (to skip the
//! line test on open ground), and the tiles a unit sees through its template once clipped
//! to the grid and, with occlusion, minus the tiles hidden behind blockers.

use crate::grid::{GridSpec, TilePos};
use crate::spans::AbsSpan;
use crate::template::{LineDeps, LosTemplate};

/// Side of the blocker-count chunks used to skip occlusion work on open ground, as a shift (8 tiles).
const CHUNK_SHIFT: u32 = 3;

/// Blocking tiles plus per-chunk counts to skip the line test on open ground.
#[derive(Clone, Debug)]
pub(crate) struct Blockers {
    /// Per tile, row-major: blocks sight.
    tiles: Vec<bool>,
    /// Chunks per row of chunks.
    chunk_w: usize,
    /// Per chunk of 8 x 8 tiles, row-major: how many of its tiles block.
    chunks: Vec<u32>,
}

impl Blockers {
    /// No blocking tile on a grid of `spec`'s size.
    pub(crate) fn new(spec: &GridSpec) -> Self {
        let chunk_w = ((spec.width as usize - 1) >> CHUNK_SHIFT) + 1;
        let chunk_h = ((spec.height as usize - 1) >> CHUNK_SHIFT) + 1;
        Self {
            tiles: vec![false; spec.tile_count()],
            chunk_w,
            chunks: vec![0; chunk_w * chunk_h],
        }
    }

    /// True when `tile` is on the grid and blocks sight.
    pub(crate) fn is_blocking(&self, spec: &GridSpec, tile: TilePos) -> bool {
        spec.contains(tile) && self.tiles[spec.index(tile)]
    }

    /// Marks `tile` as blocking or not; false (and nothing done) when it is off the grid or
    /// already in that state.
    pub(crate) fn set(&mut self, spec: &GridSpec, tile: TilePos, blocking: bool) -> bool {
        if !spec.contains(tile) {
            return false;
        }
        let i = spec.index(tile);
        if self.tiles[i] == blocking {
            return false;
        }
        self.tiles[i] = blocking;
        let c = (tile.z as usize >> CHUNK_SHIFT) * self.chunk_w + (tile.x as usize >> CHUNK_SHIFT);
        if blocking {
            self.chunks[c] += 1;
        } else {
            self.chunks[c] -= 1;
        }
        true
    }

    /// False when no tile of the rectangle `x0..=x1` x `z0..=z1` (on the grid) blocks; may be
    /// true for a blocker outside it but in one of the 8 x 8 chunks it touches.
    pub(crate) fn any_in(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> bool {
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
#[inline]
pub(crate) fn visible_spans(
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
    if let (Some(b), Some(ld)) = (blockers, template.line_deps.as_ref()) {
        unshadowed_spans(spec, template, tile, (b, ld), out);
    } else {
        clipped_spans(spec, template, tile, out);
    }
}

/// Appends the template at `tile`, clipped to the grid, to `out` (no blocker in reach).
fn clipped_spans(
    spec: &GridSpec,
    template: &LosTemplate,
    tile: (i32, i32),
    out: &mut Vec<AbsSpan>,
) {
    let (w, h) = (spec.width as i32, spec.height as i32);
    let (ux, uz) = tile;
    for s in template.spans() {
        let z = uz + s.dz;
        let (x0, x1) = ((ux + s.x0).max(0), (ux + s.x1).min(w - 1));
        if z >= 0 && z < h && x0 <= x1 {
            out.push(AbsSpan { z, x0, x1 });
        }
    }
}

/// Appends the template at `tile`, clipped to the grid, to `out`, leaving out every tile
/// whose line from the unit crosses a blocker (the blockers `b`, and `ld`, the template's per-tile
/// lists of the tiles that may block its line).
fn unshadowed_spans(
    spec: &GridSpec,
    template: &LosTemplate,
    tile: (i32, i32),
    (b, ld): (&Blockers, &LineDeps),
    out: &mut Vec<AbsSpan>,
) {
    let (w, h) = (spec.width as i32, spec.height as i32);
    let (ux, uz) = tile;
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
