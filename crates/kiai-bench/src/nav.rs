//! Navigation: kiai-nav's A* against `petgraph::algo::astar` and
//! `pathfinding::directed::astar::astar` on the same graphs and the same
//! query pairs.
//!
//! Graphs: random geometric graphs (uniform points on a square X-Z plane,
//! density 0.01 per square unit, two-way links between points within 16
//! units: mean out-degree ~8), 4 cost lists (list 0 all 1.0, lists 1-3 random
//! multipliers in [0.5, 3]), generated from a fixed seed. Query `i` uses
//! cost list `i % 4`. All three searches use the same edge costs
//! (length x multiplier, infinity into inactive waypoints); the peers'
//! heuristic is straight-line distance x the list's smallest multiplier,
//! kiai's the larger of that and its landmark bounds (ALT: 8 landmarks
//! built when the graph is frozen; the note gives their build time and
//! memory). Every route must cost the same. The
//! peers get the waypoints in kiai's memory order
//! ([`NavGraph::waypoint_ids`]) and their links as one flat array per cost
//! list, so memory layout favours none of the three.

use std::time::Instant;

use kiai_core::glam::Vec3;
use kiai_nav::{
    AutoConnect, CostListId, NavGraph, NavQuery, PathFilter, WaypointGraph, WaypointId,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Effort, Scenario};

const LISTS: usize = 4;

/// One graph and its queries, with the peers' copy of the graph.
struct Fixture {
    nav: NavGraph,
    lists: Vec<CostListId>,
    /// Query pairs as indices into `ids`.
    pairs: Vec<(u32, u32)>,
    /// Waypoints in kiai's memory order; the peers' node `i` is `ids[i]`.
    ids: Vec<WaypointId>,
    /// Position of node `i`, world units.
    pos: Vec<Vec3>,
    /// Links of node `i`: `first_out[i]..first_out[i + 1]`.
    first_out: Vec<u32>,
    /// `list * m + e`: `(target node, cost)` of link `e` in `list`.
    weighted: Vec<(u32, f32)>,
    /// The A* heuristic's factor per list (its smallest multiplier).
    min_multiplier: [f32; LISTS],
    /// How long freezing the graph took (landmarks included), ms.
    freeze_ms: f64,
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
    let started = Instant::now();
    let nav = g.freeze();
    let freeze_ms = started.elapsed().as_secs_f64() * 1e3;
    let count = nav.waypoint_count() as u32;
    let pairs = (0..queries)
        .map(|_| (rng.random_range(0..count), rng.random_range(0..count)))
        .collect();
    let mut fx = peers_graph(g, nav, lists, pairs);
    fx.freeze_ms = freeze_ms;
    fx
}

/// The peers' flat copy of `nav`: nodes in its memory order, links in its
/// order, costs per list computed as kiai computes them.
fn peers_graph(
    g: WaypointGraph,
    nav: NavGraph,
    lists: Vec<CostListId>,
    pairs: Vec<(u32, u32)>,
) -> Fixture {
    let ids: Vec<WaypointId> = nav.waypoint_ids().collect();
    let mut node_of = vec![u32::MAX; g.waypoint_bound()];
    for (i, id) in ids.iter().enumerate() {
        node_of[id.index() as usize] = i as u32;
    }
    let pos = ids
        .iter()
        .map(|&id| nav.pos(id).unwrap_or(Vec3::ZERO))
        .collect();
    let mut first_out = vec![0u32];
    let mut links = Vec::with_capacity(nav.link_count());
    for &id in &ids {
        links.extend(nav.links_from(id));
        first_out.push(links.len() as u32);
    }
    let mut weighted = vec![(0u32, 0.0f32); LISTS * links.len()];
    for (l, &list) in lists.iter().enumerate() {
        for (e, &(link, to)) in links.iter().enumerate() {
            let length = g.link_length(link).unwrap_or(f32::INFINITY);
            let cost = match nav.is_active(to) {
                Some(true) => length * g.link_cost(link, list).unwrap_or(1.0),
                _ => f32::INFINITY,
            };
            weighted[l * links.len() + e] = (node_of[to.index() as usize], cost);
        }
    }
    let min_multiplier = std::array::from_fn(|l| nav.min_multiplier(lists[l]).unwrap_or(1.0));
    Fixture {
        nav,
        lists,
        pairs,
        ids,
        pos,
        first_out,
        weighted,
        min_multiplier,
        freeze_ms: 0.0,
    }
}

/// An `f32` cost with a total order, as `pathfinding` needs.
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

/// How many costs differ between `ours` and `peer`, and the first that does.
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

/// Query `i` by kiai-nav: its cost when a complete path exists.
fn ours_one(fx: &Fixture, query: &mut NavQuery, i: usize) -> Option<f32> {
    let (a, b) = fx.pairs[i];
    let filter = PathFilter::new(fx.lists[i % LISTS]);
    let (from, to) = (fx.ids[a as usize], fx.ids[b as usize]);
    fx.nav
        .find_path(from, to, &filter, query)
        .ok()
        .filter(|r| r.is_complete())
        .map(|r| r.cost)
}

/// petgraph's own representation of the fixture: node `i` is the peers'
/// node `i`, each edge carries its cost in every list.
fn petgraph_of(fx: &Fixture) -> petgraph::graph::DiGraph<Vec3, [f32; LISTS]> {
    let m = fx.weighted.len() / LISTS;
    let mut pg = petgraph::graph::DiGraph::with_capacity(fx.pos.len(), m);
    let nodes: Vec<_> = fx.pos.iter().map(|p| pg.add_node(*p)).collect();
    for d in 0..fx.pos.len() {
        for e in fx.first_out[d] as usize..fx.first_out[d + 1] as usize {
            let w = std::array::from_fn(|l| fx.weighted[l * m + e].1);
            pg.add_edge(nodes[d], nodes[fx.weighted[e].0 as usize], w);
        }
    }
    pg
}

/// Query `i` by `petgraph::algo::astar`.
fn petgraph_one(
    fx: &Fixture,
    pg: &petgraph::graph::DiGraph<Vec3, [f32; LISTS]>,
    i: usize,
) -> Option<f32> {
    let (a, b) = fx.pairs[i];
    let l = i % LISTS;
    let h = fx.min_multiplier[l];
    let goal = petgraph::graph::NodeIndex::new(b as usize);
    let gp = fx.pos[b as usize];
    petgraph::algo::astar(
        pg,
        petgraph::graph::NodeIndex::new(a as usize),
        |x| x == goal,
        |e| e.weight()[l],
        |x| pg[x].distance(gp) * h,
    )
    .map(|(c, _)| c)
}

/// Query `i` by `pathfinding::directed::astar::astar` over the flat arrays.
fn pathfinding_one(fx: &Fixture, i: usize) -> Option<f32> {
    let (a, b) = fx.pairs[i];
    let l = i % LISTS;
    let h = fx.min_multiplier[l];
    let gp = fx.pos[b as usize];
    let base = l * (fx.weighted.len() / LISTS);
    pathfinding::directed::astar::astar(
        &a,
        |&x| {
            let lo = fx.first_out[x as usize] as usize;
            let hi = fx.first_out[x as usize + 1] as usize;
            fx.weighted[base + lo..base + hi]
                .iter()
                .map(|&(t, w)| (t, Cost(w)))
        },
        |&x| Cost(fx.pos[x as usize].distance(gp) * h),
        |&x| x == b,
    )
    .map(|(_, c)| c.0)
}

/// Costs, total milliseconds and allocations of the three searches.
struct Runs {
    costs: [Vec<Option<f32>>; 3],
    ms: [f64; 3],
    allocs: [u64; 3],
}

/// Runs every query by all three, interleaved per query so that load from
/// other processes hits all three alike.
fn run_all(fx: &Fixture) -> Runs {
    let q = fx.pairs.len();
    let pg = petgraph_of(fx);
    let mut query = NavQuery::default();
    // Warm-up: our query grows its pool, heap and path buffer.
    for i in 0..q {
        let _ = ours_one(fx, &mut query, i);
    }
    let mut runs = Runs {
        costs: [vec![None; q], vec![None; q], vec![None; q]],
        ms: [0.0; 3],
        allocs: [0; 3],
    };
    for i in 0..q {
        for k in 0..3 {
            let before = crate::allocations();
            let t = Instant::now();
            runs.costs[k][i] = match k {
                0 => ours_one(fx, &mut query, i),
                1 => petgraph_one(fx, &pg, i),
                _ => pathfinding_one(fx, i),
            };
            runs.ms[k] += t.elapsed().as_secs_f64() * 1e3;
            runs.allocs[k] += crate::allocations() - before;
        }
    }
    runs
}

/// The navigation scenarios: A* on 20k and 100k waypoints against both
/// peers (quick: fewer queries). Times are total milliseconds for all
/// queries of a scenario. Allocation counts are real when the binary
/// installs [`crate::CountingAllocator`]. Fails when a peer's cost differs.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let sizes: [(usize, usize); 2] = if effort.quick {
        [(20_000, 300), (100_000, 100)]
    } else {
        [(20_000, 1000), (100_000, 1000)]
    };
    let mut out = Vec::new();
    for (n, queries) in sizes {
        let fx = fixture(n, queries, 0x6b69_6169 ^ n as u64);
        let q = fx.pairs.len();
        let runs = run_all(&fx);
        let found = runs.costs[0].iter().filter(|c| c.is_some()).count();
        for (k, peer) in [(1, "petgraph::algo::astar"), (2, "pathfinding::astar")] {
            let name = format!("nav/astar {}k waypoints, {q} queries", n / 1000);
            let (bad, first) = mismatches(&runs.costs[0], &runs.costs[k]);
            if bad > 0 {
                return Err(format!("{name}: {peer}: {bad} of {q} costs differ;{first}"));
            }
            let per_query = |a: u64| a as f64 / q as f64;
            out.push(Scenario {
                name,
                ours_ms: runs.ms[0],
                peer: peer.into(),
                peer_ms: runs.ms[k],
                note: format!(
                    "total ms for {q} queries ({found} reachable); allocations/query after warm-up: ours {:.2}, peer {:.1}; costs equal; ours with {} landmarks ({:.1} MB, frozen in {:.0} ms)",
                    per_query(runs.allocs[0]),
                    per_query(runs.allocs[k]),
                    fx.nav.landmark_count(),
                    fx.nav.landmark_bytes() as f64 / 1e6,
                    fx.freeze_ms
                ),
            });
        }
    }
    Ok(out)
}
