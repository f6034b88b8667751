//! Perception: kiai's sense stage (grid broadphase, parallel) against seed
//! 000's all-pairs loop, against rebuilding a `kiddo` k-d tree or an `rstar`
//! R-tree every tick and querying it, and, with walls, against the same
//! queries with every wall tested per ray; all on the same scene.

use kiai_core::glam::Vec2;
use kiai_core::glam::Vec3;
use kiai_core::perception::occlusion::{Wall, Walls, blocks_brute};
use kiai_core::perception::{Occluders, half_angle_cos};
use kiai_core::{
    AgentId, AgentSpawn, Archetype, Movement, Pipeline, Sense, SenseFilter, Shape, World,
    WorldConfig,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::{Effort, Scenario, median_ms, medians_interleaved, once_ms};

/// Radius of the all-around sense, world units.
const RADAR: f32 = 8.0;
/// Range of the view cone, world units.
const EYES: f32 = 15.0;
/// Full angle of the view cone, degrees.
const FOV_DEG: f32 = 120.0;

/// The scene's senses: sphere radius, cone range (world units) and cone
/// full angle (degrees).
pub const SHAPES: (f32, f32, f32) = (RADAR, EYES, FOV_DEG);

/// A world of `n` agents with a sphere and a cone, spread so that each has
/// about `neighbours` others within the cone's range.
pub fn scene(n: usize, neighbours: f32, seed: u64) -> Result<World, String> {
    scene_with(n, neighbours, seed, false)
}

/// [`scene`], with the cone occluded by walls when `occluded_eyes`.
pub fn scene_with(
    n: usize,
    neighbours: f32,
    seed: u64,
    occluded_eyes: bool,
) -> Result<World, String> {
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
                    occluded: occluded_eyes,
                    lose_range: None,
                    memory_ticks: 0,
                },
            ],
            movement: Movement::Static,
            ..Archetype::default()
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

/// Article 000's `Check_AIEntity_DistancesAndPerception`: every pair once
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
            let ours_radar: Vec<u32> = world
                .percepts()
                .sensed(id, 0)
                .iter()
                .map(|a| a.slot())
                .collect();
            let ours_eyes: Vec<u32> = world
                .percepts()
                .sensed(id, 1)
                .iter()
                .map(|a| a.slot())
                .collect();
            if ours_radar != radar[i] || ours_eyes != eyes[i] {
                return Err(format!(
                    "perception/{label}: agent {i} differs from the article's all-pairs result"
                ));
            }
            pairs += radar[i].len() + eyes[i].len();
        }
        out.push(Scenario {
            name: format!("perception/sphere+cone/{label}"),
            ours_ms,
            peer: "article 000 all-pairs".into(),
            peer_ms,
            note: format!(
                "ms per sense stage, {n} agents, sphere r={RADAR} + cone {EYES}/{FOV_DEG}°, \
                 {:.1} percepts per agent, rayon threads {}; results checked equal",
                pairs as f64 / n as f64,
                rayon::current_num_threads()
            ),
        });
    }
    out.extend(trees(effort)?);
    out.push(occlusion(effort)?);
    Ok(out)
}

/// The scene's side length for `n` agents with `neighbours` within the cone.
fn side(n: usize, neighbours: f32) -> f32 {
    (n as f32 * std::f32::consts::PI * EYES * EYES / neighbours).sqrt()
}

/// Per agent, the ids its radar and eyes sense.
#[derive(Default)]
struct Lists {
    radar: Vec<Vec<u32>>,
    eyes: Vec<Vec<u32>>,
}

impl Lists {
    fn new(n: usize) -> Self {
        Self {
            radar: vec![Vec::new(); n],
            eyes: vec![Vec::new(); n],
        }
    }

    /// Fills every agent's lists in parallel: `query(i, visit)` calls `visit`
    /// with each candidate near agent `i`, which then gets kiai's exact
    /// tests (the scene's compiled shapes, and with `walls` a ray against
    /// every wall for the eyes).
    fn fill(
        &mut self,
        world: &World,
        walls: Option<&[Wall]>,
        query: impl Fn(usize, &mut dyn FnMut(u32)) + Sync,
    ) {
        let pos = world.agents().positions();
        let facing = world.agents().facings();
        let radar = Shape::Sphere { radius: RADAR }.compile();
        let eyes = Shape::Cone {
            range: EYES,
            fov_deg: FOV_DEG,
        }
        .compile();
        self.radar
            .par_iter_mut()
            .zip(self.eyes.par_iter_mut())
            .enumerate()
            .for_each(|(i, (r, e))| {
                r.clear();
                e.clear();
                let (eye, f) = (pos[i], facing[i]);
                query(i, &mut |j| {
                    if j as usize == i {
                        return;
                    }
                    let p = pos[j as usize];
                    if radar.contains(eye, f, p) {
                        r.push(j);
                    }
                    if eyes.contains(eye, f, p) && walls.is_none_or(|w| !blocks_brute(w, eye, p)) {
                        e.push(j);
                    }
                });
                r.sort_unstable();
                e.sort_unstable();
            });
    }

    /// Whether kiai's percepts equal these lists; the first agent that
    /// differs otherwise.
    fn check(&self, world: &World) -> Result<usize, usize> {
        let mut pairs = 0;
        for i in 0..self.radar.len() {
            let id = AgentId::from_index(i);
            let same = |s: usize, l: &[u32]| {
                world
                    .percepts()
                    .sensed(id, s)
                    .iter()
                    .map(|a| a.slot())
                    .eq(l.iter().copied())
            };
            if !same(0, &self.radar[i]) || !same(1, &self.eyes[i]) {
                return Err(i);
            }
            pairs += self.radar[i].len() + self.eyes[i].len();
        }
        Ok(pairs)
    }
}

/// Squared query radius for the trees: the cone's range, padded as kiai
/// pads its grid query (the exact tests decide).
fn query_sq() -> f32 {
    let r = EYES + EYES * 1e-5 + 1e-5;
    r * r
}

/// A `kiddo` k-d tree over the agents' X-Z positions, rebuilt, and queried
/// for every agent.
fn kiddo_tick(world: &World, lists: &mut Lists, walls: Option<&[Wall]>) {
    use kiddo::{ImmutableKdTree, SquaredEuclidean};
    let points: Vec<[f32; 2]> = world
        .agents()
        .positions()
        .iter()
        .map(|p| [p.x, p.z])
        .collect();
    let Ok(tree) = ImmutableKdTree::<f32, 2>::new_from_slice(&points) else {
        return;
    };
    let r2 = query_sq();
    lists.fill(world, walls, |i, visit| {
        tree.query(&points[i])
            .within::<SquaredEuclidean<f32>>(r2)
            .unsorted()
            .visit(|hit| visit(hit.item));
    });
}

/// An `rstar` R-tree over the agents' X-Z positions, bulk-loaded, and
/// queried for every agent.
fn rstar_tick(world: &World, lists: &mut Lists) {
    use rstar::RTree;
    use rstar::primitives::GeomWithData;
    let points: Vec<GeomWithData<[f32; 2], u32>> = world
        .agents()
        .positions()
        .iter()
        .enumerate()
        .map(|(i, p)| GeomWithData::new([p.x, p.z], i as u32))
        .collect();
    let tree = RTree::bulk_load(points);
    let pos = world.agents().positions();
    let r2 = query_sq();
    lists.fill(world, None, |i, visit| {
        for hit in tree.locate_within_distance([pos[i].x, pos[i].z], r2) {
            visit(hit.data);
        }
    });
}

/// 100k agents: kiai's sense stage against rebuilding and querying a k-d
/// tree (kiddo) and an R-tree (rstar) each tick, interleaved; one scenario
/// per tree.
fn trees(effort: Effort) -> Result<Vec<Scenario>, String> {
    let n = if effort.quick { 20_000 } else { 100_000 };
    let label = if effort.quick { "20k" } else { "100k" };
    let mut world = scene(n, 30.0, 1)?;
    let mut pipeline = Pipeline::new();
    let mut kd = Lists::new(n);
    let mut rs = Lists::new(n);
    pipeline.sense(&mut world);
    kiddo_tick(&world, &mut kd, None);
    rstar_tick(&world, &mut rs);
    let pairs = kd
        .check(&world)
        .map_err(|i| format!("perception/{label}: agent {i} differs from kiddo's result"))?;
    rs.check(&world)
        .map_err(|i| format!("perception/{label}: agent {i} differs from rstar's result"))?;
    let est = once_ms(|| rstar_tick(&world, &mut rs));
    let reps = effort
        .reps(est * 3.0)
        .min(if effort.quick { 5 } else { 21 });
    let ms = medians_interleaved(reps, 3, |k| match k {
        0 => pipeline.sense(&mut world),
        1 => kiddo_tick(&world, &mut kd, None),
        _ => rstar_tick(&world, &mut rs),
    });
    let note = |other: &str, other_ms: f64| {
        format!(
            "ms per sense stage, {n} agents, {:.1} percepts per agent, rayon threads {}; \
             the tree is rebuilt and queried every tick and kiai's exact tests run on its \
             candidates, in parallel; results checked equal; interleaved with {other} \
             ({other_ms:.2} ms)",
            pairs as f64 / n as f64,
            rayon::current_num_threads(),
        )
    };
    Ok(vec![
        Scenario {
            name: format!("perception/sphere+cone/{label}"),
            ours_ms: ms[0],
            peer: "kiddo rebuild+query".into(),
            peer_ms: ms[1],
            note: note("rstar", ms[2]),
        },
        Scenario {
            name: format!("perception/sphere+cone/{label}/rstar"),
            ours_ms: ms[0],
            peer: "rstar bulk_load+query".into(),
            peer_ms: ms[2],
            note: note("kiddo", ms[1]),
        },
    ])
}

/// `count` walls of 4 to 20 units, 3 high, anywhere on a square of `side`.
pub fn random_walls(count: usize, side: f32, seed: u64) -> Vec<Wall> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let from = Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
            let angle = rng.random_range(0.0..std::f32::consts::TAU);
            let len = rng.random_range(4.0..20.0);
            Wall::new(from, from + Vec2::from_angle(angle) * len, 3.0)
        })
        .collect()
}

/// 10k agents whose eyes are occluded by 500 walls: kiai's sense stage
/// (walls in a grid, rays walk it) against the same candidates from a k-d
/// tree with every wall tested per ray.
fn occlusion(effort: Effort) -> Result<Scenario, String> {
    let (n, walls_n) = (10_000, 500);
    let mut world = scene_with(n, 30.0, 1, true)?;
    let walls = random_walls(walls_n, side(n, 30.0), 2);
    world.set_occluders(Occluders {
        walls: Walls::build(walls.clone(), None),
        pvs: None,
    });
    let mut pipeline = Pipeline::new();
    let mut kd = Lists::new(n);
    pipeline.sense(&mut world);
    kiddo_tick(&world, &mut kd, Some(&walls));
    let pairs = kd
        .check(&world)
        .map_err(|i| format!("perception/occluded: agent {i} differs from the brute-force rays"))?;
    let rays = world.percepts().rays();
    let est = once_ms(|| kiddo_tick(&world, &mut kd, Some(&walls)));
    let reps = effort
        .reps(est * 2.0)
        .min(if effort.quick { 3 } else { 15 });
    let ms = medians_interleaved(reps, 2, |k| match k {
        0 => pipeline.sense(&mut world),
        _ => kiddo_tick(&world, &mut kd, Some(&walls)),
    });
    Ok(Scenario {
        name: "perception/sphere+occluded-cone/10k+500walls".into(),
        ours_ms: ms[0],
        peer: "kiddo query + blocks_brute rays".into(),
        peer_ms: ms[1],
        note: format!(
            "ms per sense stage, {n} agents, {walls_n} walls (4-20 long, random), \
             {rays} rays per tick, {:.1} percepts per agent, rayon threads {}; \
             results checked equal",
            pairs as f64 / n as f64,
            rayon::current_num_threads()
        ),
    })
}

/// Nanoseconds on CPU of all threads of this process (Linux, from
/// /proc/self/task/*/schedstat; 0 elsewhere).
pub fn cpu_ns() -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    dir.filter_map(|e| {
        let text = std::fs::read_to_string(e.ok()?.path().join("schedstat")).ok()?;
        text.split_whitespace().next()?.parse::<u64>().ok()
    })
    .sum()
}

/// Times of the sense stage alone over some ticks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SenseTiming {
    /// Median wall time per tick, ms.
    pub median_ms: f64,
    /// Fastest tick, ms.
    pub min_ms: f64,
    /// CPU time of all threads per tick, ms (a loaded machine disturbs it
    /// less than the wall clock).
    pub cpu_ms: f64,
}

/// Runs the sense stage once to warm up, then `ticks` (>= 1) times, timed.
pub fn time_sense(world: &mut kiai_core::World, ticks: usize) -> SenseTiming {
    let ticks = ticks.max(1);
    let mut pipeline = kiai_core::Pipeline::new();
    pipeline.sense(world);
    let mut times = Vec::with_capacity(ticks);
    let cpu0 = cpu_ns();
    for _ in 0..ticks {
        let t = std::time::Instant::now();
        pipeline.sense(world);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let cpu_ms = cpu_ns().saturating_sub(cpu0) as f64 / 1e6 / ticks as f64;
    times.sort_by(f64::total_cmp);
    SenseTiming {
        median_ms: times[times.len() / 2],
        min_ms: times[0],
        cpu_ms,
    }
}
