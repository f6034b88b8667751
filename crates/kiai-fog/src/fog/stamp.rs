//! Stamping (internal): how [`FogGrid`] moves a unit's contribution to its faction's
//! counters when the unit is added, moves, turns, is removed or a blocker changes near it.
//!
//! Three paths, fastest first: a one-tile move on open ground applies the template's
//! precomputed shift (`moves.rs`); a turn with a move of at most one tile applies a
//! difference cached per (old template, new template, move); anything else computes the
//! old and new seen tiles as row spans (`shadows.rs`) and applies their per-row difference
//! (`spans.rs`).

use super::FogGrid;
use crate::moves::{MoveDiff, TemplateEntry, apply_offsets, apply_offsets_clipped, offsets_diff};
use crate::occupancy::NONE;
use crate::shadows::visible_spans;
use crate::spans::apply_diff;
use crate::template::{LosTemplate, TemplateKey, reach_sq};
use crate::unit::SightShape;

impl FogGrid {
    /// The template index for a unit's shape and `bucket`, building it on first use.
    pub(super) fn template_for(&mut self, slot: u32, bucket: u16) -> u32 {
        let u = &self.units[slot as usize];
        let r = u.desc.sight_radius;
        let key = match u.desc.shape {
            SightShape::Circle => TemplateKey::Circle {
                reach_sq: reach_sq(r),
            },
            SightShape::Flashlight { fov_deg } => {
                let cached = self.tables[slot as usize].bucket_templates[usize::from(bucket)];
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
        if let Some(b) = self.tables[slot as usize]
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
    pub(super) fn restamp(&mut self, slot: u32, old_tile: (i32, i32), old_template: u32) {
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
        let mut old = std::mem::take(&mut self.tables[s].spans);
        if self.units[s].full {
            let t = &self.templates[old_template as usize].template;
            visible_spans(&self.spec, t, old_tile, None, &mut old);
        }
        let blockers = self.config.occlusion.then_some(&self.blockers);
        let t = &self.templates[template as usize].template;
        visible_spans(&self.spec, t, tile, blockers, &mut self.scratch);
        apply_diff(&mut self.planes, &mut self.occ, f, &old, &self.scratch);
        self.units[s].full = full;
        let spans = &mut self.tables[s].spans;
        if full {
            old.clear();
            *spans = old;
        } else {
            *spans = std::mem::replace(&mut self.scratch, old);
        }
    }

    /// Removes a unit's whole contribution.
    pub(super) fn unstamp(&mut self, slot: u32) {
        let s = slot as usize;
        let mut old = std::mem::take(&mut self.tables[s].spans);
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
