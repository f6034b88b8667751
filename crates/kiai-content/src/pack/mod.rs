//! Runtime packs: validated content with names resolved to indices, in a
//! compact binary encoding a game loads without any text parser.
//!
//! **This module does not use `ron`**, nor do the pack's body layout, checks and
//! world building (a test reads their sources): a game that only ships packs
//! needs neither the RON parser nor the span index. Loading a pack checks
//! its structure and values, not its names (`check.rs`), and its runtime
//! world is built straight from its indices (`build/pack_world.rs`).
//! `resolve.rs` turns content into a pack, `restore.rs` gives its names
//! back.
//!
//! Layer 2: imports the format and the checks, never the text reader.
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
//! numbers (`body.rs` has the layout), which decode at memory speed;
//! the readable encodings of a pack (RON, JSON) show plain lists.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::format::def::{
    AvoidanceDef, BodyDef, BoundsDef, FORMAT_VERSION, FogDef, MovementDef, NavDef,
    PerceptionBudgetDef, ProfileDef, SenseDef, SightDef, Vec3Def, WallDef,
};
use crate::format::limits::MAX_FILE_BYTES;

mod body;
mod check;
mod lod;
mod resolve;
mod restore;

pub(crate) use check::value_errors;
pub use lod::PackLod;

/// The first eight bytes of every pack.
pub const PACK_MAGIC: [u8; 8] = *b"KIAIPACK";

/// The pack layout version this crate writes and reads. It goes up with
/// every change of the body's layout, so an older pack is refused by name
/// instead of failing to decode (2: archetypes carry their script, noise,
/// decider, cost list and separation, and packs bundle scripts; 3:
/// waypoints, links and link costs are columns of little-endian numbers;
/// 7: a tick level of detail section ends the body).
pub const PACK_VERSION: u32 = 7;

/// The oldest pack layout version this crate reads: version 6 packs end
/// before the level of detail section and load without one.
pub const OLDEST_PACK_VERSION: u32 = 6;

/// Bytes before the body: magic, pack version, content format, body length,
/// checksum.
pub const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 8;

/// Largest pack read, in bytes (the content file limit).
pub const MAX_PACK_BYTES: u64 = MAX_FILE_BYTES;

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
    /// Tick level of detail: the archetypes' tiers and the points of
    /// interest (empty in version 6 packs).
    #[serde(default)]
    pub lod: PackLod,
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
    pub avoidance: Option<AvoidanceDef>,
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
    /// The pack's layout version is not [`OLDEST_PACK_VERSION`] to
    /// [`PACK_VERSION`].
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
                "pack version {v} is not supported; this kiai reads versions {OLDEST_PACK_VERSION} to {PACK_VERSION}: export it again with `kiai export`"
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

impl Pack {
    /// Encodes the pack: header and postcard body.
    pub fn encode(&self) -> Result<Vec<u8>, PackError> {
        let body = body::encode(self)?;
        let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
        out.extend_from_slice(&PACK_MAGIC);
        out.extend_from_slice(&PACK_VERSION.to_le_bytes());
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
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
        if !(OLDEST_PACK_VERSION..=PACK_VERSION).contains(&version) {
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
        let pack = body::decode(body, version)?;
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
            include_str!("mod.rs"),
            include_str!("body.rs"),
            include_str!("check.rs"),
            include_str!("resolve.rs"),
            include_str!("restore.rs"),
            include_str!("lod.rs"),
            include_str!("../build/lod.rs"),
            include_str!("../check/lod.rs"),
            include_str!("../build/pack_world.rs"),
            include_str!("../check/rules.rs"),
        ] {
            let needle = ["ro", "n::"].concat();
            assert!(!source.contains(&needle));
            let needle = ["crate::", "read"].concat();
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
