//! A floor for any uniform-grid sense stage on the perception scene
//! (sphere r = 8 + cone 15 / 120°, ~30 agents within 15): sort the agents
//! into cells of the cone's range (counting sort, positions as x/y/z
//! arrays), then, in parallel, test each agent's 3 × 3 cells against both
//! shapes and only *count* the hits — no ids written, sorted or compared
//! with last tick, no events, no memory, no factions. `kiai bench` sets the
//! sense stage beside it (`perception/100k/sense stage vs count-only
//! floor`).

use rayon::prelude::*;

use crate::perception::{SHAPES, scene, time_sense};
use crate::{Effort, Scenario};

/// Times of the floor pass, ms per tick.
#[derive(Clone, Copy, Debug)]
pub struct Floor {
    /// Median of the whole pass (sort + shape tests).
    pub median_ms: f64,
    /// Median of the sort alone.
    pub sort_ms: f64,
    /// Hits (sphere + cone) per agent, to check the scene.
    pub hits_per_agent: f64,
}

/// The floor pass over `world`'s agents, `ticks` times.
pub fn floor(world: &kiai_core::World, ticks: usize) -> Floor {
    let (radar, eyes, fov_deg) = SHAPES;
    let pos = world.agents().positions();
    let facing = world.agents().facings();
    let n = pos.len();
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
    // Buffers kept from tick to tick, as the sense stage keeps its own:
    // fresh ones paid the kernel's page faults every tick (up to 2 ms here)
    // unless the allocator happened to keep freed memory mapped.
    let (mut start, mut fill, mut at) = (Vec::new(), Vec::new(), Vec::new());
    let mut unit = Vec::new();
    let mut axes: [Vec<f32>; 6] = Default::default();
    for _ in 0..ticks.max(1) {
        let t = std::time::Instant::now();
        start.clear();
        start.resize(cells * cells + 1, 0u32);
        for p in pos {
            start[cell(p.x, p.z) + 1] += 1;
        }
        for c in 0..cells * cells {
            start[c + 1] += start[c];
        }
        fill.clone_from(&start);
        at.resize(n, 0usize);
        for (i, p) in pos.iter().enumerate() {
            let c = cell(p.x, p.z);
            at[fill[c] as usize] = i;
            fill[c] += 1;
        }
        unit.clear();
        unit.extend(facing.iter().map(|f| f.normalize_or_zero()));
        for (k, axis) in axes.iter_mut().enumerate() {
            let v = if k < 3 { pos } else { unit.as_slice() };
            axis.clear();
            axis.extend(at.iter().map(|&i| v[i][k % 3]));
        }
        let [xs, ys, zs, fx, fy, fz] = &axes;
        sorting.push(t.elapsed().as_secs_f64() * 1e3);
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
        total.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    Floor {
        median_ms: median(&mut total),
        sort_ms: median(&mut sorting),
        hits_per_agent: hits as f64 / n.max(1) as f64,
    }
}

/// The 100k sense stage against the floor, alternating so both see the
/// same machine.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let n = 100_000;
    let ticks = if effort.quick { 5 } else { 20 };
    let mut world = scene(n, 30.0, 1)?;
    let (mut ours, mut peer) = (Vec::new(), Vec::new());
    let mut hits = 0.0;
    for _ in 0..3 {
        ours.push(time_sense(&mut world, ticks).median_ms);
        let f = floor(&world, ticks);
        peer.push(f.median_ms);
        hits = f.hits_per_agent;
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (ours_ms, peer_ms) = (median(&mut ours), median(&mut peer));
    Ok(vec![Scenario {
        name: "perception/100k/sense stage vs count-only floor".into(),
        ours_ms,
        peer: "count-only grid pass".into(),
        peer_ms,
        note: format!(
            "ms per tick, {n} agents of the perception scene ({hits:.1} hits per agent), rayon \
             threads {}; the floor sorts into cells and counts sphere and cone hits, writing \
             nothing; the sense stage is {:.2}x the floor",
            rayon::current_num_threads(),
            ours_ms / peer_ms.max(1e-9)
        ),
    }])
}
