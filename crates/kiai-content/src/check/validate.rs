//! Semantic checks on parsed content: every problem at once, in file order.
//!
//! The value rules (numbers, ranges) are in `rules.rs`, shared with packs;
//! this file adds what only text content can get wrong: names that must be
//! unique and names that must refer to something.

use std::collections::BTreeMap;

use kiai_core::MAX_FACTIONS;

use super::rules::{Checker, Scene};
use crate::format::def::{ContentDef, LinkDef};
use crate::format::diag::{Diagnostic, hint};
use crate::format::ids::WaypointIndex;
use crate::format::locate::SpanIndex;

impl Checker<'_> {
    /// Reports names given more than once (at the later ones).
    fn unique<'n>(&mut self, what: &str, names: impl IntoIterator<Item = (String, &'n str)>) {
        let mut seen: BTreeMap<&str, ()> = BTreeMap::new();
        for (path, name) in names {
            if name.is_empty() {
                self.error(&path, format!("{what} name must not be empty"));
            } else if seen.insert(name, ()).is_some() {
                self.error(&path, format!("duplicate {what} name `{name}`"));
            }
        }
    }
}

/// Checks `def` (parsed from the text `spans` indexes) and returns every
/// problem found, errors and warnings, ordered by position.
pub fn validate(def: &ContentDef, spans: &SpanIndex, file: &str) -> Vec<Diagnostic> {
    let mut c = Checker::new(spans, file);
    if def.format != crate::format::def::FORMAT_VERSION {
        c.error(
            "format",
            crate::format::def::unsupported(u64::from(def.format)),
        );
    }
    c.settings(
        def.tick_seconds,
        def.bounds,
        (def.perception_budget, def.nav),
    );
    c.navgen(def.navgen, def.bounds);
    factions(&mut c, def);
    navigation(&mut c, def);
    occluders_and_sounds(&mut c, def);
    let fog_tile = match &def.fog {
        Some(fog) => c.fog(fog, def.bounds, def.factions.len()),
        None => None,
    };
    let scene = Scene {
        occluders: !(def.walls.is_empty() && def.regions.is_empty()),
        waypoints: !def.waypoints.is_empty(),
        fog: def.fog.is_some(),
        fog_tile,
    };
    profiles(&mut c, def);
    archetypes(&mut c, def, &scene);
    agents(&mut c, def);
    c.interest(&def.interest);
    let mut out = c.out;
    out.sort_by_key(|d| (d.line, d.column));
    out
}

/// Faction names: unique, few enough, hostility naming known factions.
fn factions(c: &mut Checker<'_>, def: &ContentDef) {
    c.unique(
        "faction",
        def.factions
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("factions[{i}].name"), f.name.as_str())),
    );
    if def.factions.len() > MAX_FACTIONS {
        c.error(
            &format!("factions[{MAX_FACTIONS}]"),
            format!("at most {MAX_FACTIONS} factions are supported"),
        );
    }
    let faction_names = || def.factions.iter().map(|f| f.name.as_str());
    for (i, f) in def.factions.iter().enumerate() {
        for (j, h) in f.hostile.iter().enumerate() {
            let path = format!("factions[{i}].hostile[{j}]");
            if !faction_names().any(|n| n == h) {
                c.error(
                    &path,
                    format!("unknown faction `{h}`{}", hint(h, faction_names())),
                );
            } else if *h == f.name {
                c.warning(
                    &path,
                    format!("faction `{h}` is listed as hostile to itself; ignored"),
                );
            }
        }
    }
}

/// Cost lists, waypoints and links.
fn navigation(c: &mut Checker<'_>, def: &ContentDef) {
    c.unique(
        "cost list",
        def.cost_lists
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("cost_lists[{i}]"), n.as_str())),
    );
    // Paths are formatted only for problems: these loops run per waypoint
    // and per link, hundreds of thousands of times on big maps.
    for (i, w) in def.waypoints.iter().enumerate() {
        c.waypoint_pos(i, w.pos);
    }
    let ids = WaypointIndex::new(&def.waypoints);
    if ids.has_duplicates() {
        let mut seen: BTreeMap<u32, ()> = BTreeMap::new();
        for (i, w) in def.waypoints.iter().enumerate() {
            if seen.insert(w.id, ()).is_some() {
                c.error(
                    &format!("waypoints[{i}].id"),
                    format!("duplicate waypoint id {}", w.id),
                );
            }
        }
    }
    for (i, l) in def.links.iter().enumerate() {
        link(c, def, &ids, i, l);
    }
}

/// Link `i`: ends naming waypoints, costs naming cost lists (once each),
/// multipliers >= 0.
fn link(c: &mut Checker<'_>, def: &ContentDef, ids: &WaypointIndex, i: usize, l: &LinkDef) {
    let base = || format!("links[{i}]");
    for (field, id) in [("from", l.from), ("to", l.to)] {
        if ids.get(id).is_none() {
            c.error(
                &format!("{}.{field}", base()),
                format!(
                    "link {} -> {} names waypoint {id}, which does not exist",
                    l.from, l.to
                ),
            );
        }
    }
    if l.from == l.to {
        c.warning(
            &format!("{}.to", base()),
            format!("waypoint {} links to itself", l.from),
        );
    }
    let list_names = || {
        def.cost_lists.iter().map(String::as_str).chain(
            def.cost_lists
                .is_empty()
                .then_some(crate::format::def::DEFAULT_COST_LIST),
        )
    };
    for (j, (list, cost)) in l.costs.iter().enumerate() {
        let key = || format!("{}.costs{{{j}}}", base());
        if !list_names().any(|n| n == list) {
            c.error(
                &key(),
                format!(
                    "unknown cost list `{list}`{}",
                    match hint(list, list_names()) {
                        h if h.is_empty() => format!(
                            "; this file has: {}",
                            list_names().collect::<Vec<_>>().join(", ")
                        ),
                        h => h,
                    }
                ),
            );
        } else if l.costs.position(list) != Some(j) {
            c.error(&key(), format!("cost list `{list}` given twice"));
        }
        if !(cost.is_finite() && *cost >= 0.0) {
            // Format 2 writes `{"name": cost}`, format 1 wrote `[cost]`.
            let value = format!("{}#value", key());
            let path = if c.has_path(&value) {
                value
            } else {
                format!("{}.costs[{j}]", base())
            };
            c.non_negative(&path, "a cost multiplier", *cost);
        }
    }
}

/// Walls, regions (unique names, `sees` naming regions) and sounds (a
/// `source` naming an agent).
fn occluders_and_sounds(c: &mut Checker<'_>, def: &ContentDef) {
    for (i, w) in def.walls.iter().enumerate() {
        c.wall(i, w);
    }
    c.unique(
        "region",
        def.regions
            .iter()
            .enumerate()
            .map(|(i, r)| (format!("regions[{i}].name"), r.name.as_str())),
    );
    let region_names = || def.regions.iter().map(|r| r.name.as_str());
    for (i, r) in def.regions.iter().enumerate() {
        c.polygon(i, &r.polygon);
        for (j, seen) in r.sees.iter().flatten().enumerate() {
            if !region_names().any(|n| n == seen) {
                c.error(
                    &format!("regions[{i}].sees[{j}]"),
                    format!("unknown region `{seen}`{}", hint(seen, region_names())),
                );
            }
        }
    }
    let agent_names = || def.agents.iter().map(|a| a.name.as_str());
    for (i, snd) in def.sounds.iter().enumerate() {
        c.sound(i, snd.pos, snd.volume);
        if let Some(src) = &snd.source
            && !agent_names().any(|n| n == src)
        {
            c.error(
                &format!("sounds[{i}].source"),
                format!("unknown agent `{src}`{}", hint(src, agent_names())),
            );
        }
    }
}

/// Profiles: unique names, values.
fn profiles(c: &mut Checker<'_>, def: &ContentDef) {
    c.unique(
        "profile",
        def.profiles
            .0
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (format!("profiles{{{i}}}"), name.as_str())),
    );
    for (i, (_, p)) in def.profiles.0.iter().enumerate() {
        c.profile(i, p);
    }
}

/// Archetypes: unique names (and sense names), values, and the profile and
/// cost list they name.
fn archetypes(c: &mut Checker<'_>, def: &ContentDef, scene: &Scene) {
    c.unique(
        "archetype",
        def.archetypes
            .0
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (format!("archetypes{{{i}}}"), name.as_str())),
    );
    let profile_names = || def.profiles.0.iter().map(|(n, _)| n.as_str());
    for (i, (_, a)) in def.archetypes.0.iter().enumerate() {
        let base = format!("archetypes{{{i}}}");
        c.unique(
            "sense",
            a.senses
                .iter()
                .enumerate()
                .map(|(j, s)| (format!("{base}.senses[{j}].name"), s.name.as_str())),
        );
        c.archetype_senses(i, a.into(), scene);
        if let Some(p) = &a.profile
            && def.profiles.get(p).is_none()
        {
            c.error(
                &format!("{base}.profile"),
                format!("unknown profile `{p}`{}", hint(p, profile_names())),
            );
        }
        c.archetype_sight_and_guidance(i, a.into(), scene);
        if let Some(list) = &a.cost_list
            && !def.cost_lists.iter().any(|l| l == list)
        {
            c.error(
                &format!("{base}.cost_list"),
                format!(
                    "unknown cost list `{list}`{}",
                    hint(list, def.cost_lists.iter().map(String::as_str))
                ),
            );
        }
        c.archetype_motion(i, a.into());
        c.lod(i, &a.lod);
    }
}

/// Agents: unique names, known archetype and faction, values.
fn agents(c: &mut Checker<'_>, def: &ContentDef) {
    c.unique(
        "agent",
        def.agents
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("agents[{i}].name"), a.name.as_str())),
    );
    let archetype_names = || def.archetypes.0.iter().map(|(n, _)| n.as_str());
    let faction_names = || def.factions.iter().map(|f| f.name.as_str());
    for (i, a) in def.agents.iter().enumerate() {
        let base = format!("agents[{i}]");
        if def.archetypes.get(&a.archetype).is_none() {
            c.error(
                &format!("{base}.archetype"),
                format!(
                    "unknown archetype `{}`{}",
                    a.archetype,
                    hint(&a.archetype, archetype_names())
                ),
            );
        }
        if !faction_names().any(|n| n == a.faction) {
            c.error(
                &format!("{base}.faction"),
                format!(
                    "unknown faction `{}`{}",
                    a.faction,
                    hint(&a.faction, faction_names())
                ),
            );
        }
        c.agent(i, &a.name, (a.pos, a.facing), def.bounds);
        c.goal(i, a.goal);
    }
}
