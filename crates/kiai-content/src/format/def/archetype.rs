//! Archetypes: what their agents sense and reveal, who moves their bodies,
//! and the behaviour profiles they use.

use serde::{Deserialize, Serialize};

use super::*;

/// A behaviour profile (article 002): weights for chase and evade when both are
/// possible, given as `chase`/`evade` or as the article's array of entries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileDef {
    /// Weight of chasing, >= 0 (with `evade`; not with `entries`).
    #[serde(default)]
    pub chase: Option<f32>,
    /// Weight of evading, >= 0 (with `chase`; not with `entries`).
    #[serde(default)]
    pub evade: Option<f32>,
    /// The article's array form: `0` = chase, `1` = evade, sampled uniformly.
    #[serde(default)]
    pub entries: Option<Vec<i64>>,
    /// Percent (0..=100) chance that the profile decides; otherwise evade
    /// beats chase. Default 100.
    #[serde(default = "hundred")]
    pub use_profile: f32,
    /// Percent (0..=100) chance of keeping the last contested decision.
    /// Default 0.
    #[serde(default)]
    pub keep_decision: f32,
    /// Learning from outcomes (default: none).
    #[serde(default)]
    pub learning: Option<LearningDef>,
}

fn hundred() -> f32 {
    100.0
}

/// How a profile's weights shift with outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearningDef {
    /// Weight change per outcome, > 0.
    pub rate: f32,
    /// Smallest weight, >= 0 (default 0.1).
    #[serde(default = "min_weight")]
    pub min_weight: f32,
    /// Largest weight, >= min_weight (default 100).
    #[serde(default = "max_weight")]
    pub max_weight: f32,
    /// Distance at which a chase catches its target, world units, > 0
    /// (default 1).
    #[serde(default = "catch_distance")]
    pub catch_distance: f32,
}

fn min_weight() -> f32 {
    0.1
}

fn max_weight() -> f32 {
    100.0
}

fn catch_distance() -> f32 {
    1.0
}

/// What an archetype's agents reveal in the fog of war.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum SightDef {
    /// Every tile within `radius`.
    Circle {
        /// World units, > 0 (at most 127 tiles).
        radius: f32,
    },
    /// A cone of `fov_deg` around the facing, cut at `radius`.
    Flashlight {
        /// World units, > 0 (at most 127 tiles).
        radius: f32,
        /// Full angle in degrees, in (0, 360].
        fov_deg: f32,
    },
}

/// An archetype: what its agents sense and how they move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchetypeDef {
    /// Named senses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub senses: Vec<SenseDef>,
    /// How agents move (default: `Static`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub movement: MovementDef,
    /// Who moves their bodies (default: `Simulated`, kiai does).
    #[serde(default, skip_serializing_if = "is_default")]
    pub body: BodyDef,
    /// What agents reveal in the fog of war (default: nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<SightDef>,
    /// Name of the behaviour profile (default: evade beats chase).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Volume of the noise agents make while moving (default: silent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<f32>,
    /// A decider the game registers by name, consulted before the profile
    /// (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decider: Option<String>,
    /// The movement-cost list waypoint walkers use (a name from
    /// `cost_lists`; default: the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_list: Option<String>,
    /// Keep this far from agents the all-around senses notice, world units,
    /// > 0 (default: no separation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separation: Option<f32>,
    /// Radius of the agents' bodies, world units, >= 0 (default 0.5): how
    /// close they come to walls and, with avoidance, to each other, and
    /// which waypoint links are wide enough for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f32>,
    /// Local avoidance of other agents and walls (ORCA); default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avoidance: Option<AvoidanceDef>,
    /// A Lua script (`kiai-lua`) that decides for these agents, a path
    /// relative to the content file unless absolute (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Tick level of detail: distance tiers from the nearest point of
    /// interest, nearest first, at most 16, each with how often its agents
    /// think (default: none, every agent thinks every tick).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lod: Vec<LodTierDef>,
}

/// Local avoidance (ORCA) of an archetype: `avoidance: Some(())` takes
/// every default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AvoidanceDef {
    /// How far ahead collisions with other agents are avoided, seconds,
    /// > 0 (default 4).
    #[serde(default = "four")]
    pub time_horizon: f32,
    /// How far ahead collisions with walls are avoided, seconds, > 0
    /// (default 1).
    #[serde(default = "one")]
    pub wall_time_horizon: f32,
    /// At most this many nearest agents are avoided, 0 to 64 (default 16).
    #[serde(default = "sixteen")]
    pub max_neighbours: u32,
    /// Agents of higher priority are avoided and do not avoid; equals
    /// share (default 0).
    #[serde(default)]
    pub priority: i32,
}

impl Default for AvoidanceDef {
    fn default() -> Self {
        Self {
            time_horizon: four(),
            wall_time_horizon: one(),
            max_neighbours: sixteen(),
            priority: 0,
        }
    }
}

fn four() -> f32 {
    kiai_core::Avoidance::default().time_horizon
}

fn sixteen() -> u32 {
    kiai_core::Avoidance::default().max_neighbours
}

/// One named sense.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SenseDef {
    /// Name, unique within the archetype.
    pub name: String,
    /// The region sensed.
    #[serde(with = "ShapeFormat")]
    pub shape: ShapeDef,
    /// Which agents are reported (default `All`).
    #[serde(default)]
    pub filter: FilterDef,
    /// Walls hide targets, and the regions' visible sets cull them first
    /// (default false).
    #[serde(default)]
    pub occluded: bool,
    /// Hysteresis: a target sensed last tick stays sensed out to this range,
    /// world units, at least the shape's reach (default: none).
    #[serde(default)]
    pub lose_range: Option<f32>,
    /// Ticks a target stays remembered after it was last sensed (default 0).
    #[serde(default)]
    pub memory_ticks: u32,
}

/// Faction filter of a sense.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FilterDef {
    /// Every other agent.
    #[default]
    All,
    /// Agents of factions this agent's faction is hostile to.
    Hostile,
    /// Agents of factions it is not hostile to.
    Friendly,
}

/// Who moves an archetype's bodies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BodyDef {
    /// kiai decides, steers and moves them.
    #[default]
    Simulated,
    /// kiai decides and steers them; the game moves them, following their
    /// desired velocity, and writes their bodies back.
    Driven,
    /// The game alone moves them (the player, thrown objects); kiai only
    /// senses with them and lets others sense them.
    Kinematic,
}
