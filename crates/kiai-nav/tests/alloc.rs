//! A* and distance-field queries allocate nothing after warm-up.
#![allow(clippy::expect_used, reason = "tests fail loudly on broken setup")]
#![allow(
    unsafe_code,
    reason = "a counting global allocator needs `unsafe impl GlobalAlloc`"
)]

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use common::random_graph;
use kiai_nav::{DistanceField, NavQuery, PathFilter};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn astar_allocates_nothing_after_warm_up() {
    let rg = random_graph(11, 2000, 6);
    let nav = rg.graph.freeze();
    let filter = PathFilter {
        cost_list: rg.lists[0],
        exclude: &rg.exclude,
        max_distance: None,
    };
    let starts: Vec<_> = rg
        .ids
        .iter()
        .copied()
        .filter(|id| rg.graph.waypoint(*id).is_some_and(|w| w.active) && !rg.exclude.contains(id))
        .collect();
    let pairs: Vec<_> = (0..200)
        .map(|i| {
            (
                starts[(i * 7919) % starts.len()],
                rg.ids[(i * 104_729) % rg.ids.len()],
            )
        })
        .collect();
    let mut query = NavQuery::default();
    let mut field = DistanceField::new();
    // Warm-up: every query once, so the heap and path buffers reach their peak.
    for &(a, b) in &pairs {
        nav.find_path(a, b, &filter, &mut query).expect("ok");
    }
    for &(_, b) in pairs.iter().take(20) {
        nav.distance_field(b, &filter, &mut field).expect("ok");
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut complete = 0;
    for &(a, b) in &pairs {
        complete += usize::from(
            nav.find_path(a, b, &filter, &mut query)
                .expect("ok")
                .is_complete(),
        );
    }
    for &(_, b) in pairs.iter().take(20) {
        nav.distance_field(b, &filter, &mut field).expect("ok");
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(
        after - before,
        0,
        "allocations during {} queries",
        pairs.len()
    );
    assert!(complete > 100, "most pairs are connected ({complete})");
}
