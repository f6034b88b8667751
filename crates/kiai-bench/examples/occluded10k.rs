//! Times the sense stage alone on the occlusion scene of `kiai bench`
//! (10k agents, the cone occluded by 500 random walls; profiling aid):
//! `occluded10k [ticks] [budget]`. Prints wall and CPU time per tick (CPU
//! summed over the process's threads, from /proc) and the rays cast; with a
//! budget, caps the rays per tick.

use kiai_core::perception::Occluders;
use kiai_core::perception::occlusion::Walls;

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
    let t = kiai_bench::perception::time_sense(&mut world, ticks);
    println!(
        "occluded 10k: wall median {:.3} ms, min {:.3} ms; cpu {:.3} ms per tick; {} rays",
        t.median_ms,
        t.min_ms,
        t.cpu_ms,
        world.percepts().rays()
    );
}
