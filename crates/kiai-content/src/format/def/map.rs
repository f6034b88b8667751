//! The map: the waypoint graph, walls, regions, scheduled sounds, the fog
//! of war, bounds and the per-tick budgets.

use kiai_core::fog::GridSpec;
use serde::{Deserialize, Serialize};

use super::*;

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

impl FogDef {
    /// The tile grid of this fog over `bounds` on X-Z, or `None` when the
    /// sizes are out of range (tile size not positive, more than 32768 tiles
    /// per side).
    pub(crate) fn grid(&self, bounds: BoundsDef) -> Option<GridSpec> {
        let tiles = |extent: f32| -> Option<u32> {
            let n = (extent / self.tile_size).ceil().max(1.0);
            (n.is_finite() && n <= 32768.0).then_some(n as u32)
        };
        if !(self.tile_size.is_finite() && self.tile_size > 0.0) {
            return None;
        }
        let spec = GridSpec::new(
            tiles(bounds.max.0 - bounds.min.0)?,
            tiles(bounds.max.2 - bounds.min.2)?,
            self.tile_size,
        )
        .with_origin([bounds.min.0, bounds.min.2]);
        spec.is_valid().then_some(spec)
    }
}

fn default_directions() -> u16 {
    16
}

/// A cap on occlusion rays per tick: agents beyond it this tick keep last
/// tick's occluded results; which agents get rays rotates with the ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerceptionBudgetDef {
    /// Most rays per tick, at least 1.
    pub max_rays_per_tick: u32,
}

/// Navigation settings (`nav: (budget: Some(1024))`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavDef {
    /// Waypoints the A* route searches of one tick may expand, at least 1
    /// (default 1,024; a longer search goes on next tick): walkers whose request waits step toward their goal
    /// by article 001's selection until their route comes. `None`: no limit,
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

/// What a map's generated waypoints were made with, when it is not
/// `kiai navgen`'s default (`navgen: (radius: 0.5, spacing: 12.0)`).
/// `kiai navgen --write` and the editor's Generate waypoints write it;
/// regenerating, the net following a dragged wall and the warning about
/// uncovered ground use it, so a net made coarser or finer on purpose is
/// not remade or judged at the default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavGenDef {
    /// Body radius the net keeps clear of walls, world units, finite and
    /// >= 0.
    pub radius: f32,
    /// Spacing of the coverage grid and the coverage distance, world
    /// units, finite and > 0.01.
    pub spacing: f32,
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
