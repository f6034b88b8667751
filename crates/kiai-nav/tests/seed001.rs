//! Article 001 (`Select_WaypointInRange`) cases, transcribed by hand.
//!
//! Layout for most cases: the agent stands on `A` at the origin, the
//! destination `D` is at (10, 0, 0), so `|D - A|^2 = 100`.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]

use glam::Vec3;
use kiai_nav::{
    CostListId, Destination, Heading, NeighbourFilter, SelectOptions, WaypointGraph, WaypointId,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

struct Map {
    g: WaypointGraph,
    list: CostListId,
    a: WaypointId,
    d: WaypointId,
}

/// `A` at the origin, `D` at (10,0,0) not linked from `A`, then one
/// neighbour of `A` per `(x, z, cost)` in link order.
fn map(neighbours: &[(f32, f32, f32)]) -> (Map, Vec<WaypointId>) {
    let mut g = WaypointGraph::new();
    let list = g.add_cost_list("infantry", 1.0).expect("list");
    let a = g.add_waypoint(Vec3::ZERO).expect("a");
    let d = g.add_waypoint(Vec3::new(10.0, 0.0, 0.0)).expect("d");
    let mut ids = Vec::new();
    for &(x, z, cost) in neighbours {
        let n = g.add_waypoint(Vec3::new(x, 0.0, z)).expect("n");
        let link = g.add_link(a, n).expect("link");
        g.set_link_cost(link, list, cost).expect("cost");
        ids.push(n);
    }
    (Map { g, list, a, d }, ids)
}

fn select(m: &Map, heading: Heading, filter: NeighbourFilter<'_>) -> Option<WaypointId> {
    let opts = SelectOptions {
        filter,
        ..SelectOptions::new(heading, m.list)
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let frozen =
        m.g.freeze()
            .select_neighbour(m.a, Destination::Waypoint(m.d), &opts, &mut rng);
    let editable =
        m.g.select_neighbour(m.a, Destination::Waypoint(m.d), &opts, &mut rng);
    assert_eq!(frozen, editable);
    editable
}

fn toward(m: &Map) -> Option<WaypointId> {
    select(m, Heading::Toward, NeighbourFilter::default())
}

fn away(m: &Map) -> Option<WaypointId> {
    select(m, Heading::Away, NeighbourFilter::default())
}

#[test]
fn toward_picks_the_neighbour_closest_to_the_destination() {
    // B: 1 * 25 <= 100 -> B; C: 1 * (100 + 25) = 125 > 25 -> still B.
    let (m, n) = map(&[(5.0, 0.0, 1.0), (0.0, 5.0, 1.0)]);
    assert_eq!(toward(&m), Some(n[0]));
}

#[test]
fn toward_weighs_squared_distance_by_cost() {
    // B: 4.5 * 25 = 112.5 > 100 rejected; C at (4,0,3): 1 * (36 + 9) = 45 -> C.
    let (m, n) = map(&[(5.0, 0.0, 4.5), (4.0, 3.0, 1.0)]);
    assert_eq!(toward(&m), Some(n[1]));
    // Cheap B: 0.5 * 25 = 12.5 beats C's 45 even though listed first.
    let (m, n) = map(&[(5.0, 0.0, 0.5), (4.0, 3.0, 1.0)]);
    assert_eq!(toward(&m), Some(n[0]));
}

#[test]
fn toward_accepts_equal_distance_and_later_ties_win() {
    // Both at 1 * 50; `<=` lets the later link win.
    let (m, n) = map(&[(5.0, 5.0, 1.0), (5.0, -5.0, 1.0)]);
    assert_eq!(toward(&m), Some(n[1]));
    // A neighbour exactly as far as A itself (100) is still accepted (`<=`).
    let (m, n) = map(&[(10.0, 10.0, 1.0)]);
    assert_eq!(toward(&m), Some(n[0]));
}

#[test]
fn toward_takes_the_destination_at_once() {
    // D is listed before a free (cost 0) neighbour that also scores 0 and
    // would win the `<=` tie if the loop went on.
    let (mut m, _) = map(&[]);
    m.g.add_link(m.a, m.d).expect("a->d");
    let z = m.g.add_waypoint(Vec3::new(0.0, 0.0, 30.0)).expect("z");
    let l = m.g.add_link(m.a, z).expect("a->z");
    m.g.set_link_cost(l, m.list, 0.0).expect("cost");
    assert_eq!(toward(&m), Some(m.d));
}

#[test]
fn toward_falls_back_to_the_best_direction() {
    // B (-5,0,0): 225 > 100; C (0,0,5): 125 > 100 -> step 2.
    // dir to D = +x. B: -1 + 1 - 1 = -1; C: 0 + 1 - 1 = 0 -> C.
    let (m, n) = map(&[(-5.0, 0.0, 1.0), (0.0, 5.0, 1.0)]);
    assert_eq!(toward(&m), Some(n[1]));
    // Step 2 uses `>=` from -1: B alone scores exactly -1 and is taken.
    let (m, n) = map(&[(-5.0, 0.0, 1.0)]);
    assert_eq!(toward(&m), Some(n[0]));
}

#[test]
fn toward_fallback_rejects_very_expensive_links() {
    // B: -1 + 1 - 3 = -3 < -1; C: 0 + 1 - 3 = -2 < -1 -> nothing.
    let (m, _) = map(&[(-5.0, 0.0, 3.0), (0.0, 5.0, 3.0)]);
    assert_eq!(toward(&m), None);
}

#[test]
fn away_maximises_two_minus_cost_times_distance() {
    // B (-5,0,0): 1 * 225 >= 100 -> B; C (0,0,-20): 1 * 500 -> C.
    let (m, n) = map(&[(-5.0, 0.0, 1.0), (0.0, -20.0, 1.0)]);
    assert_eq!(away(&m), Some(n[1]));
    // C costly: (2 - 1.8) * 500 = 100 < 225 -> B.
    let (m, n) = map(&[(-5.0, 0.0, 1.0), (0.0, -20.0, 1.8)]);
    assert_eq!(away(&m), Some(n[0]));
    // Ties: both 225, `>=` lets the later win.
    let (m, n) = map(&[(-5.0, 0.0, 1.0), (10.0, 15.0, 1.0)]);
    assert_eq!(away(&m), Some(n[1]));
}

#[test]
fn away_falls_back_to_the_worst_direction() {
    // B (5,0,0): 25 < 100; C (8,0,1): 5 < 100 -> step 2 minimises dot - 1 + cost.
    // B: 1 - 1 + 1 = 1 (<= 1, taken); C: 8/sqrt(65) - 1 + 1 = 0.992 -> C.
    let (m, n) = map(&[(5.0, 0.0, 1.0), (8.0, 1.0, 1.0)]);
    assert_eq!(away(&m), Some(n[1]));
    // A cheap link lowers the score: B with cost 0.5 -> 0.5 beats C.
    let (m, n) = map(&[(5.0, 0.0, 0.5), (8.0, 1.0, 1.0)]);
    assert_eq!(away(&m), Some(n[0]));
}

#[test]
fn inactive_neighbours_are_skipped() {
    let (mut m, n) = map(&[(5.0, 0.0, 1.0), (0.0, 5.0, 1.0)]);
    m.g.set_active(n[0], false).expect("exists");
    // Only C is left: 125 > 100 -> step 2 -> C.
    assert_eq!(toward(&m), Some(n[1]));
    m.g.set_active(n[1], false).expect("exists");
    assert_eq!(toward(&m), None);
    assert_eq!(away(&m), None);
    // An inactive destination is not taken at once either.
    let (mut m, n) = map(&[(9.0, 0.0, 1.0)]);
    m.g.add_link(m.a, m.d).expect("link");
    m.g.set_active(m.d, false).expect("exists");
    assert_eq!(toward(&m), Some(n[0]));
}

#[test]
fn excluded_waypoints_are_skipped() {
    let (m, n) = map(&[(5.0, 0.0, 1.0), (4.0, 3.0, 1.0), (0.0, 5.0, 1.0)]);
    let one = [n[0]];
    let f = NeighbourFilter {
        exclude: &one,
        ..Default::default()
    };
    assert_eq!(select(&m, Heading::Toward, f), Some(n[1]));
    let two = [n[0], n[1]];
    let f = NeighbourFilter {
        exclude: &two,
        ..Default::default()
    };
    // Only (0,0,5) is left: 125 > 100 -> step 2 picks it.
    assert_eq!(select(&m, Heading::Toward, f), Some(n[2]));
    let all = [n[0], n[1], n[2]];
    let f = NeighbourFilter {
        exclude: &all,
        ..Default::default()
    };
    assert_eq!(select(&m, Heading::Toward, f), None);
}

#[test]
fn neighbours_beyond_max_distance_are_skipped() {
    // B at 8 from A, C at 5 from A.
    let (m, n) = map(&[(8.0, 0.0, 1.0), (3.0, 4.0, 1.0)]);
    assert_eq!(toward(&m), Some(n[0]));
    let f = NeighbourFilter {
        max_distance: Some(6.0),
        ..Default::default()
    };
    assert_eq!(select(&m, Heading::Toward, f), Some(n[1]));
    // Inclusive: exactly 5 is within 5.
    let f = NeighbourFilter {
        max_distance: Some(5.0),
        ..Default::default()
    };
    assert_eq!(select(&m, Heading::Toward, f), Some(n[1]));
    let f = NeighbourFilter {
        max_distance: Some(4.9),
        ..Default::default()
    };
    assert_eq!(select(&m, Heading::Toward, f), None);
}

#[test]
fn no_neighbours_or_unknown_cost_list_select_nothing() {
    let (m, _) = map(&[]);
    assert_eq!(toward(&m), None);
    let (m, _) = map(&[(5.0, 0.0, 1.0)]);
    let opts = SelectOptions::new(Heading::Toward, CostListId(9));
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert_eq!(
        m.g.select_neighbour(m.a, Destination::Waypoint(m.d), &opts, &mut rng),
        None
    );
}

#[test]
fn point_destination_uses_the_position() {
    // Destination (0,0,10): C (0,0,5) is closer.
    let (m, n) = map(&[(5.0, 0.0, 1.0), (0.0, 5.0, 1.0)]);
    let opts = SelectOptions::new(Heading::Toward, m.list);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let dest = Destination::Point(Vec3::new(0.0, 0.0, 10.0));
    assert_eq!(m.g.select_neighbour(m.a, dest, &opts, &mut rng), Some(n[1]));
}

#[test]
fn jitter_makes_agents_take_detours_deterministically() {
    // B scores 25, C (4,0,3) scores 45: without jitter always B.
    let (m, n) = map(&[(5.0, 0.0, 1.0), (4.0, 3.0, 1.0)]);
    let opts = SelectOptions {
        jitter: 0.9,
        ..SelectOptions::new(Heading::Toward, m.list)
    };
    let run = |seed: u64| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..200)
            .map(|_| {
                m.g.select_neighbour(m.a, Destination::Waypoint(m.d), &opts, &mut rng)
            })
            .collect::<Vec<_>>()
    };
    let picks = run(42);
    assert_eq!(picks, run(42), "same seed, same picks");
    let c_count = picks.iter().filter(|p| **p == Some(n[1])).count();
    assert!(
        c_count > 10 && c_count < 190,
        "C picked {c_count} of 200 times"
    );
}
