//! Runs only the big-order scenarios of `kiai bench` (1,000 A* walkers sent
//! across 90,000 waypoints): `cargo run --release -p kiai-bench --example
//! big_order [-- --quick]`.

fn main() {
    kiai_bench::print_group(kiai_bench::big_order::scenarios);
}
