//! What an agent decided ([`Decision`]: a [`BehaviourState`], a target and a
//! goal) and its private decision state ([`Mind`]).

use crate::data::{AgentId, AgentRng};

/// What an agent is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BehaviourState {
    /// Wandering at random (article 000).
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
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Decision {
    /// The state to be in.
    pub state: BehaviourState,
    /// The agent chased or evaded, if any.
    pub target: Option<AgentId>,
    /// A position to chase toward or evade from when there is no target
    /// (e.g. where a captain radioed a guard to come), world units.
    pub goal: Option<glam::Vec3>,
}

/// An agent's private decision state: its random stream, its last contested
/// decision (article 002's `SavedBehaviorDecision`) and its current profile
/// weights (learned, when its profile learns).
#[derive(Clone, Debug)]
pub struct Mind {
    /// The agent's random stream; every roll of the agent comes from it.
    pub rng: AgentRng,
    /// The last decision taken when both chase and evade were possible.
    pub saved: Option<BehaviourState>,
    /// Current (chase, evade) weights.
    pub weights: [f32; 2],
}
