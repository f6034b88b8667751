//! Behaviour: what each agent decides to do this tick.
//!
//! The [`Decider`] trait is the seam where the Rust default and game- or
//! script-provided logic plug in: the pipeline hands it the world (read-only,
//! with this tick's percepts) and each agent's [`Mind`] (its random stream and
//! decision memory), and it writes one [`Decision`] per agent.
//!
//! The [`DefaultDecider`] is seed 002: chase is possible when a directed sense
//! (cone, sector, ellipse) sees a hostile, evade when an all-around sense
//! (sphere) notices a hostile while this agent is being chased; a
//! [`Profile`] chooses when both are possible.

mod profile;

pub use profile::{Choice, DecidedBy, Learning, Outcome, Profile, Roll, RollKind, RollLog, choose};

use rand::RngExt;
use rayon::prelude::*;

use crate::ids::AgentId;
use crate::perception::SenseKind;
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
/// decision (seed 002's `SavedBehaviorDecision`) and its current profile
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

/// Why one agent decided what it did, for traces and the editor.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DecisionTrace {
    /// The nearest hostile a directed sense saw (chase was possible).
    pub chase_option: Option<AgentId>,
    /// The nearest hostile an all-around sense noticed while chased (evade
    /// was possible).
    pub evade_option: Option<AgentId>,
    /// Whether some agent chased this one last tick.
    pub chased: bool,
    /// The rolls drawn, in order.
    pub rolls: RollLog,
    /// Who decided.
    pub decided_by: DecidedBy,
    /// What learning saw since the last decision.
    pub outcome: Option<Outcome>,
    /// (chase, evade) weights used.
    pub weights: [f32; 2],
}

/// Seed 002's decider, with per-archetype [`Profile`]s.
///
/// Archetypes without a profile use the fixed rule (evade beats chase).
/// Targets are the nearest hostile (ties by lower id).
#[derive(Debug, Default)]
pub struct DefaultDecider {
    chased: Vec<bool>,
    traces: Option<Vec<DecisionTrace>>,
}

impl DefaultDecider {
    /// A decider that also records a [`DecisionTrace`] per agent per tick.
    pub fn with_traces() -> Self {
        Self {
            chased: Vec::new(),
            traces: Some(Vec::new()),
        }
    }

    /// The traces of the last tick, indexed by agent (empty unless made with
    /// [`DefaultDecider::with_traces`]).
    pub fn traces(&self) -> &[DecisionTrace] {
        self.traces.as_deref().unwrap_or(&[])
    }
}

/// The fixed-rule profile of archetypes without one.
const NO_PROFILE: Profile = Profile {
    chase: 1.0,
    evade: 1.0,
    use_profile: 0.0,
    keep_decision: 0.0,
    learning: None,
};

impl Decider for DefaultDecider {
    fn decide(&mut self, world: &World, minds: &mut [Mind], out: &mut [Decision]) {
        let a = world.agents();
        let n = a.len();
        self.chased.clear();
        self.chased.resize(n, false);
        for d in a.decisions() {
            if let (BehaviourState::Chase, Some(t)) = (d.state, d.target)
                && let Some(c) = self.chased.get_mut(t.index())
            {
                *c = true;
            }
        }
        let chased = &self.chased;
        let decide_one = |i: usize, mind: &mut Mind, out: &mut Decision| -> DecisionTrace {
            decide_agent(world, i, chased[i], mind, out)
        };
        match &mut self.traces {
            Some(traces) => {
                traces.clear();
                traces.resize(n, DecisionTrace::default());
                minds
                    .par_iter_mut()
                    .zip(out.par_iter_mut())
                    .zip(traces.par_iter_mut())
                    .enumerate()
                    .with_min_len(crate::pipeline::PAR_MIN)
                    .for_each(|(i, ((m, o), t))| *t = decide_one(i, m, o));
            }
            None => {
                minds
                    .par_iter_mut()
                    .zip(out.par_iter_mut())
                    .enumerate()
                    .with_min_len(crate::pipeline::PAR_MIN)
                    .for_each(|(i, (m, o))| {
                        decide_one(i, m, o);
                    });
            }
        }
    }
}

/// The nearest hostile in the percepts of `agent`'s senses whose shape is
/// (`all_around`) or is not (directed) a sphere; ties by lower id.
fn nearest_hostile(world: &World, agent: usize, all_around: bool) -> Option<AgentId> {
    let a = world.agents();
    let me = AgentId::from_index(agent);
    let archetype = world.archetype(a.archetypes()[agent])?;
    let eye = a.positions()[agent];
    let faction = a.factions()[agent];
    let mut best: Option<(f32, AgentId)> = None;
    for (s, sense) in archetype.senses.iter().enumerate() {
        let wanted = if all_around {
            SenseKind::AllAround
        } else {
            SenseKind::Directed
        };
        if sense.shape.kind() != wanted {
            continue;
        }
        for &other in world.percepts().sensed(me, s) {
            if !world
                .factions()
                .is_hostile(faction, a.factions()[other.index()])
            {
                continue;
            }
            let d = eye.distance_squared(a.positions()[other.index()]);
            if best.is_none_or(|(bd, bid)| d < bd || (d == bd && other < bid)) {
                best = Some((d, other));
            }
        }
    }
    best.map(|(_, id)| id)
}

/// Whether `agent`'s senses of the given kind currently report `target`.
fn notices(world: &World, agent: usize, target: AgentId, all_around: bool) -> bool {
    let a = world.agents();
    let Some(archetype) = world.archetype(a.archetypes()[agent]) else {
        return false;
    };
    archetype.senses.iter().enumerate().any(|(s, sense)| {
        sense.shape.kind()
            == if all_around {
                SenseKind::AllAround
            } else {
                SenseKind::Directed
            }
            && world
                .percepts()
                .sensed(AgentId::from_index(agent), s)
                .binary_search(&target)
                .is_ok()
    })
}

/// What happened since the last decision, for learning.
fn outcome(world: &World, agent: usize, learning: &Learning) -> Option<Outcome> {
    let a = world.agents();
    let last = a.decisions()[agent];
    let target = last.target?;
    let close = a.positions()[agent].distance(*a.positions().get(target.index())?)
        <= learning.catch_distance;
    match last.state {
        BehaviourState::Chase if close => Some(Outcome::Caught),
        BehaviourState::Chase if !notices(world, agent, target, false) => Some(Outcome::LostTarget),
        BehaviourState::Evade if close => Some(Outcome::GotCaught),
        BehaviourState::Evade if !notices(world, agent, target, true) => Some(Outcome::Escaped),
        _ => None,
    }
}

fn decide_agent(
    world: &World,
    i: usize,
    chased: bool,
    mind: &mut Mind,
    out: &mut Decision,
) -> DecisionTrace {
    let a = world.agents();
    let archetype = world.archetype(a.archetypes()[i]);
    if let Some(plugin) = archetype
        .and_then(|arch| arch.decider)
        .and_then(|k| world.plugins().decider(k))
        && let Some(decision) = plugin.decide(world, AgentId::from_index(i), mind)
    {
        *out = decision;
        return DecisionTrace {
            chased,
            decided_by: DecidedBy::Plugin,
            weights: mind.weights,
            ..DecisionTrace::default()
        };
    }
    let profile = archetype
        .and_then(|arch| arch.profile.as_ref())
        .unwrap_or(&NO_PROFILE);
    let outcome = profile.learning.as_ref().and_then(|l| {
        let o = outcome(world, i, l)?;
        mind.weights = l.apply(mind.weights, o);
        Some(o)
    });
    let chase_option = nearest_hostile(world, i, false);
    let evade_option = if chased {
        nearest_hostile(world, i, true)
    } else {
        None
    };
    let mut rolls = RollLog::default();
    let rng = &mut mind.rng;
    let choice = choose(
        chase_option.is_some(),
        evade_option.is_some(),
        profile,
        mind.weights,
        mind.saved,
        &mut |upper| rng.random_range(0.0..upper),
        &mut rolls,
    );
    mind.saved = choice.saved;
    *out = Decision {
        state: choice.state,
        target: match choice.state {
            BehaviourState::Chase => chase_option,
            BehaviourState::Evade => evade_option,
            BehaviourState::RandomWalk => None,
        },
        goal: None,
    };
    DecisionTrace {
        chase_option,
        evade_option,
        chased,
        rolls,
        decided_by: choice.decided_by,
        outcome,
        weights: mind.weights,
    }
}
