//! Runs only the local-avoidance scenarios of `kiai bench` (kiai's ORCA
//! against dodgy_2d at 1k and 10k agents):
//! `cargo run --release -p kiai-bench --example avoidance [-- --quick]`.

/// Counts allocations, so the scenario can show that kiai's pass makes none.
#[global_allocator]
static ALLOCATOR: kiai_bench::CountingAllocator = kiai_bench::CountingAllocator;

fn main() {
    kiai_bench::print_group(kiai_bench::avoidance::scenarios);
}
