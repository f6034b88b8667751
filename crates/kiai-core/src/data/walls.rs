//! Line-of-sight occlusion by vertical walls (seed 003, "视野遮挡": a ray from the
//! agent to the target; the target is seen only if nothing is hit before it).
//!
//! Walls are segments on the X-Z plane extruded from `y = 0` up to a height. A
//! [`Walls`] set indexes them in a uniform grid; [`Walls::blocks`] walks the grid
//! cells along the query segment with an Amanatides-Woo DDA and tests only the
//! walls found there, each at most once per query. [`Walls::blocks_near`]
//! answers the same for many rays from one eye (the sense stage's pattern):
//! it keeps the walls near the eye with their side of it, so a ray costs a
//! sign test per nearby wall. [`blocks_brute`] tests every wall and is the
//! reference both are property-tested against.
//!
//! # Exact semantics (the edge rules)
//!
//! A wall is the point set `{(x, y, z) : (x, z) on the closed segment from..to,
//! 0 <= y < height}`: closed at both ends and at the floor, open at the top. The
//! query is the **open** 3D segment strictly between `eye` and `target`.
//! `blocks(eye, target)` is true exactly when the two sets intersect. Hence:
//!
//! - **Touching a wall's endpoint** (a ray through a polygon corner) blocks, so a
//!   closed polygon has no leaks at its corners; a ray that only grazes a
//!   corner is blocked too (conservative).
//! - **Collinear overlap** (the ray runs along a wall on X-Z) blocks when some
//!   point of the overlap strictly between eye and target is below the wall's
//!   top.
//! - **Eye or target exactly on a wall**: the endpoints themselves are excluded,
//!   so a wall that the segment only touches at `eye` or at `target` never
//!   blocks; an agent standing on a wall line sees (and is seen from) both
//!   sides. A wall still blocks when the segment runs along it.
//! - **Zero-length query** (`eye == target`): never blocked. A vertical query
//!   (same X-Z point, different heights) is blocked when that point lies on a
//!   wall and the open height interval meets `[0, height)`.
//! - **A ray starting inside a wall's grid cell** changes nothing: the grid only
//!   decides which walls are tested, never the answer.
//! - Walls with `height <= 0` never block. Walls with a non-finite coordinate or
//!   height are ignored; a query with a non-finite `eye` or `target` is never
//!   blocked.
//! - The answer is symmetric: `blocks(a, b) == blocks(b, a)` bit for bit (the
//!   test is evaluated on the endpoints in a canonical order).
//!
//! Arithmetic is done in `f64` on the `f32` inputs. Orientation signs (which
//! decide "on the line" and "touching") are exact when coordinates are
//! multiples of 1/256 with magnitude below 131072 (e.g. editor-snapped
//! positions); otherwise they are correct up to `f64` rounding. The grid and the
//! brute force use the same per-wall test, so they always agree.

use glam::{Vec2, Vec3};

/// A vertical wall: a segment on the X-Z plane (`Vec2(x, z)`, world units),
/// standing from `y = 0` up to `height` (world units; `<= 0` never blocks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wall {
    /// One end on X-Z, world units.
    pub from: Vec2,
    /// The other end on X-Z, world units. May equal `from` (a thin post).
    pub to: Vec2,
    /// Top of the wall in world units; the wall covers `0 <= y < height`.
    pub height: f32,
}

impl Wall {
    /// A wall from `from` to `to` (X-Z, world units) of `height` world units.
    pub fn new(from: Vec2, to: Vec2, height: f32) -> Self {
        Self { from, to, height }
    }

    /// The walls of a closed polygon: one wall per edge, including the closing
    /// edge from the last point back to the first. Fewer than two points give
    /// no walls; two points give the two (coincident) walls of a degenerate
    /// polygon.
    pub fn polygon(points: &[Vec2], height: f32) -> Vec<Wall> {
        if points.len() < 2 {
            return Vec::new();
        }
        (0..points.len())
            .map(|i| Wall::new(points[i], points[(i + 1) % points.len()], height))
            .collect()
    }

    /// True when both ends and the height are finite. Other walls never block.
    pub fn is_finite(&self) -> bool {
        self.from.is_finite() && self.to.is_finite() && self.height.is_finite()
    }
}

/// Reference implementation: tests every wall. Same answer as [`Walls::blocks`]
/// over the same walls (see the module docs for the exact rules).
pub fn blocks_brute(walls: &[Wall], eye: Vec3, target: Vec3) -> bool {
    match Query::new(eye, target) {
        Some(q) => walls.iter().any(|w| q.hit(w).is_some()),
        None => false,
    }
}

/// Reference implementation of [`Walls::first_hit`]: tests every wall.
pub fn first_hit_brute(walls: &[Wall], eye: Vec3, target: Vec3) -> Option<f32> {
    let q = Query::new(eye, target)?;
    walls
        .iter()
        .filter_map(|w| q.hit(w).map(|h| q.nearest(h)))
        .min_by(f64::total_cmp)
        .map(|t| t as f32)
}

/// Per-query scratch memory for [`Walls::blocks`] and [`Walls::first_hit`]:
/// one generation stamp per wall so each wall is tested at most once per query.
/// Grows on first use with a given [`Walls`]; afterwards queries allocate
/// nothing. One per thread; it may be shared between several [`Walls`].
#[derive(Clone, Debug, Default)]
pub struct RayScratch {
    stamps: Vec<u32>,
    generation: u32,
}

impl RayScratch {
    /// Empty scratch; it grows to the number of walls on first use.
    pub fn new() -> Self {
        Self::default()
    }

    fn begin(&mut self, wall_count: usize) {
        if self.stamps.len() < wall_count {
            self.stamps.resize(wall_count, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.generation = 1;
        }
    }

    /// True the first time `wall` is seen in the current query.
    fn first_visit(&mut self, wall: usize) -> bool {
        let fresh = self.stamps[wall] != self.generation;
        self.stamps[wall] = self.generation;
        fresh
    }
}

/// Largest number of grid cells; a finer requested grid is coarsened by
/// doubling the cell size until it fits.
const MAX_CELLS: usize = 1 << 20;

/// A set of walls indexed by a uniform grid on X-Z for fast occlusion queries.
#[derive(Clone, Debug)]
pub struct Walls {
    walls: Vec<Wall>,
    /// The cell size asked for in [`Walls::build`], reused by `add*`.
    requested_cell_size: Option<f32>,
    grid: Grid,
}

#[derive(Clone, Debug, Default)]
struct Grid {
    origin: [f64; 2],
    cell: f64,
    nx: usize,
    nz: usize,
    /// Compressed rows: walls of cell `c` are `items[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Default for Walls {
    fn default() -> Self {
        Self::build(Vec::new(), None)
    }
}

impl Walls {
    /// Indexes `walls` in a grid with square cells of `cell_size` world units
    /// (finite, > 0), or with a size chosen from the walls' extent when `None`
    /// (about one cell per wall, at most 1024 cells per side). A size that would
    /// need more than 2^20 cells is doubled until it fits. Each wall is entered in
    /// every cell its segment touches (slightly inflated, so rounding never
    /// loses a wall). Non-finite walls are kept but never indexed or hit.
    pub fn build(walls: Vec<Wall>, cell_size: Option<f32>) -> Self {
        let grid = Grid::build(&walls, cell_size);
        Self {
            walls,
            requested_cell_size: cell_size,
            grid,
        }
    }

    /// Adds one wall and re-indexes (O(walls); meant for authoring, not per tick).
    pub fn add(&mut self, wall: Wall) {
        self.walls.push(wall);
        self.grid = Grid::build(&self.walls, self.requested_cell_size);
    }

    /// Adds the walls of a closed polygon (see [`Wall::polygon`]), all of
    /// `height` world units, and re-indexes once.
    pub fn add_polygon(&mut self, points: &[Vec2], height: f32) {
        self.walls.extend(Wall::polygon(points, height));
        self.grid = Grid::build(&self.walls, self.requested_cell_size);
    }

    /// All walls, in insertion order (indices are stable).
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }

    /// The grid's cell size in world units (> 0).
    pub fn cell_size(&self) -> f32 {
        self.grid.cell as f32
    }

    /// Grid dimensions in cells along X and Z.
    pub fn grid_dims(&self) -> (usize, usize) {
        (self.grid.nx, self.grid.nz)
    }

    /// True when the open segment from `eye` to `target` (world units) passes
    /// through a wall below its top. Exact rules in the module docs; equals
    /// [`blocks_brute`]. Allocation-free once `scratch` has grown.
    pub fn blocks(&self, eye: Vec3, target: Vec3, scratch: &mut RayScratch) -> bool {
        let Some(q) = Query::new(eye, target) else {
            return false;
        };
        scratch.begin(self.walls.len());
        let mut blocked = false;
        self.grid.walk(q.eye_xz(), q.target_xz(), |cell, _exit| {
            for &w in self.grid.cell_items(cell) {
                let w = w as usize;
                if scratch.first_visit(w) && q.hit(&self.walls[w]).is_some() {
                    blocked = true;
                    return false;
                }
            }
            true
        });
        blocked
    }

    /// The parameter `t` in `[0, 1]` along `eye -> target` of the nearest
    /// blocking point (`eye + t * (target - eye)`), or `None` when not blocked.
    /// When the blocking set is open at its near end (e.g. the segment runs
    /// along a wall starting at `eye`), this is its infimum, so it may be `0`
    /// or `1`. `first_hit(..).is_some() == blocks(..)`; equals
    /// [`first_hit_brute`].
    pub fn first_hit(&self, eye: Vec3, target: Vec3, scratch: &mut RayScratch) -> Option<f32> {
        let q = Query::new(eye, target)?;
        scratch.begin(self.walls.len());
        let mut best: Option<f64> = None;
        self.grid.walk(q.eye_xz(), q.target_xz(), |cell, exit| {
            for &w in self.grid.cell_items(cell) {
                let w = w as usize;
                if !scratch.first_visit(w) {
                    continue;
                }
                if let Some(h) = q.hit(&self.walls[w]) {
                    let t = q.nearest(h);
                    if best.is_none_or(|b| t < b) {
                        best = Some(t);
                    }
                }
            }
            // Every crossing nearer than the cell's exit lies in a visited cell.
            best.is_none_or(|b| b > exit)
        });
        best.map(|t| t as f32)
    }

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

impl Grid {
    /// The cells `[x0, z0, x1, z1]` (clamped to the grid) of the box
    /// `lo..hi`.
    fn block_of(&self, lo: [f64; 2], hi: [f64; 2]) -> [usize; 4] {
        [
            self.clamp_index(lo[0], 0),
            self.clamp_index(lo[1], 1),
            self.clamp_index(hi[0], 0),
            self.clamp_index(hi[1], 1),
        ]
    }

    /// The X-Z box (world units) of the points that lie in `block`'s
    /// cells away from its inner borders by far more than rounding (a few
    /// millionths of a cell): every point of a segment between two such points,
    /// and every cell the grid walk visits for it, is in the block. Borders
    /// at the grid's edge are open (`clamp_index` puts everything beyond them
    /// in the edge cells).
    fn block_box(&self, block: [usize; 4]) -> [f64; 4] {
        const EPS: f64 = 4e-6;
        let [x0, z0, x1, z1] = block;
        let lo = |c: usize, axis: usize| {
            if c == 0 {
                f64::NEG_INFINITY
            } else {
                let b = self.origin[axis] + c as f64 * self.cell;
                b + EPS * self.cell + b.abs() * 1e-12
            }
        };
        let hi = |c: usize, axis: usize, n: usize| {
            if c + 1 >= n {
                f64::INFINITY
            } else {
                let b = self.origin[axis] + (c + 1) as f64 * self.cell;
                b - EPS * self.cell - b.abs() * 1e-12
            }
        };
        [lo(x0, 0), lo(z0, 1), hi(x1, 0, self.nx), hi(z1, 1, self.nz)]
    }

    fn build(walls: &[Wall], cell_size: Option<f32>) -> Grid {
        let finite: Vec<usize> = (0..walls.len()).filter(|&i| walls[i].is_finite()).collect();
        if finite.is_empty() {
            return Grid {
                cell: f64::from(
                    cell_size
                        .filter(|c| c.is_finite() && *c > 0.0)
                        .unwrap_or(1.0),
                ),
                ..Grid::default()
            };
        }
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for &i in &finite {
            for p in [walls[i].from, walls[i].to] {
                for (k, v) in [f64::from(p.x), f64::from(p.y)].into_iter().enumerate() {
                    lo[k] = lo[k].min(v);
                    hi[k] = hi[k].max(v);
                }
            }
        }
        let (w, h) = (hi[0] - lo[0], hi[1] - lo[1]);
        let mut cell = match cell_size {
            Some(c) if c.is_finite() && c > 0.0 => f64::from(c),
            _ => {
                let n = finite.len() as f64;
                let mut c = (w * h / n).sqrt();
                if c.is_nan() || c <= 0.0 {
                    c = w.max(h) / n;
                }
                c = c.max(w.max(h) / 1024.0);
                if c > 0.0 { c } else { 1.0 }
            }
        };
        let dims = |cell: f64| {
            // One spare cell on every side keeps walls away from the border.
            let nx = ((w / cell).floor() as usize).saturating_add(3);
            let nz = ((h / cell).floor() as usize).saturating_add(3);
            (nx, nz)
        };
        let (mut nx, mut nz) = dims(cell);
        while nx.saturating_mul(nz) > MAX_CELLS {
            cell *= 2.0;
            (nx, nz) = dims(cell);
        }
        let origin = [lo[0] - cell, lo[1] - cell];
        let mut grid = Grid {
            origin,
            cell,
            nx,
            nz,
            start: vec![0; nx * nz + 1],
            items: Vec::new(),
        };
        // Inflate by a margin far above f64 rounding so DDA and crossing
        // computations can never disagree about which cell holds a wall.
        let mag = lo
            .iter()
            .chain(hi.iter())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let margin = cell * 1e-4 + mag * 1e-9;
        // Two passes: count, then fill (compressed sparse rows).
        let mut counts = vec![0u32; nx * nz];
        for &i in &finite {
            grid.for_cells_of(&walls[i], margin, |c| counts[c] += 1);
        }
        let mut acc = 0u32;
        for (c, n) in counts.iter().enumerate() {
            grid.start[c] = acc;
            acc += n;
        }
        grid.start[nx * nz] = acc;
        grid.items = vec![0; acc as usize];
        let mut fill = grid.start.clone();
        for &i in &finite {
            let mut cells = Vec::new();
            grid.for_cells_of(&walls[i], margin, |c| cells.push(c));
            for c in cells {
                grid.items[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
        grid
    }

    fn cell_items(&self, cell: usize) -> &[u32] {
        &self.items[self.start[cell] as usize..self.start[cell + 1] as usize]
    }

    fn coord(&self, v: f64, axis: usize) -> f64 {
        (v - self.origin[axis]) / self.cell
    }

    fn clamp_index(&self, v: f64, axis: usize) -> usize {
        let n = if axis == 0 { self.nx } else { self.nz };
        let i = self.coord(v, axis).floor();
        if i <= 0.0 { 0 } else { (i as usize).min(n - 1) }
    }

    /// Calls `f` with every cell whose square, inflated by `margin`, meets the
    /// wall's segment (a conservative supercover).
    fn for_cells_of(&self, wall: &Wall, margin: f64, mut f: impl FnMut(usize)) {
        let (p, q) = (
            [f64::from(wall.from.x), f64::from(wall.from.y)],
            [f64::from(wall.to.x), f64::from(wall.to.y)],
        );
        let z_lo = self.clamp_index(p[1].min(q[1]) - margin, 1);
        let z_hi = self.clamp_index(p[1].max(q[1]) + margin, 1);
        for row in z_lo..=z_hi {
            let slab_lo = self.origin[1] + row as f64 * self.cell - margin;
            let slab_hi = slab_lo + self.cell + 2.0 * margin;
            let dz = q[1] - p[1];
            let (x0, x1) = if dz == 0.0 {
                (p[0].min(q[0]), p[0].max(q[0]))
            } else {
                let ta = ((slab_lo - p[1]) / dz).clamp(0.0, 1.0);
                let tb = ((slab_hi - p[1]) / dz).clamp(0.0, 1.0);
                let xa = p[0] + ta * (q[0] - p[0]);
                let xb = p[0] + tb * (q[0] - p[0]);
                (xa.min(xb), xa.max(xb))
            };
            let c_lo = self.clamp_index(x0 - margin, 0);
            let c_hi = self.clamp_index(x1 + margin, 0);
            for col in c_lo..=c_hi {
                f(row * self.nx + col);
            }
        }
    }

    /// Amanatides-Woo walk over the cells the X-Z segment `a -> b` passes
    /// through (clipped to the grid), calling `visit(cell, t_exit)` where
    /// `t_exit` is the segment parameter where the walk leaves that cell.
    /// Stops when `visit` returns false. Always ends in the cell of the clipped
    /// end point; exact corner crossings step X before Z.
    fn walk(&self, a: [f64; 2], b: [f64; 2], mut visit: impl FnMut(usize, f64) -> bool) {
        if self.nx == 0 || self.nz == 0 {
            return;
        }
        let d = [b[0] - a[0], b[1] - a[1]];
        // Clip to the grid rectangle (slab method).
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for k in 0..2 {
            let n = if k == 0 { self.nx } else { self.nz };
            let lo = self.origin[k];
            let hi = lo + n as f64 * self.cell;
            if d[k] == 0.0 {
                if a[k] < lo || a[k] > hi {
                    return;
                }
            } else {
                let (mut te, mut tx) = ((lo - a[k]) / d[k], (hi - a[k]) / d[k]);
                if te > tx {
                    std::mem::swap(&mut te, &mut tx);
                }
                t0 = t0.max(te);
                t1 = t1.min(tx);
            }
        }
        if t0 > t1 {
            return;
        }
        let start = [a[0] + t0 * d[0], a[1] + t0 * d[1]];
        let end = [a[0] + t1 * d[0], a[1] + t1 * d[1]];
        let mut c = [self.clamp_index(start[0], 0), self.clamp_index(start[1], 1)];
        let c_end = [self.clamp_index(end[0], 0), self.clamp_index(end[1], 1)];
        let mut remaining = [c[0].abs_diff(c_end[0]), c[1].abs_diff(c_end[1])];
        let mut t_max = [f64::INFINITY; 2];
        let mut t_delta = [f64::INFINITY; 2];
        for k in 0..2 {
            if remaining[k] > 0 && d[k] != 0.0 {
                let next = if d[k] > 0.0 { c[k] + 1 } else { c[k] };
                let boundary = self.origin[k] + next as f64 * self.cell;
                t_max[k] = (boundary - a[k]) / d[k];
                t_delta[k] = self.cell / d[k].abs();
            }
        }
        loop {
            let exit = match (remaining[0] > 0, remaining[1] > 0) {
                (false, false) => t1,
                (true, false) => t_max[0],
                (false, true) => t_max[1],
                (true, true) => t_max[0].min(t_max[1]),
            };
            if !visit(c[1] * self.nx + c[0], exit) {
                return;
            }
            let k = match (remaining[0] > 0, remaining[1] > 0) {
                (false, false) => return,
                (true, false) => 0,
                (false, true) => 1,
                (true, true) => usize::from(t_max[1] < t_max[0]),
            };
            if d[k] > 0.0 {
                c[k] += 1;
            } else {
                c[k] -= 1;
            }
            remaining[k] -= 1;
            t_max[k] += t_delta[k];
        }
    }
}

/// The blocking parameters of one wall: the infimum and supremum of the set of
/// `t` (canonical orientation) where the open segment is inside the wall.
#[derive(Clone, Copy, Debug)]
struct Hit {
    lo: f64,
    hi: f64,
}

/// A query segment in canonical order (so results are symmetric), in `f64`.
#[derive(Clone, Copy, Debug)]
struct Query {
    /// `[x, y, z]` of the canonical first end.
    a: [f64; 3],
    b: [f64; 3],
    /// True when `a` is the caller's `target` (the ends were swapped).
    swapped: bool,
}

fn orient(p: [f64; 2], q: [f64; 2], r: [f64; 2]) -> f64 {
    (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
}

/// An interval of `f64` with open or closed ends.
#[derive(Clone, Copy, Debug)]
struct Interval {
    lo: f64,
    lo_closed: bool,
    hi: f64,
    hi_closed: bool,
}

impl Interval {
    fn intersect(self, o: Interval) -> Option<Interval> {
        let (lo, lo_closed) = match self.lo.total_cmp(&o.lo) {
            std::cmp::Ordering::Less => (o.lo, o.lo_closed),
            std::cmp::Ordering::Greater => (self.lo, self.lo_closed),
            std::cmp::Ordering::Equal => (self.lo, self.lo_closed && o.lo_closed),
        };
        let (hi, hi_closed) = match self.hi.total_cmp(&o.hi) {
            std::cmp::Ordering::Less => (self.hi, self.hi_closed),
            std::cmp::Ordering::Greater => (o.hi, o.hi_closed),
            std::cmp::Ordering::Equal => (self.hi, self.hi_closed && o.hi_closed),
        };
        (lo < hi || (lo == hi && lo_closed && hi_closed)).then_some(Interval {
            lo,
            lo_closed,
            hi,
            hi_closed,
        })
    }
}

/// The open parameter range `(0, 1)` of the query.
const OPEN_UNIT: Interval = Interval {
    lo: 0.0,
    lo_closed: false,
    hi: 1.0,
    hi_closed: false,
};

impl Query {
    fn new(eye: Vec3, target: Vec3) -> Option<Query> {
        if !eye.is_finite() || !target.is_finite() || eye == target {
            return None;
        }
        let key = |v: Vec3| [v.x, v.z, v.y];
        let (ke, kt) = (key(eye), key(target));
        let swapped = (0..3)
            .map(|i| ke[i].total_cmp(&kt[i]))
            .find(|o| o.is_ne())
            .is_some_and(|o| o.is_gt());
        let (a, b) = if swapped {
            (target, eye)
        } else {
            (eye, target)
        };
        let f = |v: Vec3| [f64::from(v.x), f64::from(v.y), f64::from(v.z)];
        Some(Query {
            a: f(a),
            b: f(b),
            swapped,
        })
    }

    fn eye_xz(&self) -> [f64; 2] {
        if self.swapped {
            [self.b[0], self.b[2]]
        } else {
            [self.a[0], self.a[2]]
        }
    }

    fn target_xz(&self) -> [f64; 2] {
        if self.swapped {
            [self.a[0], self.a[2]]
        } else {
            [self.b[0], self.b[2]]
        }
    }

    /// The nearest blocking parameter measured from the caller's eye.
    fn nearest(&self, h: Hit) -> f64 {
        if self.swapped { 1.0 - h.hi } else { h.lo }
    }

    /// Parameters `t` where `y(t)` is in `[0, height)`.
    fn height_range(&self, height: f64) -> Interval {
        let (ay, dy) = (self.a[1], self.b[1] - self.a[1]);
        if dy == 0.0 {
            let inside = 0.0 <= ay && ay < height;
            return Interval {
                lo: if inside { f64::NEG_INFINITY } else { 1.0 },
                lo_closed: true,
                hi: if inside { f64::INFINITY } else { 0.0 },
                hi_closed: true,
            };
        }
        let t_floor = -ay / dy;
        let t_top = (height - ay) / dy;
        if dy > 0.0 {
            Interval {
                lo: t_floor,
                lo_closed: true,
                hi: t_top,
                hi_closed: false,
            }
        } else {
            Interval {
                lo: t_top,
                lo_closed: false,
                hi: t_floor,
                hi_closed: true,
            }
        }
    }

    fn blocked_within(&self, t: Interval, height: f64) -> Option<Hit> {
        let i = t
            .intersect(OPEN_UNIT)?
            .intersect(self.height_range(height))?;
        Some(Hit { lo: i.lo, hi: i.hi })
    }

    /// The per-wall test shared by the grid and the brute force.
    fn hit(&self, wall: &Wall) -> Option<Hit> {
        if !wall.is_finite() || wall.height <= 0.0 {
            return None;
        }
        let height = f64::from(wall.height);
        let p = [f64::from(wall.from.x), f64::from(wall.from.y)];
        let q = [f64::from(wall.to.x), f64::from(wall.to.y)];
        let a = [self.a[0], self.a[2]];
        let b = [self.b[0], self.b[2]];
        let d = [b[0] - a[0], b[1] - a[1]];
        if d == [0.0, 0.0] {
            // Vertical query: a single X-Z point, every t in (0, 1).
            let on_wall = if p == q {
                a == p
            } else {
                orient(p, q, a) == 0.0
                    && p[0].min(q[0]) <= a[0]
                    && a[0] <= p[0].max(q[0])
                    && p[1].min(q[1]) <= a[1]
                    && a[1] <= p[1].max(q[1])
            };
            return if on_wall {
                self.blocked_within(OPEN_UNIT, height)
            } else {
                None
            };
        }
        let oa = orient(p, q, a);
        let ob = orient(p, q, b);
        if (oa > 0.0 && ob < 0.0) || (oa < 0.0 && ob > 0.0) {
            // Eye and target strictly on both sides of the wall's line.
            let op = orient(a, b, p);
            let oq = orient(a, b, q);
            if (op > 0.0 && oq > 0.0) || (op < 0.0 && oq < 0.0) {
                return None;
            }
            let t = oa / (oa - ob);
            return self.point_hit(t, height);
        }
        if oa != 0.0 || ob != 0.0 {
            // Same side, or touching the wall's line only at eye or target.
            return None;
        }
        let dd = d[0] * d[0] + d[1] * d[1];
        let along = |r: [f64; 2]| ((r[0] - a[0]) * d[0] + (r[1] - a[1]) * d[1]) / dd;
        if p == q {
            // A post: must lie on the query's line strictly between the ends.
            if orient(a, b, p) != 0.0 {
                return None;
            }
            let t = along(p);
            return if t > 0.0 && t < 1.0 {
                self.point_hit(t, height)
            } else {
                None
            };
        }
        // Collinear overlap.
        let (tp, tq) = (along(p), along(q));
        let overlap = Interval {
            lo: tp.min(tq),
            lo_closed: true,
            hi: tp.max(tq),
            hi_closed: true,
        };
        self.blocked_within(overlap, height)
    }

    /// A single crossing at `t` (already known to be in `(0, 1)`).
    fn point_hit(&self, t: f64, height: f64) -> Option<Hit> {
        let y = self.a[1] + t * (self.b[1] - self.a[1]);
        (0.0 <= y && y < height).then_some(Hit { lo: t, hi: t })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v3(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3::new(x, y, z)
    }

    fn check(walls: &[Wall], eye: Vec3, target: Vec3) -> bool {
        let set = Walls::build(walls.to_vec(), None);
        let mut s = RayScratch::new();
        let got = set.blocks(eye, target, &mut s);
        assert_eq!(got, blocks_brute(walls, eye, target), "grid vs brute");
        assert_eq!(got, set.blocks(target, eye, &mut s), "symmetry");
        got
    }

    fn wall(x0: f32, z0: f32, x1: f32, z1: f32, h: f32) -> Wall {
        Wall::new(Vec2::new(x0, z0), Vec2::new(x1, z1), h)
    }

    #[test]
    fn crossing_below_top_blocks_and_above_does_not() {
        let w = [wall(5.0, -5.0, 5.0, 5.0, 3.0)];
        assert!(check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
        assert!(
            !check(&w, v3(0.0, 3.0, 0.0), v3(10.0, 3.0, 0.0)),
            "top is open"
        );
        assert!(
            check(&w, v3(0.0, 0.0, 0.0), v3(10.0, 0.0, 0.0)),
            "floor is closed"
        );
        assert!(!check(&w, v3(0.0, -0.1, 0.0), v3(10.0, -0.1, 0.0)));
        // Height interpolated at the crossing: 1.0 + 0.5 * (5.0 - 1.0) = 3.0.
        assert!(!check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 5.0, 0.0)));
        assert!(check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 4.9, 0.0)));
        assert!(
            !check(&w, v3(0.0, 1.0, 6.0), v3(10.0, 1.0, 6.0)),
            "misses the end"
        );
    }

    #[test]
    fn touching_a_wall_endpoint_blocks() {
        let w = [wall(5.0, 0.0, 5.0, 5.0, 3.0)];
        assert!(check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
        // A closed square has no leak through its corner.
        let sq = Wall::polygon(
            &[
                Vec2::new(0.0, 0.0),
                Vec2::new(4.0, 0.0),
                Vec2::new(4.0, 4.0),
                Vec2::new(0.0, 4.0),
            ],
            2.0,
        );
        assert!(check(&sq, v3(-2.0, 1.0, -2.0), v3(2.0, 1.0, 2.0)));
    }

    #[test]
    fn eye_or_target_on_a_wall_is_not_blocked_by_it() {
        let w = [wall(5.0, -5.0, 5.0, 5.0, 3.0)];
        assert!(!check(&w, v3(5.0, 1.0, 0.0), v3(0.0, 1.0, 0.0)));
        assert!(!check(&w, v3(5.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
        assert!(!check(&w, v3(0.0, 1.0, 0.0), v3(5.0, 1.0, 2.0)));
        // ...but running along it blocks.
        assert!(check(&w, v3(5.0, 1.0, 0.0), v3(5.0, 1.0, 1.0)));
    }

    #[test]
    fn collinear_overlap_rules() {
        let w = [wall(0.0, 0.0, 10.0, 0.0, 3.0)];
        assert!(check(&w, v3(-5.0, 1.0, 0.0), v3(15.0, 1.0, 0.0)));
        assert!(check(&w, v3(-5.0, 1.0, 0.0), v3(1.0, 1.0, 0.0)));
        // Only touching the wall's end at the target: not blocked.
        assert!(!check(&w, v3(-5.0, 1.0, 0.0), v3(0.0, 1.0, 0.0)));
        // Stopping short of the wall: not blocked.
        assert!(!check(&w, v3(-5.0, 1.0, 0.0), v3(-1.0, 1.0, 0.0)));
        assert!(check(&w, v3(-5.0, 1.0, 0.0), v3(0.5, 1.0, 0.0)));
        // Rising along the wall: inside only while below the top.
        assert!(check(&w, v3(2.0, 2.0, 0.0), v3(8.0, 9.0, 0.0)));
        assert!(!check(&w, v3(2.0, 3.0, 0.0), v3(8.0, 9.0, 0.0)));
        // Eye on the floor at the wall, descending: open end at y = 0 only.
        assert!(!check(&w, v3(2.0, 0.0, 0.0), v3(8.0, -1.0, 0.0)));
    }

    #[test]
    fn zero_length_and_vertical_queries() {
        let w = [wall(0.0, 0.0, 10.0, 0.0, 3.0)];
        assert!(!check(&w, v3(5.0, 1.0, 0.0), v3(5.0, 1.0, 0.0)));
        assert!(check(&w, v3(5.0, 5.0, 0.0), v3(5.0, 1.0, 0.0)));
        assert!(!check(&w, v3(5.0, 5.0, 0.0), v3(5.0, 3.0, 0.0)));
        assert!(!check(&w, v3(5.0, 5.0, 1.0), v3(5.0, 1.0, 1.0)));
    }

    #[test]
    fn posts_and_flat_walls() {
        let post = [wall(5.0, 0.0, 5.0, 0.0, 2.0)];
        assert!(check(&post, v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
        assert!(!check(&post, v3(0.0, 1.0, 0.1), v3(10.0, 1.0, 0.0)));
        assert!(!check(
            &[wall(5.0, -5.0, 5.0, 5.0, 0.0)],
            v3(0.0, 0.0, 0.0),
            v3(10.0, 0.0, 0.0)
        ));
    }

    #[test]
    fn non_finite_inputs_never_block() {
        let w = [
            wall(5.0, -5.0, 5.0, 5.0, 3.0),
            wall(f32::NAN, 0.0, 1.0, 1.0, 3.0),
        ];
        assert!(!check(&w, v3(f32::NAN, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
        assert!(!check(&w, v3(0.0, 1.0, 0.0), v3(f32::INFINITY, 1.0, 0.0)));
        assert!(check(&w, v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0)));
    }

    #[test]
    fn first_hit_is_the_nearest_wall() {
        let ws = vec![
            wall(8.0, -5.0, 8.0, 5.0, 3.0),
            wall(2.0, -5.0, 2.0, 5.0, 3.0),
        ];
        let set = Walls::build(ws.clone(), Some(1.0));
        let mut s = RayScratch::new();
        let (e, t) = (v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0));
        assert_eq!(set.first_hit(e, t, &mut s), Some(0.2));
        assert_eq!(set.first_hit(t, e, &mut s), Some(0.2));
        assert_eq!(first_hit_brute(&ws, e, t), Some(0.2));
        assert_eq!(set.first_hit(e, v3(1.0, 1.0, 0.0), &mut s), None);
    }

    #[test]
    fn add_polygon_reindexes() {
        let mut set = Walls::default();
        let mut s = RayScratch::new();
        assert!(!set.blocks(v3(-1.0, 1.0, 2.0), v3(5.0, 1.0, 2.0), &mut s));
        set.add_polygon(&[Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0)], 2.0);
        assert_eq!(set.walls().len(), 3);
        assert!(set.blocks(v3(-1.0, 1.0, 2.0), v3(5.0, 1.0, 2.0), &mut s));
        set.add(wall(100.0, 100.0, 101.0, 100.0, 1.0));
        assert!(set.blocks(v3(100.5, 0.5, 99.0), v3(100.5, 0.5, 101.0), &mut s));
    }

    #[test]
    fn scratch_generation_wraps() {
        let set = Walls::build(vec![wall(5.0, -5.0, 5.0, 5.0, 3.0)], None);
        let mut s = RayScratch::new();
        s.generation = u32::MAX - 1;
        for _ in 0..4 {
            assert!(set.blocks(v3(0.0, 1.0, 0.0), v3(10.0, 1.0, 0.0), &mut s));
        }
    }

    // ---- property tests: grid == brute force ----

    /// Coordinates drawn from a mix of a snapped lattice (hits cell
    /// boundaries, corners and exact collinearity) and free floats.
    fn coord() -> impl Strategy<Value = f32> {
        prop_oneof![
            (-8i32..=8).prop_map(|i| i as f32 * 2.0),
            (-32i32..=32).prop_map(|i| i as f32 * 0.5),
            -20.0f32..20.0,
        ]
    }

    fn point2() -> impl Strategy<Value = Vec2> {
        (coord(), coord()).prop_map(|(x, z)| Vec2::new(x, z))
    }

    fn height() -> impl Strategy<Value = f32> {
        prop_oneof![Just(0.0f32), Just(2.0f32), 0.0f32..5.0, -1.0f32..0.5]
    }

    fn any_wall() -> impl Strategy<Value = Vec<Wall>> {
        prop_oneof![
            // Plain walls.
            4 => (point2(), point2(), height()).prop_map(|(a, b, h)| vec![Wall::new(a, b, h)]),
            // Tiny walls and posts.
            1 => (point2(), -0.01f32..0.01, -0.01f32..0.01, height())
                .prop_map(|(a, dx, dz, h)| vec![Wall::new(a, a + Vec2::new(dx, dz), h)]),
            1 => (point2(), height()).prop_map(|(a, h)| vec![Wall::new(a, a, h)]),
            // Huge walls.
            1 => (point2(), -1.0e4f32..1.0e4, -1.0e4f32..1.0e4, height())
                .prop_map(|(a, dx, dz, h)| vec![Wall::new(a - Vec2::new(dx, dz), a + Vec2::new(dx, dz), h)]),
            // Polygons.
            2 => (prop::collection::vec(point2(), 2..7), height())
                .prop_map(|(pts, h)| Wall::polygon(&pts, h)),
        ]
    }

    fn scene() -> impl Strategy<Value = Vec<Wall>> {
        prop::collection::vec(any_wall(), 0..12).prop_map(|v| v.concat())
    }

    fn point3() -> impl Strategy<Value = Vec3> {
        (
            coord(),
            prop_oneof![Just(0.0f32), Just(2.0f32), -1.0f32..6.0],
            coord(),
        )
            .prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// Query pairs: free, axis-aligned, vertical, zero-length.
    fn query() -> impl Strategy<Value = (Vec3, Vec3)> {
        prop_oneof![
            4 => (point3(), point3()),
            1 => (point3(), coord(), -1.0f32..6.0).prop_map(|(a, x, y)| (a, Vec3::new(x, y, a.z))),
            1 => (point3(), coord(), -1.0f32..6.0).prop_map(|(a, z, y)| (a, Vec3::new(a.x, y, z))),
            1 => (point3(), -1.0f32..6.0).prop_map(|(a, y)| (a, Vec3::new(a.x, y, a.z))),
            1 => point3().prop_map(|a| (a, a)),
        ]
    }

    fn cell_size() -> impl Strategy<Value = Option<f32>> {
        prop_oneof![
            Just(None),
            Just(Some(2.0f32)),
            Just(Some(0.5f32)),
            (0.05f32..30.0).prop_map(Some)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn grid_equals_brute_force(
            walls in scene(),
            cell in cell_size(),
            queries in prop::collection::vec(query(), 1..16),
        ) {
            let set = Walls::build(walls.clone(), cell);
            let mut s = RayScratch::new();
            for (eye, target) in queries {
                let brute = blocks_brute(&walls, eye, target);
                prop_assert_eq!(set.blocks(eye, target, &mut s), brute);
                prop_assert_eq!(set.blocks(target, eye, &mut s), brute, "symmetry");
                let hit = set.first_hit(eye, target, &mut s);
                prop_assert_eq!(hit, first_hit_brute(&walls, eye, target));
                prop_assert_eq!(hit.is_some(), brute);
                if let Some(t) = hit {
                    prop_assert!((0.0..=1.0).contains(&t));
                }
            }
        }

        #[test]
        fn near_equals_brute_force(
            walls in scene(),
            cell in cell_size(),
            reach in prop_oneof![Just(4.0f32), Just(15.0f32), 0.0f32..40.0],
            eyes in prop::collection::vec(point3(), 1..4),
            queries in prop::collection::vec(query(), 1..24),
        ) {
            let set = Walls::build(walls.clone(), cell);
            let mut s = RayScratch::new();
            let mut near = NearWalls::new();
            // Many targets per eye (the sense stage's pattern), targets
            // from the lattice and free, near and beyond the reach.
            for eye in eyes.iter().copied().chain(queries.iter().map(|q| q.0)) {
                for &(_, target) in &queries {
                    let brute = blocks_brute(&walls, eye, target);
                    prop_assert_eq!(set.blocks_near(eye, target, reach, &mut near, &mut s), brute);
                    prop_assert_eq!(set.blocks_near(target, eye, reach, &mut near, &mut s), brute);
                }
            }
        }
    }
}
