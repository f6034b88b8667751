//! Editing, freezing, auto-connect and path-search scenarios.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

use glam::Vec3;
use kiai_nav::{
    AutoConnect, DistanceField, NavError, NavQuery, PartialReason, PathFilter, PathStatus,
    WaypointGraph, WaypointId,
};

fn line(n: usize) -> (WaypointGraph, Vec<WaypointId>) {
    let mut g = WaypointGraph::new();
    g.add_cost_list("default", 1.0).expect("list");
    let ids: Vec<_> = (0..n)
        .map(|i| {
            g.add_waypoint(Vec3::new(i as f32 * 10.0, 0.0, 0.0))
                .expect("wp")
        })
        .collect();
    for w in ids.windows(2) {
        g.add_link(w[0], w[1]).expect("link");
        g.add_link(w[1], w[0]).expect("link");
    }
    (g, ids)
}

#[test]
fn ids_survive_removals() {
    let (mut g, ids) = line(4);
    let removed = g.remove_waypoint(ids[1]).expect("exists");
    assert_eq!(removed.pos(), Vec3::new(10.0, 0.0, 0.0));
    assert!(g.waypoint(ids[1]).is_none());
    assert_eq!(
        g.waypoint(ids[3]).expect("kept").pos(),
        Vec3::new(30.0, 0.0, 0.0)
    );
    assert!(
        g.find_link(ids[0], ids[1]).is_none(),
        "links of a removed waypoint go too"
    );
    assert!(g.find_link(ids[2], ids[3]).is_some());
    assert_eq!(
        g.nearest_waypoint(Vec3::new(9.0, 0.0, 0.0), false),
        Some(ids[0])
    );
    let nav = g.freeze();
    assert_eq!(nav.pos(ids[3]), Some(Vec3::new(30.0, 0.0, 0.0)));
    assert!(!nav.contains(ids[1]));
}

#[test]
fn bad_edits_are_errors_not_panics() {
    let (mut g, ids) = line(2);
    let list = g.cost_list("default").expect("list");
    assert_eq!(
        g.add_link(ids[0], ids[1]),
        Err(NavError::DuplicateLink(ids[0], ids[1]))
    );
    assert_eq!(g.add_link(ids[0], ids[0]), Err(NavError::SelfLink(ids[0])));
    assert!(matches!(
        g.add_waypoint(Vec3::NAN),
        Err(NavError::NonFinitePosition(_))
    ));
    let link = g.find_link(ids[0], ids[1]).expect("link");
    assert_eq!(
        g.set_link_cost(link, list, -1.0),
        Err(NavError::InvalidMultiplier(-1.0))
    );
    assert!(g.add_cost_list("default", 1.0).is_err());
}

#[test]
fn cost_lists_are_named_and_ids_are_not_reused() {
    let (mut g, ids) = line(2);
    let vehicle = g.add_cost_list("vehicle", 2.5).expect("list");
    let link = g.find_link(ids[0], ids[1]).expect("link");
    assert_eq!(
        g.link_cost(link, vehicle),
        Some(2.5),
        "existing links get the default"
    );
    assert_eq!(g.remove_cost_list(vehicle).as_deref(), Some("vehicle"));
    assert_eq!(g.link_cost(link, vehicle), None);
    let tank = g.add_cost_list("tank", 1.0).expect("list");
    assert_ne!(tank, vehicle);
    let nav = g.freeze();
    let mut q = NavQuery::default();
    assert_eq!(
        nav.find_path(ids[0], ids[1], &PathFilter::new(vehicle), &mut q),
        Err(NavError::UnknownCostList(vehicle))
    );
    assert!(
        nav.find_path(ids[0], ids[1], &PathFilter::new(tank), &mut q)
            .is_ok()
    );
}

#[test]
fn moving_a_waypoint_updates_the_spatial_index() {
    let (mut g, ids) = line(3);
    g.set_pos(ids[0], Vec3::new(100.0, 0.0, 0.0))
        .expect("exists");
    assert_eq!(
        g.nearest_waypoint(Vec3::new(95.0, 0.0, 0.0), false),
        Some(ids[0])
    );
    assert_eq!(
        g.nearest_waypoint(Vec3::new(-5.0, 0.0, 0.0), false),
        Some(ids[1])
    );
    g.set_active(ids[0], false).expect("exists");
    assert_eq!(
        g.nearest_waypoint(Vec3::new(95.0, 0.0, 0.0), true),
        Some(ids[2])
    );
}

#[test]
fn unreachable_goal_gives_partial_path_to_closest_waypoint() {
    let (mut g, ids) = line(5);
    g.set_active(ids[3], false).expect("exists");
    let nav = g.freeze();
    let list = g.cost_list("default").expect("list");
    let mut q = NavQuery::default();
    let r = nav
        .find_path(ids[0], ids[4], &PathFilter::new(list), &mut q)
        .expect("ok");
    assert_eq!(
        r.status,
        PathStatus::Partial {
            reason: PartialReason::Unreachable
        }
    );
    assert_eq!(q.path(), &ids[..3]);
    assert!((r.cost - 20.0).abs() < 1e-5);
}

#[test]
fn node_limit_gives_partial_path_out_of_nodes() {
    let (g, ids) = line(10);
    let nav = g.freeze();
    let list = g.cost_list("default").expect("list");
    let mut q = NavQuery::new(4);
    let r = nav
        .find_path(ids[0], ids[9], &PathFilter::new(list), &mut q)
        .expect("ok");
    assert_eq!(
        r.status,
        PathStatus::Partial {
            reason: PartialReason::OutOfNodes
        }
    );
    assert_eq!(q.path(), &ids[..4]);
    // The same query object then runs an unlimited-length search fine.
    let r = nav
        .find_path(ids[9], ids[7], &PathFilter::new(list), &mut q)
        .expect("ok");
    assert!(r.is_complete());
    assert_eq!(q.path(), &[ids[9], ids[8], ids[7]]);
}

#[test]
fn start_must_be_usable_and_errors_clear_the_path() {
    let (mut g, ids) = line(3);
    g.set_active(ids[0], false).expect("exists");
    let nav = g.freeze();
    let list = g.cost_list("default").expect("list");
    let mut q = NavQuery::default();
    assert_eq!(
        nav.find_path(ids[0], ids[2], &PathFilter::new(list), &mut q),
        Err(NavError::StartNotUsable(ids[0]))
    );
    assert!(q.path().is_empty());
    let other = g.freeze();
    q.begin(&nav, ids[1], ids[2], &PathFilter::new(list))
        .expect("ok");
    assert_eq!(
        q.update(&other, 10),
        Err(NavError::NoSearch),
        "a different graph is refused"
    );
}

#[test]
fn cheaper_multipliers_below_one_still_give_optimal_paths() {
    // A -> C direct (length 20) vs A -> B -> C detour (length ~28.3) at 0.25.
    let mut g = WaypointGraph::new();
    let list = g.add_cost_list("road", 1.0).expect("list");
    let a = g.add_waypoint(Vec3::ZERO).expect("a");
    let b = g.add_waypoint(Vec3::new(10.0, 0.0, 10.0)).expect("b");
    let c = g.add_waypoint(Vec3::new(20.0, 0.0, 0.0)).expect("c");
    g.add_link(a, c).expect("ac");
    for (x, y) in [(a, b), (b, c)] {
        let l = g.add_link(x, y).expect("link");
        g.set_link_cost(l, list, 0.25).expect("cost");
    }
    let nav = g.freeze();
    assert_eq!(nav.min_multiplier(list), Some(0.25));
    let mut q = NavQuery::default();
    let r = nav
        .find_path(a, c, &PathFilter::new(list), &mut q)
        .expect("ok");
    assert_eq!(q.path(), &[a, b, c]);
    assert!((r.cost - 0.5 * 200f32.sqrt()).abs() < 1e-4);
    let mut field = DistanceField::new();
    nav.distance_field(c, &PathFilter::new(list), &mut field)
        .expect("ok");
    assert_eq!(field.next_hop(&nav, a), Some(b));
    assert_eq!(field.cost_to_goal(&nav, c), Some(0.0));
}

#[test]
fn auto_connect_links_in_range_with_line_of_sight() {
    let mut g = WaypointGraph::new();
    g.add_cost_list("default", 1.0).expect("list");
    let ids: Vec<_> = [0.0, 5.0, 10.0, 30.0]
        .iter()
        .map(|x| g.add_waypoint(Vec3::new(*x, 0.0, 0.0)).expect("wp"))
        .collect();
    // A wall at x = 7.5 blocks sight between 5 and 10.
    let wall =
        |a: Vec3, b: Vec3| !((a.x < 7.5) != (b.x < 7.5) && a.x.max(b.x) - a.x.min(b.x) < 6.0);
    let opts = AutoConnect {
        range: 10.0,
        two_way: true,
        active_only: true,
    };
    let added = g.auto_connect(&opts, wall).expect("ok");
    // Pairs within 10: (0,5), (0,10), (5,10). (5,10) is walled off.
    assert_eq!(added, 4);
    assert!(g.find_link(ids[0], ids[1]).is_some() && g.find_link(ids[1], ids[0]).is_some());
    assert!(g.find_link(ids[0], ids[2]).is_some() && g.find_link(ids[2], ids[0]).is_some());
    assert!(g.find_link(ids[1], ids[2]).is_none());
    assert!(g.links_from(ids[3]).is_empty());
    // Deterministic: link ids follow ascending (from, to) order.
    let order: Vec<_> = g.link_ids().filter_map(|l| g.link_endpoints(l)).collect();
    assert_eq!(
        order,
        vec![
            (ids[0], ids[1]),
            (ids[1], ids[0]),
            (ids[0], ids[2]),
            (ids[2], ids[0])
        ]
    );
    assert_eq!(g.auto_connect(&opts, wall).expect("ok"), 0, "idempotent");

    // One-way: a ledge you can drop from (higher x to lower x) only.
    let mut g2 = WaypointGraph::new();
    let p = g2.add_waypoint(Vec3::ZERO).expect("p");
    let q = g2.add_waypoint(Vec3::new(3.0, 0.0, 0.0)).expect("q");
    let opts = AutoConnect {
        range: 5.0,
        two_way: false,
        active_only: true,
    };
    assert_eq!(g2.auto_connect(&opts, |a, b| a.x > b.x).expect("ok"), 1);
    assert!(g2.find_link(q, p).is_some());
    assert!(g2.find_link(p, q).is_none());
}
