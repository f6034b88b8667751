//! Content resolved into a pack ([`Pack::from_def`]): every name replaced by
//! its index, two-way links expanded, each link's costs one per list.

use std::collections::BTreeMap;

use super::{
    Pack, PackAgent, PackArchetype, PackError, PackFaction, PackLink, PackLod, PackProfile,
    PackRegion, PackSound, PackWaypoint, invalid,
};
use crate::format::def::{AgentDef, ArchetypeDef, ContentDef, DEFAULT_COST_LIST, RegionDef};

impl Pack {
    /// Resolves validated content into a pack. Content that does not
    /// validate may give an error (never a panic).
    pub fn from_def(def: &ContentDef) -> Result<Self, PackError> {
        let cost_lists = if def.cost_lists.is_empty() {
            vec![DEFAULT_COST_LIST.to_owned()]
        } else {
            def.cost_lists.clone()
        };
        // The first error found is the one returned: links, archetypes,
        // agents, factions, regions, then sounds.
        let (links, link_costs) = links(def, &cost_lists)?;
        let archetypes = def
            .archetypes
            .iter()
            .map(|(name, a)| archetype(def, name, a))
            .collect::<Result<_, PackError>>()?;
        let agents = def
            .agents
            .iter()
            .map(|a| agent(def, a))
            .collect::<Result<_, PackError>>()?;
        let factions = factions(def)?;
        let regions = def
            .regions
            .iter()
            .map(|r| region(def, r))
            .collect::<Result<_, PackError>>()?;
        let sounds = sounds(def)?;
        Ok(Pack {
            name: def.name.clone(),
            seed: def.seed,
            tick_seconds: def.tick_seconds,
            bounds: def.bounds,
            factions,
            cost_lists,
            waypoints: def
                .waypoints
                .iter()
                .map(|w| PackWaypoint {
                    id: w.id,
                    pos: w.pos,
                    active: w.active,
                    name: w.name.clone(),
                    tags: w.tags.clone(),
                })
                .collect(),
            links,
            link_costs,
            fog: def.fog.clone(),
            profiles: def
                .profiles
                .iter()
                .map(|(name, p)| PackProfile {
                    name: name.to_owned(),
                    profile: p.clone(),
                })
                .collect(),
            archetypes,
            agents,
            walls: def.walls.clone(),
            regions,
            sounds,
            perception_budget: def.perception_budget,
            nav: def.nav,
            scripts: Vec::new(),
            lod: PackLod::from_def(def),
        })
    }
}

/// The index of faction `name`.
fn faction(def: &ContentDef, name: &str) -> Result<u32, PackError> {
    def.factions
        .iter()
        .position(|f| f.name == name)
        .map(|i| i as u32)
        .ok_or_else(|| invalid(format!("unknown faction `{name}`")))
}

/// The index of `name` in `names`, or the error naming `what` it is.
fn index_of(names: &[String], name: &str, what: &str) -> Result<u32, PackError> {
    names
        .iter()
        .position(|n| n == name)
        .map(|i| i as u32)
        .ok_or_else(|| invalid(format!("unknown {what} `{name}`")))
}

/// The one-way links (two-way ones expanded) and their costs, one per cost
/// list, in link order.
fn links(def: &ContentDef, cost_lists: &[String]) -> Result<(Vec<PackLink>, Vec<f32>), PackError> {
    let mut waypoint_index = BTreeMap::new();
    for (i, w) in def.waypoints.iter().enumerate() {
        waypoint_index.entry(w.id).or_insert(i as u32);
    }
    let waypoint = |id: u32| {
        waypoint_index
            .get(&id)
            .copied()
            .ok_or_else(|| invalid(format!("unknown waypoint {id}")))
    };
    let lists = cost_lists.len();
    let mut links = Vec::with_capacity(def.links.len() * 2);
    let mut link_costs = Vec::with_capacity(def.links.len() * 2 * lists);
    let mut costs = vec![1.0; lists];
    for l in &def.links {
        costs.fill(1.0);
        for (name, cost) in l.costs.iter() {
            costs[index_of(cost_lists, name, "cost list")? as usize] = *cost;
        }
        let (from, to) = (waypoint(l.from)?, waypoint(l.to)?);
        links.push(PackLink { from, to });
        link_costs.extend_from_slice(&costs);
        if l.two_way {
            links.push(PackLink { from: to, to: from });
            link_costs.extend_from_slice(&costs);
        }
    }
    Ok((links, link_costs))
}

/// Archetype `name` with its cost list and profile resolved.
fn archetype(def: &ContentDef, name: &str, a: &ArchetypeDef) -> Result<PackArchetype, PackError> {
    Ok(PackArchetype {
        name: name.to_owned(),
        senses: a.senses.clone(),
        movement: a.movement.clone(),
        body: a.body,
        sight: a.sight,
        noise: a.noise,
        decider: a.decider.clone(),
        cost_list: match &a.cost_list {
            None => None,
            Some(l) => Some(index_of(&def.cost_lists, l, "cost list")?),
        },
        separation: a.separation,
        radius: a.radius,
        avoidance: a.avoidance,
        script: a.script.clone(),
        profile: match &a.profile {
            None => None,
            Some(p) => Some(
                def.profiles
                    .position(p)
                    .ok_or_else(|| invalid(format!("unknown profile `{p}`")))?
                    as u32,
            ),
        },
    })
}

/// An agent with its archetype and faction resolved.
fn agent(def: &ContentDef, a: &AgentDef) -> Result<PackAgent, PackError> {
    Ok(PackAgent {
        name: a.name.clone(),
        archetype: def
            .archetypes
            .position(&a.archetype)
            .ok_or_else(|| invalid(format!("unknown archetype `{}`", a.archetype)))?
            as u32,
        faction: faction(def, &a.faction)?,
        pos: a.pos,
        facing: a.facing,
        goal: a.goal,
    })
}

/// The factions with the factions each is hostile to resolved.
fn factions(def: &ContentDef) -> Result<Vec<PackFaction>, PackError> {
    def.factions
        .iter()
        .map(|f| {
            Ok(PackFaction {
                name: f.name.clone(),
                hostile: f
                    .hostile
                    .iter()
                    .map(|h| faction(def, h))
                    .collect::<Result<_, _>>()?,
            })
        })
        .collect()
}

/// A region with the regions it sees resolved.
fn region(def: &ContentDef, r: &RegionDef) -> Result<PackRegion, PackError> {
    let index = |n: &String| {
        def.regions
            .iter()
            .position(|x| &x.name == n)
            .map(|k| k as u32)
            .ok_or_else(|| invalid(format!("unknown region `{n}`")))
    };
    Ok(PackRegion {
        name: r.name.clone(),
        polygon: r.polygon.clone(),
        sees: match &r.sees {
            None => None,
            Some(names) => Some(names.iter().map(index).collect::<Result<_, _>>()?),
        },
    })
}

/// The scheduled sounds with their source agents resolved.
fn sounds(def: &ContentDef) -> Result<Vec<PackSound>, PackError> {
    def.sounds
        .iter()
        .map(|snd| {
            Ok(PackSound {
                tick: snd.tick,
                pos: snd.pos,
                volume: snd.volume,
                source: match &snd.source {
                    None => None,
                    Some(n) => Some(
                        def.agents
                            .iter()
                            .position(|a| &a.name == n)
                            .ok_or_else(|| invalid(format!("unknown agent `{n}`")))?
                            as u32,
                    ),
                },
                tag: snd.tag,
            })
        })
        .collect()
}
