//! Runs only the walkers scenarios of `kiai bench` (1,000 A* walkers sent
//! across 90,000 waypoints: the route queue, the unbudgeted stage and a
//! straight walk): `cargo run --release -p kiai-bench --example walkers
//! [-- --quick]`.

fn main() {
    kiai_bench::print_group(kiai_bench::walkers::scenarios);
}
