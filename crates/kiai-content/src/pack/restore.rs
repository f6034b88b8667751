//! A pack's names restored from its indices: the content definitions it
//! was exported from, for editing and tools ([`Pack::to_def`]).

use super::Pack;
use super::PackError;
use crate::format::def::{
    AgentDef, ArchetypeDef, ContentDef, FORMAT_VERSION, FactionDef, LinkDef, OrderedMap, RegionDef,
    SoundDef, WaypointDef,
};

/// `names[i]`, or an empty name when `i` is out of range.
fn name_at(names: &[String], i: u32) -> String {
    names.get(i as usize).cloned().unwrap_or_default()
}

impl Pack {
    /// The content definitions of this pack (names restored from indices),
    /// which build the same `World` and navigation graph as the content it
    /// was exported from. Fails when the pack does not pass [`Pack::check`].
    /// For editing and tools; loading and building never go through it.
    pub fn to_def(&self) -> Result<ContentDef, PackError> {
        self.check()?;
        Ok(self.names_restored())
    }

    /// [`Pack::to_def`] of a checked pack (an index out of range would give
    /// an empty name, never a panic).
    pub(crate) fn names_restored(&self) -> ContentDef {
        let factions: Vec<String> = self.factions.iter().map(|f| f.name.clone()).collect();
        ContentDef {
            format: FORMAT_VERSION,
            name: self.name.clone(),
            seed: self.seed,
            tick_seconds: self.tick_seconds,
            bounds: self.bounds,
            factions: self
                .factions
                .iter()
                .map(|f| FactionDef {
                    name: f.name.clone(),
                    hostile: f.hostile.iter().map(|&h| name_at(&factions, h)).collect(),
                })
                .collect(),
            cost_lists: self.cost_lists.clone(),
            waypoints: self
                .waypoints
                .iter()
                .map(|w| WaypointDef {
                    id: w.id,
                    pos: w.pos,
                    active: w.active,
                    name: w.name.clone(),
                    tags: w.tags.clone(),
                })
                .collect(),
            links: self.restored_links(),
            fog: self.fog.clone(),
            profiles: OrderedMap(
                self.profiles
                    .iter()
                    .map(|p| (p.name.clone(), p.profile.clone()))
                    .collect(),
            ),
            archetypes: OrderedMap(self.restored_archetypes()),
            walls: self.walls.clone(),
            regions: self.restored_regions(),
            sounds: self.restored_sounds(),
            perception_budget: self.perception_budget,
            nav: self.nav,
            // How the waypoints were generated is the file's, not the
            // runtime's: packs do not carry it.
            navgen: None,
            agents: self
                .agents
                .iter()
                .enumerate()
                .map(|(i, a)| AgentDef {
                    name: a.name.clone(),
                    archetype: self
                        .archetypes
                        .get(a.archetype as usize)
                        .map(|t| t.name.clone())
                        .unwrap_or_default(),
                    faction: name_at(&factions, a.faction),
                    pos: a.pos,
                    facing: a.facing,
                    goal: a.goal,
                    interest: self.lod.is_interest(i),
                })
                .collect(),
            interest: self.lod.interest.clone(),
        }
    }

    /// One-way links with the content's waypoint ids and named costs.
    fn restored_links(&self) -> Vec<LinkDef> {
        let waypoint = |i: u32| self.waypoints.get(i as usize).map_or(0, |w| w.id);
        let lists = self.cost_lists.len().max(1);
        self.links
            .iter()
            .zip(self.link_costs.chunks_exact(lists))
            .map(|(l, costs)| LinkDef {
                from: waypoint(l.from),
                to: waypoint(l.to),
                // Lists at 1.0 are the default: left out, as in content.
                costs: OrderedMap(
                    self.cost_lists
                        .iter()
                        .zip(costs)
                        .filter(|&(_, &c)| c != 1.0)
                        .map(|(n, &c)| (n.clone(), c))
                        .collect(),
                ),
                two_way: false,
            })
            .collect()
    }

    /// Archetypes with their profile and cost list named.
    fn restored_archetypes(&self) -> Vec<(String, ArchetypeDef)> {
        let profiles: Vec<String> = self.profiles.iter().map(|p| p.name.clone()).collect();
        self.archetypes
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let def = ArchetypeDef {
                    senses: a.senses.clone(),
                    movement: a.movement.clone(),
                    body: a.body,
                    sight: a.sight,
                    profile: a.profile.map(|i| name_at(&profiles, i)),
                    noise: a.noise,
                    decider: a.decider.clone(),
                    cost_list: a.cost_list.map(|i| name_at(&self.cost_lists, i)),
                    separation: a.separation,
                    radius: a.radius,
                    avoidance: a.avoidance,
                    script: a.script.clone(),
                    lod: self.lod.tiers_of(i).to_vec(),
                };
                (a.name.clone(), def)
            })
            .collect()
    }

    /// Regions with the regions they see named.
    fn restored_regions(&self) -> Vec<RegionDef> {
        let names: Vec<String> = self.regions.iter().map(|r| r.name.clone()).collect();
        self.regions
            .iter()
            .map(|r| RegionDef {
                name: r.name.clone(),
                polygon: r.polygon.clone(),
                sees: r
                    .sees
                    .as_ref()
                    .map(|ix| ix.iter().map(|&i| name_at(&names, i)).collect()),
            })
            .collect()
    }

    /// Sounds with their source agent named.
    fn restored_sounds(&self) -> Vec<SoundDef> {
        self.sounds
            .iter()
            .map(|snd| SoundDef {
                tick: snd.tick,
                pos: snd.pos,
                volume: snd.volume,
                source: snd.source.map(|i| {
                    self.agents
                        .get(i as usize)
                        .map(|a| a.name.clone())
                        .unwrap_or_default()
                }),
                tag: snd.tag,
            })
            .collect()
    }
}
