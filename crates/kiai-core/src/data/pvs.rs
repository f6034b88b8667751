//! Potentially visible sets (article 003, "潜在可视集 PVS"): the level is cut into
//! regions ahead of time, and each region lists the regions that can possibly be
//! seen from it, so perception can drop targets before any ray is cast ("from
//! outside a house you cannot see the people inside").
//!
//! A [`Pvs`] answers two questions: [`Pvs::region_of`] (which region holds a
//! point) and [`Pvs::can_see`] (may anything in one region see anything in
//! another). Culling is only correct when the PVS is *conservative*: whenever
//! some eye in A really sees some target in B, `can_see(A, B)` must be true.
//!
//! - [`Pvs::all_visible`] is trivially conservative (culls nothing).
//! - [`Pvs::from_lists`] takes authored lists; their correctness is the
//!   author's responsibility.
//! - [`Pvs::compute`] samples rays and is **not** conservative: it marks A->B
//!   visible only when it found an unblocked sampled ray, so every "visible" is
//!   real, but a narrow gap between sample points can be missed and would then
//!   hide truly visible targets. Use enough samples, or check with a property
//!   test as this module's tests do.
//!
//! Points in no region are not culled: they see, and are seen by, everything.

use glam::{Vec2, Vec3};
use std::fmt;

/// A region of the level: a simple polygon on the X-Z plane (`Vec2(x, z)`,
/// world units), closed implicitly (last point connects to the first). Points on
/// its boundary belong to it. Fewer than three points give a region that holds
/// only the points of its edges; a non-finite vertex makes it hold nothing
/// reliably.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Region {
    /// Vertices in order (either winding), world units.
    pub polygon: Vec<Vec2>,
}

impl Region {
    /// A region with the given polygon.
    pub fn new(polygon: Vec<Vec2>) -> Self {
        Self { polygon }
    }

    /// True when `p` (X-Z, world units) is inside the polygon or on its boundary.
    /// Boundary points are detected exactly up to `f64` rounding; the interior
    /// uses a crossing count with a half-open rule, so the answer is
    /// deterministic for every point.
    pub fn contains(&self, p: Vec2) -> bool {
        let n = self.polygon.len();
        if n == 0 {
            return false;
        }
        let p = [f64::from(p.x), f64::from(p.y)];
        let vertex = |i: usize| {
            let v = self.polygon[i % n];
            [f64::from(v.x), f64::from(v.y)]
        };
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (vertex(i), vertex(i + 1));
            let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
            if cross == 0.0
                && a[0].min(b[0]) <= p[0]
                && p[0] <= a[0].max(b[0])
                && a[1].min(b[1]) <= p[1]
                && p[1] <= a[1].max(b[1])
            {
                return true;
            }
            if (a[1] > p[1]) != (b[1] > p[1]) {
                let x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
                if p[0] < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Axis-aligned bounds `(min, max)` on X-Z; `None` for an empty polygon.
    pub fn bounds(&self) -> Option<(Vec2, Vec2)> {
        let first = *self.polygon.first()?;
        Some(
            self.polygon
                .iter()
                .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p))),
        )
    }
}

/// Bad authored PVS data, reported by [`Pvs::from_lists`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PvsError {
    /// `lists` must hold exactly one list per region.
    ListCount {
        /// Number of regions.
        regions: usize,
        /// Number of lists given.
        lists: usize,
    },
    /// A list names a region index that does not exist.
    UnknownRegion {
        /// The region whose list is wrong.
        from: usize,
        /// The out-of-range index found in it.
        to: usize,
    },
}

impl fmt::Display for PvsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PvsError::ListCount { regions, lists } => {
                write!(f, "{lists} visibility lists for {regions} regions")
            }
            PvsError::UnknownRegion { from, to } => {
                write!(f, "region {from} lists unknown region {to}")
            }
        }
    }
}

impl std::error::Error for PvsError {}

/// Regions and, for each ordered pair, whether the first may see the second,
/// stored as one bit row per region.
#[derive(Clone, Debug)]
pub struct Pvs {
    regions: Vec<Region>,
    bounds: Vec<Option<(Vec2, Vec2)>>,
    words_per_row: usize,
    bits: Vec<u64>,
}

impl Pvs {
    fn empty(regions: Vec<Region>) -> Pvs {
        let n = regions.len();
        let words_per_row = n.div_ceil(64);
        let bounds = regions.iter().map(Region::bounds).collect();
        let mut pvs = Pvs {
            regions,
            bounds,
            words_per_row,
            bits: vec![0; n * words_per_row],
        };
        for i in 0..n {
            pvs.set(i, i);
        }
        pvs
    }

    fn set(&mut self, from: usize, to: usize) {
        self.bits[from * self.words_per_row + to / 64] |= 1 << (to % 64);
    }

    /// Every region sees every region: conservative, culls nothing.
    pub fn all_visible(regions: Vec<Region>) -> Pvs {
        let mut pvs = Pvs::empty(regions);
        pvs.open_all();
        pvs
    }

    /// Authored sets: `lists[i]` names the regions region `i` can see
    /// (directed; duplicates allowed; a region always sees itself even if not
    /// listed). Errors when the list count or an index is wrong.
    pub fn from_lists(regions: Vec<Region>, lists: &[Vec<usize>]) -> Result<Pvs, PvsError> {
        let n = regions.len();
        if lists.len() != n {
            return Err(PvsError::ListCount {
                regions: n,
                lists: lists.len(),
            });
        }
        let mut pvs = Pvs::empty(regions);
        for (from, list) in lists.iter().enumerate() {
            for &to in list {
                if to >= n {
                    return Err(PvsError::UnknownRegion { from, to });
                }
                pvs.set(from, to);
            }
        }
        Ok(pvs)
    }

    /// Computes sets by sampling (article 003's precomputation step).
    ///
    /// Draws `samples_per_region` points inside each region (rejection sampling
    /// in its bounds with `unit`, which must return uniform values in `[0, 1)`;
    /// after `64 * samples_per_region` misses, e.g. for a zero-area region, the
    /// polygon's vertices are used instead), lifts them to `y = eye_height`
    /// (world units, floors at `y = 0`), and marks regions `i` and `j` as seeing
    /// each other when `blocked(p, q)` is false for some sample `p` of `i` and
    /// `q` of `j`. Each unordered pair is tested once and both directions are
    /// set, so `blocked` should be symmetric (as `occlusion::Walls::blocks` is).
    /// At most `samples_per_region²` rays per pair.
    ///
    /// Deterministic for a deterministic `unit` and `blocked`. **Not
    /// conservative**: a missed gap hides visible targets (see module docs).
    pub fn compute(
        regions: Vec<Region>,
        samples_per_region: usize,
        eye_height: f32,
        mut blocked: impl FnMut(Vec3, Vec3) -> bool,
        mut unit: impl FnMut() -> f32,
    ) -> Pvs {
        let mut pvs = Pvs::empty(regions);
        let samples: Vec<Vec<Vec3>> = (0..pvs.regions.len())
            .map(|r| pvs.sample(r, samples_per_region, eye_height, &mut unit))
            .collect();
        for i in 0..samples.len() {
            for j in i + 1..samples.len() {
                let seen = samples[i]
                    .iter()
                    .any(|&p| samples[j].iter().any(|&q| !blocked(p, q)));
                if seen {
                    pvs.set(i, j);
                    pvs.set(j, i);
                }
            }
        }
        pvs
    }

    fn sample(&self, r: usize, count: usize, y: f32, unit: &mut impl FnMut() -> f32) -> Vec<Vec3> {
        let region = &self.regions[r];
        let mut out = Vec::with_capacity(count);
        if let Some((lo, hi)) = self.bounds[r] {
            for _ in 0..count.saturating_mul(64) {
                if out.len() == count {
                    break;
                }
                let p = lo + (hi - lo) * Vec2::new(unit(), unit());
                if region.contains(p) {
                    out.push(Vec3::new(p.x, y, p.y));
                }
            }
        }
        if out.is_empty() && count > 0 {
            out.extend(region.polygon.iter().map(|p| Vec3::new(p.x, y, p.y)));
        }
        out
    }

    /// Lets every region see every other from now on (culls nothing): what
    /// keeps the sets conservative when a wall they were computed with is
    /// torn down while the world runs.
    pub fn open_all(&mut self) {
        let n = self.regions.len();
        for from in 0..n {
            for to in 0..n {
                self.set(from, to);
            }
        }
    }

    /// The regions, indexed as in [`Pvs::region_of`] and [`Pvs::can_see`].
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The region holding `point`'s X-Z position (its height is ignored), or
    /// `None`. Boundary points belong to the region; where regions overlap or
    /// share an edge the lowest index wins, so the answer is deterministic.
    /// Regions are rejected by their bounding boxes first (O(regions) box tests).
    pub fn region_of(&self, point: Vec3) -> Option<usize> {
        let p = Vec2::new(point.x, point.z);
        (0..self.regions.len()).find(|&r| {
            self.bounds[r].is_some_and(|(lo, hi)| p.cmpge(lo).all() && p.cmple(hi).all())
                && self.regions[r].contains(p)
        })
    }

    /// May anything in region `from` see anything in region `to`? A region
    /// always sees itself; `None` (a point in no region) sees and is seen by
    /// everything. Panics when an index is not below the number of regions.
    pub fn can_see(&self, from: Option<usize>, to: Option<usize>) -> bool {
        match (from, to) {
            (Some(f), Some(t)) => {
                assert!(
                    f < self.regions.len() && t < self.regions.len(),
                    "region index out of range"
                );
                self.bits[f * self.words_per_row + t / 64] & (1 << (t % 64)) != 0
            }
            _ => true,
        }
    }

    /// [`Pvs::can_see`] for the regions of two points (world units).
    pub fn can_see_points(&self, eye: Vec3, target: Vec3) -> bool {
        self.can_see(self.region_of(eye), self.region_of(target))
    }
}

#[cfg(test)]
#[allow(clippy::expect_used, reason = "a failed expectation is a test failure")]
mod tests {
    use super::*;
    use crate::data::walls::{RayScratch, Wall, Walls, blocks_brute};
    use proptest::prelude::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn rect(x0: f32, z0: f32, x1: f32, z1: f32) -> Region {
        Region::new(vec![
            Vec2::new(x0, z0),
            Vec2::new(x1, z0),
            Vec2::new(x1, z1),
            Vec2::new(x0, z1),
        ])
    }

    const WALL_HEIGHT: f32 = 3.0;

    /// Two rooms A (x < 0) and B (x > 0) split by a solid wall at x = 0 with no
    /// door, and a corridor C below them (z < 0) behind a wall at z = 0 that has
    /// a door into A only (x in (-6, -4)). Regions keep 0.25 away from walls.
    /// Exact visibility for eyes below the wall tops: A <-> C, B sees only B.
    fn scene() -> (Vec<Region>, Vec<Wall>) {
        let regions = vec![
            rect(-10.0, 0.25, -0.25, 10.0),
            rect(0.25, 0.25, 10.0, 10.0),
            rect(-10.0, -5.0, 10.0, -0.25),
        ];
        let h = WALL_HEIGHT;
        let walls = vec![
            Wall::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, 10.0), h),
            Wall::new(Vec2::new(-10.0, 0.0), Vec2::new(-6.0, 0.0), h),
            Wall::new(Vec2::new(-4.0, 0.0), Vec2::new(10.0, 0.0), h),
        ];
        (regions, walls)
    }

    fn exact_lists() -> Vec<Vec<usize>> {
        vec![vec![2], vec![], vec![0]]
    }

    #[test]
    fn region_of_is_deterministic_on_edges() {
        let pvs = Pvs::all_visible(vec![rect(0.0, 0.0, 1.0, 1.0), rect(1.0, 0.0, 2.0, 1.0)]);
        assert_eq!(pvs.region_of(Vec3::new(0.5, 9.0, 0.5)), Some(0));
        assert_eq!(
            pvs.region_of(Vec3::new(1.0, 0.0, 0.5)),
            Some(0),
            "shared edge: lowest index"
        );
        assert_eq!(pvs.region_of(Vec3::new(2.0, 0.0, 1.0)), Some(1), "vertex");
        assert_eq!(
            pvs.region_of(Vec3::new(1.5, 0.0, 0.0)),
            Some(1),
            "bottom edge"
        );
        assert_eq!(pvs.region_of(Vec3::new(2.0001, 0.0, 0.5)), None);
    }

    #[test]
    fn concave_region() {
        // An L shape: the notch at (1.5, 1.5) is outside.
        let l = Region::new(vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ]);
        assert!(l.contains(Vec2::new(0.5, 1.5)));
        assert!(l.contains(Vec2::new(1.5, 0.5)));
        assert!(!l.contains(Vec2::new(1.5, 1.5)));
        assert!(l.contains(Vec2::new(1.5, 1.0)), "notch edge");
    }

    #[test]
    fn self_and_outside_rules() {
        let (regions, _) = scene();
        let pvs = Pvs::from_lists(regions, &exact_lists()).expect("valid lists");
        assert!(pvs.can_see(Some(1), Some(1)));
        assert!(!pvs.can_see(Some(0), Some(1)));
        assert!(pvs.can_see(None, Some(1)));
        assert!(pvs.can_see(Some(1), None));
        assert!(!pvs.can_see_points(Vec3::new(-5.0, 1.0, 5.0), Vec3::new(5.0, 1.0, 5.0)));
        assert!(pvs.can_see_points(Vec3::new(0.0, 1.0, 5.0), Vec3::new(5.0, 1.0, 5.0)));
    }

    #[test]
    fn from_lists_reports_bad_data() {
        let (regions, _) = scene();
        assert_eq!(
            Pvs::from_lists(regions.clone(), &[vec![]]).err(),
            Some(PvsError::ListCount {
                regions: 3,
                lists: 1
            })
        );
        let err = Pvs::from_lists(regions, &[vec![], vec![7], vec![]]).err();
        assert_eq!(err, Some(PvsError::UnknownRegion { from: 1, to: 7 }));
        assert_eq!(
            err.map(|e| e.to_string()),
            Some("region 1 lists unknown region 7".to_owned())
        );
    }

    #[test]
    fn many_regions_use_several_words() {
        let regions: Vec<Region> = (0..130)
            .map(|i| rect(i as f32, 0.0, i as f32 + 1.0, 1.0))
            .collect();
        let mut lists = vec![Vec::new(); 130];
        lists[3] = vec![129, 64];
        let pvs = Pvs::from_lists(regions, &lists).expect("valid lists");
        assert!(pvs.can_see(Some(3), Some(129)) && pvs.can_see(Some(3), Some(64)));
        assert!(!pvs.can_see(Some(129), Some(3)) && !pvs.can_see(Some(3), Some(63)));
        assert!(Pvs::all_visible(pvs.regions().to_vec()).can_see(Some(129), Some(0)));
    }

    fn computed(seed: u64, samples: usize) -> Pvs {
        let (regions, walls) = scene();
        let set = Walls::build(walls, None);
        let mut scratch = RayScratch::new();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Pvs::compute(
            regions,
            samples,
            1.7,
            |a, b| set.blocks(a, b, &mut scratch),
            || rng.random_range(0.0f32..1.0),
        )
    }

    #[test]
    fn compute_finds_the_door_and_never_the_solid_wall() {
        let pvs = computed(7, 24);
        let see = |a, b| pvs.can_see(Some(a), Some(b));
        assert!(see(0, 2) && see(2, 0), "through the door");
        assert!(!see(0, 1) && !see(1, 0) && !see(1, 2) && !see(2, 1));
    }

    #[test]
    fn compute_is_deterministic() {
        assert_eq!(computed(3, 8).bits, computed(3, 8).bits);
    }

    fn scene_point() -> impl Strategy<Value = Vec3> {
        (-11.0f32..11.0, 0.0f32..WALL_HEIGHT, -6.0f32..11.0)
            .prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// Culling with a conservative PVS never removes a target whose ray is
        /// unblocked: "not visible" implies blocked, for the exact authored
        /// PVS, a computed one and `all_visible`.
        #[test]
        fn conservative_pvs_never_changes_what_is_unblocked(
            pairs in prop::collection::vec((scene_point(), scene_point()), 1..16),
        ) {
            let (regions, walls) = scene();
            let set = Walls::build(walls.clone(), None);
            let mut scratch = RayScratch::new();
            let exact = Pvs::from_lists(regions.clone(), &exact_lists()).expect("valid lists");
            let pvss = [exact, Pvs::all_visible(regions), computed(1, 16)];
            for (eye, target) in pairs {
                let blocked = set.blocks(eye, target, &mut scratch);
                prop_assert_eq!(blocked, blocks_brute(&walls, eye, target));
                for pvs in &pvss {
                    if !pvs.can_see_points(eye, target) {
                        prop_assert!(blocked, "culled an unblocked target");
                    }
                }
            }
        }
    }
}
