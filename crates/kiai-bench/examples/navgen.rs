//! Runs only the waypoint-generation scenario of `kiai bench`:
//! `cargo run --release -p kiai-bench --example navgen [-- --quick]`.

fn main() {
    kiai_bench::print_group(kiai_bench::navgen::scenarios);
}
