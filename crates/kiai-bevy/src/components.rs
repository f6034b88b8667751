//! The components a game puts on its entities, and the ones the plugin
//! writes.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_math::Vec3;
use kiai::core::AgentId;

/// Makes an entity a kiai agent: the plugin spawns one of archetype
/// `archetype` in faction `faction` (names as the content spells them) at
/// the entity's `Transform`, and despawns it when the component or the
/// entity goes. The body mode is the archetype's (content `body`):
/// `Simulated` bodies are moved by kiai (their `Transform` is written),
/// `Driven` ones by the game following [`DesiredVelocity`], `Kinematic`
/// ones by the game alone (their `Transform` is read).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct KiaiAgent {
    /// The archetype's name in the content.
    pub archetype: String,
    /// The faction's name in the content.
    pub faction: String,
}

impl KiaiAgent {
    /// An agent of `archetype` in `faction`.
    pub fn new(archetype: impl Into<String>, faction: impl Into<String>) -> Self {
        Self {
            archetype: archetype.into(),
            faction: faction.into(),
        }
    }
}

/// The kiai handle of an entity's agent, inserted by the plugin once the
/// agent exists (read-only for the game).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct KiaiId(pub AgentId);

/// Where a `Driven` body wants to go: kiai's steered velocity (Bevy
/// axes, world units per second), written after every tick. The game's
/// character controller moves the body as it can; the plugin reads the
/// `Transform` back before the next tick.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct DesiredVelocity(pub Vec3);

/// What an agent senses, per sense of its archetype (in the archetype's
/// order), as entities; written after every tick for entities that have
/// the component (add it to the ones the game reads, so that agents
/// nobody looks at cost nothing).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Senses {
    /// Per sense: its name and the entities it senses, nearest first in
    /// kiai's rank order.
    pub senses: Vec<(String, Vec<Entity>)>,
}

impl Senses {
    /// The entities sense `name` senses (empty for an unknown name).
    pub fn get(&self, name: &str) -> &[Entity] {
        self.senses
            .iter()
            .find(|(n, _)| n == name)
            .map_or(&[], |(_, e)| e.as_slice())
    }
}

/// A wall of the content, by name, that the game switches: a door is
/// `enabled: false` when open. Changing `enabled` changes the kiai wall
/// before the next tick (walkers re-plan, eyes see through).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct KiaiWall {
    /// The wall's name in the content.
    pub name: String,
    /// Whether it blocks (a closed door).
    pub enabled: bool,
}
