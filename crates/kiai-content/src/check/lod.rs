//! The value rules of the tick level of detail: an archetype's `lod` tiers
//! (kiai-core's [`LodTier::check_list`], each problem placed at its field)
//! and the points of interest. Shared by text content and packs.

use kiai_core::{LodTier, MAX_LOD_PERIOD, MAX_LOD_TIERS};

use super::rules::Checker;
use crate::format::def::{LodTierDef, Vec3Def, lod_tiers};

impl Checker<'_> {
    /// Archetype `i`'s tiers: at most [`MAX_LOD_TIERS`], periods 1 to
    /// [`MAX_LOD_PERIOD`], `within` finite, > 0 and increasing, only the
    /// last tier without it.
    pub(crate) fn lod(&mut self, i: usize, tiers: &[LodTierDef]) {
        if tiers.is_empty() {
            return;
        }
        let base = format!("archetypes{{{i}}}.lod");
        let before = self.out.len();
        if tiers.len() > MAX_LOD_TIERS {
            self.error(
                &format!("{base}[{MAX_LOD_TIERS}]"),
                format!(
                    "at most {MAX_LOD_TIERS} lod tiers, not {}; merge tiers",
                    tiers.len()
                ),
            );
        }
        let mut last: Option<f32> = None;
        for (k, t) in tiers.iter().enumerate() {
            let path = format!("{base}[{k}]");
            if !(1..=MAX_LOD_PERIOD).contains(&t.every) {
                self.error(
                    &format!("{path}.every"),
                    format!("every must be 1 to {MAX_LOD_PERIOD} ticks, not {}", t.every),
                );
            }
            match t.within {
                Some(w) => {
                    self.within(&format!("{path}.within"), w, last);
                    last = Some(w);
                }
                None if k + 1 != tiers.len() => self.error(
                    &path,
                    format!(
                        "only the last lod tier may leave out `within`; give tier {k} a `within` distance"
                    ),
                ),
                None => {}
            }
        }
        // The runtime's own rules, should they ever say more than the above.
        if self.out.len() == before
            && let Err(e) = LodTier::check_list(&lod_tiers(tiers))
        {
            self.error(&base, format!("lod: {e}"));
        }
    }

    /// A tier's `within`: finite, > 0 and beyond the tier before's.
    fn within(&mut self, path: &str, w: f32, before: Option<f32>) {
        if !w.is_finite() || w <= 0.0 {
            self.positive(path, "within", w);
        } else if let Some(b) = before.filter(|&b| w <= b) {
            self.error(
                path,
                format!(
                    "within ({w}) must be larger than the tier before's ({b}): tiers go from near to far"
                ),
            );
        }
    }

    /// The fixed points of interest: finite.
    pub(crate) fn interest(&mut self, points: &[Vec3Def]) {
        for (k, &p) in points.iter().enumerate() {
            self.finite3(&format!("interest[{k}]"), "a point of interest", p);
        }
    }
}
