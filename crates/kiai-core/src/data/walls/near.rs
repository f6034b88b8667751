//! Many rays from one eye: the walls near the eye with their side of it, so
//! a ray costs a sign test per nearby wall ([`Walls::blocks_near`]).

use glam::Vec3;

use super::query::{Query, orient};
use super::{RayScratch, Walls};

impl Walls {
    /// [`Walls::blocks`] for many queries from the same or nearby eyes: the
    /// same answer, faster. Targets are expected within `reach` (X-Z, world
    /// units) of the eye; others fall back to [`Walls::blocks`].
    ///
    /// `near` caches, for the last eye, the walls whose bounding box meets
    /// the box `eye ± reach` (padded far beyond rounding), taken from a
    /// cached block of grid cells around it, and each such wall's side of
    /// the eye. A query then tests only those walls: a wall with the eye and
    /// the target strictly on the same side of its line is skipped by the
    /// very sign test the exact per-wall test begins with (the same f64
    /// expression, so the same value), the rest get the exact test. Walls
    /// outside the box cannot touch a segment inside it, the same geometric
    /// fact the grid walk of [`Walls::blocks`] relies on, so the answers are
    /// equal (property-tested).
    #[inline]
    pub fn blocks_near(
        &self,
        eye: Vec3,
        target: Vec3,
        reach: f32,
        near: &mut NearWalls,
        scratch: &mut RayScratch,
    ) -> bool {
        // Non-finite eyes and reaches get an empty box, non-finite targets
        // fall outside it: both go to `blocks`, which says "not blocked".
        let key = [eye.x.to_bits(), eye.z.to_bits(), reach.to_bits()];
        if near.eye_key != Some(key) {
            near.eye_key = Some(key);
            self.aim(eye, reach, near, scratch);
        }
        let t = [f64::from(target.x), f64::from(target.z)];
        if !box_holds(near.eye_box, t) {
            return self.blocks(eye, target, scratch);
        }
        self.blocks_aimed(near, eye, target, t)
    }

    /// The test of [`Walls::blocks_near`] once `near` is aimed from `eye`
    /// and holds `target` (`t` is its X-Z in f64).
    fn blocks_aimed(&self, near: &NearWalls, eye: Vec3, target: Vec3, t: [f64; 2]) -> bool {
        let len = near.index.len();
        let (px, pz, dx, dz, side, index) = (
            &near.px[..len],
            &near.pz[..len],
            &near.dx[..len],
            &near.dz[..len],
            &near.side[..len],
            &near.index[..len],
        );
        let mut query = None;
        for k in 0..len {
            // `Query::hit`'s first test: `orient(from, to, eye)` and
            // `orient(from, to, target)` strictly of one sign.
            let st = dx[k] * (t[1] - pz[k]) - dz[k] * (t[0] - px[k]);
            let se = side[k];
            if (se > 0.0 && st > 0.0) || (se < 0.0 && st < 0.0) {
                continue;
            }
            let q = match query {
                Some(q) => q,
                None => {
                    let Some(q) = Query::new(eye, target) else {
                        return false;
                    };
                    query = Some(q);
                    q
                }
            };
            if q.hit(&self.walls[index[k] as usize]).is_some() {
                return true;
            }
        }
        false
    }

    /// Prepares `near` for queries from `eye` to targets within `reach` of
    /// it on X-Z.
    #[inline(never)]
    fn aim(&self, eye: Vec3, reach: f32, near: &mut NearWalls, scratch: &mut RayScratch) {
        near.index.clear();
        near.px.clear();
        near.pz.clear();
        near.dx.clear();
        near.dz.clear();
        near.side.clear();
        near.eye_box = EMPTY_BOX;
        let r = f64::from(reach);
        if !(r >= 0.0 && r.is_finite() && eye.is_finite()) || self.grid.nx == 0 || self.grid.nz == 0
        {
            return;
        }
        let e = [f64::from(eye.x), f64::from(eye.z)];
        let eye_box = [e[0] - r, e[1] - r, e[0] + r, e[1] + r];
        let (lo, hi) = ([eye_box[0], eye_box[1]], [eye_box[2], eye_box[3]]);
        let held =
            |near: &NearWalls| box_holds(near.block_box, lo) && box_holds(near.block_box, hi);
        if !held(near) {
            self.gather(self.grid.block_of(lo, hi), near, scratch);
            if !held(near) {
                return;
            }
        }
        near.eye_box = eye_box;
        let mag = eye_box.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let margin = r * 1e-4 + mag * 1e-9 + f64::MIN_POSITIVE;
        let padded = [
            eye_box[0] - margin,
            eye_box[1] - margin,
            eye_box[2] + margin,
            eye_box[3] + margin,
        ];
        // The walls whose box meets the padded eye box, picked without
        // data-dependent branches (every index is written, the count
        // advances only for those that meet), then their data.
        near.index.resize(near.block_walls.len(), 0);
        let mut m = 0;
        for (&w, b) in near.block_walls.iter().zip(&near.block_bounds) {
            let apart =
                (b[0] > padded[2]) | (b[2] < padded[0]) | (b[1] > padded[3]) | (b[3] < padded[1]);
            near.index[m] = w;
            m += usize::from(!apart);
        }
        near.index.truncate(m);
        for &w in &near.index {
            let wall = &self.walls[w as usize];
            let p = [f64::from(wall.from.x), f64::from(wall.from.y)];
            let q = [f64::from(wall.to.x), f64::from(wall.to.y)];
            near.px.push(p[0]);
            near.pz.push(p[1]);
            near.dx.push(q[0] - p[0]);
            near.dz.push(q[1] - p[1]);
            near.side.push(orient(p, q, e));
        }
    }

    /// Fills `near`'s block with the walls (of positive height) of the
    /// cells of `block`, each once.
    fn gather(&self, block: [usize; 4], near: &mut NearWalls, scratch: &mut RayScratch) {
        near.block_box = self.grid.block_box(block);
        near.block_walls.clear();
        near.block_bounds.clear();
        scratch.begin(self.walls.len());
        let [x0, z0, x1, z1] = block;
        for row in z0..=z1 {
            for col in x0..=x1 {
                for &w in self.grid.cell_items(row * self.grid.nx + col) {
                    let wall = &self.walls[w as usize];
                    if !scratch.first_visit(w as usize) || wall.height <= 0.0 {
                        continue;
                    }
                    let (a, b) = (wall.from.as_dvec2(), wall.to.as_dvec2());
                    near.block_walls.push(w);
                    near.block_bounds.push([
                        a.x.min(b.x),
                        a.y.min(b.y),
                        a.x.max(b.x),
                        a.y.max(b.y),
                    ]);
                }
            }
        }
    }
}

/// True when the X-Z point `v` lies in the box `[x_lo, z_lo, x_hi, z_hi]`.
#[inline]
fn box_holds(b: [f64; 4], v: [f64; 2]) -> bool {
    v[0] >= b[0] && v[0] <= b[2] && v[1] >= b[1] && v[1] <= b[3]
}

/// A box that holds nothing.
const EMPTY_BOX: [f64; 4] = [
    f64::INFINITY,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NEG_INFINITY,
];

/// Scratch of [`Walls::blocks_near`]: the walls around recent eyes, and
/// their sides of the last eye. One per thread; use it with one [`Walls`]
/// only, or [`NearWalls::clear`] it when switching.
#[derive(Clone, Debug)]
pub struct NearWalls {
    /// The X-Z box `[x_lo, z_lo, x_hi, z_hi]` (world units) well inside the
    /// block of cells `block_walls` were gathered from (see
    /// `Grid::block_box`); empty before the first gather.
    block_box: [f64; 4],
    /// The walls of that block, each once, and their X-Z bounding boxes.
    block_walls: Vec<u32>,
    block_bounds: Vec<[f64; 4]>,
    /// The eye (X, Z) and reach (bit patterns) the rest is for.
    eye_key: Option<[u32; 3]>,
    /// `eye ± reach` on X-Z; empty when no block could hold it.
    eye_box: [f64; 4],
    /// The walls whose box meets the eye's: index, `from` and `to - from`
    /// in f64, and `orient(from, to, eye)`.
    index: Vec<u32>,
    px: Vec<f64>,
    pz: Vec<f64>,
    dx: Vec<f64>,
    dz: Vec<f64>,
    side: Vec<f64>,
}

impl Default for NearWalls {
    fn default() -> Self {
        Self {
            block_box: EMPTY_BOX,
            block_walls: Vec::new(),
            block_bounds: Vec::new(),
            eye_key: None,
            eye_box: EMPTY_BOX,
            index: Vec::new(),
            px: Vec::new(),
            pz: Vec::new(),
            dx: Vec::new(),
            dz: Vec::new(),
            side: Vec::new(),
        }
    }
}

impl NearWalls {
    /// Empty scratch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the gathered walls (needed before using it with other
    /// [`Walls`]).
    pub fn clear(&mut self) {
        self.block_box = EMPTY_BOX;
        self.eye_key = None;
        self.eye_box = EMPTY_BOX;
    }
}
