//! Runs only the fog-of-war scenarios of `kiai bench`:
//! `cargo run --release -p kiai-bench --example fog [-- --quick]`.

fn main() {
    kiai_bench::print_group(kiai_bench::fog::scenarios);
}
