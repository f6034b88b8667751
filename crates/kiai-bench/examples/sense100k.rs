//! Times the sense stage alone on the perception scene (profiling aid):
//! `sense100k [agents] [ticks]`. Prints wall time and CPU time per tick
//! (summed over the process's threads, from /proc, which a loaded machine
//! disturbs less than the wall clock).

use std::time::Instant;

/// Nanoseconds on CPU of all threads of this process.
fn cpu_ns() -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    dir.filter_map(|e| {
        let text = std::fs::read_to_string(e.ok()?.path().join("schedstat")).ok()?;
        text.split_whitespace().next()?.parse::<u64>().ok()
    })
    .sum()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let ticks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let Ok(mut world) = kiai_bench::perception::scene(n, 30.0, 1) else {
        return;
    };
    let mut pipeline = kiai_core::Pipeline::new();
    pipeline.sense(&mut world);
    let mut times = Vec::new();
    let cpu0 = cpu_ns();
    for _ in 0..ticks {
        let t = Instant::now();
        pipeline.sense(&mut world);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let cpu = (cpu_ns() - cpu0) as f64 / 1e6 / ticks as f64;
    times.sort_by(f64::total_cmp);
    println!(
        "{n} agents: wall median {:.3} ms, min {:.3} ms; cpu {:.3} ms per tick ({:.0} ns per agent)",
        times[times.len() / 2],
        times[0],
        cpu,
        cpu * 1e6 / n as f64
    );
}
