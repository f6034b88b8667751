//! Runs only the tick level of detail scenarios of `kiai bench` (a 100k
//! battle with and without tiers):
//! `cargo run --release -p kiai-bench --example lod [-- --quick]`.

fn main() {
    kiai_bench::print_group(kiai_bench::lod::scenarios);
}
