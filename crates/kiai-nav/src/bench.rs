//! Side-by-side benchmarks (feature `bench`): kiai-nav's A* against
//! `petgraph::algo::astar` and `pathfinding::directed::astar::astar` on the
//! same graphs and the same query pairs.
//!
//! Graphs: random geometric graphs (uniform points on a square X-Z plane,
//! density 0.01 per square unit, two-way links between points within 16
//! units: mean out-degree ~8), 4 cost lists (list 0 all 1.0, lists 1-3 random
//! multipliers in [0.5, 3]), generated from a fixed seed. Query `i` uses
//! cost list `i % 4`. All three searches use the same edge costs
//! (length x multiplier) and the same heuristic (straight-line distance x
//! the list's smallest multiplier).

use std::time::Instant;

use glam::Vec3;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{AutoConnect, CostListId, NavGraph, NavQuery, PathFilter, WaypointGraph};

/// One line of the comparison: total milliseconds for the same queries.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchScenario {
    /// What was measured, e.g. "astar 20k waypoints, 1000 queries".
    pub name: String,
    /// kiai-nav's total time in milliseconds.
    pub ours_ms: f64,
    /// The peer crate/algorithm, e.g. "petgraph::algo::astar".
    pub peer: String,
    /// The peer's total time in milliseconds for the same work.
    pub peer_ms: f64,
    /// Units, allocations per query, and any result mismatch ("MISMATCH: ...").
    pub note: String,
}

const LISTS: usize = 4;

struct Fixture {
    nav: NavGraph,
    lists: Vec<CostListId>,
    pairs: Vec<(u32, u32)>,
}

/// Builds the random geometric graph with `n` waypoints and `queries` pairs.
fn fixture(n: usize, queries: usize, seed: u64) -> Fixture {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let side = (n as f32 / 0.01).sqrt();
    let mut g = WaypointGraph::new();
    let lists: Vec<CostListId> = (0..LISTS)
        .filter_map(|i| g.add_cost_list(&format!("list{i}"), 1.0).ok())
        .collect();
    for _ in 0..n {
        let p = Vec3::new(
            rng.random_range(0.0..side),
            rng.random_range(0.0..2.0),
            rng.random_range(0.0..side),
        );
        // Positions are finite by construction.
        let _ = g.add_waypoint(p);
    }
    let opts = AutoConnect {
        range: (8.0 / (std::f32::consts::PI * 0.01)).sqrt(),
        two_way: true,
        active_only: true,
    };
    let _ = g.auto_connect(&opts, |_, _| true);
    let links: Vec<_> = g.link_ids().collect();
    for link in links {
        for &l in &lists[1..] {
            let _ = g.set_link_cost(link, l, rng.random_range(0.5..3.0));
        }
    }
    let nav = g.freeze();
    let count = nav.waypoint_count() as u32;
    let pairs = (0..queries)
        .map(|_| (rng.random_range(0..count), rng.random_range(0..count)))
        .collect();
    Fixture { nav, lists, pairs }
}

#[derive(Clone, Copy, PartialEq, Debug)]
struct Cost(f32);
impl Eq for Cost {}
impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Cost {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost(self.0 + o.0)
    }
}
impl pathfinding::num_traits::Zero for Cost {
    fn zero() -> Self {
        Cost(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

fn mismatches(ours: &[Option<f32>], peer: &[Option<f32>]) -> (usize, String) {
    let mut count = 0;
    let mut first = String::new();
    for (i, (a, b)) in ours.iter().zip(peer).enumerate() {
        let same = match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-3 * a.abs().max(b.abs()).max(1.0),
            (None, None) => true,
            _ => false,
        };
        if !same {
            if count == 0 {
                first = format!(" first at query {i}: ours {a:?} vs peer {b:?};");
            }
            count += 1;
        }
    }
    (count, first)
}

/// Runs the scenarios. `quick` = fewer queries (still both graph sizes).
/// `alloc_count` returns the number of allocations so far (the caller
/// installs a counting global allocator; pass `&|| 0` if there is none).
/// Times are total milliseconds for all queries of a scenario.
pub fn scenarios(quick: bool, alloc_count: &dyn Fn() -> u64) -> Vec<BenchScenario> {
    let sizes: [(usize, usize); 2] = if quick {
        [(20_000, 300), (100_000, 100)]
    } else {
        [(20_000, 1000), (100_000, 1000)]
    };
    let mut out = Vec::new();
    for (n, queries) in sizes {
        let fx = fixture(n, queries, 0x6b69_6169 ^ n as u64);
        let nav = &fx.nav;
        let label = format!("{}k waypoints", n / 1000);
        let q = fx.pairs.len();

        // petgraph's own representation, with the same dense numbering.
        let mut pg = petgraph::graph::DiGraph::<Vec3, [f32; LISTS]>::with_capacity(
            nav.waypoint_count(),
            nav.link_count(),
        );
        let nodes: Vec<_> = nav.pos.iter().map(|p| pg.add_node(*p)).collect();
        let m = nav.link_count();
        for d in 0..nav.waypoint_count() {
            for e in nav.first_out[d] as usize..nav.first_out[d + 1] as usize {
                let w = std::array::from_fn(|l| nav.weighted[l * m + e].1);
                pg.add_edge(nodes[d], nodes[nav.targets[e] as usize], w);
            }
        }

        let mut query = NavQuery::default();
        let ours_one = |query: &mut NavQuery, i: usize| -> Option<f32> {
            let (a, b) = fx.pairs[i];
            let filter = PathFilter::new(fx.lists[i % LISTS]);
            nav.find_path(nav.ids[a as usize], nav.ids[b as usize], &filter, query)
                .ok()
                .filter(|r| r.is_complete())
                .map(|r| r.cost)
        };
        let petgraph_one = |i: usize| -> Option<f32> {
            let (a, b) = fx.pairs[i];
            let l = i % LISTS;
            let h = nav.min_multiplier[fx.lists[l].index()];
            let goal = nodes[b as usize];
            let gp = nav.pos[b as usize];
            petgraph::algo::astar(
                &pg,
                nodes[a as usize],
                |x| x == goal,
                |e| e.weight()[l],
                |x| pg[x].distance(gp) * h,
            )
            .map(|(c, _)| c)
        };
        let pathfinding_one = |i: usize| -> Option<f32> {
            let (a, b) = fx.pairs[i];
            let l = i % LISTS;
            let h = nav.min_multiplier[fx.lists[l].index()];
            let gp = nav.pos[b as usize];
            let base = l * m;
            pathfinding::directed::astar::astar(
                &a,
                |&x| {
                    let lo = nav.first_out[x as usize] as usize;
                    let hi = nav.first_out[x as usize + 1] as usize;
                    nav.weighted[base + lo..base + hi]
                        .iter()
                        .map(|&(t, w)| (t, Cost(w)))
                },
                |&x| Cost(nav.pos[x as usize].distance(gp) * h),
                |&x| x == b,
            )
            .map(|(_, c)| c.0)
        };

        // Warm-up: our query grows its pool, heap and path buffer.
        for i in 0..q {
            let _ = ours_one(&mut query, i);
        }
        // Interleaved per query, so load from other processes hits all three alike.
        let mut costs = [vec![None; q], vec![None; q], vec![None; q]];
        let mut ms = [0.0f64; 3];
        let mut allocs = [0u64; 3];
        #[allow(
            clippy::needless_range_loop,
            reason = "i indexes three result vectors and the pairs"
        )]
        for i in 0..q {
            let a0 = alloc_count();
            let t = Instant::now();
            costs[0][i] = ours_one(&mut query, i);
            ms[0] += t.elapsed().as_secs_f64() * 1e3;
            let a1 = alloc_count();
            let t = Instant::now();
            costs[1][i] = petgraph_one(i);
            ms[1] += t.elapsed().as_secs_f64() * 1e3;
            let a2 = alloc_count();
            let t = Instant::now();
            costs[2][i] = pathfinding_one(i);
            ms[2] += t.elapsed().as_secs_f64() * 1e3;
            let a3 = alloc_count();
            allocs[0] += a1 - a0;
            allocs[1] += a2 - a1;
            allocs[2] += a3 - a2;
        }
        let found = costs[0].iter().filter(|c| c.is_some()).count();
        for (k, peer) in [(1, "petgraph::algo::astar"), (2, "pathfinding::astar")] {
            let (bad, first) = mismatches(&costs[0], &costs[k]);
            out.push(BenchScenario {
                name: format!("astar {label}, {q} queries"),
                ours_ms: ms[0],
                peer: peer.into(),
                peer_ms: ms[k],
                note: note(
                    q,
                    found,
                    allocs[0] as f64 / q as f64,
                    allocs[k] as f64 / q as f64,
                    bad,
                    &first,
                ),
            });
        }
    }
    out
}

fn note(q: usize, found: usize, ours: f64, peer: f64, bad: usize, first: &str) -> String {
    let verdict = if bad == 0 {
        "costs equal".to_owned()
    } else {
        format!("MISMATCH: {bad} of {q} costs differ;{first}")
    };
    format!(
        "total ms for {q} queries ({found} reachable); allocations/query after warm-up: ours {ours:.2}, peer {peer:.1}; {verdict}"
    )
}
