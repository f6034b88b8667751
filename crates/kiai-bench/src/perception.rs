//! Perception: kiai's sense stage (grid broadphase, parallel) against seed
//! 000's all-pairs loop, on the same scene.

use kiai_core::glam::Vec3;
use kiai_core::perception::half_angle_cos;
use kiai_core::{
    AgentId, AgentSpawn, Archetype, Movement, Pipeline, Sense, SenseFilter, Shape, World,
    WorldConfig,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Effort, Scenario, median_ms, once_ms};

/// Radius of the all-around sense, world units.
const RADAR: f32 = 8.0;
/// Range of the view cone, world units.
const EYES: f32 = 15.0;
/// Full angle of the view cone, degrees.
const FOV_DEG: f32 = 120.0;

/// A world of `n` agents with a sphere and a cone, spread so that each has
/// about `neighbours` others within the cone's range.
pub fn scene(n: usize, neighbours: f32, seed: u64) -> Result<World, String> {
    let mut world = World::new(WorldConfig {
        seed,
        ..WorldConfig::default()
    });
    let faction = world.factions_mut().add("all").map_err(|e| e.to_string())?;
    let archetype = world
        .add_archetype(Archetype {
            name: "seer".into(),
            senses: vec![
                Sense {
                    name: "radar".into(),
                    shape: Shape::Sphere { radius: RADAR },
                    filter: SenseFilter::All,
                    occluded: false,
                    lose_range: None,
                    memory_ticks: 0,
                },
                Sense {
                    name: "eyes".into(),
                    shape: Shape::Cone {
                        range: EYES,
                        fov_deg: FOV_DEG,
                    },
                    filter: SenseFilter::All,
                    occluded: false,
                    lose_range: None,
                    memory_ticks: 0,
                },
            ],
            movement: Movement::Static,
            sight: None,
            profile: None,
            noise: None,
            decider: None,
            cost_list: None,
            separation: None,
        })
        .map_err(|e| e.to_string())?;
    // n agents on a square of side L: neighbours within EYES = n * pi EYES² / L².
    let side = (n as f32 * std::f32::consts::PI * EYES * EYES / neighbours).sqrt();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..n {
        let position = Vec3::new(
            rng.random_range(0.0..side),
            rng.random_range(0.0..2.0),
            rng.random_range(0.0..side),
        );
        let facing = Vec3::new(
            rng.random_range(-1.0..1.0),
            0.0,
            rng.random_range(-1.0..1.0),
        );
        world
            .spawn(AgentSpawn {
                name: format!("a{i}"),
                archetype,
                faction,
                position,
                facing,
            })
            .map_err(|e| e.to_string())?;
    }
    Ok(world)
}

/// Seed 000's `Check_AIEntity_DistancesAndPerception`: every pair once
/// (i < j), both directions filled. Writes sorted lists per agent (the seed
/// writes `bool[n]` arrays per agent, which at 10k agents alone would cost
/// 200 MB of resets per tick; lists are the kinder comparison).
pub fn seed_all_pairs(world: &World, radar: &mut [Vec<u32>], eyes: &mut [Vec<u32>]) {
    let agents = world.agents();
    let pos = agents.positions();
    let view = agents.facings();
    let n = pos.len();
    let radar_sq = RADAR * RADAR;
    let eyes_sq = EYES * EYES;
    let cos_fov = half_angle_cos(FOV_DEG);
    for list in radar.iter_mut().chain(eyes.iter_mut()) {
        list.clear();
    }
    for i in 0..n {
        for j in i + 1..n {
            let d = pos[i] - pos[j];
            let dist_sq = d.length_squared();
            let inv = 1.0 / dist_sq.sqrt();
            let nd = d * inv;
            if radar_sq > dist_sq {
                radar[i].push(j as u32);
                radar[j].push(i as u32);
            }
            if eyes_sq > dist_sq {
                // i looks toward j: the vector j -> i points back at i.
                if -nd.dot(view[i]) > cos_fov {
                    eyes[i].push(j as u32);
                }
                if nd.dot(view[j]) > cos_fov {
                    eyes[j].push(i as u32);
                }
            }
        }
    }
    // j > i entries arrive in order; i < j ones too, but interleaved.
    for list in radar.iter_mut().chain(eyes.iter_mut()) {
        list.sort_unstable();
    }
}

/// The all-pairs scenarios at 1k and 10k agents.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let mut out = Vec::new();
    for (n, label) in [(1_000usize, "1k"), (10_000, "10k")] {
        let mut world = scene(n, 30.0, 1)?;
        let mut pipeline = Pipeline::new();
        let mut radar = vec![Vec::new(); n];
        let mut eyes = vec![Vec::new(); n];

        let est = once_ms(|| pipeline.sense(&mut world));
        let ours_ms = median_ms(effort.reps(est), || pipeline.sense(&mut world));
        let est = once_ms(|| seed_all_pairs(&world, &mut radar, &mut eyes));
        let peer_reps = effort.reps(est).min(if effort.quick { 3 } else { 10 });
        let peer_ms = median_ms(peer_reps, || seed_all_pairs(&world, &mut radar, &mut eyes));

        let mut pairs = 0usize;
        for i in 0..n {
            let id = AgentId::from_index(i);
            let ours_radar: Vec<u32> = world.percepts().sensed(id, 0).iter().map(|a| a.0).collect();
            let ours_eyes: Vec<u32> = world.percepts().sensed(id, 1).iter().map(|a| a.0).collect();
            if ours_radar != radar[i] || ours_eyes != eyes[i] {
                return Err(format!(
                    "perception/{label}: agent {i} differs from the seed's all-pairs result"
                ));
            }
            pairs += radar[i].len() + eyes[i].len();
        }
        out.push(Scenario {
            name: format!("perception/sphere+cone/{label}"),
            ours_ms,
            peer: "seed 000 all-pairs".into(),
            peer_ms,
            note: format!(
                "ms per sense stage, {n} agents, sphere r={RADAR} + cone {EYES}/{FOV_DEG}°, \
                 {:.1} percepts per agent, rayon threads {}; results checked equal",
                pairs as f64 / n as f64,
                rayon::current_num_threads()
            ),
        });
    }
    Ok(out)
}
