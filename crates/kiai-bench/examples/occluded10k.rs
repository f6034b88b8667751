//! Times the sense stage alone on the occlusion scene of `kiai bench`
//! (10k agents, the cone occluded by 500 random walls; profiling aid):
//! `occluded10k [ticks] [budget]`. Prints wall and CPU time per tick (CPU
//! summed over the process's threads, from /proc) and the rays cast; with a
//! budget, caps the rays per tick.

use std::time::Instant;

use kiai_core::perception::Occluders;
use kiai_core::perception::occlusion::Walls;

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
    let ticks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let budget: Option<u32> = args.next().and_then(|a| a.parse().ok());
    let n = 10_000;
    let Ok(mut world) = kiai_bench::perception::scene_with(n, 30.0, 1, true) else {
        return;
    };
    let side = (n as f32 * std::f32::consts::PI * 15.0 * 15.0 / 30.0).sqrt();
    let walls = kiai_bench::perception::random_walls(500, side, 2);
    world.set_occluders(Occluders {
        walls: Walls::build(walls, None),
        pvs: None,
    });
    world.set_perception_budget(
        budget.map(|max_rays_per_tick| kiai_core::PerceptionBudget { max_rays_per_tick }),
    );
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
        "occluded 10k: wall median {:.3} ms, min {:.3} ms; cpu {:.3} ms per tick; {} rays",
        times[times.len() / 2],
        times[0],
        cpu,
        world.percepts().rays()
    );
}
