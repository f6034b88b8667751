//! What a pack can still get wrong once its checksum matched.
//!
//! A pack is written by `kiai export` from validated content: its names are
//! resolved and its structure decoded, so it is not validated again like
//! text. The checksum is not a signature, though, so a pack is checked for
//! everything that would make building or running it misbehave: every
//! index in range and every count within the content limits
//! ([`Pack::check`], run by [`Pack::decode`]), and the value rules of
//! content, the same functions text content is validated with (finite
//! numbers, positive sizes, ranges: [`value_errors`]). Both are single
//! passes without allocation per element.

use super::{Pack, PackArchetype, PackError, invalid};
use crate::check::rules::{ArchetypeValues, Checker, Scene, archetype_values};
use crate::format::diag::Diagnostic;
use crate::format::limits::{
    MAX_AGENTS, MAX_ARCHETYPES, MAX_BLOCKING_TILES, MAX_COST_LISTS, MAX_LINKS, MAX_NAME_BYTES,
    MAX_PROFILES, MAX_SENSES, MAX_WAYPOINTS,
};
use crate::format::locate::SpanIndex;

/// `Err` naming `what` and the largest of `indices` that is not below `len`.
/// A tight loop: it runs over every link of a large map.
fn all_in_range(
    what: &str,
    indices: impl IntoIterator<Item = u32>,
    len: usize,
) -> Result<(), PackError> {
    let worst = indices
        .into_iter()
        .filter(|&i| i as usize >= len)
        .fold(None, |worst: Option<u32>, i| {
            Some(worst.map_or(i, |w| w.max(i)))
        });
    match worst {
        Some(i) => Err(invalid(format!("{what} index {i} out of range (0..{len})"))),
        None => Ok(()),
    }
}

impl<'a> From<&'a PackArchetype> for ArchetypeValues<'a> {
    fn from(a: &'a PackArchetype) -> Self {
        archetype_values!(a)
    }
}

impl Pack {
    /// Checks the structure: counts within the content limits, names not
    /// longer than the limit, one cost per link and cost list, every index
    /// in range. [`Pack::decode`] runs it; the value rules are checked when
    /// content or a world is made from the pack.
    pub fn check(&self) -> Result<(), PackError> {
        self.check_counts()?;
        self.check_names()?;
        self.check_lod()?;
        let (factions, waypoints) = (self.factions.len(), self.waypoints.len());
        let hostile = self.factions.iter().flat_map(|f| f.hostile.iter().copied());
        all_in_range("faction", hostile, factions)?;
        let ends = self.links.iter().map(|l| l.from.max(l.to));
        all_in_range("waypoint", ends, waypoints)?;
        let lists = self.cost_lists.len();
        if Some(self.link_costs.len()) != self.links.len().checked_mul(lists) {
            return Err(invalid(format!(
                "{} link costs for {} links and {lists} cost lists",
                self.link_costs.len(),
                self.links.len()
            )));
        }
        let profiles = self.archetypes.iter().filter_map(|a| a.profile);
        all_in_range("profile", profiles, self.profiles.len())?;
        let cost_lists = self.archetypes.iter().filter_map(|a| a.cost_list);
        all_in_range("cost list", cost_lists, lists)?;
        let archetypes = self.agents.iter().map(|a| a.archetype);
        all_in_range("archetype", archetypes, self.archetypes.len())?;
        let agent_factions = self.agents.iter().map(|a| a.faction);
        all_in_range("faction", agent_factions, factions)?;
        let seen = self
            .regions
            .iter()
            .flat_map(|r| r.sees.iter().flatten().copied());
        all_in_range("region", seen, self.regions.len())?;
        let sources = self.sounds.iter().filter_map(|s| s.source);
        all_in_range("agent", sources, self.agents.len())
    }

    /// Section sizes against the content limits.
    fn check_counts(&self) -> Result<(), PackError> {
        let blocking = self.fog.as_ref().map_or(0, |f| f.blocking.len());
        let limits = [
            ("waypoints", self.waypoints.len(), MAX_WAYPOINTS),
            ("links", self.links.len(), 2 * MAX_LINKS),
            ("agents", self.agents.len(), MAX_AGENTS),
            ("cost lists", self.cost_lists.len(), MAX_COST_LISTS),
            ("factions", self.factions.len(), kiai_core::MAX_FACTIONS),
            ("archetypes", self.archetypes.len(), MAX_ARCHETYPES),
            ("profiles", self.profiles.len(), MAX_PROFILES),
            ("blocking tiles", blocking, MAX_BLOCKING_TILES),
        ];
        for (what, n, max) in limits {
            if n > max {
                return Err(invalid(format!("{n} {what}; at most {max} are allowed")));
            }
        }
        if self.cost_lists.is_empty() {
            return Err(invalid("a pack has at least one cost list".to_owned()));
        }
        for a in &self.archetypes {
            if a.senses.len() > MAX_SENSES {
                return Err(invalid(format!(
                    "archetype `{}` has {} senses; at most {MAX_SENSES} are allowed",
                    a.name,
                    a.senses.len()
                )));
            }
        }
        Ok(())
    }

    /// Names and tags against [`MAX_NAME_BYTES`].
    fn check_names(&self) -> Result<(), PackError> {
        let longest = |names: &mut dyn Iterator<Item = &String>| names.map(String::len).max();
        let mut lengths = [
            longest(&mut std::iter::once(&self.name)),
            longest(&mut self.factions.iter().map(|f| &f.name)),
            longest(&mut self.cost_lists.iter()),
            longest(&mut self.profiles.iter().map(|p| &p.name)),
            longest(&mut self.archetypes.iter().map(|a| &a.name)),
            longest(
                &mut self
                    .archetypes
                    .iter()
                    .flat_map(|a| a.senses.iter().map(|s| &s.name)),
            ),
            longest(&mut self.agents.iter().map(|a| &a.name)),
            longest(&mut self.regions.iter().map(|r| &r.name)),
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(0);
        for w in &self.waypoints {
            if let Some(n) = &w.name {
                lengths = lengths.max(n.len());
            }
            for t in &w.tags {
                lengths = lengths.max(t.len());
            }
        }
        if lengths > MAX_NAME_BYTES {
            return Err(invalid(format!(
                "a name is {lengths} bytes long; at most {MAX_NAME_BYTES} are allowed"
            )));
        }
        Ok(())
    }
}

/// Every error the value rules of content find in `pack` (which must have
/// passed [`Pack::check`]), placed at 1:1 of `file`: the same rules and
/// messages as for text content, without the checks on names (a pack has
/// indices) and without warnings.
pub(crate) fn value_errors(pack: &Pack, file: &str) -> Vec<Diagnostic> {
    let spans = SpanIndex::default();
    let mut c = Checker::new(&spans, file);
    c.settings(
        pack.tick_seconds,
        pack.bounds,
        (pack.perception_budget, pack.nav),
    );
    // Per waypoint and per link cost: a branch-free pass first, the
    // per-element rules only when it finds a problem.
    let finite =
        |p: &crate::format::def::Vec3Def| p.0.is_finite() & p.1.is_finite() & p.2.is_finite();
    if !pack
        .waypoints
        .iter()
        .fold(true, |ok, w| ok & finite(&w.pos))
    {
        for (i, w) in pack.waypoints.iter().enumerate() {
            c.waypoint_pos(i, w.pos);
        }
    }
    let usable = |c: f32| c.is_finite() & (c >= 0.0);
    if !pack.link_costs.iter().fold(true, |ok, &k| ok & usable(k)) {
        let lists = pack.cost_lists.len().max(1);
        for (k, &cost) in pack.link_costs.iter().enumerate() {
            if !usable(cost) {
                c.non_negative(&format!("links[{}]", k / lists), "a cost multiplier", cost);
            }
        }
    }
    for (i, w) in pack.walls.iter().enumerate() {
        c.wall(i, w);
    }
    for (i, r) in pack.regions.iter().enumerate() {
        c.polygon(i, &r.polygon);
    }
    for (i, s) in pack.sounds.iter().enumerate() {
        c.sound(i, s.pos, s.volume);
    }
    let fog_tile = match &pack.fog {
        Some(fog) => c.fog(fog, pack.bounds, pack.factions.len()),
        None => None,
    };
    let scene = Scene {
        occluders: !(pack.walls.is_empty() && pack.regions.is_empty()),
        waypoints: !pack.waypoints.is_empty(),
        fog: pack.fog.is_some(),
        fog_tile,
    };
    for (i, p) in pack.profiles.iter().enumerate() {
        c.profile(i, &p.profile);
    }
    for (i, a) in pack.archetypes.iter().enumerate() {
        c.archetype_senses(i, a.into(), &scene);
        c.archetype_sight_and_guidance(i, a.into(), &scene);
        c.archetype_motion(i, a.into());
        c.lod(i, pack.lod.tiers_of(i));
    }
    c.interest(&pack.lod.interest);
    for (i, a) in pack.agents.iter().enumerate() {
        c.agent(i, &a.name, (a.pos, a.facing), pack.bounds);
        c.goal(i, a.goal);
    }
    let mut out = c.out;
    out.retain(Diagnostic::is_error);
    out
}
