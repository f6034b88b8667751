//! LOS templates: the tiles a unit sees around its own tile, as row spans.
//!
//! The visibility rule lives here, stated once so that tests can restate it:
//!
//! * **Circle** of sight radius `r` tiles: offset `(dx, dz)` from the unit's tile is
//!   seen when `dx² + dz² <= r²` (integers on the left, `r * r` computed in `f32`;
//!   equivalently `dx² + dz² <= floor(r * r)`).
//! * **Flashlight** `(r, bucket, fov)`: the circle rule, and the offset lies in the cone
//!   of the bucket's centre direction: with `θ = bucket * 2π / buckets` and
//!   `dir = (cos θ, sin θ)` on (X, Z), `dx * cos θ + dz * sin θ >= |(dx, dz)| * cos(fov / 2) - 1e-9`
//!   (all in `f64`). The unit's own tile `(0, 0)` is always seen; `fov >= 360` is the full circle.
//! * **Occlusion** (per-tile line test): tile `T` is hidden when a blocking tile `B`,
//!   other than the unit's tile and `T` itself, has its *open* square crossed by the
//!   segment from the centre of the unit's tile to the centre of `T`. Touching only a
//!   corner does not block, so sight passes between two diagonally touching blockers;
//!   blocking tiles themselves are seen (walls are visible).

use std::f64::consts::TAU;

/// Largest sight radius, in tiles.
pub const MAX_SIGHT_RADIUS: f32 = 127.0;

/// One run of seen tiles in a template row: offsets `dx` in `x0..=x1` on row `dz`,
/// relative to the unit's tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowSpan {
    /// Row offset from the unit's tile, in tiles (`-reach..=reach`).
    pub dz: i32,
    /// First column offset of the run, inclusive.
    pub x0: i32,
    /// Last column offset of the run, inclusive (`>= x0`).
    pub x1: i32,
}

/// Tiles that can block the line to one template tile (offsets from the unit's tile).
#[derive(Clone, Debug, Default)]
pub(crate) struct LineDeps {
    /// `deps[start[k]..start[k + 1]]` belong to the `k`-th template tile in span order.
    pub(crate) start: Vec<u32>,
    pub(crate) deps: Vec<[i16; 2]>,
}

/// A precomputed line-of-sight template: the offsets a unit sees on an open map, as
/// maximal runs sorted by `(dz, x0)`. Stamping it costs its tile count, not the map size.
#[derive(Clone, Debug)]
pub struct LosTemplate {
    spans: Vec<RowSpan>,
    tiles: u32,
    reach: i32,
    pub(crate) line_deps: Option<LineDeps>,
}

/// `f32` radius to the integer bound of `dx² + dz²`.
pub(crate) fn reach_sq(radius: f32) -> u32 {
    (radius * radius).floor() as u32
}

/// The direction bucket of a facing angle: `round(facing / (2π / buckets)) mod buckets`.
///
/// `facing` is in radians from the +X axis towards +Z; `buckets >= 1`. NaN gives bucket 0.
pub fn direction_bucket(facing: f32, buckets: u16) -> u16 {
    let n = f64::from(buckets.max(1));
    let b = (f64::from(facing) / (TAU / n)).round();
    if b.is_finite() {
        b.rem_euclid(n) as u16
    } else {
        0
    }
}

/// The flashlight cone test of the module docs (the unit's own tile is always inside).
pub(crate) fn in_cone(dx: i32, dz: i32, bucket: u16, buckets: u16, fov_deg: f32) -> bool {
    if (dx == 0 && dz == 0) || fov_deg >= 360.0 {
        return true;
    }
    let theta = f64::from(bucket) * TAU / f64::from(buckets.max(1));
    let (s, c) = theta.sin_cos();
    let dot = f64::from(dx) * c + f64::from(dz) * s;
    let len = f64::from(dx * dx + dz * dz).sqrt();
    let cos_half = (f64::from(fov_deg) / 2.0).to_radians().cos();
    dot >= len * cos_half - 1e-9
}

/// A fraction `num / den` with `den > 0`.
#[derive(Clone, Copy)]
struct Frac(i64, i64);

impl Frac {
    fn lt(self, o: Frac) -> bool {
        self.0 * o.1 < o.0 * self.1
    }
}

/// The open t-interval where the doubled segment coordinate `d * t` lies strictly inside
/// `(2c - 1, 2c + 1)` (the tile `c` along one axis); `None` = unconstrained, `Some(None)` = empty.
fn axis_interval(d: i32, c: i32) -> Option<Option<(Frac, Frac)>> {
    let (d, c) = (i64::from(d) * 2, i64::from(c) * 2);
    if d == 0 {
        return if c == 0 { None } else { Some(None) };
    }
    if d > 0 {
        Some(Some((Frac(c - 1, d), Frac(c + 1, d))))
    } else {
        Some(Some((Frac(-(c + 1), -d), Frac(-(c - 1), -d))))
    }
}

/// True when the segment from `(0, 0)` to `(dx, dz)` crosses the open square of tile `(a, b)`.
pub(crate) fn segment_crosses_tile(dx: i32, dz: i32, a: i32, b: i32) -> bool {
    let mut lo = Frac(-1, 1);
    let mut hi = Frac(2, 1);
    for (d, c) in [(dx, a), (dz, b)] {
        match axis_interval(d, c) {
            None => {}
            Some(None) => return false,
            Some(Some((l, h))) => {
                if lo.lt(l) {
                    lo = l;
                }
                if h.lt(hi) {
                    hi = h;
                }
            }
        }
    }
    lo.lt(hi) && lo.lt(Frac(1, 1)) && Frac(0, 1).lt(hi)
}

impl LosTemplate {
    /// Builds a template from a membership test over the square `-reach..=reach`.
    fn from_fn(reach: i32, inside: impl Fn(i32, i32) -> bool) -> Self {
        let mut spans = Vec::new();
        let mut tiles = 0;
        for dz in -reach..=reach {
            let mut run: Option<i32> = None;
            for dx in -reach..=reach + 1 {
                let seen = dx <= reach && inside(dx, dz);
                match (seen, run) {
                    (true, None) => run = Some(dx),
                    (false, Some(x0)) => {
                        spans.push(RowSpan { dz, x0, x1: dx - 1 });
                        tiles += (dx - x0) as u32;
                        run = None;
                    }
                    _ => {}
                }
            }
        }
        Self {
            spans,
            tiles,
            reach,
            line_deps: None,
        }
    }

    /// The circle template of sight radius `radius` tiles (`0..=MAX_SIGHT_RADIUS`):
    /// offsets with `dx² + dz² <= radius²`.
    pub fn circle(radius: f32) -> Self {
        let r2 = reach_sq(radius.clamp(0.0, MAX_SIGHT_RADIUS));
        let reach = (r2 as f64).sqrt().floor() as i32;
        Self::from_fn(reach, |dx, dz| (dx * dx + dz * dz) as u32 <= r2)
    }

    /// The flashlight template: the circle of `radius` tiles cut to the cone of `fov_deg`
    /// degrees (`(0, 360]`) around direction bucket `bucket` of `buckets` (see module docs).
    pub fn flashlight(radius: f32, bucket: u16, buckets: u16, fov_deg: f32) -> Self {
        let r2 = reach_sq(radius.clamp(0.0, MAX_SIGHT_RADIUS));
        let reach = (r2 as f64).sqrt().floor() as i32;
        Self::from_fn(reach, |dx, dz| {
            (dx * dx + dz * dz) as u32 <= r2 && in_cone(dx, dz, bucket, buckets, fov_deg)
        })
    }

    /// The runs of seen offsets, sorted by `(dz, x0)`, disjoint and non-adjacent within a row.
    pub fn spans(&self) -> &[RowSpan] {
        &self.spans
    }

    /// Number of tiles the template covers on an open map.
    pub fn tile_count(&self) -> u32 {
        self.tiles
    }

    /// Largest `|dx|` or `|dz|` of the template, in tiles.
    pub fn reach(&self) -> i32 {
        self.reach
    }

    /// Precomputes, for every template tile, the tiles that may block the line to it.
    pub(crate) fn with_line_deps(mut self) -> Self {
        let mut ld = LineDeps {
            start: vec![0],
            deps: Vec::new(),
        };
        for s in &self.spans {
            for dx in s.x0..=s.x1 {
                let dz = s.dz;
                for b in dz.min(0)..=dz.max(0) {
                    for a in dx.min(0)..=dx.max(0) {
                        let endpoint = (a == 0 && b == 0) || (a == dx && b == dz);
                        if !endpoint && segment_crosses_tile(dx, dz, a, b) {
                            ld.deps.push([a as i16, b as i16]);
                        }
                    }
                }
                ld.start.push(ld.deps.len() as u32);
            }
        }
        self.line_deps = Some(ld);
        self
    }
}

/// Deterministic template cache key (ordered, no hashing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum TemplateKey {
    Circle {
        reach_sq: u32,
    },
    Flashlight {
        reach_sq: u32,
        bucket: u16,
        fov_bits: u32,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radius_one_is_a_plus_sign() {
        let t = LosTemplate::circle(1.0);
        assert_eq!(t.tile_count(), 5);
        assert_eq!(t.spans().len(), 3);
        assert_eq!(LosTemplate::circle(1.5).tile_count(), 9);
        assert_eq!(LosTemplate::circle(0.0).tile_count(), 1);
    }

    #[test]
    fn flashlight_faces_its_bucket() {
        // Bucket 0 of 4 faces +X; a 90° cone sees the diagonals (boundary) and +X, not -X.
        let t = LosTemplate::flashlight(3.0, 0, 4, 90.0);
        let has = |dx: i32, dz: i32| {
            t.spans()
                .iter()
                .any(|s| s.dz == dz && (s.x0..=s.x1).contains(&dx))
        };
        assert!(has(0, 0) && has(3, 0) && has(2, 2) && has(2, -2));
        assert!(!has(-1, 0) && !has(0, 1) && !has(1, 2));
        // Bucket 1 of 4 faces +Z.
        let t = LosTemplate::flashlight(3.0, 1, 4, 90.0);
        assert!(t.spans().iter().any(|s| s.dz == 3 && s.x0 == 0));
        assert!(!t.spans().iter().any(|s| s.dz < 0));
    }

    #[test]
    fn buckets_round_to_nearest() {
        assert_eq!(direction_bucket(0.0, 16), 0);
        assert_eq!(direction_bucket(-0.1, 16), 0);
        assert_eq!(direction_bucket(std::f32::consts::FRAC_PI_2, 16), 4);
        assert_eq!(direction_bucket(-std::f32::consts::FRAC_PI_2, 16), 12);
        assert_eq!(direction_bucket(f32::NAN, 16), 0);
    }

    #[test]
    fn lines_block_by_interior_not_corners() {
        assert!(segment_crosses_tile(2, 2, 1, 1));
        assert!(!segment_crosses_tile(2, 2, 1, 0));
        assert!(segment_crosses_tile(3, 0, 1, 0));
        assert!(!segment_crosses_tile(3, 0, 1, 1));
        assert!(segment_crosses_tile(2, 1, 1, 0) || segment_crosses_tile(2, 1, 1, 1));
        // (0,0)->(2,1) passes the point (1, 0.5): a shared edge, crossing neither interior at t=0.5,
        // but it crosses (1,0) just before and (1,1) just after.
        assert!(segment_crosses_tile(2, 1, 1, 0) && segment_crosses_tile(2, 1, 1, 1));
    }
}
