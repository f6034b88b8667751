//! Property tests: a distance field filled a slice at a time equals one
//! filled at once, and its next hops walk routes as cheap as A* finds,
//! narrow links and blocked ones left out.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

mod common;

use common::{close, random_graph};
use kiai_nav::{DistanceField, NavQuery, PathFilter, SliceStatus};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn field_next_hops_cost_what_astar_finds(
        seed in any::<u64>(),
        n in 2usize..50,
        degree in 1usize..5,
        slice in 1u32..7,
        clearance in prop_oneof![Just(0.0f32), 0.5f32..2.0],
    ) {
        let rg = random_graph(seed, n, degree);
        prop_assume!(rg.ids.len() >= 2);
        let mut nav = rg.graph.freeze();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Some links too narrow, some blocked.
        nav.set_clearances(|_, _| Some(rng.random_range(0.0..3.0)));
        let ids = rg.ids.clone();
        for _ in 0..3 {
            let a = ids[rng.random_range(0..ids.len())];
            let first = nav.links_from(a).next();
            if let Some((_, b)) = first {
                nav.block_link(a, b);
            }
        }
        let goal = ids[rng.random_range(0..ids.len())];
        for &list in &rg.lists {
            let filter = PathFilter { min_clearance: clearance, exclude: &rg.exclude, ..PathFilter::new(list) };
            let mut whole = DistanceField::new();
            nav.distance_field(goal, &filter, &mut whole).expect("goal exists");
            let mut sliced = DistanceField::new();
            sliced.begin(&nav, goal, &filter).expect("goal exists");
            let mut updates = 0;
            while sliced.update(&nav, slice).expect("begun") == SliceStatus::InProgress {
                updates += 1;
                prop_assert!(updates < 10_000);
            }
            prop_assert_eq!(sliced.settled(), whole.settled());
            let mut query = NavQuery::default();
            for &from in &ids {
                prop_assert_eq!(sliced.cost_to_goal(&nav, from), whole.cost_to_goal(&nav, from));
                let Ok(r) = nav.find_path(from, goal, &filter, &mut query) else { continue };
                match whole.cost_to_goal(&nav, from) {
                    Some(c) => {
                        prop_assert!(r.is_complete());
                        prop_assert!(close(f64::from(c), f64::from(r.cost)), "field {} vs A* {}", c, r.cost);
                        // The next hops walk a route of that cost, over
                        // links the filter allows.
                        let (mut at, mut walked) = (from, 0.0f32);
                        while let Some(next) = whole.next_hop(&nav, at) {
                            prop_assert!(nav.is_walkable(at, next));
                            prop_assert!(nav.link_clearance(at, next).expect("link") >= clearance);
                            walked += nav.link_cost(at, next, list).expect("link");
                            at = next;
                        }
                        prop_assert_eq!(at, goal);
                        prop_assert!(close(f64::from(walked), f64::from(c)));
                    }
                    None => prop_assert!(!r.is_complete() || from == goal),
                }
            }
        }
    }
}
