//! Runtime packs: validated content with names resolved to indices, in a
//! compact binary encoding a game loads without any text parser.
//!
//! **This module does not use `ron`**, nor do the pack's body layout, checks and
//! world building (a test reads their sources): a game that only ships packs
//! needs neither the RON parser nor the span index. Loading a pack checks
//! its structure and values, not its names (`pack_check.rs`), and its
//! runtime world is built straight from its indices (`pack_world.rs`).
//!
//! ## Layout
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `KIAIPACK` ([`PACK_MAGIC`]) |
//! | 4 | pack version, little endian ([`PACK_VERSION`]) |
//! | 4 | content format version the pack was exported from, little endian |
//! | 8 | body length in bytes, little endian |
//! | 8 | XXH3-64 of the body, little endian |
//! | n | body: [`Pack`] in [postcard](https://docs.rs/postcard) 1.x, its big sections as columns |
//!
//! postcard is a stable, documented wire format (varint integers, no field
//! names), so packs are small and decode fast; the checksum turns a
//! truncated or corrupted pack into an error before decoding starts. In the
//! body, waypoints, links and link costs are columns of little-endian
//! numbers (`pack_body.rs` has the layout), which decode at memory speed;
//! the readable encodings of a pack (RON, JSON) show plain lists.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::def::{
    AgentDef, ArchetypeDef, BodyDef, BoundsDef, ContentDef, FactionDef, FogDef, LinkDef,
    MovementDef, NavDef, OrderedMap, PerceptionBudgetDef, ProfileDef, RegionDef, SenseDef,
    SightDef, SoundDef, Vec3Def, WallDef, WaypointDef,
};
use crate::nav::DEFAULT_COST_LIST;

/// The first eight bytes of every pack.
pub const PACK_MAGIC: [u8; 8] = *b"KIAIPACK";

/// The pack layout version this crate writes and reads. It goes up with
/// every change of the body's layout, so an older pack is refused by name
/// instead of failing to decode (2: archetypes carry their script, noise,
/// decider, cost list and separation, and packs bundle scripts; 3:
/// waypoints, links and link costs are columns of little-endian numbers).
pub const PACK_VERSION: u32 = 6;

/// Bytes before the body: magic, pack version, content format, body length,
/// checksum.
pub const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 8;

/// Largest pack read, in bytes (the content file limit).
pub const MAX_PACK_BYTES: u64 = crate::MAX_FILE_BYTES;

/// A runtime pack: everything a level's AI needs, resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pack {
    /// Name of the project or level.
    pub name: String,
    /// Seed of every random stream.
    pub seed: u64,
    /// Simulated seconds per tick, > 0.
    pub tick_seconds: f32,
    /// Simulation bounds.
    pub bounds: Option<BoundsDef>,
    /// Factions; agents refer to them by index.
    pub factions: Vec<PackFaction>,
    /// Names of the cost lists, never empty (`["default"]` when the content
    /// declared none).
    pub cost_lists: Vec<String>,
    /// Waypoints; links refer to them by index.
    pub waypoints: Vec<PackWaypoint>,
    /// One-way links (two-way content links appear as two, in order).
    pub links: Vec<PackLink>,
    /// The links' cost multipliers, link-major: link `i` costs
    /// `link_costs[i * cost_lists.len() + list]`; finite, >= 0. One flat
    /// array rather than a list per link, so decoding allocates once.
    pub link_costs: Vec<f32>,
    /// Tile fog of war.
    pub fog: Option<FogDef>,
    /// Behaviour profiles; archetypes refer to them by index.
    pub profiles: Vec<PackProfile>,
    /// Archetypes; agents refer to them by index.
    pub archetypes: Vec<PackArchetype>,
    /// The agents of the scene.
    pub agents: Vec<PackAgent>,
    /// Walls on X-Z.
    pub walls: Vec<WallDef>,
    /// Regions of the potentially visible set.
    pub regions: Vec<PackRegion>,
    /// Sounds at given ticks.
    pub sounds: Vec<PackSound>,
    /// Cap on occlusion rays per tick.
    pub perception_budget: Option<PerceptionBudgetDef>,
    /// Navigation settings (the route search budget).
    pub nav: NavDef,
    /// Scripts bundled with the content, by path relative to the content
    /// file. Empty until content can name scripts.
    pub scripts: Vec<PackScript>,
}

/// A faction with hostility resolved to faction indices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackFaction {
    /// Unique name.
    pub name: String,
    /// Indices into [`Pack::factions`] this faction is hostile to.
    pub hostile: Vec<u32>,
}

/// A waypoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackWaypoint {
    /// The content id (what the command line and tools show).
    pub id: u32,
    /// Position, world units.
    pub pos: Vec3Def,
    /// Whether it may be entered.
    pub active: bool,
    /// Designer-facing name.
    pub name: Option<String>,
    /// Free-form tags.
    pub tags: Vec<String>,
}

/// A one-way link between waypoint indices (its costs are in
/// [`Pack::link_costs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackLink {
    /// Index into [`Pack::waypoints`] the link leaves.
    pub from: u32,
    /// Index into [`Pack::waypoints`] the link enters.
    pub to: u32,
}

/// A named behaviour profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackProfile {
    /// Unique name.
    pub name: String,
    /// The profile as in content.
    pub profile: ProfileDef,
}

/// An archetype with its profile resolved to an index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackArchetype {
    /// Unique name.
    pub name: String,
    /// Named senses.
    pub senses: Vec<SenseDef>,
    /// How its agents move.
    pub movement: MovementDef,
    /// Who moves its agents' bodies.
    pub body: BodyDef,
    /// What its agents reveal in the fog of war.
    pub sight: Option<SightDef>,
    /// Index into [`Pack::profiles`].
    pub profile: Option<u32>,
    /// Volume of the noise its agents make while moving.
    pub noise: Option<f32>,
    /// Name of a game-registered decider (resolved when the world is built,
    /// against the game's plugins).
    pub decider: Option<String>,
    /// Index into [`Pack::cost_lists`] of its waypoint walkers' list.
    pub cost_list: Option<u32>,
    /// Separation distance, world units.
    pub separation: Option<f32>,
    /// Body radius, world units (`None`: the default).
    pub radius: Option<f32>,
    /// Local avoidance settings.
    pub avoidance: Option<crate::def::AvoidanceDef>,
    /// Path of its Lua script as written in the content; the text is in
    /// [`Pack::scripts`].
    pub script: Option<String>,
}

/// A region with the regions it sees resolved to indices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackRegion {
    /// Unique name.
    pub name: String,
    /// Corners on X-Z, world units.
    pub polygon: Vec<(f32, f32)>,
    /// Indices into [`Pack::regions`] it sees; `None`: computed.
    pub sees: Option<Vec<u32>>,
}

/// A scheduled sound with its source resolved to an agent index.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackSound {
    /// The tick whose sense stage hears it.
    pub tick: u64,
    /// Where, world units.
    pub pos: Vec3Def,
    /// Loudness at the source, >= 0.
    pub volume: f32,
    /// Index into [`Pack::agents`] of the agent that made it.
    pub source: Option<u32>,
    /// The game's code for what it is.
    pub tag: u32,
}

/// An agent with archetype and faction resolved to indices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackAgent {
    /// Unique name.
    pub name: String,
    /// Index into [`Pack::archetypes`].
    pub archetype: u32,
    /// Index into [`Pack::factions`].
    pub faction: u32,
    /// Position, world units.
    pub pos: Vec3Def,
    /// Facing, non-zero.
    pub facing: Vec3Def,
    /// Standing goal, world units.
    pub goal: Option<Vec3Def>,
}

/// A bundled script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackScript {
    /// Path relative to the content file, `/`-separated.
    pub path: String,
    /// The script's source text.
    pub text: String,
}

/// Why a pack could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// The bytes do not start with [`PACK_MAGIC`].
    NotAPack,
    /// The pack's layout version is not [`PACK_VERSION`].
    Version(u32),
    /// Fewer bytes than a header.
    Header(u64),
    /// Fewer or more bytes than the header announces.
    Length {
        /// Body bytes the header announces.
        expected: u64,
        /// Body bytes present.
        found: u64,
    },
    /// The body's checksum does not match: the pack is corrupted.
    Checksum,
    /// The body does not decode.
    Decode(String),
    /// An index or name refers to nothing, or a limit is exceeded.
    Invalid(String),
    /// Reading or writing failed.
    Io(String),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::NotAPack => write!(f, "not a kiai pack (no KIAIPACK magic)"),
            PackError::Version(v) => write!(
                f,
                "pack version {v} is not supported; this kiai reads version {PACK_VERSION}"
            ),
            PackError::Header(found) => write!(
                f,
                "pack is truncated: {found} bytes, shorter than the {HEADER_BYTES}-byte header"
            ),
            PackError::Length { expected, found } => write!(
                f,
                "pack is truncated or padded: header says {expected} body bytes, found {found}"
            ),
            PackError::Checksum => write!(f, "pack checksum mismatch: the file is corrupted"),
            PackError::Decode(e) => write!(f, "pack does not decode: {e}"),
            PackError::Invalid(e) => write!(f, "invalid pack: {e}"),
            PackError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PackError {}

pub(crate) fn invalid(message: String) -> PackError {
    PackError::Invalid(message)
}

/// `names[i]`, or an empty name when `i` is out of range.
fn name_at(names: &[String], i: u32) -> String {
    names.get(i as usize).cloned().unwrap_or_default()
}

impl Pack {
    /// Resolves validated content into a pack. Content that does not
    /// validate may give an error (never a panic).
    pub fn from_def(def: &ContentDef) -> Result<Self, PackError> {
        let faction = |name: &str| -> Result<u32, PackError> {
            def.factions
                .iter()
                .position(|f| f.name == name)
                .map(|i| i as u32)
                .ok_or_else(|| invalid(format!("unknown faction `{name}`")))
        };
        let cost_lists = if def.cost_lists.is_empty() {
            vec![DEFAULT_COST_LIST.to_owned()]
        } else {
            def.cost_lists.clone()
        };
        let mut waypoint_index = std::collections::BTreeMap::new();
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
                let i = cost_lists
                    .iter()
                    .position(|n| n == name)
                    .ok_or_else(|| invalid(format!("unknown cost list `{name}`")))?;
                costs[i] = *cost;
            }
            let (from, to) = (waypoint(l.from)?, waypoint(l.to)?);
            links.push(PackLink { from, to });
            link_costs.extend_from_slice(&costs);
            if l.two_way {
                links.push(PackLink { from: to, to: from });
                link_costs.extend_from_slice(&costs);
            }
        }
        let archetypes = def
            .archetypes
            .iter()
            .map(|(name, a)| {
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
                        Some(l) => Some(
                            def.cost_lists
                                .iter()
                                .position(|n| n == l)
                                .ok_or_else(|| invalid(format!("unknown cost list `{l}`")))?
                                as u32,
                        ),
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
            })
            .collect::<Result<_, PackError>>()?;
        let agents =
            def.agents
                .iter()
                .map(|a| {
                    Ok(PackAgent {
                        name: a.name.clone(),
                        archetype: def.archetypes.position(&a.archetype).ok_or_else(|| {
                            invalid(format!("unknown archetype `{}`", a.archetype))
                        })? as u32,
                        faction: faction(&a.faction)?,
                        pos: a.pos,
                        facing: a.facing,
                        goal: a.goal,
                    })
                })
                .collect::<Result<_, PackError>>()?;
        Ok(Pack {
            name: def.name.clone(),
            seed: def.seed,
            tick_seconds: def.tick_seconds,
            bounds: def.bounds,
            factions: def
                .factions
                .iter()
                .map(|f| {
                    Ok(PackFaction {
                        name: f.name.clone(),
                        hostile: f
                            .hostile
                            .iter()
                            .map(|h| faction(h))
                            .collect::<Result<_, _>>()?,
                    })
                })
                .collect::<Result<_, PackError>>()?,
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
            regions: def
                .regions
                .iter()
                .map(|r| {
                    Ok(PackRegion {
                        name: r.name.clone(),
                        polygon: r.polygon.clone(),
                        sees: match &r.sees {
                            None => None,
                            Some(names) => Some(
                                names
                                    .iter()
                                    .map(|n| {
                                        def.regions
                                            .iter()
                                            .position(|x| &x.name == n)
                                            .map(|k| k as u32)
                                            .ok_or_else(|| invalid(format!("unknown region `{n}`")))
                                    })
                                    .collect::<Result<_, _>>()?,
                            ),
                        },
                    })
                })
                .collect::<Result<_, PackError>>()?,
            sounds: def
                .sounds
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
                .collect::<Result<_, PackError>>()?,
            perception_budget: def.perception_budget,
            nav: def.nav,
            scripts: Vec::new(),
        })
    }

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
            format: crate::FORMAT_VERSION,
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
            agents: self
                .agents
                .iter()
                .map(|a| AgentDef {
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
                })
                .collect(),
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
            .map(|a| {
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

    /// Encodes the pack: header and postcard body.
    pub fn encode(&self) -> Result<Vec<u8>, PackError> {
        let body = crate::pack_body::encode(self)?;
        let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
        out.extend_from_slice(&PACK_MAGIC);
        out.extend_from_slice(&PACK_VERSION.to_le_bytes());
        out.extend_from_slice(&crate::FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&body).to_le_bytes());
        out.extend_from_slice(&body);
        Ok(out)
    }

    /// Decodes a pack from its bytes and checks its structure
    /// ([`Pack::check`]). Never panics, whatever the bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, PackError> {
        if !bytes.starts_with(&PACK_MAGIC) {
            return Err(PackError::NotAPack);
        }
        let word = |at: usize| -> Option<u64> {
            let b = bytes.get(at..at + 8)?;
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            Some(u64::from_le_bytes(a))
        };
        let header_len = |found: usize| PackError::Header(found as u64);
        let version = bytes
            .get(8..12)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| header_len(bytes.len()))?;
        if version != PACK_VERSION {
            return Err(PackError::Version(version));
        }
        let (Some(len), Some(sum)) = (word(16), word(24)) else {
            return Err(header_len(bytes.len()));
        };
        let body = &bytes[HEADER_BYTES..];
        if body.len() as u64 != len {
            return Err(PackError::Length {
                expected: len,
                found: body.len() as u64,
            });
        }
        if xxhash_rust::xxh3::xxh3_64(body) != sum {
            return Err(PackError::Checksum);
        }
        let pack = crate::pack_body::decode(body)?;
        pack.check()?;
        Ok(pack)
    }

    /// Reads and decodes the pack at `path`.
    pub fn load(path: &Path) -> Result<Self, PackError> {
        let io = |e: std::io::Error| PackError::Io(format!("cannot read {}: {e}", path.display()));
        let len = std::fs::metadata(path).map_err(io)?.len();
        if len > MAX_PACK_BYTES {
            return Err(invalid(format!(
                "pack is {len} bytes; packs are limited to {MAX_PACK_BYTES} bytes"
            )));
        }
        Self::decode(&std::fs::read(path).map_err(io)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_are_read_and_built_without_ron() {
        for source in [
            include_str!("pack.rs"),
            include_str!("pack_body.rs"),
            include_str!("pack_check.rs"),
            include_str!("pack_world.rs"),
            include_str!("rules.rs"),
        ] {
            let needle = ["ro", "n::"].concat();
            assert!(!source.contains(&needle));
            let needle = ["crate::", "parse"].concat();
            assert!(!source.contains(&needle));
        }
    }

    #[test]
    fn corrupt_headers_are_errors() {
        assert_eq!(Pack::decode(b""), Err(PackError::NotAPack));
        assert_eq!(Pack::decode(b"KIAIPACK"), Err(PackError::Header(8)));
        let mut bytes = b"KIAIPACK".to_vec();
        bytes.extend_from_slice(&9u32.to_le_bytes());
        assert_eq!(Pack::decode(&bytes), Err(PackError::Version(9)));
    }
}
