//! Line-of-sight occlusion by vertical walls (article 003, "视野遮挡": a ray from the
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

mod changes;
mod grid;
mod near;
mod query;
mod slide;
mod sweep;
#[cfg(test)]
mod tests;

pub use near::NearWalls;
pub use sweep::{Contact, Sweep, clear_of_brute, nearest_distance_brute, sweep_circle_brute};

use glam::{Vec2, Vec3};

use grid::Grid;
use query::Query;

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

    /// Whether the wall holds a body standing at `floor` (world units):
    /// finite and taller than that.
    pub(crate) fn holds(&self, floor: f32) -> bool {
        self.is_finite() && self.height > floor
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
    /// Per wall, whether it stands (doors open by disabling it).
    state: Vec<WallState>,
    /// The cell size asked for in [`Walls::build`], reused by `add*`.
    requested_cell_size: Option<f32>,
    grid: Grid,
}

/// Whether a wall takes part in queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WallState {
    /// It stands and blocks.
    Enabled,
    /// It is open (a door) and blocks nothing until enabled again.
    Disabled,
    /// It was removed for good; its index stays taken.
    Removed,
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
        let state = vec![WallState::Enabled; walls.len()];
        let indexed = vec![true; walls.len()];
        let grid = Grid::build(&walls, &indexed, cell_size);
        Self {
            walls,
            state,
            requested_cell_size: cell_size,
            grid,
        }
    }

    /// Adds the walls of a closed polygon (see [`Wall::polygon`]), all of
    /// `height` world units, and re-indexes once.
    pub fn add_polygon(&mut self, points: &[Vec2], height: f32) {
        for wall in Wall::polygon(points, height) {
            self.walls.push(wall);
            self.state.push(WallState::Enabled);
        }
        self.reindex();
    }

    /// All walls, in insertion order (indices are stable), standing or not
    /// (see [`Walls::is_enabled`]).
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }

    /// The walls that stand, with their indices: what queries test.
    pub fn enabled_walls(&self) -> impl Iterator<Item = (usize, &Wall)> + '_ {
        self.walls
            .iter()
            .enumerate()
            .filter(|(i, _)| self.state[*i] == WallState::Enabled)
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
}
