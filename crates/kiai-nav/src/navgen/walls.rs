//! [`Obstacles`]: the walls that stop walkers, bucketed over X-Z, and the
//! geometry the generator asks of them (is a point walkable, is a straight
//! line clear, how wide is it).

use glam::Vec2;

use super::GenWall;
use crate::point_segment_distance;

/// Slack on distance comparisons, world units: a line exactly `radius`
/// from a wall counts as clear.
const SLACK: f32 = 1e-4;

/// Waypoints keep at least this far from a door line even at radius 0.
const CORNER_TOUCH: f32 = 0.01;

/// The blocking walls (taller than [`super::STEP_HEIGHT`], doors excluded) in a
/// uniform grid of buckets, with the walkable box.
pub(super) struct Obstacles {
    /// Segments `(from, to)` on X-Z, world units.
    segs: Vec<(Vec2, Vec2)>,
    /// Smallest corner of the bucket grid.
    origin: Vec2,
    /// Bucket side, world units, > 0.
    cell: f32,
    /// Buckets along X and Z.
    dims: (usize, usize),
    /// Segment indices per bucket.
    buckets: Vec<Vec<u32>>,
    /// The box agent centres may reach (bounds shrunk by the radius).
    lo: Vec2,
    /// Largest corner of that box.
    hi: Vec2,
    /// Agent radius, world units.
    radius: f32,
    /// Door segments (waypoints are not placed in doorways).
    doors: Vec<(Vec2, Vec2)>,
}

impl Obstacles {
    /// Indexes `walls` that block (height above the step, not doors) for
    /// agents of `radius` inside the box `min..max`.
    pub(super) fn new(walls: &[GenWall], min: Vec2, max: Vec2, radius: f32, cell: f32) -> Self {
        let segs: Vec<(Vec2, Vec2)> = walls
            .iter()
            .filter(|w| w.blocks())
            .map(|w| (w.from, w.to))
            .collect();
        let cell = cell.max(1e-2);
        let size = (max - min).max(Vec2::splat(cell));
        let dims = (
            ((size.x / cell) as usize + 1).clamp(1, 2048),
            ((size.y / cell) as usize + 1).clamp(1, 2048),
        );
        let cell = (size.x / dims.0 as f32).max(size.y / dims.1 as f32);
        let mut obstacles = Self {
            segs: Vec::new(),
            origin: min,
            cell,
            dims,
            buckets: vec![Vec::new(); dims.0 * dims.1],
            lo: min + Vec2::splat(radius),
            hi: max - Vec2::splat(radius),
            radius,
            doors: walls
                .iter()
                .filter(|w| w.door && w.height > super::STEP_HEIGHT)
                .map(|w| (w.from, w.to))
                .collect(),
        };
        for (i, &(a, b)) in segs.iter().enumerate() {
            let r = Vec2::splat(radius);
            let cells: Vec<usize> = obstacles.cells(a.min(b) - r, a.max(b) + r).collect();
            for c in cells {
                obstacles.buckets[c].push(i as u32);
            }
        }
        obstacles.segs = segs;
        obstacles
    }

    /// The blocking segments.
    pub(super) fn segments(&self) -> &[(Vec2, Vec2)] {
        &self.segs
    }

    /// The agent radius the obstacles were built for.
    pub(super) fn radius(&self) -> f32 {
        self.radius
    }

    /// Bucket indices overlapping the box `lo..hi`.
    fn cells(&self, lo: Vec2, hi: Vec2) -> impl Iterator<Item = usize> + '_ {
        let clamp = |v: f32, n: usize| ((v / self.cell).floor().max(0.0) as usize).min(n - 1);
        let (x0, z0) = (
            clamp(lo.x - self.origin.x, self.dims.0),
            clamp(lo.y - self.origin.y, self.dims.1),
        );
        let (x1, z1) = (
            clamp(hi.x - self.origin.x, self.dims.0),
            clamp(hi.y - self.origin.y, self.dims.1),
        );
        (z0..=z1).flat_map(move |z| (x0..=x1).map(move |x| z * self.dims.0 + x))
    }

    /// Calls `f` with every segment whose inflated box may touch `lo..hi`,
    /// each once, lowest index first within a bucket; stops when `f` says so.
    fn any_near(&self, lo: Vec2, hi: Vec2, mut f: impl FnMut(Vec2, Vec2) -> bool) -> bool {
        let mut seen: Vec<u32> = Vec::new();
        for c in self.cells(lo, hi) {
            for &i in &self.buckets[c] {
                if seen.contains(&i) {
                    continue;
                }
                seen.push(i);
                let (a, b) = self.segs[i as usize];
                if f(a, b) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `p` is inside the walkable box and at least the radius
    /// (plus `margin`) from every blocking wall.
    pub(super) fn walkable(&self, p: Vec2, margin: f32) -> bool {
        let inside = p.x >= self.lo.x - SLACK
            && p.y >= self.lo.y - SLACK
            && p.x <= self.hi.x + SLACK
            && p.y <= self.hi.y + SLACK;
        let need = self.radius + margin - SLACK;
        inside && !self.any_near(p, p, |a, b| point_segment_distance(p, a, b) < need)
    }

    /// Whether a waypoint may stand at `p`: walkable (with `margin`) and
    /// not within the radius of a door, so that every link through a
    /// doorway crosses the door's line.
    pub(super) fn placeable(&self, p: Vec2, margin: f32) -> bool {
        self.walkable(p, margin)
            && self
                .doors
                .iter()
                .all(|&(a, b)| point_segment_distance(p, a, b) >= self.radius.max(CORNER_TOUCH))
    }

    /// Whether an agent can walk straight from `p` to `q`: the segment
    /// stays at least the radius from every blocking wall.
    pub(super) fn clear(&self, p: Vec2, q: Vec2) -> bool {
        let need = self.radius - SLACK;
        !self.any_near(p.min(q), p.max(q), |a, b| {
            segment_segment(p, q, a, b) < need
        })
    }

    /// The distance from the segment `p..q` to the nearest blocking wall,
    /// at most `cap` (world units).
    pub(super) fn clearance(&self, p: Vec2, q: Vec2, cap: f32) -> f32 {
        let mut best = cap;
        let r = Vec2::splat(cap);
        self.any_near(p.min(q) - r, p.max(q) + r, |a, b| {
            best = best.min(segment_segment(p, q, a, b));
            false
        });
        best
    }
}

/// Distance between the segments `p..q` and `a..b` (0 when they cross).
pub(super) fn segment_segment(p: Vec2, q: Vec2, a: Vec2, b: Vec2) -> f32 {
    if segments_cross(p, q, a, b) {
        return 0.0;
    }
    point_segment_distance(p, a, b)
        .min(point_segment_distance(q, a, b))
        .min(point_segment_distance(a, p, q))
        .min(point_segment_distance(b, p, q))
}

/// Whether the segments `p..q` and `a..b` properly cross.
pub(super) fn segments_cross(p: Vec2, q: Vec2, a: Vec2, b: Vec2) -> bool {
    let d1 = (q - p).perp_dot(a - p);
    let d2 = (q - p).perp_dot(b - p);
    let d3 = (b - a).perp_dot(p - a);
    let d4 = (b - a).perp_dot(q - a);
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}
