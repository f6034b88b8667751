//! A frozen graph changed in place (waypoints switched, links blocked)
//! searches and selects exactly like a graph frozen fresh from the edited
//! source.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

mod common;

use common::random_graph;
use kiai_nav::{
    Destination, Heading, NavGraph, NavQuery, PathFilter, SelectOptions, WaypointGraph,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Applies `changes` random edits to both the frozen graph (in place) and
/// its source (which is then frozen again).
fn edit(g: &mut WaypointGraph, nav: &mut NavGraph, seed: u64, changes: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ids: Vec<_> = g.waypoint_ids().collect();
    for _ in 0..changes {
        let a = ids[rng.random_range(0..ids.len())];
        if rng.random_bool(0.4) {
            let active = rng.random_bool(0.5);
            g.set_active(a, active).expect("exists");
            assert!(nav.set_active(a, active).is_some());
            continue;
        }
        let Some(&(link, b)) = g.links_from(a).first() else {
            continue;
        };
        // Blocking a link is removing it, as far as walkers can tell.
        g.remove_link(link);
        assert!(nav.block_link(a, b).is_some());
        assert_eq!(nav.is_link_blocked(a, b), Some(true));
        assert!(!nav.is_walkable(a, b));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn changed_in_place_equals_frozen_again(
        seed in any::<u64>(),
        n in 2usize..40,
        degree in 1usize..5,
        changes in 1usize..12,
        pairs in prop::collection::vec(any::<(u16, u16)>(), 1..8),
    ) {
        let rg = random_graph(seed, n, degree);
        let mut g = rg.graph;
        let mut nav = g.freeze();
        edit(&mut g, &mut nav, seed ^ 0x5eed, changes);
        let fresh = g.freeze();
        let ids: Vec<_> = g.waypoint_ids().collect();
        let (mut q1, mut q2) = (NavQuery::new(4096), NavQuery::new(4096));
        for (a, b) in pairs {
            let (from, to) = (ids[a as usize % ids.len()], ids[b as usize % ids.len()]);
            for &list in &rg.lists {
                let filter = PathFilter::new(list);
                let changed = nav.find_path(from, to, &filter, &mut q1);
                let again = fresh.find_path(from, to, &filter, &mut q2);
                prop_assert_eq!(changed.map(|r| (r.status, r.cost)), again.map(|r| (r.status, r.cost)));
                prop_assert_eq!(q1.path(), q2.path());
                let opts = SelectOptions::new(Heading::Toward, list);
                let mut r1 = ChaCha8Rng::seed_from_u64(seed);
                let mut r2 = ChaCha8Rng::seed_from_u64(seed);
                prop_assert_eq!(
                    nav.select_neighbour(from, Destination::Waypoint(to), &opts, &mut r1),
                    fresh.select_neighbour(from, Destination::Waypoint(to), &opts, &mut r2)
                );
            }
        }
    }
}

#[test]
fn unblocking_restores_the_link_and_blocks_count() {
    let rg = random_graph(7, 20, 3);
    let mut nav = rg.graph.freeze();
    let (a, b) = rg
        .ids
        .iter()
        .find_map(|&a| nav.links_from(a).next().map(|(_, b)| (a, b)))
        .expect("a link");
    let before = nav.link_cost(a, b, rg.lists[0]);
    nav.block_link(a, b).expect("link");
    nav.block_link(a, b).expect("link");
    nav.unblock_link(a, b).expect("link");
    assert_eq!(
        nav.is_link_blocked(a, b),
        Some(true),
        "one block still holds"
    );
    nav.unblock_link(a, b).expect("link");
    assert_eq!(nav.is_link_blocked(a, b), Some(false));
    assert_eq!(nav.link_cost(a, b, rg.lists[0]), before);
}
