//! Where two branches of a run part: the first tick their hashes differ,
//! each agent's first different state, who sensed whom in one branch only,
//! and the states counted at the end.

use std::collections::{BTreeMap, BTreeSet};

use kiai_core::{EventKind, World};

use crate::driver::Driver;

/// Which branch of a fork.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Branch {
    /// The recorded run, replayed.
    Base,
    /// The run with the changes.
    Fork,
}

impl Branch {
    /// `"base"` or `"fork"`.
    pub fn name(self) -> &'static str {
        match self {
            Branch::Base => "base",
            Branch::Fork => "fork",
        }
    }
}

/// One way the branches differ.
#[derive(Clone, Debug, PartialEq)]
pub enum Difference {
    /// The first tick at which `agent`'s state differs between the branches.
    State {
        /// The agent.
        agent: String,
        /// The tick.
        tick: u64,
        /// Its state in the base branch (`""`: not in the world).
        base: String,
        /// Its state in the fork.
        fork: String,
    },
    /// `agent`'s sense `sense` reported `target` in one branch (first at
    /// `tick`) and never in the other, from the fork's tick on.
    Sees {
        /// The observer.
        agent: String,
        /// Who it sensed.
        target: String,
        /// The sense.
        sense: String,
        /// The branch that sensed it.
        branch: Branch,
        /// The first tick it did.
        tick: u64,
    },
    /// Agents in `state` at the end differ in number.
    Count {
        /// The state.
        state: String,
        /// In the base branch.
        base: usize,
        /// In the fork.
        fork: usize,
    },
}

impl Difference {
    /// What differs, in words, without its tick: `guard_1: chase in base,
    /// evade in fork` (`gone` for an agent not in the world), `guard_1
    /// eyes senses thief (fork only)`, `chase: 3 in base, 2 in fork`.
    /// `state` writes a state's name: `kiai fork` keeps the names content
    /// and `kiai run` use (`random_walk`), the editor writes them in
    /// words (`random walk`), as each does everywhere else.
    pub fn describe(&self, state: impl Fn(&str) -> String) -> String {
        match self {
            Difference::State {
                agent, base, fork, ..
            } => {
                let name = |x: &str| {
                    if x.is_empty() {
                        "gone".to_owned()
                    } else {
                        state(x)
                    }
                };
                format!("{agent}: {} in base, {} in fork", name(base), name(fork))
            }
            Difference::Sees {
                agent,
                target,
                sense,
                branch,
                ..
            } => {
                let only = match branch {
                    Branch::Base => "base only",
                    Branch::Fork => "fork only",
                };
                format!("{agent} {sense} senses {target} ({only})")
            }
            Difference::Count {
                state: name,
                base,
                fork,
            } => format!("{}: {base} in base, {fork} in fork", state(name)),
        }
    }
}

/// (observer, sense, target) names.
type Pair = (String, String, String);

/// What one branch did since the fork, for comparing.
#[derive(Debug, Default)]
struct Seen {
    /// Every pair sensed, with the first tick (the fork's tick for pairs
    /// sensed then).
    pairs: BTreeMap<Pair, u64>,
}

impl Seen {
    /// Every pair `world`'s percepts report now.
    fn from_percepts(world: &World) -> Self {
        let mut out = Seen::default();
        let agents = world.agents();
        for id in agents.ids() {
            let Some(arch) = world.archetype(agents.archetypes()[id.index()]) else {
                continue;
            };
            for (s, sense) in arch.senses.iter().enumerate() {
                for t in world.percepts().sensed(id, s) {
                    out.add(world, id.index(), &sense.name, t.index(), world.tick());
                }
            }
        }
        out
    }

    fn add(&mut self, world: &World, agent: usize, sense: &str, target: usize, tick: u64) {
        let names = world.agents().names();
        let key = (
            names[agent].clone(),
            sense.to_owned(),
            names[target].clone(),
        );
        self.pairs.entry(key).or_insert(tick);
    }

    /// The pairs gained in `world`'s last tick.
    fn record(&mut self, world: &World) {
        for e in world.events() {
            if let EventKind::Gained {
                agent,
                sense,
                target,
            } = e.kind
            {
                let arch = world.archetype(world.agents().archetypes()[agent.index()]);
                let Some(s) = arch.and_then(|a| a.senses.get(usize::from(sense))) else {
                    continue;
                };
                self.add(world, agent.index(), &s.name, target.index(), world.tick());
            }
        }
    }
}

/// Both branches, compared tick by tick.
#[derive(Debug)]
pub(crate) struct Divergence {
    /// The first tick the state hashes differ.
    pub first_divergent_tick: Option<u64>,
    states: BTreeMap<String, (u64, String, String)>,
    seen: [Seen; 2],
}

impl Divergence {
    /// Starts comparing at the fork point (both branches alike).
    pub(crate) fn new(world: &World) -> Self {
        Self {
            first_divergent_tick: None,
            states: BTreeMap::new(),
            seen: [Seen::from_percepts(world), Seen::from_percepts(world)],
        }
    }

    /// Compares the branches after a tick.
    pub(crate) fn after_tick(&mut self, base: &Driver, fork: &Driver, hashes: (u64, u64)) {
        let tick = base.world().tick();
        if hashes.0 != hashes.1 && self.first_divergent_tick.is_none() {
            self.first_divergent_tick = Some(tick);
        }
        self.seen[0].record(base.world());
        self.seen[1].record(fork.world());
        if self.first_divergent_tick.is_none() {
            return;
        }
        let b = states(base);
        let f = states(fork);
        let names: BTreeSet<&String> = b.keys().chain(f.keys()).collect();
        for name in names {
            let (sb, sf) = (b.get(name).cloned(), f.get(name).cloned());
            if sb != sf && !self.states.contains_key(name) {
                self.states.insert(
                    name.clone(),
                    (tick, sb.unwrap_or_default(), sf.unwrap_or_default()),
                );
            }
        }
    }

    /// The differences, states first (by tick, then name), then percepts
    /// (by tick, names, branch), then the counts at the end.
    pub(crate) fn differences(&self, base: &Driver, fork: &Driver) -> Vec<Difference> {
        let mut out: Vec<Difference> = Vec::new();
        let mut by_tick: Vec<(&String, &(u64, String, String))> = self.states.iter().collect();
        by_tick.sort_by_key(|(name, (tick, _, _))| (*tick, (*name).clone()));
        for (agent, (tick, b, f)) in by_tick {
            out.push(Difference::State {
                agent: agent.clone(),
                tick: *tick,
                base: b.clone(),
                fork: f.clone(),
            });
        }
        let mut only: Vec<(u64, &Pair, Branch)> = Vec::new();
        for (branch, mine, other) in [
            (Branch::Base, &self.seen[0], &self.seen[1]),
            (Branch::Fork, &self.seen[1], &self.seen[0]),
        ] {
            only.extend(
                mine.pairs
                    .iter()
                    .filter(|(p, _)| !other.pairs.contains_key(*p))
                    .map(|(p, t)| (*t, p, branch)),
            );
        }
        only.sort();
        for (tick, (agent, sense, target), branch) in only {
            out.push(Difference::Sees {
                agent: agent.clone(),
                target: target.clone(),
                sense: sense.clone(),
                branch,
                tick,
            });
        }
        let (cb, cf) = (counts(base), counts(fork));
        let all: BTreeSet<&String> = cb.keys().chain(cf.keys()).collect();
        for state in all {
            let (b, f) = (
                cb.get(state).copied().unwrap_or(0),
                cf.get(state).copied().unwrap_or(0),
            );
            if b != f {
                out.push(Difference::Count {
                    state: state.clone(),
                    base: b,
                    fork: f,
                });
            }
        }
        out
    }
}

/// Every live agent's state name, by agent name.
fn states(run: &Driver) -> BTreeMap<String, String> {
    let agents = run.world().agents();
    agents
        .ids()
        .filter_map(|id| {
            let s = run.state_name(id)?;
            Some((agents.names()[id.index()].clone(), s.to_owned()))
        })
        .collect()
}

/// Live agents per state name.
pub(crate) fn counts(run: &Driver) -> BTreeMap<String, usize> {
    let mut out: BTreeMap<String, usize> = BTreeMap::new();
    for (_, s) in states(run) {
        *out.entry(s).or_default() += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_read_the_same_with_either_way_of_naming_states() {
        let state = Difference::State {
            agent: "guard_1".into(),
            tick: 40,
            base: "random_walk".into(),
            fork: String::new(),
        };
        let sees = Difference::Sees {
            agent: "guard_1".into(),
            target: "thief".into(),
            sense: "eyes".into(),
            branch: Branch::Fork,
            tick: 41,
        };
        let count = Difference::Count {
            state: "random_walk".into(),
            base: 3,
            fork: 2,
        };
        let names = |d: &Difference| d.describe(str::to_owned);
        let words = |d: &Difference| d.describe(|s| s.replace('_', " "));
        assert_eq!(names(&state), "guard_1: random_walk in base, gone in fork");
        assert_eq!(words(&state), "guard_1: random walk in base, gone in fork");
        assert_eq!(names(&sees), "guard_1 eyes senses thief (fork only)");
        assert_eq!(words(&sees), names(&sees));
        assert_eq!(names(&count), "random_walk: 3 in base, 2 in fork");
        assert_eq!(words(&count), "random walk: 3 in base, 2 in fork");
    }
}
