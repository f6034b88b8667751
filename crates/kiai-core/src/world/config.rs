//! How a world is made: its settings, how an agent is placed, and what can
//! go wrong.

use glam::Vec3;
use kiai_fog::FogError;

use crate::data::{AgentId, ArchetypeId, FactionId};

/// An axis-aligned box in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner; every component >= `min`'s.
    pub max: Vec3,
}

/// Settings fixed when a world is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldConfig {
    /// Seed of every random stream in the world.
    pub seed: u64,
    /// Simulated seconds per tick, > 0.
    pub tick_seconds: f32,
    /// Agents that walk out of these bounds are reflected back in. `None`:
    /// the world is unbounded.
    pub bounds: Option<Aabb>,
}

impl Default for WorldConfig {
    fn default() -> Self {
        Self {
            seed: 0,
            tick_seconds: 0.1,
            bounds: None,
        }
    }
}

/// How to place one agent; see [`World::spawn`].
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpawn {
    /// Unique name, used in reports.
    pub name: String,
    /// Its archetype.
    pub archetype: ArchetypeId,
    /// Its faction.
    pub faction: FactionId,
    /// Position, world units.
    pub position: Vec3,
    /// Facing; normalised on spawn (zero becomes +X).
    pub facing: Vec3,
}

/// Errors of world construction.
#[derive(Clone, Debug, PartialEq)]
pub enum WorldError {
    /// A handle does not name anything in this world.
    UnknownHandle(String),
    /// The agent is not in the world (despawned, or never spawned here).
    NotAlive(AgentId),
    /// No wall has this index or name.
    UnknownWall(String),
    /// The world has no waypoint graph, or it has no such waypoint or link.
    UnknownWaypoint(String),
    /// A world holds at most `u32::MAX` agents or `u16::MAX` archetypes.
    Full(&'static str),
    /// The fog of war rejected its settings or a unit.
    Fog(FogError),
    /// A change a running world cannot take (why, and what it can).
    Refused(String),
}

impl std::fmt::Display for WorldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorldError::UnknownHandle(h) => write!(f, "unknown handle {h}"),
            WorldError::NotAlive(a) => write!(f, "{a} is not in the world (despawned?)"),
            WorldError::UnknownWall(w) => write!(f, "no wall {w}"),
            WorldError::UnknownWaypoint(w) => write!(f, "no waypoint or link {w}"),
            WorldError::Full(what) => write!(f, "too many {what}"),
            WorldError::Fog(e) => write!(f, "fog of war: {e}"),
            WorldError::Refused(why) => f.write_str(why),
        }
    }
}

impl From<FogError> for WorldError {
    fn from(e: FogError) -> Self {
        WorldError::Fog(e)
    }
}

impl std::error::Error for WorldError {}
