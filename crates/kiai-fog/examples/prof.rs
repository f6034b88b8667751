//! temp profiling harness
const SIDE: u32 = 512;
const N: usize = 2000;
use kiai_fog::*;
fn main() {
    let mut s: u64 = 1;
    let mut rnd = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut fog = FogGrid::new(
        GridSpec::new(SIDE, SIDE, 1.0),
        FogConfig {
            factions: 8,
            direction_buckets: 32,
            occlusion: false,
        },
    )
    .unwrap();
    let mut poses: Vec<Pose> = (0..N)
        .map(|_| Pose::new([rnd() * SIDE as f32, rnd() * SIDE as f32], rnd() * 6.28))
        .collect();
    for (i, p) in poses.iter().enumerate() {
        fog.add_unit(
            UnitId(i as u32),
            UnitDesc {
                faction: FactionId((i % 8) as u8),
                sight_radius: 8.0,
                shape: SightShape::Circle,
            },
            *p,
        )
        .unwrap();
    }
    let mut ev = Vec::new();
    let mut times = Vec::new(); let mut moved = 0u64;
    for _ in 0..3000 {
        for p in &mut poses {
            p.facing += (rnd() - 0.5) * 0.6;
            let (s, c) = p.facing.sin_cos();
            p.pos = [
                (p.pos[0] + c * 0.3).rem_euclid(SIDE as f32 - 1.0),
                (p.pos[1] + s * 0.3).rem_euclid(SIDE as f32 - 1.0),
            ];
        }
        let t = std::time::Instant::now();
        for (i, p) in poses.iter().enumerate() {
            let b = fog.unit_tile(UnitId(i as u32));
            fog.set_pose(UnitId(i as u32), *p).unwrap();
            if fog.unit_tile(UnitId(i as u32)) != b { moved += 1; }
        }

        ev.clear();
        fog.drain_events_into(&mut ev);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("moved/tick {} ", moved / 3000); println!("median {:.4} min {:.4}", times[times.len() / 2], times[0]);
}
