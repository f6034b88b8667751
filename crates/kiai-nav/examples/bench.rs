//! Runs the kiai-nav benchmark scenarios and prints ours vs each peer.
//!
//! `cargo run --release --example bench --features bench [-- --full]`
#![allow(
    unsafe_code,
    reason = "a counting global allocator needs `unsafe impl GlobalAlloc`"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

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

fn main() {
    let full = std::env::args().any(|a| a == "--full");
    let start = std::time::Instant::now();
    let rows = kiai_nav::bench::scenarios(!full, &|| ALLOCATIONS.load(Ordering::Relaxed));
    for r in &rows {
        println!(
            "{:<32} ours {:>9.2} ms  {:<22} {:>9.2} ms  ratio {:>5.2}x  | {}",
            r.name,
            r.ours_ms,
            r.peer,
            r.peer_ms,
            r.peer_ms / r.ours_ms,
            r.note
        );
    }
    println!("total {:.1} s", start.elapsed().as_secs_f64());
}
