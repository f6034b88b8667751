//! Property tests: A* with landmark bounds (ALT) finds routes as cheap as a
//! brute-force Bellman-Ford on the graph as it stands, before and after
//! the changes a running game makes (doors closing and opening, waypoints
//! switched off and on).
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

mod common;

use common::{bellman_ford, close, random_graph};
use glam::Vec3;
use kiai_nav::{
    AutoConnect, NavGraph, NavQuery, PathFilter, PathStatus, SliceStatus, WaypointGraph, WaypointId,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The changes of one step: links to block (`true`) or unblock, waypoints
/// to switch off (`false`) or on.
struct Changes {
    links: Vec<(WaypointId, WaypointId, bool)>,
    waypoints: Vec<(WaypointId, bool)>,
}

/// Random changes to `g`'s links and waypoints.
fn random_changes(g: &WaypointGraph, ids: &[WaypointId], rng: &mut ChaCha8Rng) -> Changes {
    let links: Vec<_> = g.link_ids().filter_map(|l| g.link_endpoints(l)).collect();
    let mut changes = Changes {
        links: Vec::new(),
        waypoints: Vec::new(),
    };
    for _ in 0..rng.random_range(0..=links.len().min(6)) {
        let (a, b) = links[rng.random_range(0..links.len())];
        changes.links.push((a, b, rng.random_bool(0.7)));
    }
    for _ in 0..rng.random_range(0..=ids.len().min(4)) {
        let id = ids[rng.random_range(0..ids.len())];
        changes.waypoints.push((id, rng.random_bool(0.5)));
    }
    changes
}

/// Applies `changes` to the frozen graphs, and to `reference` the way a
/// brute force sees them: a blocked link removed, a waypoint's flag set.
fn apply(
    changes: &Changes,
    navs: &mut [&mut NavGraph],
    reference: &mut WaypointGraph,
    blocked: &mut Vec<(WaypointId, WaypointId)>,
) {
    for &(a, b, block) in &changes.links {
        for nav in navs.iter_mut() {
            if block {
                nav.block_link(a, b);
            } else {
                nav.unblock_link(a, b);
            }
        }
        if block {
            blocked.push((a, b));
        } else if let Some(k) = blocked.iter().position(|&l| l == (a, b)) {
            blocked.swap_remove(k);
        }
    }
    for &(id, on) in &changes.waypoints {
        for nav in navs.iter_mut() {
            nav.set_active(id, on);
        }
        reference.set_active(id, on).expect("exists");
    }
}

/// `graph` with the links in `blocked` removed.
fn without(graph: &WaypointGraph, blocked: &[(WaypointId, WaypointId)]) -> WaypointGraph {
    let mut g = graph.clone();
    for &(a, b) in blocked {
        if let Some(l) = g.find_link(a, b) {
            g.remove_link(l);
        }
    }
    g
}

/// One search on each graph from `from` to `to`: both complete or both
/// not; complete ones cost what Bellman-Ford says; partial ones end as far
/// from the goal.
fn compare(
    reference: &WaypointGraph,
    alt: &NavGraph,
    plain: &NavGraph,
    (from, to): (WaypointId, WaypointId),
    filter: &PathFilter<'_>,
) -> Result<(), TestCaseError> {
    let mut qa = NavQuery::default();
    let mut qp = NavQuery::default();
    let (Ok(ra), Ok(rp)) = (
        alt.find_path(from, to, filter, &mut qa),
        plain.find_path(from, to, filter, &mut qp),
    ) else {
        return Ok(());
    };
    prop_assert_eq!(ra.status, rp.status);
    let bf = bellman_ford(
        reference,
        from,
        filter.cost_list,
        filter.exclude,
        filter.max_distance,
    );
    for pair in qa.path().windows(2) {
        prop_assert!(alt.is_walkable(pair[0], pair[1]), "{pair:?} is closed");
    }
    if ra.status == PathStatus::Complete {
        prop_assert!(
            close(f64::from(ra.cost), bf[to.0 as usize]),
            "ALT {} vs Bellman-Ford {}",
            ra.cost,
            bf[to.0 as usize]
        );
        prop_assert!(close(f64::from(ra.cost), f64::from(rp.cost)));
    } else {
        let goal = reference.waypoint(to).expect("goal").pos();
        let end = |q: &NavQuery| {
            let w = *q.path().last().expect("partial paths are not empty");
            reference
                .waypoint(w)
                .expect("end")
                .pos()
                .distance_squared(goal)
        };
        prop_assert_eq!(end(&qa), end(&qp));
    }
    // A search sliced into small steps finds the same route.
    let mut sliced = NavQuery::default();
    sliced.begin(alt, from, to, filter).expect("started above");
    while sliced.update(alt, 3).expect("begun") == SliceStatus::InProgress {}
    prop_assert_eq!(sliced.finish(alt).expect("begun"), ra);
    prop_assert_eq!(sliced.path(), qa.path());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn alt_routes_cost_what_brute_force_finds_before_and_after_changes(
        seed in any::<u64>(),
        n in 2usize..50,
        degree in 1usize..5,
        landmarks in 1usize..8,
        use_max in any::<bool>(),
    ) {
        let rg = random_graph(seed, n, degree);
        prop_assume!(rg.ids.len() >= 2);
        let mut reference = rg.graph.clone();
        let mut alt = rg.graph.freeze_with_landmarks(landmarks);
        let mut plain = rg.graph.freeze_with_landmarks(0);
        prop_assert!(alt.landmark_count() >= 1 || rg.graph.link_count() == 0);
        prop_assert_eq!(plain.landmark_count(), 0);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let mut blocked = Vec::new();
        for step in 0..3 {
            if step > 0 {
                let changes = random_changes(&rg.graph, &rg.ids, &mut rng);
                apply(&changes, &mut [&mut alt, &mut plain], &mut reference, &mut blocked);
            }
            let open = without(&reference, &blocked);
            for _ in 0..4 {
                let from = rg.ids[rng.random_range(0..rg.ids.len())];
                let to = rg.ids[rng.random_range(0..rg.ids.len())];
                for &list in &rg.lists {
                    let filter = PathFilter {
                        cost_list: list,
                        exclude: &rg.exclude,
                        max_distance: use_max.then_some(60.0),
                        min_clearance: 0.0,
                    };
                    compare(&open, &alt, &plain, (from, to), &filter)?;
                }
            }
        }
    }
}

/// A 60 x 60 grid of waypoints 4 units apart, links to the 8 neighbours
/// at random costs from x0.5 to x3 (rough ground), a river of x5 across the
/// middle with one ford.
fn river_grid() -> (WaypointGraph, Vec<WaypointId>) {
    let mut g = WaypointGraph::new();
    let list = g.add_cost_list("infantry", 1.0).expect("list");
    let ids: Vec<_> = (0..60 * 60)
        .map(|k| {
            let p = Vec3::new((k % 60) as f32 * 4.0, 0.0, (k / 60) as f32 * 4.0);
            g.add_waypoint(p).expect("finite")
        })
        .collect();
    g.auto_connect(
        &AutoConnect {
            range: 5.7,
            two_way: true,
            active_only: false,
        },
        |_, _| true,
    )
    .expect("connects");
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let all: Vec<_> = g.link_ids().collect();
    for l in all {
        g.set_link_cost(l, list, rng.random_range(0.5..3.0))
            .expect("cost");
    }
    let river: Vec<_> = g
        .link_ids()
        .filter(|&l| {
            let (a, b) = g.link_endpoints(l).expect("link");
            let (pa, pb) = (
                g.waypoint(a).expect("a").pos(),
                g.waypoint(b).expect("b").pos(),
            );
            let crosses = (pa.z - 118.0) * (pb.z - 118.0) < 0.0;
            crosses && pa.x.min(pb.x) > 12.0
        })
        .collect();
    for l in river {
        g.set_link_cost(l, list, 5.0).expect("cost");
    }
    (g, ids)
}

#[test]
fn landmarks_expand_fewer_waypoints_for_the_same_cost() {
    let (g, ids) = river_grid();
    let alt = g.freeze_with_landmarks(16);
    let plain = g.freeze_with_landmarks(0);
    assert_eq!(alt.landmark_count(), 16);
    assert_eq!(alt.landmark_bytes(), 16 * 2 * 4 * ids.len());
    let filter = PathFilter::new(g.cost_list("infantry").expect("list"));
    let (mut qa, mut qp) = (NavQuery::default(), NavQuery::default());
    let (mut expanded_alt, mut expanded_plain) = (0, 0);
    for (a, b) in [(0, 3599), (3540, 59), (1830, 1770), (45, 3555)] {
        let ra = alt.find_path(ids[a], ids[b], &filter, &mut qa).expect("ok");
        let rp = plain
            .find_path(ids[a], ids[b], &filter, &mut qp)
            .expect("ok");
        assert!(ra.is_complete() && rp.is_complete());
        assert!(
            (ra.cost - rp.cost).abs() <= 1e-3 * rp.cost,
            "{ra:?} vs {rp:?}"
        );
        expanded_alt += ra.expanded;
        expanded_plain += rp.expanded;
    }
    assert!(
        expanded_alt * 3 < expanded_plain,
        "ALT expanded {expanded_alt}, plain A* {expanded_plain}"
    );
}

#[test]
fn freeze_gives_big_graphs_landmarks_and_small_ones_none() {
    let (g, _) = river_grid();
    assert_eq!(g.freeze().landmark_count(), kiai_nav::DEFAULT_LANDMARKS);
    let small = random_graph(1, 40, 3);
    assert_eq!(small.graph.freeze().landmark_count(), 0);
}
