//! The tick level of detail of a pack: each archetype's tiers and the
//! points of interest, in a section of their own at the end of the body
//! (pack version 7), so that version 6 packs, which end before it, still
//! load (without level of detail, as they were made).

use serde::{Deserialize, Serialize};

use super::{Pack, PackError, invalid};
use crate::format::def::{ContentDef, LodTierDef, Vec3Def};

/// The tick level of detail of a pack ([`Pack::lod`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PackLod {
    /// Per archetype, by index into [`Pack::archetypes`], its tiers
    /// (nearest first); empty when no archetype has any.
    pub tiers: Vec<Vec<LodTierDef>>,
    /// Indices into [`Pack::agents`] of the agents that are points of
    /// interest, ascending.
    pub interest_agents: Vec<u32>,
    /// Fixed points of interest, world units.
    pub interest: Vec<Vec3Def>,
}

impl PackLod {
    /// The level of detail of `def`, whose archetypes and agents are in
    /// file order.
    pub(crate) fn from_def(def: &ContentDef) -> Self {
        let any = def.archetypes.iter().any(|(_, a)| !a.lod.is_empty());
        Self {
            tiers: if any {
                def.archetypes.iter().map(|(_, a)| a.lod.clone()).collect()
            } else {
                Vec::new()
            },
            interest_agents: (0u32..)
                .zip(&def.agents)
                .filter(|(_, a)| a.interest)
                .map(|(i, _)| i)
                .collect(),
            interest: def.interest.clone(),
        }
    }

    /// The tiers of archetype `i` (empty: none).
    pub(crate) fn tiers_of(&self, i: usize) -> &[LodTierDef] {
        self.tiers.get(i).map_or(&[], Vec::as_slice)
    }

    /// Whether agent `i` is a point of interest.
    pub(crate) fn is_interest(&self, i: usize) -> bool {
        u32::try_from(i).is_ok_and(|i| self.interest_agents.binary_search(&i).is_ok())
    }
}

impl Pack {
    /// The level of detail's structure: one tier list per archetype (or
    /// none), agent indices in range and ascending.
    pub(crate) fn check_lod(&self) -> Result<(), PackError> {
        let (tiers, archetypes) = (self.lod.tiers.len(), self.archetypes.len());
        if tiers != 0 && tiers != archetypes {
            return Err(invalid(format!(
                "lod has tiers for {tiers} archetypes, not for none or all {archetypes}"
            )));
        }
        let agents = self.agents.len();
        let mut last: Option<u32> = None;
        for &i in &self.lod.interest_agents {
            if i as usize >= agents || last.is_some_and(|l| l >= i) {
                return Err(invalid(format!(
                    "lod interest agent index {i} out of range (0..{agents}) or out of order"
                )));
            }
            last = Some(i);
        }
        Ok(())
    }
}
