//! Behaviour: what each agent decides to do this tick.
//!
//! The [`Decider`] trait is the seam where the Rust default and game- or
//! script-provided logic plug in: the pipeline hands it the world (read-only,
//! with this tick's percepts) and each agent's random stream, and it writes
//! one [`Decision`] per agent.

use rayon::prelude::*;

use crate::ids::AgentId;
use crate::rng::AgentRng;
use crate::world::World;

/// What an agent is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BehaviourState {
    /// Wandering at random (seed 000).
    #[default]
    RandomWalk,
    /// Moving toward a target.
    Chase,
    /// Moving away from a threat.
    Evade,
}

impl BehaviourState {
    /// Every state, in report order.
    pub const ALL: [BehaviourState; 3] = [
        BehaviourState::RandomWalk,
        BehaviourState::Chase,
        BehaviourState::Evade,
    ];

    /// The snake_case name used in reports (`"random_walk"`).
    pub fn name(self) -> &'static str {
        match self {
            BehaviourState::RandomWalk => "random_walk",
            BehaviourState::Chase => "chase",
            BehaviourState::Evade => "evade",
        }
    }

    /// A stable small code for hashing and packing.
    pub fn code(self) -> u8 {
        match self {
            BehaviourState::RandomWalk => 0,
            BehaviourState::Chase => 1,
            BehaviourState::Evade => 2,
        }
    }
}

/// One agent's decision for one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// The state to be in.
    pub state: BehaviourState,
    /// The agent chased or evaded, if any.
    pub target: Option<AgentId>,
}

/// Decides, for every agent, what it does this tick.
///
/// Implementations must be deterministic: use only the world, the percepts and
/// the agent's own stream in `rngs`, never wall-clock time or unordered maps.
pub trait Decider {
    /// Fills `out[i]` for every agent `i`. On entry `out[i]` holds agent `i`'s
    /// previous decision; `rngs[i]` is its random stream.
    fn decide(&mut self, world: &World, rngs: &mut [AgentRng], out: &mut [Decision]);
}

/// The built-in decider: every agent random-walks. Behaviour profiles (chase,
/// evade) extend it.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultDecider;

impl Decider for DefaultDecider {
    fn decide(&mut self, _world: &World, _rngs: &mut [AgentRng], out: &mut [Decision]) {
        out.par_iter_mut()
            .with_min_len(crate::pipeline::PAR_MIN)
            .for_each(|d| {
                *d = Decision {
                    state: BehaviourState::RandomWalk,
                    target: None,
                };
            });
    }
}
