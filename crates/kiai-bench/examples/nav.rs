//! Runs only the navigation scenarios of `kiai bench`, allocations per query
//! included: `cargo run --release -p kiai-bench --example nav [-- --quick]`.

/// Counts allocations so the scenarios can report allocations per query.
#[global_allocator]
static ALLOCATOR: kiai_bench::CountingAllocator = kiai_bench::CountingAllocator;

fn main() {
    kiai_bench::print_group(kiai_bench::nav::scenarios);
}
