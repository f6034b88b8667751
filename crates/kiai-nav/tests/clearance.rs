//! Clearance: links narrower than a unit's radius are never searched or
//! selected, exactly as if they were not there.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

use glam::Vec3;
use kiai_nav::{
    Destination, Heading, NavQuery, NeighbourFilter, PathFilter, SelectOptions, WaypointGraph,
    WaypointId,
};
use proptest::prelude::*;
use rand::SeedableRng;

/// A square a-b-c-d with a diagonal a-c; the diagonal is a narrow gap.
fn square() -> (WaypointGraph, [WaypointId; 4]) {
    let mut g = WaypointGraph::new();
    g.add_cost_list("infantry", 1.0).expect("list");
    let p = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
    let ids = p.map(|(x, z)| g.add_waypoint(Vec3::new(x, 0.0, z)).expect("waypoint"));
    for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)] {
        g.add_link(ids[a], ids[b]).expect("link");
        g.add_link(ids[b], ids[a]).expect("link");
    }
    (g, ids)
}

#[test]
fn a_wide_unit_goes_around_a_narrow_gap() {
    let (g, [a, b, c, _]) = square();
    let mut nav = g.freeze();
    // The diagonal passes 0.3 from a wall; the sides are wide open.
    nav.set_clearances(|from, to| {
        Some(if (from - to).length() > 11.0 {
            0.3
        } else {
            f32::INFINITY
        })
    });
    assert_eq!(nav.link_clearance(a, c), Some(0.3));
    let mut q = NavQuery::default();
    let list = g.cost_list("infantry").expect("list");
    let mut filter = PathFilter::new(list);
    nav.find_path(a, c, &filter, &mut q).expect("path");
    assert_eq!(q.path(), &[a, c], "a small unit takes the gap");
    filter.min_clearance = 0.5;
    nav.find_path(a, c, &filter, &mut q).expect("path");
    assert_eq!(q.path().len(), 3, "a wide one goes around: {:?}", q.path());
    let mut options = SelectOptions::new(Heading::Toward, list);
    options.filter = NeighbourFilter {
        min_clearance: 0.5,
        ..NeighbourFilter::default()
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let next = nav.select_neighbour(a, Destination::Waypoint(c), &options, &mut rng);
    assert_ne!(next, Some(c));
    assert!(next == Some(b) || next.is_some());
    nav.clear_clearances();
    assert_eq!(nav.link_clearance(a, c), Some(f32::INFINITY));
}

proptest! {
    #[test]
    fn a_narrow_link_is_as_good_as_absent(
        points in prop::collection::vec((-50.0f32..50.0, -50.0f32..50.0), 3..30),
        links in prop::collection::vec((0usize..30, 0usize..30, 0.0f32..2.0), 1..80),
        radius in 0.0f32..2.0,
    ) {
        let n = points.len();
        let mut full = WaypointGraph::new();
        let mut pruned = WaypointGraph::new();
        let list = full.add_cost_list("unit", 1.0).expect("list");
        pruned.add_cost_list("unit", 1.0).expect("list");
        let ids: Vec<_> = points.iter().map(|&(x, z)| {
            let p = Vec3::new(x, 0.0, z);
            pruned.add_waypoint(p).expect("waypoint");
            full.add_waypoint(p).expect("waypoint")
        }).collect();
        let mut widths = Vec::new();
        for &(a, b, width) in &links {
            let (a, b) = (ids[a % n], ids[b % n]);
            if a == b || full.find_link(a, b).is_some() {
                continue;
            }
            full.add_link(a, b).expect("link");
            if width >= radius {
                pruned.add_link(a, b).expect("link");
            }
            widths.push(((full.waypoint(a).expect("a").pos(), full.waypoint(b).expect("b").pos()), width));
        }
        let mut nav = full.freeze();
        nav.set_clearances(|from, to| {
            Some(widths.iter().find(|(ends, _)| *ends == (from, to)).map_or(f32::INFINITY, |(_, w)| *w))
        });
        let pruned_nav = pruned.freeze();
        let mut filter = PathFilter::new(list);
        filter.min_clearance = radius;
        let (mut q1, mut q2) = (NavQuery::default(), NavQuery::default());
        for &to in &ids {
            let r1 = nav.find_path(ids[0], to, &filter, &mut q1).expect("start");
            let r2 = pruned_nav.find_path(ids[0], to, &PathFilter::new(list), &mut q2).expect("start");
            prop_assert_eq!(r1.is_complete(), r2.is_complete());
            if r1.is_complete() {
                prop_assert!((r1.cost - r2.cost).abs() <= 1e-3 * r1.cost.max(1.0));
            }
        }
    }
}
