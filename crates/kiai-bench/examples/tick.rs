//! Runs only the whole-tick scenarios of `kiai bench` (the 10k battle on 2
//! threads against 1 thread, in turns):
//! `cargo run --release -p kiai-bench --example tick [-- --quick]`.

fn main() {
    kiai_bench::print_group(kiai_bench::tick::scenarios);
}
