//! A floor for any uniform-grid sense stage on the perception scene
//! (see `kiai_bench::sense_floor`): `sense_floor [agents] [ticks]` prints
//! the floor's median per tick and its sort apart; `sense_floor --bench`
//! runs the `kiai bench` scenario (the sense stage beside the floor).

fn main() {
    if std::env::args().any(|a| a == "--bench") {
        kiai_bench::print_group(kiai_bench::sense_floor::scenarios);
        return;
    }
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let ticks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let Ok(world) = kiai_bench::perception::scene(n, 30.0, 1) else {
        return;
    };
    let f = kiai_bench::sense_floor::floor(&world, ticks);
    println!(
        "{n} agents, rayon threads {}: count-only pass median {:.2} ms per tick (of which the sort {:.2} ms); {:.1} hits per agent",
        rayon::current_num_threads(),
        f.median_ms,
        f.sort_ms,
        f.hits_per_agent
    );
}
