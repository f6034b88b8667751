//! Runs only the perception scenarios of `kiai bench` (pass `--quick` for
//! the short form).

fn main() {
    kiai_bench::print_group(kiai_bench::perception::scenarios);
}
