//! A floor for any uniform-grid sense stage on the perception scene (the
//! `kiai bench` scene: sphere r = 8 + cone 15 m / 120°, ~30 agents within
//! 15 m): sort the agents into cells of the cone's range (counting sort,
//! positions as x/y/z arrays), then, in parallel, test each agent's 3 × 3
//! cells against both shapes and only *count* the hits — no ids written,
//! sorted or compared with last tick, no events, no memory, no factions.
//! `sense_floor [agents] [ticks]`; prints the median and fastest time of
//! the parallel shape tests per tick, and the sort's median apart.

use rayon::prelude::*;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let ticks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let Ok(world) = kiai_bench::perception::scene(n, 30.0, 1) else {
        return;
    };
    let (radar, eyes, fov_deg) = kiai_bench::perception::SHAPES;
    let pos = world.agents().positions();
    let facing = world.agents().facings();
    let side = pos.iter().fold(0.0f32, |m, p| m.max(p.x).max(p.z)) + 1.0;
    // Cells of the cone's range: an agent's 3 × 3 cells hold everything
    // within range (5 × 5 cells of half the range, as the real stage uses,
    // test fewer candidates but measured slower here: shorter runs).
    let size = eyes;
    let cells = (side / size).ceil().max(1.0) as usize;
    let cell = |x: f32, z: f32| {
        let c = |v: f32| ((v / size) as usize).min(cells - 1);
        c(z) * cells + c(x)
    };
    let cos = kiai_core::perception::half_angle_cos(fov_deg);
    let (r2, e2) = (radar * radar, eyes * eyes);
    let mut total = Vec::with_capacity(ticks);
    let mut sorting = Vec::with_capacity(ticks);
    let mut hits = 0u64;
    for _ in 0..ticks.max(1) {
        let t = std::time::Instant::now();
        let mut start = vec![0u32; cells * cells + 1];
        for p in pos {
            start[cell(p.x, p.z) + 1] += 1;
        }
        for c in 0..cells * cells {
            start[c + 1] += start[c];
        }
        let mut fill = start.clone();
        let mut at = vec![0usize; n];
        for (i, p) in pos.iter().enumerate() {
            let c = cell(p.x, p.z);
            at[fill[c] as usize] = i;
            fill[c] += 1;
        }
        let axis = |f: &dyn Fn(usize) -> f32| at.iter().map(|&i| f(i)).collect::<Vec<f32>>();
        let (xs, ys, zs) = (
            axis(&|i| pos[i].x),
            axis(&|i| pos[i].y),
            axis(&|i| pos[i].z),
        );
        let unit: Vec<_> = facing.iter().map(|f| f.normalize_or_zero()).collect();
        let (fx, fy, fz) = (
            axis(&|i| unit[i].x),
            axis(&|i| unit[i].y),
            axis(&|i| unit[i].z),
        );
        let sorted_at = t.elapsed().as_secs_f64() * 1e3;
        sorting.push(sorted_at);
        hits = (0..n)
            .into_par_iter()
            .with_min_len(256)
            .map(|k| {
                let (ex, ey, ez) = (xs[k], ys[k], zs[k]);
                let (fx, fy, fz) = (fx[k], fy[k], fz[k]);
                let c = |v: f32| ((v / size) as usize).min(cells - 1);
                let (cx, cz) = (c(ex), c(ez));
                let mut h = 0u32;
                for row in cz.saturating_sub(1)..=(cz + 1).min(cells - 1) {
                    let a = start[row * cells + cx.saturating_sub(1)] as usize;
                    let b = start[row * cells + (cx + 1).min(cells - 1) + 1] as usize;
                    for j in a..b {
                        let (dx, dy, dz) = (xs[j] - ex, ys[j] - ey, zs[j] - ez);
                        let d2 = dx * dx + dy * dy + dz * dz;
                        let dot = dx * fx + dy * fy + dz * fz;
                        let sphere = (d2 < r2) & (d2 > 0.0);
                        let cone =
                            (d2 < e2) & (d2 > 0.0) & (dot > 0.0) & (dot * dot > cos * cos * d2);
                        h += u32::from(sphere) + u32::from(cone);
                    }
                }
                u64::from(h)
            })
            .sum();
        total.push(t.elapsed().as_secs_f64() * 1e3 - sorted_at);
    }
    total.sort_by(f64::total_cmp);
    sorting.sort_by(f64::total_cmp);
    println!(
        "{n} agents, rayon threads {}: shape tests median {:.2} ms, fastest {:.2} ms per tick (plus the sort: median {:.2} ms); {:.1} hits per agent",
        rayon::current_num_threads(),
        total[total.len() / 2],
        total[0],
        sorting[sorting.len() / 2],
        hits as f64 / n as f64
    );
}
