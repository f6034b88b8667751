//! Messages between agents (article 003: a captain radios a guard).

use glam::Vec3;

use crate::data::{AgentId, FactionId};

/// Who a message goes to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Recipient {
    /// One agent.
    Agent(AgentId),
    /// Every agent of a faction (but the sender).
    Faction(FactionId),
    /// Every agent within `radius` world units of `center` (but the sender).
    Radius {
        /// Centre, world units.
        center: Vec3,
        /// Radius, world units, >= 0.
        radius: f32,
    },
}

/// A message between agents (article 003: a captain radios a guard). Sent
/// during a tick, delivered at the next sense stage, in sending order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Message {
    /// The sender, if an agent.
    pub from: Option<AgentId>,
    /// Who receives it.
    pub to: Recipient,
    /// What it means; the game's or script's code (`1` = "come here").
    pub tag: u32,
    /// A position it refers to (where to come), world units.
    pub position: Vec3,
}
