//! Runs only the runtime scenarios of `kiai bench` (churn, Driven bodies'
//! sync): `cargo run --release -p kiai-bench --example runtime [-- --quick]`.

/// Counts allocations so the churn scenario can report allocations per tick.
#[global_allocator]
static ALLOCATOR: kiai_bench::CountingAllocator = kiai_bench::CountingAllocator;

fn main() {
    kiai_bench::print_group(kiai_bench::runtime::scenarios);
}
