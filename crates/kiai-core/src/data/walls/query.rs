//! The exact per-wall test of an open 3D segment against a wall (the edge
//! rules of the module docs), in f64.

use glam::Vec3;

use super::Wall;

/// The blocking parameters of one wall: the infimum and supremum of the set of
/// `t` (canonical orientation) where the open segment is inside the wall.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit {
    pub(super) lo: f64,
    pub(super) hi: f64,
}

/// A query segment in canonical order (so results are symmetric), in `f64`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Query {
    /// `[x, y, z]` of the canonical first end.
    pub(super) a: [f64; 3],
    pub(super) b: [f64; 3],
    /// True when `a` is the caller's `target` (the ends were swapped).
    pub(super) swapped: bool,
}

pub(super) fn orient(p: [f64; 2], q: [f64; 2], r: [f64; 2]) -> f64 {
    (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
}

/// An interval of `f64` with open or closed ends.
#[derive(Clone, Copy, Debug)]
pub(super) struct Interval {
    pub(super) lo: f64,
    pub(super) lo_closed: bool,
    pub(super) hi: f64,
    pub(super) hi_closed: bool,
}

impl Interval {
    pub(super) fn intersect(self, o: Interval) -> Option<Interval> {
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
pub(super) const OPEN_UNIT: Interval = Interval {
    lo: 0.0,
    lo_closed: false,
    hi: 1.0,
    hi_closed: false,
};

impl Query {
    pub(super) fn new(eye: Vec3, target: Vec3) -> Option<Query> {
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

    pub(super) fn eye_xz(&self) -> [f64; 2] {
        if self.swapped {
            [self.b[0], self.b[2]]
        } else {
            [self.a[0], self.a[2]]
        }
    }

    pub(super) fn target_xz(&self) -> [f64; 2] {
        if self.swapped {
            [self.a[0], self.a[2]]
        } else {
            [self.b[0], self.b[2]]
        }
    }

    /// The nearest blocking parameter measured from the caller's eye.
    pub(super) fn nearest(&self, h: Hit) -> f64 {
        if self.swapped { 1.0 - h.hi } else { h.lo }
    }

    /// Parameters `t` where `y(t)` is in `[0, height)`.
    pub(super) fn height_range(&self, height: f64) -> Interval {
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

    pub(super) fn blocked_within(&self, t: Interval, height: f64) -> Option<Hit> {
        let i = t
            .intersect(OPEN_UNIT)?
            .intersect(self.height_range(height))?;
        Some(Hit { lo: i.lo, hi: i.hi })
    }

    /// The per-wall test shared by the grid and the brute force.
    pub(super) fn hit(&self, wall: &Wall) -> Option<Hit> {
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
    pub(super) fn point_hit(&self, t: f64, height: f64) -> Option<Hit> {
        let y = self.a[1] + t * (self.b[1] - self.a[1]);
        (0.0 <= y && y < height).then_some(Hit { lo: t, hi: t })
    }
}
