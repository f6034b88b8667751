//! The walkers scenarios under their earlier name (BENCHMARKS.md's
//! 2026-11-28 section runs this): the same as `--example walkers`.

fn main() {
    kiai_bench::print_group(kiai_bench::walkers::scenarios);
}
