//! Property test: the frozen graph's nearest-waypoint grid finds what a
//! brute force finds on lattices, where many waypoints tie, and for
//! queries far outside the map.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

use glam::Vec3;
use kiai_nav::{WaypointGraph, WaypointId};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn nearest_on_a_lattice_equals_brute_force(
        side in 1u32..30,
        step in prop_oneof![Just(1.0f32), Just(4.0), 0.3f32..7.0],
        off in proptest::collection::vec(any::<bool>(), 0..900),
        queries in proptest::collection::vec((-3.0f32..3.0, -1.0f32..1.0, -3.0f32..3.0), 1..20),
        active_only in any::<bool>(),
    ) {
        let mut g = WaypointGraph::new();
        let mut ids: Vec<WaypointId> = Vec::new();
        for k in 0..side * side {
            let p = Vec3::new((k % side) as f32 * step, 0.0, (k / side) as f32 * step);
            ids.push(g.add_waypoint(p).expect("finite"));
        }
        for (id, &o) in ids.iter().zip(&off) {
            if o {
                g.set_active(*id, false).expect("exists");
            }
        }
        let nav = g.freeze();
        let extent = side as f32 * step;
        for (qx, qy, qz) in queries {
            // On lattice points, halfway between them, and far outside.
            let p = Vec3::new((qx * extent).round() / 2.0, qy, (qz * extent).round() / 2.0);
            let brute = ids
                .iter()
                .copied()
                .filter(|id| !active_only || g.waypoint(*id).is_some_and(|w| w.active))
                .min_by(|a, b| {
                    let da = g.waypoint(*a).expect("a").pos().distance_squared(p);
                    let db = g.waypoint(*b).expect("b").pos().distance_squared(p);
                    da.total_cmp(&db).then(a.cmp(b))
                });
            prop_assert_eq!(nav.nearest_waypoint(p, active_only), brute, "query {:?}", p);
        }
    }
}
