//! Tick level of detail: an archetype's distance tiers (`lod`), and the
//! points of interest they are measured from (the top-level `interest`
//! list and agents marked `interest: true`).

use serde::{Deserialize, Serialize};

/// One distance tier of an archetype's tick level of detail, written
/// `(within: 50.0, every: 1)`; the last tier may leave out `within`
/// (`(every: 16)`: every farther agent).
///
/// Packs encode it, so every field is serialised; the text writer leaves
/// the defaults out itself.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LodTierDef {
    /// Agents whose nearest point of interest is at most this far, world
    /// units (finite, > 0, larger than the tier before), are in this tier;
    /// default: every distance (only the last tier may leave it out).
    #[serde(default)]
    pub within: Option<f32>,
    /// Agents of this tier sense, decide and plan avoidance every
    /// `every`-th tick, 1 to 1024 (1: every tick); they move every tick.
    pub every: u32,
    /// Whether agents of this tier avoid others (when their archetype has
    /// `avoidance`); default true.
    #[serde(default = "yes")]
    pub avoidance: bool,
}

fn yes() -> bool {
    true
}

impl LodTierDef {
    /// The runtime tier.
    pub fn tier(&self) -> kiai_core::LodTier {
        kiai_core::LodTier {
            within: self.within,
            every: self.every,
            avoidance: self.avoidance,
        }
    }
}

/// The runtime tiers of `defs`, nearest first.
pub fn lod_tiers(defs: &[LodTierDef]) -> Vec<kiai_core::LodTier> {
    defs.iter().map(LodTierDef::tier).collect()
}
