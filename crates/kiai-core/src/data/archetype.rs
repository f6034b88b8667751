//! Archetypes: the templates agents are made from (senses and movement).

use crate::data::{Avoidance, BodyMode, Movement, Profile, Sense};

/// What an agent reveals in the tile fog of war (article 003): a circle or a
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
/// `Archetype::default()` is a nameless, senseless, static archetype of
/// radius [`Archetype::DEFAULT_RADIUS`] with every option off; fill in what
/// matters with struct update syntax.
#[derive(Clone, Debug, PartialEq)]
pub struct Archetype {
    /// Unique name (`"guard"`).
    pub name: String,
    /// Named senses, tested in this order; percepts are reported per sense.
    pub senses: Vec<Sense>,
    /// How agents of this archetype move.
    pub movement: Movement,
    /// Who moves their bodies: kiai (the default), the game following
    /// kiai's desired velocity, or the game alone.
    pub body: BodyMode,
    /// What they reveal in the fog of war; `None`: nothing.
    pub sight: Option<Sight>,
    /// How they choose between chase and evade (article 002); `None`: evade
    /// beats chase.
    pub profile: Option<Profile>,
    /// Volume of the noise they make while moving (scaled by speed / max
    /// speed), heard by hearing senses; `None`: silent.
    pub noise: Option<f32>,
    /// A game-registered decider ([`crate::plugins`]) consulted before the
    /// built-in logic: index into the world's plugins.
    pub decider: Option<usize>,
    /// The movement-cost list waypoint walkers use (article 001's
    /// `CostListID`); `None`: the first list.
    pub cost_list: Option<kiai_nav::CostListId>,
    /// Keep this far (world units, > 0) from the agents the all-around
    /// senses notice, by steering away from them; `None`: no separation.
    pub separation: Option<f32>,
    /// The radius of its agents' bodies on X-Z, world units, >= 0: how
    /// close they come to walls, to each other (with avoidance) and which
    /// waypoint links are wide enough for them.
    pub radius: f32,
    /// Local avoidance (ORCA) of other agents and walls; `None`: the
    /// agents only keep clear of walls, and others avoid them.
    pub avoidance: Option<Avoidance>,
    /// Tick level of detail: distance tiers from the nearest point of
    /// interest ([`World::set_interest_points`](crate::World::set_interest_points)),
    /// nearest first, each with how often its agents sense and decide
    /// (see [`LodTier`](crate::LodTier)); empty: every tick.
    pub lod: Vec<crate::data::lod::LodTier>,
}

impl Default for Archetype {
    fn default() -> Self {
        Self {
            name: String::new(),
            senses: Vec::new(),
            movement: Movement::default(),
            body: BodyMode::default(),
            sight: None,
            profile: None,
            noise: None,
            decider: None,
            cost_list: None,
            separation: None,
            radius: Self::DEFAULT_RADIUS,
            avoidance: None,
            lod: Vec::new(),
        }
    }
}

impl Archetype {
    /// The radius of an archetype that does not give one, world units.
    pub const DEFAULT_RADIUS: f32 = 0.5;

    /// The index of the sense called `name`.
    pub fn sense_index(&self, name: &str) -> Option<usize> {
        self.senses.iter().position(|s| s.name == name)
    }
}
