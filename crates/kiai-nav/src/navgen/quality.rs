//! [`measure`]: what a generated net is worth, on seeded random samples:
//! coverage, and routes through the graph against the shortest path
//! around the inflated walls.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::buckets::Buckets;
use super::walls::Obstacles;
use super::{GeneratedNet, NavGenError, NavGenInput, corners, obstacles};

/// Samples keep this much more than the radius from walls, world units
/// (the corner margin): the slivers closer to a wall end are not counted.
pub const SAMPLE_MARGIN: f32 = super::CORNER_MARGIN;

/// Random walkable points the coverage is measured on.
const SAMPLES: usize = 2000;

/// Random walkable pairs the route ratio is measured on.
const PAIRS: usize = 200;

/// Route pairs are at least this many spacings apart.
pub const PAIR_SPACINGS: f32 = 3.0;

/// Above this many corners the brute-force reference is skipped.
pub const MAX_REFERENCE_CORNERS: usize = 4000;

/// Quality of a generated net.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NavGenQuality {
    /// Fraction (0..=1) of random walkable points that see a waypoint
    /// within the coverage distance along a clear line. Points in closed
    /// pockets (that see no waypoint or wall corner at any distance: the
    /// inside of a pillar) are left out.
    pub coverage: f32,
    /// Walkable points the coverage was measured on.
    pub samples: usize,
    /// Route ratios (graph route / shortest path, >= 1), ascending, one per
    /// measured pair; empty when the reference was skipped.
    pub ratios: Vec<f32>,
    /// Pairs the reference connects and the graph does not.
    pub unreached: usize,
    /// The walkable samples no waypoint covers (pockets left out), in
    /// sample order: where the net has holes.
    pub uncovered: Vec<Vec2>,
}

impl NavGenQuality {
    /// The median route ratio, if any pair was measured.
    pub fn median(&self) -> Option<f32> {
        self.ratios.get(self.ratios.len() / 2).copied()
    }

    /// The largest route ratio, if any pair was measured.
    pub fn max(&self) -> Option<f32> {
        self.ratios.last().copied()
    }
}

/// Measures `net` (generated from `input`) on samples drawn from `seed`.
///
/// Route pairs are random walkable points at least [`PAIR_SPACINGS`] x
/// the spacing apart;
/// the graph route is the best over entering at any waypoint in clear
/// sight within 3 x the coverage distance, the graph's shortest route,
/// and leaving the same way; the reference is Dijkstra over the
/// visibility graph of every inflated corner and the two points.
pub fn measure(
    input: &NavGenInput,
    net: &GeneratedNet,
    seed: u64,
) -> Result<NavGenQuality, NavGenError> {
    measure_with(input, net, seed, true)
}

/// [`measure`]'s coverage alone (no route pairs: `ratios` empty), on the
/// same samples; for trying many nets cheaply.
pub fn measure_coverage(
    input: &NavGenInput,
    net: &GeneratedNet,
    seed: u64,
) -> Result<NavGenQuality, NavGenError> {
    measure_with(input, net, seed, false)
}

/// [`measure`], with or without the route pairs.
fn measure_with(
    input: &NavGenInput,
    net: &GeneratedNet,
    seed: u64,
    routes: bool,
) -> Result<NavGenQuality, NavGenError> {
    input.check()?;
    let obstacles = obstacles(input);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut index = Buckets::new(input.cover_distance() * 3.0);
    for (i, &p) in net.points.iter().enumerate() {
        index.insert(i as u32, p);
    }
    let sees = |p: Vec2, dist: f32| -> Vec<(usize, f32)> {
        index
            .near(p, dist)
            .into_iter()
            .map(|i| (i as usize, net.points[i as usize].distance(p)))
            .filter(|&(i, d)| d <= dist && obstacles.clear(p, net.points[i]))
            .collect()
    };
    let samples = random_walkable(&obstacles, input, &mut rng, SAMPLES);
    let corners = corners::corner_points(&obstacles);
    let (mut covered, mut pockets, mut uncovered) = (0, 0, Vec::new());
    for &p in &samples {
        if !sees(p, input.cover_distance()).is_empty() {
            covered += 1;
        } else if !net
            .points
            .iter()
            .chain(&corners)
            .any(|&q| obstacles.clear(p, q))
        {
            pockets += 1;
        } else {
            uncovered.push(p);
        }
    }
    let mut quality = NavGenQuality {
        coverage: covered as f32 / (samples.len() - pockets).max(1) as f32,
        samples: samples.len() - pockets,
        uncovered,
        ..NavGenQuality::default()
    };
    if !routes {
        return Ok(quality);
    }
    if corners.len() > MAX_REFERENCE_CORNERS {
        return Ok(quality);
    }
    let reference = Reference::new(&obstacles, corners);
    let graph = adjacency(net);
    let leg = input.cover_distance() * 3.0;
    for _ in 0..PAIRS * 20 {
        if quality.ratios.len() + quality.unreached >= PAIRS {
            break;
        }
        let two = random_walkable(&obstacles, input, &mut rng, 2);
        let [p, q] = two[..] else { break };
        if p.distance(q) < input.spacing * PAIR_SPACINGS {
            continue;
        }
        let Some(best) = reference.shortest(&obstacles, p, q) else {
            continue;
        };
        let dist = dijkstra(&graph, &sees(p, leg));
        let via = sees(q, leg)
            .into_iter()
            .map(|(w, d)| dist[w] + d)
            .fold(f32::INFINITY, f32::min);
        if via.is_finite() {
            quality.ratios.push((via / best.max(1e-6)).max(1.0));
        } else {
            quality.unreached += 1;
        }
    }
    quality.ratios.sort_by(f32::total_cmp);
    Ok(quality)
}

/// `n` random walkable points (fewer if the map has hardly any room).
pub(super) fn random_walkable(
    obstacles: &Obstacles,
    input: &NavGenInput,
    rng: &mut ChaCha8Rng,
    n: usize,
) -> Vec<Vec2> {
    let (lo, hi) = input.walkable_box();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n * 50 {
        if out.len() == n {
            break;
        }
        let p = Vec2::new(rng.random_range(lo.x..=hi.x), rng.random_range(lo.y..=hi.y));
        if obstacles.walkable(p, SAMPLE_MARGIN) {
            out.push(p);
        }
    }
    out
}

/// The net's links as adjacency lists with lengths.
fn adjacency(net: &GeneratedNet) -> Vec<Vec<(usize, f32)>> {
    let mut adj = vec![Vec::new(); net.points.len()];
    for l in &net.links {
        let (a, b) = (l.a as usize, l.b as usize);
        let d = net.points[a].distance(net.points[b]);
        adj[a].push((b, d));
        adj[b].push((a, d));
    }
    adj
}

/// Shortest distances from `sources` (node, starting cost) over `adj`.
fn dijkstra(adj: &[Vec<(usize, f32)>], sources: &[(usize, f32)]) -> Vec<f32> {
    let mut dist = vec![f32::INFINITY; adj.len()];
    let mut open = BinaryHeap::new();
    for &(s, d) in sources {
        if d < dist[s] {
            dist[s] = d;
            open.push(Reverse((d.to_bits(), s)));
        }
    }
    while let Some(Reverse((bits, n))) = open.pop() {
        let d = f32::from_bits(bits);
        if d > dist[n] {
            continue;
        }
        for &(m, w) in &adj[n] {
            if d + w < dist[m] {
                dist[m] = d + w;
                open.push(Reverse(((d + w).to_bits(), m)));
            }
        }
    }
    dist
}

/// The brute-force reference: the full visibility graph of the corners.
pub(super) struct Reference {
    /// Corner points.
    corners: Vec<Vec2>,
    /// Every clear corner pair, as adjacency lists with lengths.
    adj: Vec<Vec<(usize, f32)>>,
}

impl Reference {
    /// The visibility graph of `corners` (every pair tested).
    pub(super) fn new(obstacles: &Obstacles, corners: Vec<Vec2>) -> Self {
        let mut adj = vec![Vec::new(); corners.len()];
        for i in 0..corners.len() {
            for j in i + 1..corners.len() {
                if obstacles.clear(corners[i], corners[j]) {
                    let d = corners[i].distance(corners[j]);
                    adj[i].push((j, d));
                    adj[j].push((i, d));
                }
            }
        }
        Self { corners, adj }
    }

    /// The shortest walk from `p` to `q` around the inflated walls, if
    /// there is one.
    pub(super) fn shortest(&self, obstacles: &Obstacles, p: Vec2, q: Vec2) -> Option<f32> {
        if obstacles.clear(p, q) {
            return Some(p.distance(q));
        }
        let visible = |x: Vec2| -> Vec<(usize, f32)> {
            (0..self.corners.len())
                .filter(|&i| obstacles.clear(x, self.corners[i]))
                .map(|i| (i, self.corners[i].distance(x)))
                .collect()
        };
        let dist = dijkstra(&self.adj, &visible(p));
        let best = visible(q)
            .into_iter()
            .map(|(i, d)| dist[i] + d)
            .fold(f32::INFINITY, f32::min);
        best.is_finite().then_some(best)
    }
}
