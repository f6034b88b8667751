//! The content format, version 2, as serde types (`*Def`): the file
//! ([`ContentDef`], here), its map (`map.rs`), archetypes and their
//! profiles (`archetype.rs`), how they move (`movement.rs`), the factions
//! and agents of the scene (`agent.rs`) and the sense shapes (`shape.rs`:
//! kiai-core's own type, read through serde's remote derive).
//!
//! Older versions are read through [`crate::migrate`]; `docs/format.md`
//! documents every field and a test checks it against these types.
//!
//! These types mirror the RON text one to one; unknown fields are rejected.
//! They are converted into runtime types by [`crate::build_world`] and never
//! reach `kiai-core`.
//!
//! Fields that hold their default are not written: types only ever written
//! as text skip them when serialising (`skip_serializing_if`). Types that
//! packs also encode (`FogDef`, `ProfileDef`, `LearningDef`, `SenseDef`,
//! `ShapeDef`, `MovementDef`, ...) must serialise every field, since
//! postcard is not self-describing; the text writer leaves their defaults
//! out itself (`crate::write`).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

mod agent;
mod archetype;
mod lod;
mod map;
mod movement;
mod shape;

pub use agent::{AgentDef, FactionDef};
pub use archetype::{
    ArchetypeDef, AvoidanceDef, BodyDef, FilterDef, LearningDef, ProfileDef, SenseDef, SightDef,
};
pub use lod::{LodTierDef, lod_tiers};
pub use map::{
    BoundsDef, FogDef, LinkDef, NavDef, NavGenDef, PerceptionBudgetDef, RegionDef, SoundDef,
    WallDef, WaypointDef,
};
pub use movement::{ControlDef, GuidanceDef, MovementDef, RouteDef};
pub use shape::{FalloffDef, FalloffFormat, ShapeDef, ShapeFormat};

/// The newest content format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 2;

/// The oldest content format version this crate still reads (migrating it).
pub const OLDEST_FORMAT_VERSION: u32 = 1;

/// Name of the cost list used when content declares none.
pub const DEFAULT_COST_LIST: &str = "default";

/// The message for a file of a version this kiai cannot read.
pub(crate) fn unsupported(version: u64) -> String {
    format!(
        "unsupported format version {version}; this kiai reads versions {OLDEST_FORMAT_VERSION} to {FORMAT_VERSION}"
    )
}

/// A point or direction `(x, y, z)` in world units; Y is up.
pub type Vec3Def = (f32, f32, f32);

/// A whole content file: a map, a scene, or both.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentDef {
    /// Format version; must be [`FORMAT_VERSION`].
    pub format: u32,
    /// Human-readable name of the project or level.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Seed of every random stream of the simulation.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub seed: u64,
    /// Simulated seconds per tick, > 0 (default 0.1).
    #[serde(
        default = "default_tick_seconds",
        skip_serializing_if = "is_default_tick_seconds"
    )]
    pub tick_seconds: f32,
    /// Agents walking out of these bounds are reflected back in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<BoundsDef>,
    /// Factions and their hostility.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub factions: Vec<FactionDef>,
    /// Names of the movement-cost lists (one per unit type, e.g.
    /// `"infantry"`, `"vehicle"`). Empty: one implicit list, `"default"`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cost_lists: Vec<String>,
    /// Waypoints of the navigation graph.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waypoints: Vec<WaypointDef>,
    /// Directed links between waypoints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkDef>,
    /// Walls on X-Z that hide agents from `occluded` senses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<WallDef>,
    /// Regions (rooms) with the regions each can see: a potentially visible
    /// set that culls `occluded` senses before any ray is cast.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<RegionDef>,
    /// Sounds that happen at given ticks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sounds: Vec<SoundDef>,
    /// Tile fog of war over the bounds' X-Z extent (needs `bounds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fog: Option<FogDef>,
    /// A cap on occlusion rays per tick, spread round-robin over the
    /// agents (none: every ray every tick).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perception_budget: Option<PerceptionBudgetDef>,
    /// Navigation settings: how much route search a tick may do.
    #[serde(default, skip_serializing_if = "is_default")]
    pub nav: NavDef,
    /// The radius and spacing the generated waypoints were made with, when
    /// not `kiai navgen`'s defaults (none: the defaults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub navgen: Option<NavGenDef>,
    /// Behaviour profiles by name (article 002), referenced by archetypes.
    #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
    pub profiles: OrderedMap<ProfileDef>,
    /// Archetypes by name, in file order.
    #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
    pub archetypes: OrderedMap<ArchetypeDef>,
    /// The agents of the scene.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentDef>,
    /// Fixed points of interest, world units: archetypes with `lod` tiers
    /// think as often as the tier of their distance to the nearest one (or
    /// to an agent with `interest: true`) says. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interest: Vec<Vec3Def>,
}

fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}

fn is_true(v: &bool) -> bool {
    *v
}

fn is_false(v: &bool) -> bool {
    !*v
}

fn default_tick_seconds() -> f32 {
    0.1
}

fn is_default_tick_seconds(v: &f32) -> bool {
    same_bits(*v, default_tick_seconds())
}

/// Whether two floats are the same value, bit for bit: `-0.0` is not the
/// default `0.0`, so it is written (and reads back as `-0.0`).
fn same_bits(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
}

fn one() -> f32 {
    1.0
}

/// Whether `v` is its type's default (such fields are not written).
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A RON map `{ "key": value, ... }` that keeps file order and duplicate keys
/// (so validation can report them instead of silently keeping the last).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderedMap<V>(pub Vec<(String, V)>);

impl<V> Default for OrderedMap<V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<V> OrderedMap<V> {
    /// The first value stored under `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The position of the first entry called `key`.
    pub fn position(&self, key: &str) -> Option<usize> {
        self.0.iter().position(|(k, _)| k == key)
    }

    /// Entries in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<V: Serialize> Serialize for OrderedMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OrderedVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for OrderedVisitor<V> {
            type Value = OrderedMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map from names to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = access.next_entry()? {
                    entries.push((k, v));
                }
                Ok(OrderedMap(entries))
            }
        }
        deserializer.deserialize_map(OrderedVisitor(PhantomData))
    }
}
