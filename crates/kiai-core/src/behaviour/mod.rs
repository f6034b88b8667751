//! Behaviour: what each agent decides to do this tick.
//!
//! The [`Decider`] trait is the seam where the Rust default and game- or
//! script-provided logic plug in: the pipeline hands it the world (read-only,
//! with this tick's percepts) and each agent's [`Mind`] (its random stream and
//! decision memory), and it writes one [`Decision`] per agent.
//!
//! The [`DefaultDecider`] is article 002: chase is possible when a directed sense
//! (cone, sector, ellipse) sees a hostile, evade when an all-around sense
//! (sphere) notices a hostile while this agent is being chased; a
//! [`Profile`] chooses when both are possible.

mod choose;
mod default_decider;
mod foresight;

pub use crate::par::works_ahead;
pub use choose::{Choice, DecidedBy, Roll, RollKind, RollLog, choose};
pub use default_decider::{DecisionTrace, DefaultDecider};

pub use crate::data::decision::{BehaviourState, Decision, Mind};
pub use crate::data::profile::{Learning, Outcome, Profile};

use crate::world::World;

/// Decides, for every agent, what it does this tick.
///
/// Implementations must be deterministic: use only the world, the percepts and
/// the agent's own [`Mind`], never wall-clock time or unordered maps.
pub trait Decider {
    /// Fills `out[i]` for every agent `i`. On entry `out[i]` holds agent `i`'s
    /// previous decision; `minds[i]` is its mind.
    fn decide(&mut self, world: &World, minds: &mut [Mind], out: &mut [Decision]);

    /// Called right after [`Decider::decide`] with the world writable:
    /// applies what the decisions do to the world (sounds, messages), in a
    /// deterministic order. The default does nothing.
    fn apply(&mut self, world: &mut World) {
        let _ = world;
    }
}
