//! Model operations as edits: each function reads the content (and the
//! selection) and returns the [`Edit`] that does the operation, or why
//! not. Nothing here changes the document; [`super::Model::apply`] does.

use std::collections::BTreeSet;

use kiai_content::def::{
    AgentDef, ArchetypeDef, BodyDef, ContentDef, FactionDef, FilterDef, LinkDef, MovementDef,
    ProfileDef, RegionDef, SenseDef, ShapeDef, WallDef, WaypointDef,
};

use super::analysis;
use super::doc::{Edit, Item};
use super::selection::{Sel, Selection};

/// An edit and the sentence the status bar says about it.
pub type Op = (Edit, String);

/// `n` and the noun, singular or plural: `1 link`, `3 links`.
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// The archetype new documents get: a short all-round sphere and a long
/// forward cone, walking at random.
pub fn default_archetype() -> ArchetypeDef {
    ArchetypeDef {
        senses: vec![
            SenseDef {
                name: "near".into(),
                shape: ShapeDef::Sphere { radius: 4.0 },
                filter: FilterDef::All,
                occluded: false,
                lose_range: None,
                memory_ticks: 0,
            },
            SenseDef {
                name: "eyes".into(),
                shape: ShapeDef::Cone {
                    range: 15.0,
                    fov_deg: 90.0,
                },
                filter: FilterDef::Hostile,
                occluded: true,
                lose_range: None,
                memory_ticks: 0,
            },
        ],
        movement: MovementDef::Walker {
            min_speed: 0.5,
            max_speed: 1.5,
            direction_change_factor: 20,
            planar: true,
        },
        body: BodyDef::Simulated,
        sight: None,
        profile: None,
        noise: None,
        decider: None,
        cost_list: None,
        separation: None,
        radius: None,
        avoidance: None,
        script: None,
        lod: Vec::new(),
    }
}

/// A profile with equal chase and evade weights, always used.
pub fn default_profile() -> ProfileDef {
    ProfileDef {
        chase: Some(1.0),
        evade: Some(1.0),
        entries: None,
        use_profile: 100.0,
        keep_decision: 0.0,
        learning: None,
    }
}

/// Flips `active` of the waypoints at `indices`.
pub fn toggle_active(def: &ContentDef, indices: &[usize]) -> Result<Op, String> {
    let edits: Vec<Edit> = indices
        .iter()
        .filter_map(|&i| {
            let old = def.waypoints.get(i)?.clone();
            let mut new = old.clone();
            new.active = !new.active;
            Some(Edit::Set {
                index: i,
                old: Item::Waypoint(old),
                new: Item::Waypoint(new),
            })
        })
        .collect();
    if edits.is_empty() {
        return Err("select waypoints to switch them on or off".into());
    }
    let n = edits.len();
    Ok((
        Edit::Batch(edits),
        format!("switched {} on or off", count(n, "waypoint", "waypoints")),
    ))
}

/// Links the waypoints at `indices` (all when empty) within `range` that
/// walls do not separate.
pub fn auto_connect(
    def: &ContentDef,
    indices: &[usize],
    range: f32,
    two_way: bool,
    occluders: Option<&kiai_core::Occluders>,
) -> Result<Op, String> {
    let links = analysis::auto_connect(def, indices, range, two_way, occluders)
        .map_err(|e| format!("auto-connect failed: {e}"))?;
    let start = def.links.len();
    let n = links.len();
    let edits = links
        .into_iter()
        .enumerate()
        .map(|(k, l)| Edit::Insert {
            index: start + k,
            item: Item::Link(l),
        })
        .collect();
    Ok((
        Edit::Batch(edits),
        format!(
            "auto-connect added {} within {range}",
            count(n, "link", "links")
        ),
    ))
}

/// Fills every region's `sees` with sample-ray visibility.
pub fn compute_pvs(def: &ContentDef) -> Result<Op, String> {
    if def.regions.is_empty() {
        return Err("no regions: draw some with the region tool (R) first".into());
    }
    let lists = analysis::compute_pvs(def);
    let edits: Vec<Edit> = def
        .regions
        .iter()
        .zip(lists)
        .enumerate()
        .map(|(i, (r, sees))| {
            let mut new = r.clone();
            new.sees = Some(sees);
            Edit::Set {
                index: i,
                old: Item::Region(r.clone()),
                new: Item::Region(new),
            }
        })
        .collect();
    let n = edits.len();
    Ok((
        Edit::Batch(edits),
        format!("computed what {} see", count(n, "region", "regions")),
    ))
}

/// Deletes the selection: links, then waypoints with every link touching
/// them, then the other objects, each collection from the highest index
/// down so indices stay valid while the batch applies.
pub fn delete(def: &ContentDef, selection: &Selection) -> Result<Op, String> {
    let waypoints = selection.waypoints();
    let dying: BTreeSet<u32> = waypoints
        .iter()
        .filter_map(|&i| def.waypoints.get(i).map(|w| w.id))
        .collect();
    let mut links: BTreeSet<usize> = selection
        .iter()
        .filter_map(|x| match x {
            Sel::Link(i) if i < def.links.len() => Some(i),
            _ => None,
        })
        .collect();
    links.extend(
        def.links
            .iter()
            .enumerate()
            .filter(|(_, l)| dying.contains(&l.from) || dying.contains(&l.to))
            .map(|(i, _)| i),
    );
    let mut edits: Vec<Edit> = links
        .iter()
        .rev()
        .map(|&i| Edit::Remove {
            index: i,
            item: Item::Link(def.links[i].clone()),
        })
        .collect();
    for &i in waypoints.iter().rev() {
        if let Some(w) = def.waypoints.get(i) {
            edits.push(Edit::Remove {
                index: i,
                item: Item::Waypoint(w.clone()),
            });
        }
    }
    let rest: Vec<Sel> = selection
        .iter()
        .filter(|x| !matches!(x, Sel::Waypoint(_) | Sel::Link(_)))
        .collect();
    for sel in rest.into_iter().rev() {
        if let Some((index, item)) = item_of(def, sel) {
            edits.push(Edit::Remove { index, item });
        }
    }
    if edits.is_empty() {
        return Err("nothing selected to delete".into());
    }
    let n = selection.len();
    Ok((
        Edit::Batch(edits),
        format!("deleted {}", count(n, "object", "objects")),
    ))
}

/// The item `sel` names and its index, for objects other than waypoints
/// and links.
fn item_of(def: &ContentDef, sel: Sel) -> Option<(usize, Item)> {
    match sel {
        Sel::Wall(i) => def.walls.get(i).map(|w| (i, Item::Wall(w.clone()))),
        Sel::Region(i) => def.regions.get(i).map(|r| (i, Item::Region(r.clone()))),
        Sel::Agent(i) => def.agents.get(i).map(|a| (i, Item::Agent(a.clone()))),
        Sel::Archetype(i) => def
            .archetypes
            .0
            .get(i)
            .map(|(n, a)| (i, Item::archetype(n.clone(), a.clone()))),
        Sel::Profile(i) => def
            .profiles
            .0
            .get(i)
            .map(|(n, p)| (i, Item::profile(n.clone(), p.clone()))),
        Sel::Faction(i) => def.factions.get(i).map(|f| (i, Item::Faction(f.clone()))),
        Sel::Waypoint(_) | Sel::Link(_) => None,
    }
}

/// Links waypoints `a` and `b` (ids), or unlinks them when they are
/// linked.
pub fn toggle_link(def: &ContentDef, a: u32, b: u32, two_way: bool) -> Option<Op> {
    if a == b {
        return None;
    }
    let existing: Vec<usize> = def
        .links
        .iter()
        .enumerate()
        .filter(|(_, l)| (l.from == a && l.to == b) || (l.from == b && l.to == a))
        .map(|(i, _)| i)
        .collect();
    if existing.is_empty() {
        let edit = Edit::Insert {
            index: def.links.len(),
            item: Item::Link(LinkDef {
                from: a,
                to: b,
                costs: Default::default(),
                two_way,
            }),
        };
        let arrow = if two_way { "<->" } else { "->" };
        Some((edit, format!("linked {a} {arrow} {b}")))
    } else {
        let edits = existing
            .iter()
            .rev()
            .map(|&i| Edit::Remove {
                index: i,
                item: Item::Link(def.links[i].clone()),
            })
            .collect();
        Some((Edit::Batch(edits), format!("unlinked {a} and {b}")))
    }
}

/// A waypoint at world `(x, z)` with the first free id.
pub fn place_waypoint(def: &ContentDef, (x, z): (f32, f32)) -> Op {
    let id = def
        .waypoints
        .iter()
        .map(|w| w.id.saturating_add(1))
        .max()
        .unwrap_or(0);
    let edit = Edit::Insert {
        index: def.waypoints.len(),
        item: Item::Waypoint(WaypointDef {
            id,
            pos: (x, 0.0, z),
            active: true,
            name: None,
            tags: Vec::new(),
        }),
    };
    (edit, format!("waypoint {id} at ({x:.1}, {z:.1})"))
}

/// A wall from `from` to `to` (world X-Z), 3 units high.
pub fn place_wall(def: &ContentDef, from: (f32, f32), to: (f32, f32)) -> Op {
    let edit = Edit::Insert {
        index: def.walls.len(),
        item: Item::Wall(WallDef {
            from,
            to,
            height: 3.0,
            name: None,
            door: false,
            open: false,
        }),
    };
    let mut message = format!("wall {}", def.walls.len());
    let see_through: Vec<&str> = def
        .archetypes
        .0
        .iter()
        .filter(|(_, a)| {
            a.senses
                .iter()
                .any(|s| !s.occluded && matches!(s.shape, ShapeDef::Cone { .. }))
        })
        .map(|(n, _)| n.as_str())
        .collect();
    if def.walls.is_empty() && !see_through.is_empty() {
        message.push_str(&format!(
            "; the eyes of {} see through walls until their sense is set `occluded` \
             (inspector)",
            see_through.join(", ")
        ));
    }
    (edit, message)
}

/// A region with corners `polygon` (at least 3) named `room1`, `room2`...
pub fn close_region(def: &ContentDef, polygon: Vec<(f32, f32)>) -> Result<Op, String> {
    if polygon.len() < 3 {
        return Err("a region needs at least 3 corners".into());
    }
    let name = unique_name(|n| def.regions.iter().any(|r| r.name == n), "room");
    let edit = Edit::Insert {
        index: def.regions.len(),
        item: Item::Region(RegionDef {
            name: name.clone(),
            polygon,
            sees: None,
        }),
    };
    Ok((edit, format!("region {name}")))
}

/// An agent at world `(x, z)` of `archetype` and `faction`, adding a
/// default archetype and faction when the document has none of that name
/// (the names actually used come back with the edit).
pub fn place_agent(
    def: &ContentDef,
    (x, z): (f32, f32),
    archetype: &str,
    faction: &str,
) -> (Op, String, String) {
    let mut edits = Vec::new();
    let archetype = if def.archetypes.get(archetype).is_some() {
        archetype.to_owned()
    } else {
        let name = def
            .archetypes
            .0
            .first()
            .map_or_else(|| "guard".to_owned(), |(n, _)| n.clone());
        if def.archetypes.get(&name).is_none() {
            edits.push(Edit::Insert {
                index: def.archetypes.len(),
                item: Item::archetype(name.clone(), first_archetype(def)),
            });
        }
        name
    };
    let faction = if def.factions.iter().any(|f| f.name == faction) {
        faction.to_owned()
    } else {
        let name = def
            .factions
            .first()
            .map_or_else(|| "red".to_owned(), |f| f.name.clone());
        if !def.factions.iter().any(|f| f.name == name) {
            edits.push(Edit::Insert {
                index: def.factions.len(),
                item: Item::Faction(FactionDef {
                    name: name.clone(),
                    hostile: Vec::new(),
                }),
            });
        }
        name
    };
    let name = unique_name(|n| def.agents.iter().any(|a| a.name == n), "agent");
    edits.push(Edit::Insert {
        index: def.agents.len(),
        item: Item::Agent(AgentDef {
            name: name.clone(),
            archetype: archetype.clone(),
            faction: faction.clone(),
            pos: (x, 0.0, z),
            facing: (1.0, 0.0, 0.0),
            goal: None,
            interest: false,
        }),
    });
    (
        (Edit::Batch(edits), format!("placed {name}")),
        archetype,
        faction,
    )
}

/// The archetype made for the first agent placed: the default one, whose
/// eyes see everyone (a new map has one faction, hostile to nobody) and
/// are occluded only when the map has walls or regions (so a new map
/// validates without warnings).
fn first_archetype(def: &ContentDef) -> ArchetypeDef {
    let mut a = default_archetype();
    let occluders = !def.walls.is_empty() || !def.regions.is_empty();
    for s in &mut a.senses {
        s.filter = FilterDef::All;
        s.occluded &= occluders;
    }
    a
}

/// A new archetype (the default one) with a free name.
pub fn add_archetype(def: &ContentDef) -> Op {
    let name = unique_name(|n| def.archetypes.get(n).is_some(), "archetype");
    let edit = Edit::Insert {
        index: def.archetypes.len(),
        item: Item::archetype(name.clone(), default_archetype()),
    };
    (edit, format!("added archetype {name}"))
}

/// A new profile (the default one) with a free name.
pub fn add_profile(def: &ContentDef) -> Op {
    let name = unique_name(|n| def.profiles.get(n).is_some(), "profile");
    let edit = Edit::Insert {
        index: def.profiles.len(),
        item: Item::profile(name.clone(), default_profile()),
    };
    (edit, format!("added profile {name}"))
}

/// A new faction, hostile to nobody, with a free name.
pub fn add_faction(def: &ContentDef) -> Op {
    let name = unique_name(|n| def.factions.iter().any(|f| f.name == n), "faction");
    let edit = Edit::Insert {
        index: def.factions.len(),
        item: Item::Faction(FactionDef {
            name: name.clone(),
            hostile: Vec::new(),
        }),
    };
    (edit, format!("added faction {name}"))
}

/// Adds the cost list `name`. When no list was declared yet and costs were
/// painted on the implicit `default` list, `default` is declared first so
/// those costs keep their meaning. Returns the edit and the new list's
/// index.
pub fn add_cost_list(def: &ContentDef, name: &str) -> Result<(Op, usize), String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("type a name for the new cost list".into());
    }
    let declared = !def.cost_lists.is_empty();
    if def.cost_lists.iter().any(|n| n == name)
        || (!declared && name == kiai_content::DEFAULT_COST_LIST)
    {
        return Err(format!("there is already a cost list `{name}`"));
    }
    let mut edits = Vec::new();
    let mut index = def.cost_lists.len();
    let default_used = def
        .links
        .iter()
        .any(|l| l.costs.get(kiai_content::DEFAULT_COST_LIST).is_some());
    if !declared && default_used {
        edits.push(Edit::Insert {
            index: 0,
            item: Item::CostList(kiai_content::DEFAULT_COST_LIST.to_owned()),
        });
        index = 1;
    }
    edits.push(Edit::Insert {
        index,
        item: Item::CostList(name.to_owned()),
    });
    Ok((
        (Edit::Batch(edits), format!("added cost list `{name}`")),
        index,
    ))
}

/// Renames list `old` to `new` in `cost_lists`, every link's costs and
/// every archetype's `cost_list`.
pub fn rename_cost_list(def: &ContentDef, old: &str, new: &str) -> Result<Op, String> {
    let new = new.trim();
    let Some(li) = def.cost_lists.iter().position(|n| n == old) else {
        return Err(format!("`{old}` is not a declared list; add one first"));
    };
    if new.is_empty() || def.cost_lists.iter().any(|n| n == new) {
        return Err(format!("`{new}` cannot be the new name: empty or taken"));
    }
    let mut edits = vec![Edit::Set {
        index: li,
        old: Item::CostList(old.to_owned()),
        new: Item::CostList(new.to_owned()),
    }];
    for (i, l) in def.links.iter().enumerate() {
        if l.costs.get(old).is_some() {
            let mut n = l.clone();
            for (k, _) in &mut n.costs.0 {
                if k == old {
                    *k = new.to_owned();
                }
            }
            edits.push(Edit::Set {
                index: i,
                old: Item::Link(l.clone()),
                new: Item::Link(n),
            });
        }
    }
    for (i, (name, a)) in def.archetypes.0.iter().enumerate() {
        if a.cost_list.as_deref() == Some(old) {
            let mut n = a.clone();
            n.cost_list = Some(new.to_owned());
            edits.push(Edit::Set {
                index: i,
                old: Item::archetype(name.clone(), a.clone()),
                new: Item::archetype(name.clone(), n),
            });
        }
    }
    Ok((Edit::Batch(edits), format!("renamed `{old}` to `{new}`")))
}

/// Deletes list `old` with its costs; archetypes using it fall back to the
/// first list.
pub fn delete_cost_list(def: &ContentDef, old: &str) -> Result<Op, String> {
    let Some(li) = def.cost_lists.iter().position(|n| n == old) else {
        return Err(format!("`{old}` is not a declared list"));
    };
    if def.cost_lists.len() < 2 {
        return Err("the last cost list cannot be deleted".into());
    }
    let mut edits = Vec::new();
    for (i, l) in def.links.iter().enumerate() {
        if l.costs.get(old).is_some() {
            let mut n = l.clone();
            n.costs.0.retain(|(k, _)| k != old);
            edits.push(Edit::Set {
                index: i,
                old: Item::Link(l.clone()),
                new: Item::Link(n),
            });
        }
    }
    for (i, (name, a)) in def.archetypes.0.iter().enumerate() {
        if a.cost_list.as_deref() == Some(old) {
            let mut n = a.clone();
            n.cost_list = None;
            edits.push(Edit::Set {
                index: i,
                old: Item::archetype(name.clone(), a.clone()),
                new: Item::archetype(name.clone(), n),
            });
        }
    }
    edits.push(Edit::Remove {
        index: li,
        item: Item::CostList(old.to_owned()),
    });
    Ok((Edit::Batch(edits), format!("deleted cost list `{old}`")))
}

/// One edit replacing every collection of `old` by `new`'s (recovery).
pub fn replace_all(old: &ContentDef, new: ContentDef) -> Edit {
    let mut edits = Vec::new();
    macro_rules! swap {
        ($($field:tt).+, $wrap:expr) => {
            for (i, item) in old.$($field).+.iter().enumerate().rev() {
                edits.push(Edit::Remove {
                    index: i,
                    item: $wrap(item.clone()),
                });
            }
            for (i, item) in new.$($field).+.iter().enumerate() {
                edits.push(Edit::Insert {
                    index: i,
                    item: $wrap(item.clone()),
                });
            }
        };
    }
    swap!(links, Item::Link);
    swap!(waypoints, Item::Waypoint);
    swap!(walls, Item::Wall);
    swap!(regions, Item::Region);
    swap!(agents, Item::Agent);
    swap!(factions, Item::Faction);
    swap!(cost_lists, Item::CostList);
    swap!(archetypes.0, |(n, a)| Item::archetype(n, a));
    swap!(profiles.0, |(n, p)| Item::profile(n, p));
    edits.push(Edit::Set {
        index: 0,
        old: Item::Bounds(old.bounds),
        new: Item::Bounds(new.bounds),
    });
    edits.push(Edit::Set {
        index: 0,
        old: Item::Meta(old.name.clone(), old.seed, old.tick_seconds),
        new: Item::Meta(new.name.clone(), new.seed, new.tick_seconds),
    });
    Edit::Batch(edits)
}

/// `stem1`, `stem2`, ...: the first that `taken` refuses is not taken.
pub fn unique_name(taken: impl Fn(&str) -> bool, stem: &str) -> String {
    (1..)
        .map(|i| format!("{stem}{i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| stem.to_owned())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::*;
    use crate::model::doc::Document;

    fn village() -> ContentDef {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../content/demo/village.ron");
        kiai_content::Content::load(std::path::Path::new(path))
            .unwrap()
            .into_def()
    }

    #[test]
    fn deleting_waypoints_and_links_together_removes_each_link_once_and_undoes_exactly() {
        let def = village();
        let mut doc = Document::new(def.clone(), None);
        // A link that touches a deleted waypoint, one that does not, and
        // the waypoint.
        let touching = def
            .links
            .iter()
            .position(|l| l.from == 0 || l.to == 0)
            .unwrap();
        let elsewhere = def
            .links
            .iter()
            .position(|l| l.from > 30 && l.to > 30)
            .unwrap();
        let selection: Selection = [
            Sel::Waypoint(0),
            Sel::Link(touching),
            Sel::Link(elsewhere),
            Sel::Agent(1),
        ]
        .into_iter()
        .collect();
        let (edit, message) = delete(&def, &selection).unwrap();
        assert_eq!(message, "deleted 4 objects");
        doc.apply(edit).unwrap();
        let after = doc.def();
        assert_eq!(after.waypoints.len(), def.waypoints.len() - 1);
        assert!(after.links.iter().all(|l| l.from != 0 && l.to != 0));
        let gone = def
            .links
            .iter()
            .filter(|l| l.from == 0 || l.to == 0)
            .count()
            + 1;
        assert_eq!(after.links.len(), def.links.len() - gone);
        assert_eq!(after.agents.len(), def.agents.len() - 1);
        assert!(doc.undo());
        assert_eq!(doc.def(), &def);
    }

    #[test]
    fn counts_are_singular_or_plural() {
        assert_eq!(count(1, "link", "links"), "1 link");
        assert_eq!(count(0, "link", "links"), "0 links");
        assert_eq!(count(7, "link", "links"), "7 links");
    }
}
