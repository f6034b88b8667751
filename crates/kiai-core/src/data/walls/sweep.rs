//! Bodies against walls: the first touch of a moving circle
//! ([`Walls::sweep_circle`]), whether a circle may travel a segment
//! ([`Walls::clear_of`]) and how far the nearest wall is
//! ([`Walls::nearest_distance`]), for containment, look-ahead, route
//! smoothing and link clearance.
//!
//! A body is a circle on X-Z standing at a height (`floor`, world units):
//! only walls taller than its floor hold it (a missile flies over a wall
//! lower than it, as with occlusion). Arithmetic is done in `f64` on the
//! `f32` inputs; each query equals its brute-force twin over the standing
//! walls (property-tested).

use glam::{DVec2, Vec2, Vec3};

use super::{RayScratch, Wall, Walls};

/// Where a moving circle first touches a wall.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The fraction of the movement travelled before the touch, in [0, 1]
    /// (0 when the circle already overlaps the wall and moves into it).
    pub t: f32,
    /// Unit normal on X-Z from the touched point of the wall toward the
    /// circle's centre: the direction the wall pushes.
    pub normal: Vec2,
    /// The index of the wall touched.
    pub wall: usize,
}

/// A circle moving on X-Z: from `from` by `delta` (world units), of
/// `radius` (world units, > 0) standing at height `floor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// Centre at the start, X-Z world units.
    pub from: Vec2,
    /// The movement, X-Z world units.
    pub delta: Vec2,
    /// Radius, world units; values below [`Sweep::MIN_RADIUS`] count as it.
    pub radius: f32,
    /// The body's height; walls no taller do not hold it.
    pub floor: f32,
}

impl Sweep {
    /// The smallest radius a query uses, world units: a point body is
    /// treated as this small circle, so touching is well defined.
    pub const MIN_RADIUS: f32 = 1e-3;

    /// How high above an agent's feet walls start to hold it, world units:
    /// a wall no taller than this above its position is stepped over
    /// (missiles fly over walls lower than them).
    pub const STEP_HEIGHT: f32 = 0.1;

    /// The sweep of an agent's body of `radius` moving from `from` to `to`
    /// (world positions): on X-Z, at [`Sweep::STEP_HEIGHT`] above `from`.
    pub fn body(from: Vec3, to: Vec3, radius: f32) -> Self {
        Self {
            from: Vec2::new(from.x, from.z),
            delta: Vec2::new(to.x - from.x, to.z - from.z),
            radius,
            floor: from.y + Self::STEP_HEIGHT,
        }
    }

    fn radius(&self) -> f64 {
        f64::from(self.radius.max(Self::MIN_RADIUS))
    }

    /// The X-Z box the whole movement covers, grown by the radius.
    fn bounds(&self) -> (Vec2, Vec2) {
        let r = self.radius.max(Self::MIN_RADIUS) * 1.001 + 1e-4;
        let to = self.from + self.delta;
        (self.from.min(to) - r, self.from.max(to) + r)
    }
}

impl Walls {
    /// Calls `f` once with each standing wall (index and wall) whose grid
    /// cells meet the X-Z box `lo..hi` (world units): a superset of the
    /// standing walls inside it, in ascending cell order. Allocation-free
    /// once `scratch` has grown.
    pub fn for_each_in_box(
        &self,
        lo: Vec2,
        hi: Vec2,
        scratch: &mut RayScratch,
        mut f: impl FnMut(usize, &Wall),
    ) {
        if self.grid.nx == 0 || self.grid.nz == 0 || !lo.is_finite() || !hi.is_finite() {
            return;
        }
        let pad = |v: f32| f64::from(v.abs()) * 1e-6 + self.grid.margin;
        let lo64 = [f64::from(lo.x) - pad(lo.x), f64::from(lo.y) - pad(lo.y)];
        let hi64 = [f64::from(hi.x) + pad(hi.x), f64::from(hi.y) + pad(hi.y)];
        let [x0, z0, x1, z1] = self.grid.block_of(lo64, hi64);
        scratch.begin(self.walls.len());
        for z in z0..=z1 {
            for x in x0..=x1 {
                for &w in self.grid.cell_items(z * self.grid.nx + x) {
                    if scratch.first_visit(w as usize) {
                        f(w as usize, &self.walls[w as usize]);
                    }
                }
            }
        }
    }

    /// The first wall the circle of `sweep` touches on its way, or `None`
    /// when it moves freely. A circle that already overlaps a wall touches
    /// it at `t = 0` if it moves further into it, and not at all if it
    /// moves out or along. Equals [`sweep_circle_brute`].
    pub fn sweep_circle(&self, sweep: &Sweep, scratch: &mut RayScratch) -> Option<Contact> {
        let (lo, hi) = sweep.bounds();
        let mut best = None;
        self.for_each_in_box(lo, hi, scratch, |i, w| {
            consider(&mut best, sweep, i, w);
        });
        best
    }

    /// True when a circle of `radius` (world units) standing at `floor`
    /// can travel the straight segment `a -> b` (X-Z, world units) without
    /// coming closer than `radius` to a standing wall taller than `floor`.
    /// Equals [`clear_of_brute`].
    pub fn clear_of(
        &self,
        (a, b): (Vec2, Vec2),
        radius: f32,
        floor: f32,
        scratch: &mut RayScratch,
    ) -> bool {
        let r = radius.max(0.0) * 1.001 + 1e-4;
        let mut clear = true;
        self.for_each_in_box(a.min(b) - r, a.max(b) + r, scratch, |_, w| {
            clear &= !too_close(w, (a, b), radius, floor);
        });
        clear
    }

    /// The distance on X-Z (world units) between the segment `a..b` and the
    /// nearest standing wall taller than `floor` within `reach` of it (0
    /// when one crosses it), or infinity when there is none that near: the
    /// segment's clearance, the widest radius that can travel it.
    pub fn segment_clearance(
        &self,
        (a, b): (Vec2, Vec2),
        reach: f32,
        floor: f32,
        scratch: &mut RayScratch,
    ) -> f32 {
        let mut best = f64::INFINITY;
        if !a.is_finite() || !b.is_finite() {
            return f32::INFINITY;
        }
        let r = reach.max(0.0) * 1.001 + 1e-4;
        self.for_each_in_box(a.min(b) - r, a.max(b) + r, scratch, |_, w| {
            if w.holds(floor) {
                best = best.min(segment_distance((dv(a), dv(b)), (dv(w.from), dv(w.to))));
            }
        });
        if best <= f64::from(reach) {
            best as f32
        } else {
            f32::INFINITY
        }
    }

    /// The distance on X-Z (world units) from `p` to the nearest standing
    /// wall taller than `floor` within `reach` of it, or infinity when there
    /// is none that near. Equals [`nearest_distance_brute`] wherever that is
    /// at most `reach`.
    pub fn nearest_distance(
        &self,
        p: Vec2,
        reach: f32,
        floor: f32,
        scratch: &mut RayScratch,
    ) -> f32 {
        let mut best = f64::INFINITY;
        let r = reach.max(0.0) * 1.001 + 1e-4;
        self.for_each_in_box(p - r, p + r, scratch, |_, w| {
            if w.holds(floor) {
                best = best.min(point_segment(dv(p), dv(w.from), dv(w.to)).1);
            }
        });
        if best <= f64::from(reach) {
            best as f32
        } else {
            f32::INFINITY
        }
    }
}

/// Reference of [`Walls::sweep_circle`]: tests every wall of `walls`.
pub fn sweep_circle_brute(walls: &[Wall], sweep: &Sweep) -> Option<Contact> {
    let mut best = None;
    for (i, w) in walls.iter().enumerate() {
        consider(&mut best, sweep, i, w);
    }
    best
}

/// Reference of [`Walls::clear_of`]: tests every wall of `walls`.
pub fn clear_of_brute(walls: &[Wall], segment: (Vec2, Vec2), radius: f32, floor: f32) -> bool {
    !walls.iter().any(|w| too_close(w, segment, radius, floor))
}

/// Reference of [`Walls::nearest_distance`] without a reach: tests every
/// wall of `walls`.
pub fn nearest_distance_brute(walls: &[Wall], p: Vec2, floor: f32) -> f32 {
    walls
        .iter()
        .filter(|w| w.holds(floor))
        .map(|w| point_segment(dv(p), dv(w.from), dv(w.to)).1)
        .fold(f64::INFINITY, f64::min) as f32
}

fn dv(v: Vec2) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.y))
}

/// Keeps the earlier of `best` and wall `i`'s contact (ties: the lower
/// index, which comes first in both callers' orders only by chance, so
/// compare explicitly).
fn consider(best: &mut Option<Contact>, sweep: &Sweep, i: usize, w: &Wall) {
    if !w.holds(sweep.floor) || !sweep.from.is_finite() || !sweep.delta.is_finite() {
        return;
    }
    let Some((t, normal)) = contact(w, dv(sweep.from), dv(sweep.delta), sweep.radius()) else {
        return;
    };
    let c = Contact {
        t: t as f32,
        normal: normal.as_vec2(),
        wall: i,
    };
    let better = match best {
        None => true,
        Some(b) => c.t < b.t || (c.t == b.t && c.wall < b.wall),
    };
    if better {
        *best = Some(c);
    }
}

/// The closest point of segment `a..b` to `p`, and its distance.
fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> (DVec2, f64) {
    let ab = b - a;
    let len2 = ab.length_squared();
    let s = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let c = a + ab * s;
    (c, p.distance(c))
}

/// The first `(t, normal)` at which a circle of radius `r` moving from `p`
/// by `d` touches wall `w` (see [`Walls::sweep_circle`]).
fn contact(w: &Wall, p: DVec2, d: DVec2, r: f64) -> Option<(f64, DVec2)> {
    let (a, b) = (dv(w.from), dv(w.to));
    let (closest, dist) = point_segment(p, a, b);
    if dist < r {
        // Already overlapping: only moving further in counts.
        let normal = if dist > 0.0 {
            (p - closest) / dist
        } else {
            let along = (b - a).try_normalize().unwrap_or(DVec2::X);
            let n = along.perp();
            if n.dot(d) > 0.0 { -n } else { n }
        };
        return (normal.dot(d) < 0.0).then_some((0.0, normal));
    }
    let mut best: Option<(f64, DVec2)> = None;
    let mut keep = |t: f64, n: DVec2| {
        if (0.0..=1.0).contains(&t) && best.is_none_or(|(bt, _)| t < bt) {
            best = Some((t, n));
        }
    };
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 > 0.0 {
        // The two long sides of the capsule.
        let n = ab.perp() / len2.sqrt();
        let s0 = (p - a).dot(n);
        let vn = d.dot(n);
        if s0 * vn < 0.0 {
            let t = (s0.abs() - r) / vn.abs();
            let along = (p + d * t - a).dot(ab) / len2;
            if (0.0..=1.0).contains(&along) {
                keep(t, n * s0.signum());
            }
        }
    }
    // The round ends.
    for e in [a, b] {
        let m = p - e;
        let (qa, qb, qc) = (d.length_squared(), m.dot(d), m.length_squared() - r * r);
        let disc = qb * qb - qa * qc;
        if qa > 0.0 && qb < 0.0 && disc >= 0.0 {
            let t = (-qb - disc.sqrt()) / qa;
            keep(t.max(0.0), (m + d * t.max(0.0)) / r);
        }
    }
    best.map(|(t, n)| (t, n.try_normalize().unwrap_or(n)))
}

/// Whether the segment `a..b` passes closer than `radius` to `w` (a wall
/// taller than `floor`).
fn too_close(w: &Wall, (a, b): (Vec2, Vec2), radius: f32, floor: f32) -> bool {
    if !w.holds(floor) || !a.is_finite() || !b.is_finite() {
        return false;
    }
    segment_distance((dv(a), dv(b)), (dv(w.from), dv(w.to))) < f64::from(radius.max(0.0))
}

/// The distance between two closed segments (0 when they cross or touch).
fn segment_distance((p, q): (DVec2, DVec2), (a, b): (DVec2, DVec2)) -> f64 {
    let orient = |u: DVec2, v: DVec2, w: DVec2| (v - u).perp_dot(w - u);
    let (d1, d2) = (orient(a, b, p), orient(a, b, q));
    let (d3, d4) = (orient(p, q, a), orient(p, q, b));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return 0.0;
    }
    [
        point_segment(p, a, b).1,
        point_segment(q, a, b).1,
        point_segment(a, p, q).1,
        point_segment(b, p, q).1,
    ]
    .into_iter()
    .fold(f64::INFINITY, f64::min)
}
