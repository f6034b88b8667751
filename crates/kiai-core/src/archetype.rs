//! Archetypes: the templates agents are made from (senses and movement).

use crate::behaviour::Profile;
use crate::perception::Sense;
use crate::steering::missile::{ControlMode, Guidance};

/// How an archetype's agents move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Movement {
    /// Never moves.
    #[default]
    Static,
    /// Seed 000's random walk: each tick, with probability
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
    /// A guided missile (seed 004): flies along its facing at `speed`,
    /// turning toward its decision's target at most `turn_rate` per second;
    /// it stops within `arrival_distance` of the target. See
    /// [`crate::steering::missile`].
    Missile {
        /// World units per second, >= 0.
        speed: f32,
        /// Radians per second, > 0 (per axis under the seed's 2-axis control).
        turn_rate: f32,
        /// How the frame turns.
        control: ControlMode,
        /// How the desired heading is chosen.
        guidance: Guidance,
        /// World units, >= 0.
        arrival_distance: f32,
        /// Cosine of the seed's dead-band half-angle, in [-1, 1].
        precision: f32,
    },
    /// Walks the world's waypoint graph (seed 001): random neighbours while
    /// random-walking, toward a chase target's waypoint or away from a
    /// threat's. See [`crate::navigate`].
    WaypointWalker {
        /// World units per second, >= 0.
        speed: f32,
        /// Local selection or A* routes.
        route: crate::navigate::RouteMode,
        /// A waypoint counts as reached within this distance, world units, > 0.
        arrive_radius: f32,
        /// Random cost variation of seed 001's selection, >= 0 (0: none).
        jitter: f32,
    },
    /// Reynolds' wander on the X-Z plane: constant speed, the heading
    /// turning by a random angle in `[-turn_deg, turn_deg]` each tick, so the
    /// path meanders smoothly instead of seed 000's sudden changes.
    Wander {
        /// World units per second, >= 0.
        speed: f32,
        /// Largest turn per tick, degrees, in [0, 180].
        turn_deg: f32,
    },
    /// A game-registered steering behaviour ([`crate::plugins`]).
    Custom {
        /// Index into the world's [`Plugins`](crate::plugins::Plugins) steering.
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

/// What an agent reveals in the tile fog of war (seed 003): a circle or a
/// flashlight of `radius` world units, converted to tiles by the fog grid's
/// tile size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sight {
    /// Sight radius in world units, > 0.
    pub radius: f32,
    /// `None`: a full circle. `Some(fov)`: a flashlight cone of `fov` degrees
    /// (in (0, 360]) around the agent's facing.
    pub flashlight_fov_deg: Option<f32>,
}

/// A template for agents: what they sense and how they move.
///
/// `Archetype::default()` is a nameless, senseless, static archetype with
/// every option off; fill in what matters with struct update syntax.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Archetype {
    /// Unique name (`"guard"`).
    pub name: String,
    /// Named senses, tested in this order; percepts are reported per sense.
    pub senses: Vec<Sense>,
    /// How agents of this archetype move.
    pub movement: Movement,
    /// What they reveal in the fog of war; `None`: nothing.
    pub sight: Option<Sight>,
    /// How they choose between chase and evade (seed 002); `None`: evade
    /// beats chase.
    pub profile: Option<Profile>,
    /// Volume of the noise they make while moving (scaled by speed / max
    /// speed), heard by hearing senses; `None`: silent.
    pub noise: Option<f32>,
    /// A game-registered decider ([`crate::plugins`]) consulted before the
    /// built-in logic: index into the world's plugins.
    pub decider: Option<usize>,
    /// The movement-cost list waypoint walkers use (seed 001's
    /// `CostListID`); `None`: the first list.
    pub cost_list: Option<kiai_nav::CostListId>,
    /// Keep this far (world units, > 0) from the agents the all-around
    /// senses notice, by steering away from them; `None`: no separation.
    pub separation: Option<f32>,
}

impl Archetype {
    /// The index of the sense called `name`.
    pub fn sense_index(&self, name: &str) -> Option<usize> {
        self.senses.iter().position(|s| s.name == name)
    }
}
