//! Property tests: accelerated paths equal brute-force ones.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

mod common;

use common::{bellman_ford, close, random_graph};
use glam::Vec3;
use kiai_nav::{
    Destination, DistanceField, Heading, NavGraph, NavQuery, NeighbourFilter, PartialReason,
    PathFilter, PathStatus, SelectOptions, SliceStatus, WaypointGraph, WaypointId,
};
use proptest::prelude::*;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Checks the path in `query` is walkable under the filter and sums its cost.
fn check_path(
    g: &WaypointGraph,
    nav: &NavGraph,
    path: &[WaypointId],
    from: WaypointId,
    filter: &PathFilter<'_>,
) -> f64 {
    assert_eq!(path.first(), Some(&from));
    let mut cost = 0.0f32;
    for w in path {
        assert!(
            g.waypoint(*w).is_some_and(|w| w.active),
            "inactive {w} on path"
        );
        assert!(!filter.exclude.contains(w), "excluded {w} on path");
    }
    for pair in path.windows(2) {
        let link = g
            .find_link(pair[0], pair[1])
            .expect("consecutive waypoints are linked");
        let len = g.link_length(link).expect("len");
        if let Some(m) = filter.max_distance {
            assert!(len <= m);
        }
        cost += nav
            .link_cost(pair[0], pair[1], filter.cost_list)
            .expect("link cost");
    }
    f64::from(cost)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn astar_equals_dijkstra_and_bellman_ford(
        seed in any::<u64>(),
        n in 2usize..40,
        degree in 1usize..5,
        pair in any::<(u16, u16)>(),
        use_max in any::<bool>(),
    ) {
        let rg = random_graph(seed, n, degree);
        prop_assume!(rg.ids.len() >= 2);
        let g = &rg.graph;
        let nav = g.freeze();
        let usable: Vec<_> = rg.ids.iter().copied()
            .filter(|id| g.waypoint(*id).is_some_and(|w| w.active) && !rg.exclude.contains(id))
            .collect();
        prop_assume!(!usable.is_empty());
        let from = usable[pair.0 as usize % usable.len()];
        let to = rg.ids[pair.1 as usize % rg.ids.len()];
        for &list in &rg.lists {
            let filter = PathFilter {
                cost_list: list,
                exclude: &rg.exclude,
                max_distance: use_max.then_some(60.0),
                min_clearance: 0.0,
            };
            let mut query = NavQuery::default();
            let result = nav.find_path(from, to, &filter, &mut query).expect("valid start");
            let mut field = DistanceField::new();
            nav.distance_field(to, &filter, &mut field).expect("valid goal");
            let bf = bellman_ford(g, from, list, &rg.exclude, filter.max_distance);
            let path_cost = check_path(g, &nav, query.path(), from, &filter);
            prop_assert!(close(path_cost, f64::from(result.cost)));
            match field.cost_to_goal(&nav, from) {
                Some(c) => {
                    prop_assert_eq!(result.status, PathStatus::Complete);
                    prop_assert_eq!(query.path().last(), Some(&to));
                    prop_assert!(close(f64::from(c), f64::from(result.cost)), "A* {} vs Dijkstra {}", result.cost, c);
                    prop_assert!(close(bf[to.0 as usize], f64::from(result.cost)), "A* {} vs BF {}", result.cost, bf[to.0 as usize]);
                    // next_hop chain from `from` reaches the goal with the same cost.
                    let mut at = from;
                    let mut steps = 0;
                    while let Some(next) = field.next_hop(&nav, at) {
                        at = next;
                        steps += 1;
                        prop_assert!(steps <= rg.ids.len());
                    }
                    prop_assert_eq!(at, to);
                }
                None => {
                    prop_assert!(bf[to.0 as usize].is_infinite());
                    prop_assert_eq!(result.status, PathStatus::Partial { reason: PartialReason::Unreachable });
                    // The partial path ends at the reachable waypoint closest to the goal.
                    let goal_pos = g.waypoint(to).expect("goal").pos();
                    let end = *query.path().last().expect("non-empty");
                    let end_d2 = g.waypoint(end).expect("end").pos().distance_squared(goal_pos);
                    for id in &rg.ids {
                        if bf[id.0 as usize].is_finite() {
                            let d2 = g.waypoint(*id).expect("wp").pos().distance_squared(goal_pos);
                            prop_assert!(end_d2 <= d2);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn time_sliced_equals_one_shot(
        seed in any::<u64>(),
        n in 2usize..60,
        slice in 1u32..6,
        max_nodes in prop_oneof![Just(u32::MAX), 1u32..20],
    ) {
        let rg = random_graph(seed, n, 3);
        let g = &rg.graph;
        let nav = g.freeze();
        let usable: Vec<_> = rg.ids.iter().copied()
            .filter(|id| g.waypoint(*id).is_some_and(|w| w.active) && !rg.exclude.contains(id))
            .collect();
        prop_assume!(usable.len() >= 2);
        let (from, to) = (usable[0], usable[usable.len() - 1]);
        let filter = PathFilter { cost_list: rg.lists[1], exclude: &rg.exclude, max_distance: None, min_clearance: 0.0 };
        let mut one = NavQuery::new(max_nodes);
        let r1 = nav.find_path(from, to, &filter, &mut one).expect("start ok");
        let mut sliced = NavQuery::new(max_nodes);
        sliced.begin(&nav, from, to, &filter).expect("start ok");
        let mut updates = 0;
        while sliced.update(&nav, slice).expect("begun") == SliceStatus::InProgress {
            updates += 1;
            prop_assert!(updates < 100_000);
        }
        let r2 = sliced.finish(&nav).expect("begun");
        prop_assert_eq!(r1, r2);
        prop_assert_eq!(one.path(), sliced.path());
        // Even a node-limited path is walkable.
        check_path(g, &nav, one.path(), from, &filter);
        if r1.hit_node_limit && !r1.is_complete() {
            prop_assert_eq!(r1.status, PathStatus::Partial { reason: PartialReason::OutOfNodes });
        }
    }

    #[test]
    fn selection_respects_filters_and_jitter_zero(
        seed in any::<u64>(),
        n in 2usize..30,
        at_k in any::<u16>(),
        dest_k in any::<u16>(),
        toward in any::<bool>(),
        max_d in prop_oneof![Just(None), (5.0f32..80.0).prop_map(Some)],
        jitter in 0.0f32..2.0,
        rng_seed in any::<u64>(),
    ) {
        let rg = random_graph(seed, n, 6);
        prop_assume!(!rg.ids.is_empty());
        let g = &rg.graph;
        let nav = g.freeze();
        let at = rg.ids[at_k as usize % rg.ids.len()];
        let dest = rg.ids[dest_k as usize % rg.ids.len()];
        let heading = if toward { Heading::Toward } else { Heading::Away };
        let filter = NeighbourFilter { max_distance: max_d, exclude: &rg.exclude, ..Default::default() };
        for &list in &rg.lists {
            for j in [0.0, jitter] {
                let opts = SelectOptions { heading, cost_list: list, filter, jitter: j };
                let mut r1 = ChaCha8Rng::seed_from_u64(rng_seed);
                let mut r2 = ChaCha8Rng::seed_from_u64(rng_seed);
                let s = g.select_neighbour(at, Destination::Waypoint(dest), &opts, &mut r1);
                let s_frozen = nav.select_neighbour(at, Destination::Waypoint(dest), &opts, &mut r2);
                prop_assert_eq!(s, s_frozen, "editable and frozen graphs agree");
                prop_assert_eq!(r1.next_u64(), r2.next_u64());
                if let Some(s) = s {
                    prop_assert!(g.find_link(at, s).is_some());
                    prop_assert!(g.waypoint(s).is_some_and(|w| w.active));
                    prop_assert!(!rg.exclude.contains(&s));
                    if let Some(m) = max_d {
                        let d = g.waypoint(s).expect("s").pos().distance_squared(g.waypoint(at).expect("at").pos());
                        prop_assert!(d <= m * m);
                    }
                }
            }
            // jitter 0 == no jitter field at all, and draws nothing.
            let base = SelectOptions { heading, cost_list: list, filter, jitter: 0.0 };
            let mut r1 = ChaCha8Rng::seed_from_u64(rng_seed);
            let mut r2 = ChaCha8Rng::seed_from_u64(rng_seed);
            let a = g.select_neighbour(at, Destination::Waypoint(dest), &base, &mut r1);
            let plain = SelectOptions { filter, ..SelectOptions::new(heading, list) };
            let b = g.select_neighbour(at, Destination::Waypoint(dest), &plain, &mut r2);
            prop_assert_eq!(a, b);
            let untouched = ChaCha8Rng::seed_from_u64(rng_seed).next_u64();
            prop_assert_eq!(r1.next_u64(), untouched, "jitter 0 draws no random numbers");

            let mut r = ChaCha8Rng::seed_from_u64(rng_seed);
            if let Some(s) = g.select_random_neighbour(at, &filter, &mut r) {
                prop_assert!(g.find_link(at, s).is_some());
                prop_assert!(g.waypoint(s).is_some_and(|w| w.active));
                prop_assert!(!rg.exclude.contains(&s));
            }
        }
    }

    #[test]
    fn nearest_waypoint_equals_brute_force(
        seed in any::<u64>(),
        n in 1usize..80,
        q in (-20.0f32..120.0, -5.0f32..15.0, -20.0f32..120.0),
        active_only in any::<bool>(),
    ) {
        let rg = random_graph(seed, n, 0);
        let g = &rg.graph;
        let nav = g.freeze();
        let p = Vec3::new(q.0, q.1, q.2);
        let brute = rg.ids.iter().copied()
            .filter(|id| !active_only || g.waypoint(*id).is_some_and(|w| w.active))
            .min_by(|a, b| {
                let da = g.waypoint(*a).expect("a").pos().distance_squared(p);
                let db = g.waypoint(*b).expect("b").pos().distance_squared(p);
                da.total_cmp(&db).then(a.cmp(b))
            });
        prop_assert_eq!(g.nearest_waypoint(p, active_only), brute);
        prop_assert_eq!(nav.nearest_waypoint(p, active_only), brute);
    }
}

#[test]
fn random_neighbour_is_uniform_over_usable_ones() {
    let rg = random_graph(3, 30, 8);
    let g = &rg.graph;
    let at = rg
        .ids
        .iter()
        .copied()
        .max_by_key(|id| g.links_from(*id).len())
        .expect("ids");
    let filter = NeighbourFilter::default();
    let usable: Vec<_> = g
        .links_from(at)
        .into_iter()
        .map(|(_, to)| to)
        .filter(|to| g.waypoint(*to).is_some_and(|w| w.active))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..2000 {
        let s = g
            .select_random_neighbour(at, &filter, &mut rng)
            .expect("has neighbours");
        *seen.entry(s).or_insert(0u32) += 1;
    }
    let keys: Vec<_> = seen.keys().copied().collect();
    let mut expected = usable.clone();
    expected.sort();
    assert_eq!(keys, expected);
    for (_, c) in seen {
        let mean = 2000.0 / usable.len() as f64;
        assert!(
            (f64::from(c) - mean).abs() < mean * 0.35,
            "count {c} vs mean {mean}"
        );
    }
    let _ = rng.random::<u32>();
}
