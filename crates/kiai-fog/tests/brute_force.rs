//! The incremental grid equals a brute-force per-tile recomputation after every operation,
//! and its events equal the brute-force difference of "who sees which unit" between drains.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::collections::BTreeSet;

use kiai_fog::{
    FactionId, FogConfig, FogEvent, FogGrid, GridSpec, Pose, SightShape, UnitDesc, UnitId,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What the test knows about a live unit.
#[derive(Clone, Copy, Debug)]
struct Live {
    id: UnitId,
    desc: UnitDesc,
    pose: Pose,
}

/// The brute-force world: per tile and faction counters, explored bits.
struct Brute {
    spec: GridSpec,
    factions: usize,
    buckets: u16,
    occlusion: bool,
    blocking: Vec<bool>,
    counters: Vec<u32>, // [tile * factions + f]
    explored: Vec<u32>,
}

/// The tile of a world position, clamped (restated from the docs: floor((p - origin) / size)).
fn tile_of(spec: &GridSpec, pos: [f32; 2]) -> (i32, i32) {
    let fx = ((pos[0] - spec.origin[0]) / spec.tile_size).floor();
    let fz = ((pos[1] - spec.origin[1]) / spec.tile_size).floor();
    let clamp = |v: f32, n: u32| -> i32 {
        if v.is_nan() || v < 0.0 {
            0
        } else if v >= n as f32 {
            n as i32 - 1
        } else {
            v as i32
        }
    };
    (clamp(fx, spec.width), clamp(fz, spec.height))
}

/// Separating-axis test: does the closed segment (0,0)-(dx,dz) meet the open unit square
/// centred on (a, b)? (Doubled coordinates keep everything integral.)
fn segment_meets_open_square(dx: i64, dz: i64, a: i64, b: i64) -> bool {
    let (sx, sz, ca, cb) = (2 * dx, 2 * dz, 2 * a, 2 * b);
    let overlap = |s: i64, c: i64| s.max(0) > c - 1 && s.min(0) < c + 1;
    let normal = (-dz * ca + dx * cb).abs() < dx.abs() + dz.abs();
    overlap(sx, ca) && overlap(sz, cb) && normal
}

impl Brute {
    fn sees(&self, u: &Live, dx: i32, dz: i32, ux: i32, uz: i32) -> bool {
        let r = u.desc.sight_radius;
        if (dx * dx + dz * dz) as f32 > r * r {
            return false;
        }
        if let SightShape::Flashlight { fov_deg } = u.desc.shape
            && (dx, dz) != (0, 0)
            && fov_deg < 360.0
        {
            let n = f64::from(self.buckets);
            let step = std::f64::consts::TAU / n;
            let b = (f64::from(u.pose.facing) / step).round().rem_euclid(n);
            let theta = b * std::f64::consts::TAU / n;
            let dot = f64::from(dx) * theta.cos() + f64::from(dz) * theta.sin();
            let len = f64::from(dx * dx + dz * dz).sqrt();
            if dot < len * (f64::from(fov_deg) / 2.0).to_radians().cos() - 1e-9 {
                return false;
            }
        }
        if self.occlusion {
            for b in dz.min(0)..=dz.max(0) {
                for a in dx.min(0)..=dx.max(0) {
                    if (a, b) == (0, 0) || (a, b) == (dx, dz) {
                        continue;
                    }
                    let t = (uz + b) as usize * self.spec.width as usize + (ux + a) as usize;
                    let crosses =
                        segment_meets_open_square(dx.into(), dz.into(), a.into(), b.into());
                    if self.blocking[t] && crosses {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Recomputes every counter from scratch and ORs the visible tiles into `explored`.
    fn recompute(&mut self, units: &[Live]) {
        self.counters.iter_mut().for_each(|c| *c = 0);
        let (w, h) = (self.spec.width as i32, self.spec.height as i32);
        for u in units {
            let (ux, uz) = tile_of(&self.spec, u.pose.pos);
            for z in 0..h {
                for x in 0..w {
                    if self.sees(u, x - ux, z - uz, ux, uz) {
                        let t = (z * w + x) as usize;
                        self.counters[t * self.factions + usize::from(u.desc.faction.0)] += 1;
                    }
                }
            }
        }
        for t in 0..self.explored.len() {
            self.explored[t] |= self.mask(t);
        }
    }

    fn mask(&self, t: usize) -> u32 {
        (0..self.factions)
            .filter(|&f| self.counters[t * self.factions + f] > 0)
            .fold(0, |m, f| m | 1 << f)
    }

    /// (unit, faction) pairs where the faction (not the unit's own) sees the unit's tile.
    fn seen_pairs(&self, units: &[Live]) -> BTreeSet<(UnitId, u8)> {
        let mut out = BTreeSet::new();
        for u in units {
            let (x, z) = tile_of(&self.spec, u.pose.pos);
            let m = self.mask((z * self.spec.width as i32 + x) as usize);
            for f in 0..self.factions as u8 {
                if m & (1 << f) != 0 && f != u.desc.faction.0 {
                    out.insert((u.id, f));
                }
            }
        }
        out
    }

    fn check(&self, fog: &FogGrid) -> Result<(), TestCaseError> {
        let mut visible = vec![0u32; self.factions];
        let mut explored = vec![0u32; self.factions];
        for t in 0..self.spec.tile_count() {
            let tile = self.spec.tile_of_index(t);
            let mask = self.mask(t);
            prop_assert_eq!(fog.visible_mask(tile).0, mask, "mask of {:?}", tile);
            prop_assert_eq!(
                fog.explored_mask(tile).0,
                self.explored[t],
                "explored of {:?}",
                tile
            );
            for f in 0..self.factions {
                let c = u32::from(fog.counter(tile, FactionId(f as u8)));
                prop_assert_eq!(
                    c,
                    self.counters[t * self.factions + f],
                    "counter of {:?} f{}",
                    tile,
                    f
                );
                visible[f] += (mask >> f) & 1;
                explored[f] += (self.explored[t] >> f) & 1;
            }
        }
        for f in 0..self.factions {
            prop_assert_eq!(fog.visible_tile_count(FactionId(f as u8)), visible[f]);
            prop_assert_eq!(fog.explored_tile_count(FactionId(f as u8)), explored[f]);
        }
        Ok(())
    }
}

fn random_desc(rng: &mut ChaCha8Rng, factions: u8) -> UnitDesc {
    let sight_radius = match rng.random_range(0..4) {
        0 => rng.random_range(0..6) as f32,
        1 => [1.5f32, 2.5, 5.0f32.sqrt(), 0.9][rng.random_range(0..4)],
        _ => rng.random_range(0.0f32..6.5),
    };
    let shape = match rng.random_range(0..3) {
        0 => SightShape::Circle,
        1 => SightShape::Flashlight {
            fov_deg: [30.0, 90.0, 120.0, 200.0, 360.0][rng.random_range(0..5)],
        },
        _ => SightShape::Flashlight {
            fov_deg: rng.random_range(1.0f32..360.0),
        },
    };
    UnitDesc {
        faction: FactionId(rng.random_range(0..factions)),
        sight_radius,
        shape,
    }
}

fn random_pos(rng: &mut ChaCha8Rng, spec: &GridSpec) -> [f32; 2] {
    let mut span = |o: f32, n: u32| {
        let lo = o - 2.0 * spec.tile_size;
        lo + rng.random_range(0.0f32..1.0) * (n as f32 + 4.0) * spec.tile_size
    };
    [
        span(spec.origin[0], spec.width),
        span(spec.origin[1], spec.height),
    ]
}

/// The events a drain must give: `Lost` for the (unit, faction) pairs seen before but not
/// now, `Spotted` for those seen now but not before, sorted by unit, then faction.
fn expected_events(
    seen_before: &BTreeSet<(UnitId, u8)>,
    seen_now: &BTreeSet<(UnitId, u8)>,
) -> Vec<FogEvent> {
    let mut expected: Vec<FogEvent> = Vec::new();
    for &(unit, f) in seen_before.difference(seen_now) {
        expected.push(FogEvent::Lost {
            unit,
            by: FactionId(f),
        });
    }
    for &(unit, f) in seen_now.difference(seen_before) {
        expected.push(FogEvent::Spotted {
            unit,
            by: FactionId(f),
        });
    }
    expected.sort_by_key(|e| (e.unit(), e.by()));
    expected
}

fn run_case(seed: u64, occlusion: bool) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let tile_size = [1.0f32, 0.5, 2.0][rng.random_range(0..3)];
    let spec = GridSpec::new(rng.random_range(6..20), rng.random_range(6..20), tile_size)
        .with_origin([
            rng.random_range(-5.0f32..5.0),
            rng.random_range(-5.0f32..5.0),
        ]);
    let factions = rng.random_range(1..5u8);
    let buckets = [4u16, 8, 16, 32][rng.random_range(0..4)];
    let config = FogConfig {
        factions,
        direction_buckets: buckets,
        occlusion,
    };
    let mut fog = FogGrid::new(spec, config).unwrap();
    let tiles = spec.tile_count();
    let nf = usize::from(factions);
    let mut brute = Brute {
        spec,
        factions: nf,
        buckets,
        occlusion,
        blocking: vec![false; tiles],
        counters: vec![0; tiles * nf],
        explored: vec![0; tiles],
    };
    let mut units: Vec<Live> = Vec::new();
    let mut next_id = 0u32;
    let mut seen_before = BTreeSet::new();

    for _tick in 0..25 {
        for _op in 0..rng.random_range(1..8) {
            match rng.random_range(0..10) {
                0 | 1 if units.len() < 10 => {
                    // Fresh ids only (sometimes large ones), so the event diff is unambiguous.
                    next_id += 1;
                    let id = UnitId(if rng.random_bool(0.2) {
                        next_id + 5_000_000
                    } else {
                        next_id
                    });
                    let desc = random_desc(&mut rng, factions);
                    let pose = Pose::new(
                        random_pos(&mut rng, &spec),
                        rng.random_range(-10.0f32..10.0),
                    );
                    fog.add_unit(id, desc, pose).unwrap();
                    units.push(Live { id, desc, pose });
                }
                2 if !units.is_empty() => {
                    let i = rng.random_range(0..units.len());
                    let u = units.swap_remove(i);
                    prop_assert_eq!(fog.remove_unit(u.id), Some(u.desc));
                }
                3 if occlusion => {
                    let t = spec.tile_of_index(rng.random_range(0..tiles));
                    let b = rng.random_bool(0.6);
                    fog.set_blocking(t, b);
                    brute.blocking[spec.index(t)] = b;
                }
                _ if !units.is_empty() => {
                    let i = rng.random_range(0..units.len());
                    let u = &mut units[i];
                    if rng.random_bool(0.7) {
                        // Walk a little (often within the tile, sometimes across), and turn.
                        let step = 0.7 * spec.tile_size;
                        u.pose.pos[0] += rng.random_range(-step..step);
                        u.pose.pos[1] += rng.random_range(-step..step);
                        u.pose.facing += rng.random_range(-0.8f32..0.8);
                    } else {
                        u.pose = Pose::new(
                            random_pos(&mut rng, &spec),
                            rng.random_range(-10.0f32..10.0),
                        );
                    }
                    fog.set_pose(u.id, u.pose).unwrap();
                }
                _ => {}
            }
            brute.recompute(&units);
            brute.check(&fog)?;
        }
        // Events: the brute-force difference since the last drain.
        let seen_now = brute.seen_pairs(&units);
        prop_assert_eq!(fog.drain_events(), expected_events(&seen_before, &seen_now));
        seen_before = seen_now;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn grid_equals_brute_force_open(seed in any::<u64>()) {
        run_case(seed, false)?;
    }

    #[test]
    fn grid_equals_brute_force_with_blocking_tiles(seed in any::<u64>()) {
        run_case(seed, true)?;
    }
}
