//! How an archetype's agents move: walkers, waypoint walkers, missiles
//! and plugin steering.

use serde::{Deserialize, Serialize};

use super::*;

/// How agents move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum MovementDef {
    /// Never moves.
    #[default]
    Static,
    /// Article 000's random walk.
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
    /// A guided missile (article 004) that turns toward its chase target.
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
        /// Cosine of the article's dead-band half-angle, in [-1, 1] (default 0.95).
        #[serde(default = "seed_precision")]
        precision: f32,
    },
    /// Walks the waypoint graph (article 001) with the archetype's cost list.
    WaypointWalker {
        /// World units per second, >= 0.
        speed: f32,
        /// `Select` (article 001's local choice, default) or `AStar` routes.
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
    /// Article 001's local choice at every waypoint.
    #[default]
    Select,
    /// A* routes to the destination.
    AStar,
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
    /// The article's greedy yaw-then-pitch control with a dead-band.
    #[default]
    SeedTwoAxis,
    /// Shortest-arc turn at the maximum rate.
    MaxRate,
}
