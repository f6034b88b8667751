//! Runs only the Lua-vs-Rust decider scenarios of `kiai bench`:
//! `cargo run --release -p kiai-bench --example lua [-- --quick]`.

fn main() {
    kiai_bench::print_group(kiai_bench::lua::scenarios);
}
