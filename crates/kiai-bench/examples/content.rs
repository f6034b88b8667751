//! The content-loading scenarios alone (what `kiai bench` runs among the
//! rest): `cargo run --release -p kiai-bench --example content [-- --quick]`.

fn main() {
    kiai_bench::print_group(kiai_bench::content::scenarios);
}
