//! Tick level of detail: an archetype's [`LodTier`]s, and the world's
//! [`Lod`] state (points of interest, each agent's tier, who thinks this
//! tick).
//!
//! An agent in a tier of period k senses, decides and plans its avoidance
//! on one tick in k, staggered by agent, and moves every tick on what it
//! last decided. The tier comes from the distance to the nearest point of
//! interest, with [`LOD_HYSTERESIS`].

use glam::Vec3;

use crate::data::AgentId;

/// Longest period of a tier, ticks.
pub const MAX_LOD_PERIOD: u32 = 1024;

/// Most tiers an archetype may have.
pub const MAX_LOD_TIERS: usize = 16;

/// An agent leaves its tier for a farther one only once it is this
/// fraction beyond the tier's `within` (0.1: 10% farther), so an agent on
/// a boundary does not flip between tiers every tick. It enters a nearer
/// tier as soon as it is within it.
pub const LOD_HYSTERESIS: f32 = 0.1;

/// One distance tier of an archetype's tick level of detail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LodTier {
    /// Agents whose nearest point of interest is at most this far, world
    /// units (> 0), are in this tier (the first tier that takes them);
    /// `None`: every distance (the last tier).
    pub within: Option<f32>,
    /// Senses, decides and plans avoidance every `every`-th tick, 1 to
    /// [`MAX_LOD_PERIOD`] (1: every tick).
    pub every: u32,
    /// Whether agents of this tier avoid others (when their archetype
    /// does); `false` turns local avoidance off in this tier.
    pub avoidance: bool,
}

impl LodTier {
    /// A tier of agents within `within` world units that think every
    /// `every` ticks, avoiding.
    pub fn new(within: Option<f32>, every: u32) -> Self {
        Self {
            within,
            every,
            avoidance: true,
        }
    }

    /// What is wrong with `tiers` as an archetype's list, if anything:
    /// periods in 1..=[`MAX_LOD_PERIOD`], `within` finite, > 0 and
    /// increasing, only the last tier without `within`, at most
    /// [`MAX_LOD_TIERS`].
    pub fn check_list(tiers: &[LodTier]) -> Result<(), String> {
        if tiers.len() > MAX_LOD_TIERS {
            return Err(format!("at most {MAX_LOD_TIERS} tiers"));
        }
        let mut last = 0.0f32;
        for (k, t) in tiers.iter().enumerate() {
            if !(1..=MAX_LOD_PERIOD).contains(&t.every) {
                return Err(format!(
                    "tier {k}: `every` must be 1 to {MAX_LOD_PERIOD} ticks"
                ));
            }
            match t.within {
                Some(w) if !(w.is_finite() && w > last) => {
                    return Err(format!(
                        "tier {k}: `within` must be finite and larger than the tier before ({last})"
                    ));
                }
                Some(w) => last = w,
                None if k + 1 != tiers.len() => {
                    return Err(format!(
                        "tier {k}: only the last tier may leave out `within`"
                    ));
                }
                None => {}
            }
        }
        Ok(())
    }

    /// The tier of `tiers` for an agent `distance` world units from the
    /// nearest point of interest that was in tier `current` (hysteresis:
    /// it moves out only past `within` plus [`LOD_HYSTERESIS`]).
    pub fn pick(tiers: &[LodTier], current: usize, distance: f32) -> usize {
        let by_distance = tiers
            .iter()
            .position(|t| t.within.is_none_or(|w| distance <= w))
            .unwrap_or(tiers.len().saturating_sub(1));
        if by_distance <= current {
            return by_distance;
        }
        // Farther: leave `current` only when clearly past its edge.
        let stay = tiers
            .get(current)
            .and_then(|t| t.within)
            .is_some_and(|w| distance <= w * (1.0 + LOD_HYSTERESIS));
        if stay { current } else { by_distance }
    }
}

/// Whether an agent at `pos` with a tier of period `every` thinks on
/// `tick`, when it last thought before tick `since` (0 when it has not
/// thought yet): one tick in `every`, at a
/// phase that depends on the square of side `cell` (world units, > 0) it
/// stands in, so that neighbours think in the same tick (the sense stage
/// loads each neighbourhood once for all of them); and at the latest
/// `every` ticks after it last thought (an agent that walked into a square
/// of a later phase).
pub(crate) fn due(pos: Vec3, cell: f32, every: u32, tick: u64, since: u64) -> bool {
    if every <= 1 || tick + 1 >= since + u64::from(every) {
        return true;
    }
    let (x, z) = (floor_i32(pos.x / cell), floor_i32(pos.z / cell));
    let key = (x as u32 as u64) << 32 | z as u32 as u64;
    let phase = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    (tick + phase).is_multiple_of(u64::from(every))
}

/// `v.floor() as i32`, without the library call `floor` is on x86-64
/// without SSE 4.1 (100k agents a tick); the same value for every `v`,
/// NaN and out-of-range values included (they saturate the same way).
fn floor_i32(v: f32) -> i32 {
    let t = v as i32;
    if (t as f32) > v {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// The world's tick level of detail. Empty (and free) until an archetype
/// has tiers.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lod {
    /// Points of interest the game set, world units.
    pub(crate) points: Vec<Vec3>,
    /// Agents that are points of interest where they stand.
    pub(crate) agents: Vec<AgentId>,
    /// Whether some archetype has a tier of period > 1: only then does
    /// anything here act (and enter the state hash).
    pub(crate) active: bool,
    /// Per slot, its tier (index into its archetype's list).
    pub(crate) tier: Vec<u8>,
    /// Per slot, whether it senses and decides this tick.
    pub(crate) thinks: Vec<bool>,
    /// Per slot, whether its tier thinks every tick (or it has no tiers).
    pub(crate) every_tick: Vec<bool>,
    /// Per slot, one more than the last tick it sensed and decided (0: it
    /// has not yet).
    pub(crate) thought_at: Vec<u64>,
}

impl Lod {
    /// A new agent moves into slot `i`: it has no tier and has not
    /// thought yet.
    pub(crate) fn forget(&mut self, i: usize) {
        if let Some(t) = self.tier.get_mut(i) {
            *t = u8::MAX;
        }
        if let Some(t) = self.thought_at.get_mut(i) {
            *t = 0;
        }
    }

    /// Whether slot `i` thinks this tick (always, when LOD is off).
    #[inline]
    pub(crate) fn thinks(&self, i: usize) -> bool {
        !self.active || self.thinks.get(i).copied().unwrap_or(true)
    }

    /// Per slot of `slots`, whether it thinks this tick; `None` when every
    /// agent does (or the tiers were not set for this many slots: agents
    /// spawned since the tick began think).
    pub(crate) fn thinking(&self, slots: usize) -> Option<&[bool]> {
        (self.active && self.thinks.len() == slots).then_some(&self.thinks[..])
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn mass() -> Vec<LodTier> {
        vec![
            LodTier::new(Some(50.0), 1),
            LodTier::new(Some(100.0), 5),
            LodTier::new(Some(300.0), 10),
            LodTier::new(None, 15),
        ]
    }

    #[test]
    fn floor_i32_is_floor_as_i32_everywhere() {
        let mut v = vec![
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            -0.0,
            0.0,
            2_147_483_520.0,
            2_147_483_648.0,
            -2_147_483_648.0,
            -2_147_483_904.0,
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(0x1234_5678);
        for _ in 0..100_000 {
            let x: u32 = rng.random();
            v.push(f32::from_bits(x));
            v.push((x as i32) as f32 / 1024.0);
        }
        for v in v {
            assert_eq!(floor_i32(v), v.floor() as i32, "{v:e}");
        }
    }

    #[test]
    fn tiers_by_distance_with_hysteresis_outward_only() {
        let t = mass();
        assert_eq!(LodTier::pick(&t, 0, 10.0), 0);
        assert_eq!(LodTier::pick(&t, 3, 10.0), 0, "inward at once");
        assert_eq!(LodTier::pick(&t, 0, 54.0), 0, "within 10% past 50");
        assert_eq!(LodTier::pick(&t, 0, 56.0), 1);
        assert_eq!(LodTier::pick(&t, 1, 1e9), 3);
        assert_eq!(LodTier::pick(&t, 0, f32::INFINITY), 3);
    }

    #[test]
    fn lists_are_checked() {
        assert!(LodTier::check_list(&mass()).is_ok());
        let mut bad = mass();
        bad[1].within = Some(20.0);
        assert!(LodTier::check_list(&bad).is_err());
        let mut bad = mass();
        bad[0].within = None;
        assert!(LodTier::check_list(&bad).is_err());
        let mut bad = mass();
        bad[2].every = 0;
        assert!(LodTier::check_list(&bad).is_err());
    }

    #[test]
    fn staggering_spreads_a_tier_evenly_and_never_skips_a_period() {
        for every in [2u32, 4, 15, 16] {
            let mut per_tick = vec![0usize; every as usize];
            for k in 0..10_000 {
                let pos = Vec3::new((k % 100) as f32 * 3.1, 0.0, (k / 100) as f32 * 2.9);
                for (t, n) in per_tick.iter_mut().enumerate() {
                    *n += usize::from(due(pos, 15.0, every, t as u64 + 100, t as u64 + 100));
                }
            }
            let mean = 10_000.0 / every as f64;
            for n in per_tick {
                assert!(
                    (n as f64 - mean).abs() < mean * 0.35,
                    "{every}: {n} vs {mean}"
                );
            }
        }
        // Overdue: thinks at the latest `every` ticks after it last did.
        let pos = Vec3::new(1.0, 0.0, 1.0);
        let Some(last) = (0..64).rev().find(|&t| due(pos, 15.0, 16, t, 0)) else {
            panic!("due once in 64 ticks");
        };
        assert!(due(pos, 15.0, 16, last + 16, last));
    }
}
