//! The content format, version 2, as serde types (`*Def`).
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

/// The newest content format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 2;

/// The oldest content format version this crate still reads (migrating it).
pub const OLDEST_FORMAT_VERSION: u32 = 1;

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
    /// Behaviour profiles by name (seed 002), referenced by archetypes.
    #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
    pub profiles: OrderedMap<ProfileDef>,
    /// Archetypes by name, in file order.
    #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
    pub archetypes: OrderedMap<ArchetypeDef>,
    /// The agents of the scene.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentDef>,
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

/// Whether `v` is its type's default (such fields are not written).
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A waypoint of the navigation graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaypointDef {
    /// Unique id, referenced by links and on the command line.
    pub id: u32,
    /// Position, world units.
    pub pos: Vec3Def,
    /// Inactive waypoints are never entered (a blown-up bridge). Default true.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub active: bool,
    /// Optional designer-facing name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Free-form tags (`"cover"`, `"door"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

fn yes() -> bool {
    true
}

/// A directed link `from -> to` (add `two_way: true` for both directions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkDef {
    /// Waypoint id the link leaves.
    pub from: u32,
    /// Waypoint id the link enters.
    pub to: u32,
    /// Multipliers on the link's length by cost-list name (`{"vehicle":
    /// 2.5}`), each finite and >= 0; a list not named here costs 1.0. Keys
    /// are names from `cost_lists` (or `"default"` when it is empty).
    /// Format 1 gave a positional list instead; see [`crate::migrate`].
    #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
    pub costs: OrderedMap<f32>,
    /// Also add the link `to -> from` with the same costs.
    #[serde(default, skip_serializing_if = "is_false")]
    pub two_way: bool,
}

/// A wall: a segment on X-Z from the ground up to `height`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallDef {
    /// One end `(x, z)`, world units.
    pub from: (f32, f32),
    /// The other end `(x, z)`, world units.
    pub to: (f32, f32),
    /// Height above y = 0, world units, > 0.
    pub height: f32,
    /// A unique name, so that events and the game can open or close it
    /// (`"door_1"`; default: none).
    #[serde(default)]
    pub name: Option<String>,
    /// A door: while closed it also blocks the waypoint links it crosses
    /// (default false). Computed potentially visible sets count doors as
    /// open.
    #[serde(default)]
    pub door: bool,
    /// Starts open (down): it hides nothing and stops nobody until closed
    /// (default false).
    #[serde(default)]
    pub open: bool,
}

/// A region of the potentially visible set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionDef {
    /// Unique name.
    pub name: String,
    /// A simple polygon on X-Z, `(x, z)` corners in order, at least 3.
    pub polygon: Vec<(f32, f32)>,
    /// Names of the regions it can see (it always sees itself). When any
    /// region leaves this out, the whole set is computed by casting sample
    /// rays between regions against the walls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sees: Option<Vec<String>>,
}

/// A sound at a given tick (a bell, an explosion).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundDef {
    /// The tick whose sense stage hears it.
    pub tick: u64,
    /// Where, world units.
    pub pos: Vec3Def,
    /// Loudness at the source, >= 0.
    pub volume: f32,
    /// The agent that made it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The game's code for what it is.
    #[serde(default, skip_serializing_if = "is_default")]
    pub tag: u32,
}

/// The tile fog of war: a grid over the bounds on X-Z.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FogDef {
    /// Tile side in world units, > 0. The grid covers the bounds' X-Z extent
    /// (at most 32768 tiles per side).
    pub tile_size: f32,
    /// Direction buckets for flashlight sights, 1..=1024 (default 16).
    #[serde(default = "default_directions")]
    pub directions: u16,
    /// Blocking tiles cast shadows (default false).
    #[serde(default)]
    pub occlusion: bool,
    /// Tiles that block sight, `(x, z)` in tiles from the bounds' minimum corner.
    #[serde(default)]
    pub blocking: Vec<(u32, u32)>,
}

fn default_directions() -> u16 {
    16
}

/// A behaviour profile (seed 002): weights for chase and evade when both are
/// possible, given as `chase`/`evade` or as the seed's array of entries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileDef {
    /// Weight of chasing, >= 0 (with `evade`; not with `entries`).
    #[serde(default)]
    pub chase: Option<f32>,
    /// Weight of evading, >= 0 (with `chase`; not with `entries`).
    #[serde(default)]
    pub evade: Option<f32>,
    /// The seed's array form: `0` = chase, `1` = evade, sampled uniformly.
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

/// A cap on occlusion rays per tick: agents beyond it this tick keep last
/// tick's occluded results; which agents get rays rotates with the ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerceptionBudgetDef {
    /// Most rays per tick, at least 1.
    pub max_rays_per_tick: u32,
}

/// Navigation settings (`nav: (budget: Some(4096))`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavDef {
    /// Waypoints the A* route searches of one tick may expand, at least 1
    /// (default 4,096): walkers whose request waits step toward their goal
    /// by seed 001's selection until their route comes. `None`: no limit,
    /// every route is found in the tick it is asked for.
    #[serde(
        default = "default_route_budget",
        skip_serializing_if = "is_default_route_budget"
    )]
    pub budget: Option<u32>,
}

impl Default for NavDef {
    fn default() -> Self {
        Self {
            budget: default_route_budget(),
        }
    }
}

fn default_route_budget() -> Option<u32> {
    Some(kiai_core::DEFAULT_ROUTE_BUDGET)
}

fn is_default_route_budget(v: &Option<u32>) -> bool {
    *v == default_route_budget()
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundsDef {
    /// Smallest corner.
    pub min: Vec3Def,
    /// Largest corner.
    pub max: Vec3Def,
}

/// A faction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactionDef {
    /// Unique name.
    pub name: String,
    /// Names of the factions this one is hostile to (one direction).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hostile: Vec<String>,
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

/// A sense shape; see `kiai_core::Shape` for the exact tests.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeDef {
    /// All-around: `distance < radius`.
    Sphere {
        /// World units, > 0.
        radius: f32,
    },
    /// 3D view cone.
    Cone {
        /// World units, > 0.
        range: f32,
        /// Full angle in degrees, in (0, 360].
        fov_deg: f32,
    },
    /// 2.5D sector: horizontal range and angle plus a height limit.
    Sector {
        /// World units, > 0.
        range: f32,
        /// Full angle in degrees, in (0, 360].
        fov_deg: f32,
        /// World units, >= 0.
        max_height_diff: f32,
    },
    /// Ellipse on X-Z ahead of the agent.
    Ellipse {
        /// Semi-major axis, world units, > 0, >= b.
        a: f32,
        /// Semi-minor axis, world units, > 0.
        b: f32,
        /// Centre's distance ahead of the agent, world units.
        center_ahead: f32,
    },
    /// Hearing: sounds at least `threshold` loud at the listener.
    Hearing {
        /// Quietest loudness heard, > 0.
        threshold: f32,
        /// How loudness falls with distance (default `InverseSquare`).
        #[serde(default)]
        falloff: FalloffDef,
    },
}

/// How loudness falls with distance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FalloffDef {
    /// `volume / distance²`, seed 003's code.
    #[default]
    InverseSquare,
    /// `volume * (1 - distance / range)`, seed 003's text.
    Linear {
        /// World units, > 0.
        range: f32,
    },
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

/// How agents move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum MovementDef {
    /// Never moves.
    #[default]
    Static,
    /// Seed 000's random walk.
    Walker {
        /// World units per second, >= 0.
        min_speed: f32,
        /// World units per second, >= min_speed.
        max_speed: f32,
        /// Mean ticks between direction changes (values below 5 count as 5).
        direction_change_factor: u32,
        /// Stay on the X-Z plane (default false: 3D as in the seed).
        #[serde(default)]
        planar: bool,
    },
    /// A guided missile (seed 004) that turns toward its chase target.
    Missile {
        /// World units per second, >= 0.
        speed: f32,
        /// Turn rate in degrees per second, > 0.
        turn_rate_deg: f32,
        /// Guidance (default `PurePursuit`).
        #[serde(default)]
        guidance: GuidanceDef,
        /// Control (default `SeedTwoAxis`).
        #[serde(default)]
        control: ControlDef,
        /// Stops within this distance of the target, world units, >= 0
        /// (default 1).
        #[serde(default = "one")]
        arrival_distance: f32,
        /// Cosine of the seed's dead-band half-angle, in [-1, 1] (default 0.95).
        #[serde(default = "seed_precision")]
        precision: f32,
    },
    /// Walks the waypoint graph (seed 001) with the archetype's cost list.
    WaypointWalker {
        /// World units per second, >= 0.
        speed: f32,
        /// `Select` (seed 001's local choice, default) or `AStar` routes.
        #[serde(default)]
        route: RouteDef,
        /// A waypoint counts as reached within this distance, world units,
        /// > 0 (default 0.5).
        #[serde(default = "half")]
        arrive_radius: f32,
        /// Random cost variation of the local choice, >= 0 (default 0).
        #[serde(default)]
        jitter: f32,
        /// Cut corners where the straight way is clear of walls with the
        /// agent's radius, and walk straight to the destination once its
        /// way is clear (default false). Packs encode it, so it is never
        /// skipped here; the text writer leaves the default out.
        #[serde(default)]
        smooth: bool,
    },
    /// Reynolds' wander: constant speed, heading turning smoothly at random.
    Wander {
        /// World units per second, >= 0.
        speed: f32,
        /// Largest turn per tick, degrees, in [0, 180].
        turn_deg: f32,
    },
    /// A steering behaviour the game registers by name (see
    /// `kiai_core::plugins`).
    Custom {
        /// The registered name.
        name: String,
        /// Speed cap, world units per second, >= 0.
        max_speed: f32,
    },
}

fn half() -> f32 {
    0.5
}

/// How waypoint walkers route.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RouteDef {
    /// Seed 001's local choice at every waypoint.
    #[default]
    Select,
    /// A* routes to the destination.
    AStar,
}

fn one() -> f32 {
    1.0
}

fn seed_precision() -> f32 {
    0.95
}

/// How a missile picks its desired heading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum GuidanceDef {
    /// Aim at the target's current position (the seed).
    #[default]
    PurePursuit,
    /// Turn at `n` times the line-of-sight rate (leads moving targets).
    ProportionalNavigation {
        /// Navigation constant, > 0 (3 to 5 is typical).
        n: f32,
    },
}

/// How a missile's frame turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ControlDef {
    /// The seed's greedy yaw-then-pitch control with a dead-band.
    #[default]
    SeedTwoAxis,
    /// Shortest-arc turn at the maximum rate.
    MaxRate,
}

/// One agent of the scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentDef {
    /// Unique name.
    pub name: String,
    /// Name of its archetype.
    pub archetype: String,
    /// Name of its faction.
    pub faction: String,
    /// Position, world units.
    pub pos: Vec3Def,
    /// Facing, any non-zero length (default +X).
    #[serde(default = "default_facing", skip_serializing_if = "is_default_facing")]
    pub facing: Vec3Def,
    /// Where the agent goes when it has nothing to chase or evade (its
    /// standing goal), world units; default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Vec3Def>,
}

fn default_facing() -> Vec3Def {
    (1.0, 0.0, 0.0)
}

fn is_default_facing(v: &Vec3Def) -> bool {
    let d = default_facing();
    same_bits(v.0, d.0) && same_bits(v.1, d.1) && same_bits(v.2, d.2)
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
