//! Shared helpers for the integration tests: seeded random graphs.
#![allow(dead_code, unreachable_pub)]

use glam::Vec3;
use kiai_nav::{CostListId, WaypointGraph, WaypointId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random graph plus the data a test needs.
pub struct RandomGraph {
    pub graph: WaypointGraph,
    pub lists: Vec<CostListId>,
    pub ids: Vec<WaypointId>,
    pub exclude: Vec<WaypointId>,
}

/// `n` waypoints in a 100 x 10 x 100 box, ~`degree` random out-links each,
/// multipliers in [0.25, 4] in two lists, ~15 % inactive, ~10 % excluded, and
/// a few waypoints removed (so ids have holes).
pub fn random_graph(seed: u64, n: usize, degree: usize) -> RandomGraph {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut graph = WaypointGraph::new();
    let lists = vec![
        graph.add_cost_list("a", 1.0).expect("list"),
        graph.add_cost_list("b", 1.0).expect("list"),
    ];
    let mut ids = Vec::new();
    for _ in 0..n {
        let p = Vec3::new(
            rng.random_range(0.0..100.0),
            rng.random_range(0.0..10.0),
            rng.random_range(0.0..100.0),
        );
        ids.push(graph.add_waypoint(p).expect("finite"));
    }
    for &a in &ids {
        for _ in 0..degree {
            let b = ids[rng.random_range(0..ids.len())];
            if let Ok(link) = graph.add_link(a, b) {
                for &l in &lists {
                    graph
                        .set_link_cost(link, l, rng.random_range(0.25..=4.0))
                        .expect("cost");
                }
            }
        }
    }
    // Remove a few waypoints so the dense and stable indices differ.
    let removals = rng.random_range(0..=n / 8);
    for _ in 0..removals {
        let k = rng.random_range(0..ids.len());
        let id = ids.swap_remove(k);
        graph.remove_waypoint(id);
    }
    let mut exclude = Vec::new();
    for &id in &ids {
        if rng.random_bool(0.15) {
            graph.set_active(id, false).expect("exists");
        } else if rng.random_bool(0.1) {
            exclude.push(id);
        }
    }
    ids.sort();
    RandomGraph {
        graph,
        lists,
        ids,
        exclude,
    }
}

/// Bellman-Ford reference: cheapest cost from `from` to every waypoint index,
/// using the editable graph directly (independent of NavGraph).
pub fn bellman_ford(
    g: &WaypointGraph,
    from: WaypointId,
    list: CostListId,
    exclude: &[WaypointId],
    max_distance: Option<f32>,
) -> Vec<f64> {
    let mut dist = vec![f64::INFINITY; g.waypoint_bound()];
    dist[from.0 as usize] = 0.0;
    let usable =
        |id: WaypointId| g.waypoint(id).is_some_and(|w| w.active) && !exclude.contains(&id);
    let links: Vec<_> = g.link_ids().collect();
    for _ in 0..g.waypoint_count() {
        let mut changed = false;
        for &l in &links {
            let (a, b) = g.link_endpoints(l).expect("link");
            if !usable(b) || !usable(a) {
                continue;
            }
            let len = g.link_length(l).expect("len");
            if max_distance.is_some_and(|m| len > m) {
                continue;
            }
            let w = f64::from(len * g.link_cost(l, list).expect("cost"));
            if dist[a.0 as usize] + w < dist[b.0 as usize] {
                dist[b.0 as usize] = dist[a.0 as usize] + w;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    dist
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-4 * a.abs().max(b.abs()).max(1.0)
}
