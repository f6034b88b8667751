//! Times the sense stage alone on the perception scene (profiling aid):
//! `sense100k [agents] [ticks]`. Prints wall time and CPU time per tick
//! (summed over the process's threads, from /proc, which a loaded machine
//! disturbs less than the wall clock).

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let ticks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let Ok(mut world) = kiai_bench::perception::scene(n, 30.0, 1) else {
        return;
    };
    let t = kiai_bench::perception::time_sense(&mut world, ticks);
    println!(
        "{n} agents: wall median {:.3} ms, min {:.3} ms; cpu {:.3} ms per tick ({:.0} ns per agent)",
        t.median_ms,
        t.min_ms,
        t.cpu_ms,
        t.cpu_ms * 1e6 / n as f64
    );
}
