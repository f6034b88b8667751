//! Fog of war: kiai-fog's incremental grid against naive recomputation.
//!
//! Every scenario runs the same deterministic random walk through both and
//! checks that counters, visible masks and explored masks agree tile for
//! tile at the end. The peers restate the visibility rule of
//! [`kiai_fog::template`] themselves (they use only kiai-fog's public API).

use std::time::Instant;

use kiai_fog::{
    FactionId, FogConfig, FogEvent, FogGrid, GridSpec, Pose, SightShape, TilePos, UnitDesc, UnitId,
    direction_bucket,
};

use crate::{Effort, Scenario};

const SIDE: u32 = 512;
const UNITS: u32 = 2_000;
const FACTIONS: u8 = 8;
const RADIUS: f32 = 8.0;
const BUCKETS: u16 = 32;
/// World units per tick with 1-unit tiles: a unit changes tile about every 3 ticks.
const SPEED: f32 = 0.3;
/// Seed of the units' walk.
const WALK_SEED: u64 = 0x6b69_6169;
/// Seed of the wall segments.
const WALL_SEED: u64 = 0x77_616c6c;

/// The fog scenarios (quick: fewer ticks). Times are median milliseconds per
/// tick. Fails when kiai's grid and a peer's disagree on a tile.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let ticks = if effort.quick { 40 } else { 300 };
    let circle = SightShape::Circle;
    let flashlight = SightShape::Flashlight { fov_deg: 90.0 };
    Ok(vec![
        run(&Setup {
            name: "fog circle",
            shape: circle,
            walls: false,
            ticks,
        })?,
        run(&Setup {
            name: "fog flashlight 90deg/32 buckets",
            shape: flashlight,
            walls: false,
            ticks,
        })?,
        run(&Setup {
            name: "fog circle + occlusion",
            shape: circle,
            walls: true,
            ticks: ticks / 4,
        })?,
        run_every_tile_every_unit(if effort.quick { 2 } else { 5 })?,
    ])
}

struct Setup {
    name: &'static str,
    shape: SightShape,
    walls: bool,
    ticks: usize,
}

/// SplitMix64: a tiny deterministic generator.
struct SplitMix(u64);

impl SplitMix {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// `ticks + 1` rows of poses (row 0 = spawn): a seeded random walk with
/// turning, bouncing off edges.
fn trajectories(ticks: usize, seed: u64) -> Vec<Vec<Pose>> {
    let mut rng = SplitMix(seed);
    let side = SIDE as f32;
    let mut poses: Vec<Pose> = (0..UNITS)
        .map(|_| {
            Pose::new(
                [rng.unit() * side, rng.unit() * side],
                rng.unit() * std::f32::consts::TAU,
            )
        })
        .collect();
    let mut out = vec![poses.clone()];
    for _ in 0..ticks {
        for p in &mut poses {
            p.facing += (rng.unit() - 0.5) * 0.6;
            let (s, c) = p.facing.sin_cos();
            let mut next = [p.pos[0] + c * SPEED, p.pos[1] + s * SPEED];
            if !(0.0..side).contains(&next[0]) {
                p.facing = std::f32::consts::PI - p.facing;
                next[0] = p.pos[0];
            }
            if !(0.0..side).contains(&next[1]) {
                p.facing = -p.facing;
                next[1] = p.pos[1];
            }
            p.pos = next;
        }
        out.push(poses.clone());
    }
    out
}

/// Short random wall segments covering about 4% of the map.
fn walls(seed: u64) -> Vec<TilePos> {
    let mut rng = SplitMix(seed);
    let mut out = Vec::new();
    for _ in 0..(SIDE * SIDE / 200) {
        let (x, z) = (
            (rng.next_u64() % u64::from(SIDE)) as u32,
            (rng.next_u64() % u64::from(SIDE)) as u32,
        );
        let horizontal = rng.next_u64() & 1 == 0;
        for i in 0..8 {
            let t = if horizontal {
                TilePos::new(x + i, z)
            } else {
                TilePos::new(x, z + i)
            };
            if t.x < SIDE && t.z < SIDE {
                out.push(t);
            }
        }
    }
    out
}

/// The median of per-tick times (robust to other processes on a shared machine).
fn median(ms: &mut [f64]) -> f64 {
    ms.sort_by(f64::total_cmp);
    ms.get(ms.len() / 2).copied().unwrap_or(0.0)
}

/// The rule's integer bound on `dx² + dz²` for a sight radius in tiles:
/// `floor(r * r)` (kiai-fog's module docs).
fn reach_sq(radius: f32) -> u32 {
    (radius * radius).floor() as u32
}

/// Whether the closed segment `(0, 0)-(dx, dz)` meets the open unit square
/// centred on `(a, b)` (the occlusion rule of kiai-fog's module docs), by a
/// separating-axis test in doubled, integral coordinates.
fn segment_meets_open_square(dx: i32, dz: i32, a: i32, b: i32) -> bool {
    let (dx, dz, a, b) = (i64::from(dx), i64::from(dz), i64::from(a), i64::from(b));
    let (sx, sz, ca, cb) = (2 * dx, 2 * dz, 2 * a, 2 * b);
    let overlap = |s: i64, c: i64| s.max(0) > c - 1 && s.min(0) < c + 1;
    let normal = (-dz * ca + dx * cb).abs() < dx.abs() + dz.abs();
    overlap(sx, ca) && overlap(sz, cb) && normal
}

/// kiai's side: a fog grid driven by `set_pose` and `drain_events_into`.
/// Returns the grid, the per-tick times and the number of events.
fn run_ours(
    spec: GridSpec,
    config: FogConfig,
    units: &[UnitDesc],
    walls: &[TilePos],
    traj: &[Vec<Pose>],
) -> Result<(FogGrid, Vec<f64>, usize), String> {
    let mut fog = FogGrid::new(spec, config).map_err(|e| format!("fog grid: {e}"))?;
    for &t in walls {
        fog.set_blocking(t, true);
    }
    for (i, (u, p)) in units.iter().zip(&traj[0]).enumerate() {
        fog.add_unit(UnitId(i as u32), *u, *p)
            .map_err(|e| format!("fog unit {i}: {e}"))?;
    }
    let mut events = Vec::new();
    fog.drain_events_into(&mut events);
    let mut count = 0usize;
    let mut times = Vec::with_capacity(traj.len());
    for poses in &traj[1..] {
        let start = Instant::now();
        for (i, p) in poses.iter().enumerate() {
            let moved = fog.set_pose(UnitId(i as u32), *p);
            debug_assert!(moved.is_ok());
        }
        events.clear();
        fog.drain_events_into(&mut events);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        count += events.len();
    }
    Ok((fog, times, count))
}

/// Checks that `fog`'s counters and masks equal the peer's.
fn compare(fog: &FogGrid, naive: &Naive, name: &str) -> Result<(), String> {
    let masks: Vec<u32> = fog.visible_masks().map(|m| m.0).collect();
    let explored: Vec<u32> = fog.explored_masks().map(|m| m.0).collect();
    if masks != naive.mask {
        return Err(format!("{name}: visible masks differ"));
    }
    if explored != naive.explored {
        return Err(format!("{name}: explored masks differ"));
    }
    counters_equal(fog, &naive.counters, name)
}

/// Checks every counter of `fog` against `counters` (`faction * tiles + tile`).
fn counters_equal(fog: &FogGrid, counters: &[u16], name: &str) -> Result<(), String> {
    let spec = fog.spec();
    let tiles = spec.tile_count();
    for f in 0..FACTIONS {
        for t in 0..tiles {
            let tile = spec.tile_of_index(t);
            if fog.counter(tile, FactionId(f)) != counters[usize::from(f) * tiles + t] {
                return Err(format!(
                    "{name}: counter of faction {f} differs at tile ({}, {})",
                    tile.x, tile.z
                ));
            }
        }
    }
    Ok(())
}

fn run(setup: &Setup) -> Result<Scenario, String> {
    let spec = GridSpec::new(SIDE, SIDE, 1.0);
    let config = FogConfig {
        factions: FACTIONS,
        direction_buckets: BUCKETS,
        occlusion: setup.walls,
    };
    let traj = trajectories(setup.ticks, WALK_SEED);
    let units: Vec<UnitDesc> = (0..UNITS)
        .map(|i| UnitDesc {
            faction: FactionId((i % u32::from(FACTIONS)) as u8),
            sight_radius: RADIUS,
            shape: setup.shape,
        })
        .collect();
    let walls = if setup.walls {
        walls(WALL_SEED)
    } else {
        Vec::new()
    };
    let (fog, mut ours, events) = run_ours(spec, config, &units, &walls, &traj)?;
    let mut naive = Naive::new(&spec, &walls);
    let mut naive_events = Vec::new();
    naive.tick(&units, &traj[0], &spec, &mut naive_events);
    let mut peer = Vec::with_capacity(setup.ticks);
    for poses in &traj[1..] {
        let start = Instant::now();
        naive_events.clear();
        naive.tick(&units, poses, &spec, &mut naive_events);
        peer.push(start.elapsed().as_secs_f64() * 1e3);
    }
    compare(&fog, &naive, setup.name)?;
    Ok(Scenario {
        name: format!(
            "{} ({SIDE}x{SIDE} tiles, {UNITS} walking units, {FACTIONS} factions, r={RADIUS})",
            setup.name
        ),
        ours_ms: median(&mut ours),
        peer: "naive per-tile distance test, counters rebuilt from zero each tick".to_string(),
        peer_ms: median(&mut peer),
        note: note(setup, walls.len(), events),
    })
}

fn note(setup: &Setup, walls: usize, events: usize) -> String {
    let shape = match setup.shape {
        SightShape::Circle => "circle".to_string(),
        SightShape::Flashlight { fov_deg } => format!("flashlight {fov_deg}deg, {BUCKETS} buckets"),
    };
    let occl = if setup.walls {
        format!(", {walls} wall tiles, line-of-sight test")
    } else {
        String::new()
    };
    format!(
        "median ms per tick over {} ticks; {shape}{occl}; speed {SPEED} tiles/tick with turning. Ours: \
         set_pose for every unit (re-stamps only units that changed tile/bucket, per-row span \
         difference) + drain_events ({events} events). Peer: zero all {FACTIONS} counter \
         planes, test every tile in each unit's (2r+1)^2 square, rebuild masks and explored \
         from counters, diff each unit's seen-by mask. Counters, visible and explored masks \
         checked equal at the end.",
        setup.ticks
    )
}

/// The peer: every tick, zero all counters, then for each unit test every
/// tile of its bounding square by distance (and cone, and line of sight with
/// walls), then rebuild the masks from the counters and OR them into the
/// explored masks, then diff who sees each unit.
struct Naive {
    width: usize,
    tiles: usize,
    counters: Vec<u16>,
    mask: Vec<u32>,
    explored: Vec<u32>,
    blocking: Vec<bool>,
    seen: Vec<u32>,
}

impl Naive {
    fn new(spec: &GridSpec, walls: &[TilePos]) -> Self {
        let tiles = spec.tile_count();
        let mut blocking = Vec::new();
        if !walls.is_empty() {
            blocking = vec![false; tiles];
            for t in walls {
                blocking[spec.index(*t)] = true;
            }
        }
        Naive {
            width: spec.width as usize,
            tiles,
            counters: vec![0; tiles * usize::from(FACTIONS)],
            mask: vec![0; tiles],
            explored: vec![0; tiles],
            blocking,
            seen: vec![0; UNITS as usize],
        }
    }

    fn tick(
        &mut self,
        units: &[UnitDesc],
        poses: &[Pose],
        spec: &GridSpec,
        events: &mut Vec<FogEvent>,
    ) {
        self.counters.fill(0);
        for (u, p) in units.iter().zip(poses) {
            self.stamp(u, p, spec);
        }
        for t in 0..self.tiles {
            let mut m = 0;
            for f in 0..usize::from(FACTIONS) {
                if self.counters[f * self.tiles + t] > 0 {
                    m |= 1 << f;
                }
            }
            self.mask[t] = m;
            self.explored[t] |= m;
        }
        for (i, (u, p)) in units.iter().zip(poses).enumerate() {
            let t = spec.index(spec.tile_at_clamped(p.pos));
            let now = self.mask[t] & !u.faction.mask().0;
            if now != self.seen[i] {
                let by = FactionId((now ^ self.seen[i]).trailing_zeros() as u8);
                events.push(FogEvent::Spotted {
                    unit: UnitId(i as u32),
                    by,
                });
                self.seen[i] = now;
            }
        }
    }

    /// Counts the tiles one unit sees.
    fn stamp(&mut self, u: &UnitDesc, p: &Pose, spec: &GridSpec) {
        let (w, h) = (spec.width as i32, spec.height as i32);
        let t = spec.tile_at_clamped(p.pos);
        let (ux, uz) = (t.x as i32, t.z as i32);
        let r2 = reach_sq(u.sight_radius);
        let reach = f64::from(r2).sqrt() as i32;
        let bucket = direction_bucket(p.facing, BUCKETS);
        // The cone rule, with its trigonometry hoisted out of the tile loop.
        let theta = f64::from(bucket) * std::f64::consts::TAU / f64::from(BUCKETS);
        let (sin, cos) = theta.sin_cos();
        let cos_half = match u.shape {
            SightShape::Flashlight { fov_deg } if fov_deg < 360.0 => {
                Some((f64::from(fov_deg) / 2.0).to_radians().cos())
            }
            _ => None,
        };
        let plane = usize::from(u.faction.0) * self.tiles;
        for z in (uz - reach).max(0)..=(uz + reach).min(h - 1) {
            for x in (ux - reach).max(0)..=(ux + reach).min(w - 1) {
                let (dx, dz) = (x - ux, z - uz);
                if (dx * dx + dz * dz) as u32 > r2 {
                    continue;
                }
                if let Some(cos_half) = cos_half
                    && (dx, dz) != (0, 0)
                {
                    let dot = f64::from(dx) * cos + f64::from(dz) * sin;
                    let len = f64::from(dx * dx + dz * dz).sqrt();
                    if dot < len * cos_half - 1e-9 {
                        continue;
                    }
                }
                if !self.blocking.is_empty() && self.occluded(ux, uz, dx, dz) {
                    continue;
                }
                self.counters[plane + z as usize * self.width + x as usize] += 1;
            }
        }
    }

    fn occluded(&self, ux: i32, uz: i32, dx: i32, dz: i32) -> bool {
        for b in dz.min(0)..=dz.max(0) {
            for a in dx.min(0)..=dx.max(0) {
                let endpoint = (a == 0 && b == 0) || (a == dx && b == dz);
                let t = (uz + b) as usize * self.width + (ux + a) as usize;
                if !endpoint && self.blocking[t] && segment_meets_open_square(dx, dz, a, b) {
                    return true;
                }
            }
        }
        false
    }
}

/// The most literal naive fog: every tick, for every tile, test the distance
/// to every unit (`tiles x units` tests, no bounding boxes, no templates).
/// Few ticks, since one takes about a second.
fn run_every_tile_every_unit(ticks: usize) -> Result<Scenario, String> {
    let spec = GridSpec::new(SIDE, SIDE, 1.0);
    let traj = trajectories(ticks, WALK_SEED);
    let units: Vec<UnitDesc> = (0..UNITS)
        .map(|i| UnitDesc {
            faction: FactionId((i % u32::from(FACTIONS)) as u8),
            sight_radius: RADIUS,
            shape: SightShape::Circle,
        })
        .collect();
    let config = FogConfig {
        factions: FACTIONS,
        direction_buckets: BUCKETS,
        occlusion: false,
    };
    let (fog, mut ours, _) = run_ours(spec, config, &units, &[], &traj)?;
    let tiles = spec.tile_count();
    let r_sq = RADIUS * RADIUS;
    let mut counters = vec![0u16; tiles * usize::from(FACTIONS)];
    let mut peer = Vec::new();
    for poses in &traj[1..] {
        let start = Instant::now();
        let at: Vec<(i32, i32, usize)> = poses
            .iter()
            .zip(&units)
            .map(|(p, u)| {
                let t = spec.tile_at_clamped(p.pos);
                (t.x as i32, t.z as i32, usize::from(u.faction.0))
            })
            .collect();
        counters.fill(0);
        for z in 0..SIDE as i32 {
            for x in 0..SIDE as i32 {
                let t = z as usize * SIDE as usize + x as usize;
                for &(ux, uz, f) in &at {
                    let (dx, dz) = ((x - ux) as f32, (z - uz) as f32);
                    if dx * dx + dz * dz <= r_sq {
                        counters[f * tiles + t] += 1;
                    }
                }
            }
        }
        peer.push(start.elapsed().as_secs_f64() * 1e3);
    }
    counters_equal(&fog, &counters, "every-tile naive")?;
    Ok(Scenario {
        name: format!(
            "fog circle vs every-tile naive ({SIDE}x{SIDE} tiles, {UNITS} units, {FACTIONS} factions, r={RADIUS})"
        ),
        ours_ms: median(&mut ours),
        peer: "naive per-tile distance test over all units".to_string(),
        peer_ms: median(&mut peer),
        note: format!(
            "median ms per tick over {ticks} ticks. Peer: for every tile, test the distance to \
             every unit ({} tests per tick), counters rebuilt from zero. Same walk as `fog circle`; \
             counters checked equal.",
            tiles * UNITS as usize
        ),
    })
}
