//! How agents move: the [`Movement`] of an archetype and the [`RouteMode`]
//! of waypoint walkers.

use crate::data::{ControlMode, Guidance};

/// How an archetype's agents move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Movement {
    /// Never moves.
    #[default]
    Static,
    /// Article 000's random walk: each tick, with probability
    /// `1 / direction_change_factor`, a new random unit direction and a speed
    /// drawn uniformly from `[min_speed, max_speed]`; the facing follows the
    /// movement. Chasing and evading agents move at `max_speed`.
    Walker {
        /// Lowest walking speed, world units per second, >= 0.
        min_speed: f32,
        /// Highest walking speed, world units per second, >= `min_speed`.
        max_speed: f32,
        /// Mean ticks between direction changes; values below 5 count as 5,
        /// as in the seed.
        direction_change_factor: u32,
        /// `true` keeps the walk on the X-Z plane (ground units); `false`
        /// draws 3D directions exactly as the seed does.
        planar: bool,
    },
    /// A guided missile (article 004): flies along its facing at `speed`,
    /// turning toward its decision's target at most `turn_rate` per second;
    /// it stops within `arrival_distance` of the target. See
    /// [`Missile`](crate::data::Missile).
    Missile {
        /// World units per second, >= 0.
        speed: f32,
        /// Radians per second, > 0 (per axis under the article's 2-axis control).
        turn_rate: f32,
        /// How the frame turns.
        control: ControlMode,
        /// How the desired heading is chosen.
        guidance: Guidance,
        /// World units, >= 0.
        arrival_distance: f32,
        /// Cosine of the article's dead-band half-angle, in [-1, 1].
        precision: f32,
    },
    /// Walks the world's waypoint graph (article 001): random neighbours while
    /// random-walking, toward a chase target's waypoint or away from a
    /// threat's. See the navigate stage.
    WaypointWalker {
        /// World units per second, >= 0.
        speed: f32,
        /// Local selection or A* routes.
        route: RouteMode,
        /// A waypoint counts as reached within this distance, world units, > 0.
        arrive_radius: f32,
        /// Random cost variation of article 001's selection, >= 0 (0: none).
        jitter: f32,
        /// Cut corners: skip the next waypoint of an A* route while the
        /// straight way to the one after it is clear of walls with the
        /// agent's radius, and walk straight to the destination once that
        /// way is clear (see the navigate stage).
        smooth: bool,
    },
    /// Reynolds' wander on the X-Z plane: constant speed, the heading
    /// turning by a random angle in `[-turn_deg, turn_deg]` each tick, so the
    /// path meanders smoothly instead of article 000's sudden changes.
    Wander {
        /// World units per second, >= 0.
        speed: f32,
        /// Largest turn per tick, degrees, in [0, 180].
        turn_deg: f32,
    },
    /// A game-registered steering behaviour (plugins).
    Custom {
        /// Index into the world's [`Plugins`](crate::world::plugins::Plugins) steering.
        behaviour: usize,
        /// Velocities are capped at this speed, world units per second, >= 0.
        max_speed: f32,
    },
}

impl Movement {
    /// The fastest this movement goes, world units per second.
    pub fn max_speed(&self) -> f32 {
        match *self {
            Movement::Static => 0.0,
            Movement::Walker { max_speed, .. } => max_speed,
            Movement::Missile { speed, .. } => speed,
            Movement::Custom { max_speed, .. } => max_speed,
            Movement::WaypointWalker { speed, .. } => speed,
            Movement::Wander { speed, .. } => speed,
        }
    }
}

/// How waypoint walkers choose their way to a destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RouteMode {
    /// Article 001's local choice at every waypoint (greedy, cheap, can be
    /// fooled by dead ends; the random-neighbour fallback unsticks it).
    #[default]
    Select,
    /// An A* route to the destination waypoint, re-planned when the
    /// destination changes (toward only; evading uses article 001's selection).
    AStar,
}
