//! Waypoint generation from walls: [`generate`] builds a waypoint graph
//! (points and two-way links with measured clearance) from a map's bounds
//! and walls for agents of one radius; [`regenerate_local`] redoes only
//! the neighbourhood of a changed wall; [`measure`] states its quality.
//!
//! The method (docs/algorithms.md, "Waypoints from walls"):
//!
//! 1. **Corners.** Walls taller than [`STEP_HEIGHT`] (doors left out: they
//!    open) are inflated by the radius. Where the inflated walls have a
//!    convex corner (a free wall end, or the outside of a junction), points
//!    are placed around it, one per quarter turn at most, so that their
//!    polygon circumscribes the rounded corner at [`CORNER_MARGIN`] beyond
//!    the radius. Shortest routes around walls
//!    bend only there, so linking them gives near-shortest routes.
//! 2. **Coverage.** A world-aligned grid at the spacing, left out next to
//!    corners, then a half-spacing sample that adds a point wherever no
//!    waypoint is in clear sight within the coverage distance.
//! 3. **Links.** Every pair in clear sight (the segment keeps the radius
//!    from every blocking wall) within the link range, pruned where a route
//!    through one common neighbour is at most 1% longer.
//!
//! Every step reads only walls and points within a few link ranges, and
//! the grids are aligned to the world, not the bounds: moving one wall
//! changes only waypoints near it. Deterministic: sorted maps and fixed
//! orders only.

mod buckets;
mod corners;
mod cover;
mod links;
mod quality;
mod uniform;
mod walls;

use glam::Vec2;

pub use corners::{CORNER_MARGIN, JOIN};
pub use quality::{
    MAX_REFERENCE_CORNERS, NavGenQuality, PAIR_SPACINGS, SAMPLE_MARGIN, measure, measure_coverage,
};
pub use uniform::{CoveringGrid, GRID_FRACTIONS, uniform_grid, uniform_grid_covering};

use walls::{Obstacles, segment_segment};

/// Walls at most this tall (world units) are stepped over and ignored:
/// the runtime's walls stop walkers only above this height (kiai-core's
/// `Sweep::STEP_HEIGHT`).
pub const STEP_HEIGHT: f32 = 0.1;

/// Most sample points one generation may visit (a guard against a huge
/// box with a tiny spacing).
pub const MAX_SAMPLES: usize = 16_000_000;

/// A wall as the generator reads it: a segment on X-Z from the ground up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenWall {
    /// One end `(x, z)`, world units.
    pub from: Vec2,
    /// The other end `(x, z)`, world units.
    pub to: Vec2,
    /// Height above y = 0, world units; at most [`STEP_HEIGHT`] is ignored.
    pub height: f32,
    /// A door: links may cross it (closing it blocks them at runtime).
    pub door: bool,
}

impl GenWall {
    /// Whether the wall stops walkers for generation (taller than a step
    /// and not a door).
    pub fn blocks(&self) -> bool {
        self.height > STEP_HEIGHT && !self.door
    }
}

/// What to generate from.
#[derive(Clone, Debug, Default)]
pub struct NavGenInput {
    /// Smallest X-Z corner of the map's bounds, world units.
    pub min: Vec2,
    /// Largest X-Z corner, world units, > `min` + 2 x `radius` on both axes.
    pub max: Vec2,
    /// The walls.
    pub walls: Vec<GenWall>,
    /// Waypoints placed by hand: kept as they are and linked into the net
    /// (never to each other). X-Z, world units.
    pub fixed: Vec<Vec2>,
    /// Agent radius, world units, >= 0: links keep this far from walls.
    pub radius: f32,
    /// Spacing of the coverage grid, world units, > 0; also the coverage
    /// distance (every walkable sample sees a waypoint this close).
    pub spacing: f32,
}

impl NavGenInput {
    /// Coverage distance, world units: the spacing.
    pub fn cover_distance(&self) -> f32 {
        self.spacing
    }

    /// Longest generated link, world units: 2.5 x the spacing.
    pub fn link_range(&self) -> f32 {
        self.spacing * 2.5
    }

    /// How far from a changed wall [`regenerate_local`] may change
    /// waypoints and links, world units: link range + spacing + radius +
    /// corner margin.
    pub fn local_reach(&self) -> f32 {
        self.link_range() + self.spacing + self.radius + CORNER_MARGIN * 4.0
    }

    /// Checks the numbers; the error says what to fix.
    fn check(&self) -> Result<(), NavGenError> {
        let finite = |v: Vec2| v.is_finite();
        if !finite(self.min)
            || !finite(self.max)
            || !self.radius.is_finite()
            || !self.spacing.is_finite()
            || self
                .walls
                .iter()
                .any(|w| !finite(w.from) || !finite(w.to) || !w.height.is_finite())
            || self.fixed.iter().any(|p| !finite(*p))
        {
            return Err(NavGenError::NotFinite);
        }
        if self.radius < 0.0 {
            return Err(NavGenError::BadRadius(self.radius));
        }
        if self.spacing <= MIN_SPACING {
            return Err(NavGenError::BadSpacing(self.spacing));
        }
        let size = self.max - self.min - Vec2::splat(2.0 * self.radius);
        if size.x < 0.0 || size.y < 0.0 {
            return Err(NavGenError::NoRoom);
        }
        let half = self.spacing * 0.5;
        let samples = ((size.x / half) as f64 + 2.0) * ((size.y / half) as f64 + 2.0);
        if samples > MAX_SAMPLES as f64 {
            return Err(NavGenError::TooManySamples(samples as u64));
        }
        Ok(())
    }

    /// The walkable box's corners: the bounds shrunk by the radius.
    fn walkable_box(&self) -> (Vec2, Vec2) {
        let r = Vec2::splat(self.radius);
        (self.min + r, self.max - r)
    }
}

/// The spacing must be larger than this, world units (a finer grid is
/// not a waypoint net).
pub const MIN_SPACING: f32 = 0.01;

/// Why generation refused its input. Returned, never panicked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NavGenError {
    /// A coordinate, radius, spacing or height was NaN or infinite.
    #[error("a bound, wall, waypoint, radius or spacing is not a finite number")]
    NotFinite,
    /// The radius was negative.
    #[error("agent radius {0} must be >= 0")]
    BadRadius(f32),
    /// The spacing was too small.
    #[error("spacing {0} must be > {MIN_SPACING} world units")]
    BadSpacing(f32),
    /// The bounds are narrower than an agent.
    #[error("the bounds are narrower than two agent radii; widen them or give a smaller radius")]
    NoRoom,
    /// The box holds too many samples at this spacing.
    #[error("{0} samples at this spacing (at most 16,000,000); give a larger spacing")]
    TooManySamples(u64),
}

/// One generated two-way link between points `a < b` of a
/// [`GeneratedNet`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenLink {
    /// Index of one end in [`GeneratedNet::points`].
    pub a: u32,
    /// Index of the other end, > `a`.
    pub b: u32,
    /// Distance from the link to the nearest blocking wall, world units,
    /// capped at the spacing (>= the radius).
    pub clearance: f32,
    /// It crosses a door: closing the door blocks it at runtime.
    pub door: bool,
}

/// A generated waypoint graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeneratedNet {
    /// Waypoints on X-Z, world units: first the input's fixed waypoints,
    /// in order, then the generated ones.
    pub points: Vec<Vec2>,
    /// How many of `points` are the input's fixed waypoints.
    pub fixed: usize,
    /// Two-way links, sorted by `(a, b)`.
    pub links: Vec<GenLink>,
}

/// An X-Z box `(min, max)`, world units.
pub type Zone = (Vec2, Vec2);

/// The smallest zone holding every point of `points`, world units: given
/// a moved wall's ends before and after the move, the `changed` box
/// [`regenerate_local`] takes. Empty (`min` = +inf, `max` = -inf) for no
/// points.
pub fn zone_around(points: impl IntoIterator<Item = Vec2>) -> Zone {
    points
        .into_iter()
        .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p), hi.max(p))
        })
}

/// Whether `p` lies in `zone`.
fn inside(zone: Zone, p: Vec2) -> bool {
    p.cmpge(zone.0).all() && p.cmple(zone.1).all()
}

/// Generates the waypoint graph of `input`.
pub fn generate(input: &NavGenInput) -> Result<GeneratedNet, NavGenError> {
    input.check()?;
    let obstacles = obstacles(input);
    let (lo, hi) = input.walkable_box();
    let mut points = input.fixed.clone();
    points.extend(corners::corner_points(&obstacles));
    cover::add_cover(
        &obstacles,
        &mut points,
        lo,
        hi,
        input.spacing,
        input.cover_distance() * 0.8,
    );
    let fixed = input.fixed.len();
    let pairs = links::link_points(
        &obstacles,
        &points,
        input.link_range(),
        |_| true,
        |a, b| a < fixed && b < fixed,
    );
    Ok(finish(input, &obstacles, points, pairs))
}

/// Regenerates `previous` (generated from the same fixed waypoints) after
/// walls changed inside `changed` (a box holding the changed walls' old
/// and new positions): generated waypoints and links farther than
/// [`NavGenInput::local_reach`] from it are kept as they are, the rest is
/// generated again. Falls back to [`generate`] when the fixed waypoints
/// differ.
pub fn regenerate_local(
    input: &NavGenInput,
    previous: &GeneratedNet,
    changed: Zone,
) -> Result<GeneratedNet, NavGenError> {
    input.check()?;
    if previous.fixed != input.fixed.len() || previous.points[..previous.fixed] != input.fixed[..] {
        return generate(input);
    }
    let reach = Vec2::splat(input.local_reach());
    let zone = (changed.0 - reach, changed.1 + reach);
    let obstacles = obstacles(input);
    let fixed = input.fixed.len();
    let mut points = input.fixed.clone();
    let mut remap = vec![u32::MAX; previous.points.len()];
    for (i, &p) in previous.points.iter().enumerate() {
        if i < fixed {
            remap[i] = i as u32;
        } else if !inside(zone, p) && obstacles.walkable(p, 0.0) {
            remap[i] = points.len() as u32;
            points.push(p);
        }
    }
    let fresh = points.len();
    let corners = corners::corner_points(&obstacles);
    points.extend(corners.into_iter().filter(|&p| inside(zone, p)));
    let (lo, hi) = input.walkable_box();
    let (zlo, zhi) = (zone.0.max(lo), zone.1.min(hi));
    cover::add_cover(
        &obstacles,
        &mut points,
        zlo,
        zhi,
        input.spacing,
        input.cover_distance() * 0.8,
    );
    let redo: Vec<bool> = (0..points.len())
        .map(|i| i >= fresh || (i < fixed && inside(zone, points[i])))
        .collect();
    let relink = |i: usize| redo[i];
    let mut pairs = links::link_points(&obstacles, &points, input.link_range(), relink, |a, b| {
        a < fixed && b < fixed
    });
    pairs.sort_unstable();
    pairs.dedup();
    let mut net = finish(input, &obstacles, points, pairs);
    // Links far from the change keep their measured clearance (a wall
    // within the spacing of them is inside the zone).
    for l in &previous.links {
        let (a, b) = (remap[l.a as usize], remap[l.b as usize]);
        if a != u32::MAX && b != u32::MAX && !relink(a as usize) && !relink(b as usize) {
            let (a, b) = (a.min(b), a.max(b));
            net.links.push(GenLink { a, b, ..*l });
        }
    }
    net.links.sort_by_key(|l| (l.a, l.b));
    net.links.dedup_by_key(|l| (l.a, l.b));
    Ok(net)
}

/// The blocking walls of `input`.
fn obstacles(input: &NavGenInput) -> Obstacles {
    Obstacles::new(
        &input.walls,
        input.min,
        input.max,
        input.radius,
        input.link_range().max(input.radius * 4.0),
    )
}

/// The net from its points and link pairs: clearance measured, doors
/// marked.
fn finish(
    input: &NavGenInput,
    obstacles: &Obstacles,
    points: Vec<Vec2>,
    pairs: Vec<(u32, u32)>,
) -> GeneratedNet {
    let doors: Vec<&GenWall> = input.walls.iter().filter(|w| w.door).collect();
    let links = pairs
        .into_iter()
        .map(|(a, b)| {
            let (p, q) = (points[a as usize], points[b as usize]);
            GenLink {
                a,
                b,
                clearance: obstacles.clearance(p, q, input.spacing),
                door: doors
                    .iter()
                    .any(|d| segment_segment(p, q, d.from, d.to) < 1e-3),
            }
        })
        .collect();
    GeneratedNet {
        fixed: input.fixed.len(),
        points,
        links,
    }
}
