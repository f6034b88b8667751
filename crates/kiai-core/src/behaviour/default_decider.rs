//! Article 002's decider ([`DefaultDecider`]) and what it records of each
//! decision ([`DecisionTrace`]).

use std::sync::atomic::{AtomicBool, Ordering};

use rand::RngExt;
use rayon::prelude::*;

use crate::data::sensed_index::SensedIndex;
use crate::data::{
    AgentId, BehaviourState, Decision, Learning, Mind, Outcome, Profile, SenseFilter, SenseKind,
};
use crate::par::{PAR_MIN, light_min_len, works_ahead};
use crate::world::World;

use super::Decider;
use super::choose::{DecidedBy, RollLog, choose};
use super::foresight::Foresight;

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
    /// The agent did not think this tick (tick level of detail): its
    /// decision is the one it made at [`World::thought_at`] and the rest
    /// of this trace is empty.
    pub held: bool,
}

/// Article 002's decider, with per-archetype [`Profile`]s.
///
/// Archetypes without a profile use the fixed rule (evade beats chase).
/// Targets are the nearest hostile (ties by lower id).
#[derive(Debug, Default)]
pub struct DefaultDecider {
    /// Per agent, whether some agent chased it last tick ([`mark_chased`]).
    chased: Vec<AtomicBool>,
    traces: Option<Vec<DecisionTrace>>,
    /// Per agent, its [`nearest_options`], when worked out ahead
    /// ([`DefaultDecider::foresee_while`]).
    foreseen: Foresight<Options>,
}

impl DefaultDecider {
    /// A decider that also records a [`DecisionTrace`] per agent per tick.
    pub fn with_traces() -> Self {
        Self {
            traces: Some(Vec::new()),
            ..Self::default()
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
        self.decide_unless(world, minds, out, &[], None);
    }
}

impl DefaultDecider {
    /// Runs `meanwhile` on the calling thread while another thread of
    /// the pool runs `first` and then, when `foresee`, works out each
    /// agent's nearest hostiles, the part of the decision that only reads
    /// the world (the calling thread joins in when `meanwhile` returns);
    /// this tick's next [`Self::decide_unless`] on the same world reads
    /// them instead of looking again. A script decider calls it around its
    /// scripts, which run on one thread, with `foresee` when the default
    /// is expected to decide many agents. The decisions are the same with
    /// it or without it. On a pool of one thread, or in a world of fewer
    /// than 1,024 agents, it runs `first` and then `meanwhile` on the
    /// calling thread and works nothing out. Returns whether the nearest
    /// hostiles were worked out.
    pub fn foresee_while(
        &mut self,
        world: &World,
        (foresee, first): (bool, impl FnOnce() + Send),
        meanwhile: impl FnOnce(),
    ) -> bool {
        let a = world.agents();
        if !(foresee && works_ahead(a.len())) {
            // Nothing to work out: `decide_unless` marks the chased itself.
            let none: Option<fn(usize) -> Options> = None;
            return self
                .foreseen
                .fill_while(world.tick(), a.len(), none, (first, meanwhile));
        }
        mark_chased(world, &mut self.chased);
        let chased = &self.chased;
        let lists = Lists {
            index: None,
            hostile_only: world.percepts().filtered_with(world.factions()),
            foreseen: None,
        };
        let decides = |i: usize| {
            a.alive()[i] && a.body_modes()[i].is_steered() && world.thinking().is_none_or(|t| t[i])
        };
        let value = |i: usize| {
            if decides(i) {
                nearest_options(world, lists, i, is_chased(chased, i))
            } else {
                [None; 2]
            }
        };
        self.foreseen
            .fill_while(world.tick(), a.len(), Some(value), (first, meanwhile))
    }

    /// [`Decider::decide`] for the agents whose entry in `skip` is false
    /// (or beyond its end): another decider (a script) decided the others,
    /// whose mind and decision are left as they are. With traces, a
    /// skipped agent's trace is what this decider would have done, worked
    /// out on a copy of its mind (nothing of it reaches the run). `index`,
    /// when given, is the world's percepts copied into agent order (built
    /// after this tick's sense stage), read instead of the percepts: the
    /// same lists, fewer cache misses.
    pub fn decide_unless(
        &mut self,
        world: &World,
        minds: &mut [Mind],
        out: &mut [Decision],
        skip: &[bool],
        index: Option<&SensedIndex>,
    ) {
        let n = world.agents().len();
        let foreseen = self.foreseen.take(world.tick(), n);
        if foreseen.is_none() {
            // Otherwise `foresee_while` marked them, for this tick.
            mark_chased(world, &mut self.chased);
        }
        let chased = &self.chased;
        let lists = Lists {
            index,
            hostile_only: world.percepts().filtered_with(world.factions()),
            foreseen,
        };
        let skipped = |i: usize| skip.get(i).copied().unwrap_or(false);
        match &mut self.traces {
            Some(traces) => {
                traces.clear();
                traces.resize(n, DecisionTrace::default());
                minds
                    .par_iter_mut()
                    .zip(out.par_iter_mut())
                    .zip(traces.par_iter_mut())
                    .enumerate()
                    .with_min_len(PAR_MIN)
                    .for_each(|(i, ((m, o), t))| {
                        *t = if skipped(i) {
                            let (mut m, mut o) = (m.clone(), *o);
                            decide_agent(world, lists, i, is_chased(chased, i), &mut m, &mut o)
                        } else {
                            decide_agent(world, lists, i, is_chased(chased, i), m, o)
                        };
                    });
            }
            None => {
                minds
                    .par_iter_mut()
                    .zip(out.par_iter_mut())
                    .enumerate()
                    .with_min_len(PAR_MIN)
                    .filter(|(i, _)| !skipped(*i))
                    .for_each(|(i, (m, o))| {
                        decide_agent(world, lists, i, is_chased(chased, i), m, o);
                    });
            }
        }
    }
}

/// Sets `chased[i]` for every agent `i` some agent chased last tick, on
/// every thread of the pool (reading every decision took 0.24 ms at 100k
/// agents on one thread); a mark is only ever set, so the result does not
/// depend on the order.
fn mark_chased(world: &World, chased: &mut Vec<AtomicBool>) {
    let a = world.agents();
    chased.clear();
    chased.resize_with(a.len(), AtomicBool::default);
    let chased = &*chased;
    let decisions = a.decisions().par_iter().with_min_len(light_min_len());
    decisions.for_each(|d| {
        if let (BehaviourState::Chase, Some(t)) = (d.state, d.target)
            && let Some(c) = chased.get(t.index())
        {
            c.store(true, Ordering::Relaxed);
        }
    });
}

/// Whether agent `i` is marked as chased (see [`mark_chased`]).
fn is_chased(chased: &[AtomicBool], i: usize) -> bool {
    chased[i].load(Ordering::Relaxed)
}

/// The lists the decider reads: the percepts, or their copy in agent
/// order, whether their faction filters are the factions' now, and the
/// nearest hostiles when they were worked out ahead.
#[derive(Clone, Copy)]
struct Lists<'a> {
    /// The percepts copied into agent order, if built this tick.
    index: Option<&'a SensedIndex>,
    /// Per agent, its nearest hostiles (directed, all around), when
    /// worked out ahead this tick.
    foreseen: Option<&'a [Options]>,
    /// The percepts were filtered with the factions as they are: a sense
    /// that reports hostiles lists nothing else (see
    /// [`Percepts::filtered_with`](crate::data::Percepts)).
    hostile_only: bool,
}

/// An agent's options: the nearest hostile a directed sense lists (to
/// chase) and the nearest an all-around sense lists (to evade).
type Options = [Option<AgentId>; 2];

/// The nearest hostile a directed sense lists and, when `chased`, the
/// nearest an all-around sense lists.
fn nearest_options(world: &World, lists: Lists<'_>, i: usize, chased: bool) -> Options {
    let chase = nearest_hostile(world, lists, i, false);
    let evade = if chased {
        nearest_hostile(world, lists, i, true)
    } else {
        None
    };
    [chase, evade]
}

/// The nearest hostile in the percepts of `agent`'s senses whose shape is
/// (`all_around`) or is not (directed) a sphere; ties by lower id.
fn nearest_hostile(
    world: &World,
    lists: Lists<'_>,
    agent: usize,
    all_around: bool,
) -> Option<AgentId> {
    let a = world.agents();
    let me = a.id(agent)?;
    let archetype = world.archetype(a.archetypes()[agent])?;
    let eye = a.positions()[agent];
    let faction = a.factions()[agent];
    let (positions, factions) = (a.positions(), a.factions());
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
        // A sense that reports hostiles listed them with the factions as
        // they are (an agent that decides sensed this tick): no need to
        // look each one's faction up again.
        let hostile_only = lists.hostile_only && sense.filter == SenseFilter::Hostile;
        for &other in SensedIndex::or_percepts(lists.index, world.percepts(), me, s) {
            if !hostile_only
                && !world
                    .factions()
                    .is_hostile(faction, factions[other.index()])
            {
                continue;
            }
            let d = eye.distance_squared(positions[other.index()]);
            if best.is_none_or(|(bd, bid)| d < bd || (d == bd && other < bid)) {
                best = Some((d, other));
            }
        }
    }
    best.map(|(_, id)| id)
}

/// Whether `agent`'s senses of the given kind currently report `target`.
fn notices(
    world: &World,
    index: Option<&SensedIndex>,
    agent: usize,
    target: AgentId,
    all_around: bool,
) -> bool {
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
            && SensedIndex::or_percepts(
                index,
                world.percepts(),
                AgentId::new(agent as u32, a.generation_of(agent)),
                s,
            )
            .binary_search(&target)
            .is_ok()
    })
}

/// What happened since the last decision, for learning.
fn outcome(
    world: &World,
    index: Option<&SensedIndex>,
    agent: usize,
    learning: &Learning,
) -> Option<Outcome> {
    let a = world.agents();
    let last = a.decisions()[agent];
    let target = last.target?;
    let close = a.positions()[agent].distance(*a.positions().get(target.index())?)
        <= learning.catch_distance;
    match last.state {
        BehaviourState::Chase if close => Some(Outcome::Caught),
        BehaviourState::Chase if !notices(world, index, agent, target, false) => {
            Some(Outcome::LostTarget)
        }
        BehaviourState::Evade if close => Some(Outcome::GotCaught),
        BehaviourState::Evade if !notices(world, index, agent, target, true) => {
            Some(Outcome::Escaped)
        }
        _ => None,
    }
}

fn decide_agent(
    world: &World,
    lists: Lists<'_>,
    i: usize,
    chased: bool,
    mind: &mut Mind,
    out: &mut Decision,
) -> DecisionTrace {
    let a = world.agents();
    // Free slots and bodies the game alone moves are not decided for.
    let Some(me) = a.id(i).filter(|_| a.body_modes()[i].is_steered()) else {
        return DecisionTrace::default();
    };
    if !world.thinks(me) {
        // Its decision is held; the pipeline keeps it.
        return DecisionTrace {
            held: true,
            ..DecisionTrace::default()
        };
    }
    let archetype = world.archetype(a.archetypes()[i]);
    if let Some(plugin) = archetype
        .and_then(|arch| arch.decider)
        .and_then(|k| world.plugins().decider(k))
        && let Some(decision) = plugin.decide(world, me, mind)
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
        let o = outcome(world, lists.index, i, l)?;
        mind.weights = l.apply(mind.weights, o);
        Some(o)
    });
    let [chase_option, evade_option] = match lists.foreseen {
        Some(f) => f[i],
        None => nearest_options(world, lists, i, chased),
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
    // A standing goal replaces the random walk: chase toward it.
    if let (BehaviourState::RandomWalk, Some(goal)) = (out.state, a.goals()[i]) {
        *out = Decision {
            state: BehaviourState::Chase,
            target: None,
            goal: Some(goal),
        };
    }
    DecisionTrace {
        chase_option,
        evade_option,
        chased,
        rolls,
        decided_by: choice.decided_by,
        outcome,
        weights: mind.weights,
        held: false,
    }
}
