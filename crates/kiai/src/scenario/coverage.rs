//! Decision coverage: per archetype, which branches of the decision logic
//! a suite of scenarios took, and how often.
//!
//! The branches are article 002's (`no_option`, `single_option`,
//! `fixed_rule`, `weights`, `kept`), `plugin` for an archetype with a
//! game-registered decider, `script` for one whose Lua `decide` gives the
//! decision, and each custom state a script reported. A branch taken zero
//! times was never exercised.

use std::collections::BTreeMap;

use crate::driver::Driver;

/// Article 002's branches, in report order.
pub const RUST_BRANCHES: [&str; 5] = [
    "no_option",
    "single_option",
    "fixed_rule",
    "weights",
    "kept",
];

/// The branch of a game-registered decider.
pub const PLUGIN_BRANCH: &str = "plugin";

/// The branch of a script's `decide`.
pub const SCRIPT_BRANCH: &str = "script";

/// One archetype's branches and how often each was taken (agent-ticks).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchetypeCoverage {
    /// Every branch the archetype can take, with its count (0: never
    /// exercised), in report order.
    pub branches: Vec<(String, u64)>,
    /// Custom states its script reported, with their counts, by name.
    pub states: BTreeMap<String, u64>,
}

impl ArchetypeCoverage {
    /// The branches never taken.
    pub fn never(&self) -> Vec<&str> {
        self.branches
            .iter()
            .filter(|(_, n)| *n == 0)
            .map(|(b, _)| b.as_str())
            .collect()
    }

    fn add(&mut self, branch: &str, n: u64) {
        match self.branches.iter_mut().find(|(b, _)| b == branch) {
            Some((_, c)) => *c += n,
            None => self.branches.push((branch.to_owned(), n)),
        }
    }
}

/// Coverage of a suite: per archetype (`content: archetype`, the content
/// file as the scenario names it, resolved).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// By archetype key, sorted.
    pub archetypes: BTreeMap<String, ArchetypeCoverage>,
}

impl Coverage {
    /// Empty coverage for the archetypes of `run` (every branch at 0),
    /// keyed `content: archetype`.
    pub(crate) fn for_run(run: &Driver, content: &str) -> (Self, Vec<String>) {
        let world = run.world();
        let mut out = Coverage::default();
        let mut keys = Vec::with_capacity(world.archetypes().len());
        for (i, a) in world.archetypes().iter().enumerate() {
            let key = format!("{content}: {}", a.name);
            let mut c = ArchetypeCoverage::default();
            for b in RUST_BRANCHES {
                c.add(b, 0);
            }
            if a.decider.is_some() {
                c.add(PLUGIN_BRANCH, 0);
            }
            if run.is_scripted(kiai_core::ArchetypeId::from_index(i)) {
                c.add(SCRIPT_BRANCH, 0);
            }
            out.archetypes.insert(key.clone(), c);
            keys.push(key);
        }
        (out, keys)
    }

    /// Counts the decisions of `run`'s last tick; `keys` names each
    /// archetype (from [`Coverage::for_run`]).
    pub(crate) fn record(&mut self, run: &Driver, keys: &[String]) {
        let agents = run.world().agents();
        for id in agents.ids() {
            let i = id.index();
            if !agents.body_modes()[i].is_steered() {
                continue;
            }
            let Some(c) = keys
                .get(agents.archetypes()[i].index())
                .and_then(|k| self.archetypes.get_mut(k))
            else {
                continue;
            };
            if run.decided_by_script(id) {
                c.add(SCRIPT_BRANCH, 1);
                let state = run.state_name(id).unwrap_or_default();
                let built_in = kiai_core::BehaviourState::ALL
                    .iter()
                    .any(|s| s.name() == state);
                if !built_in {
                    *c.states.entry(state.to_owned()).or_default() += 1;
                }
            } else if let Some(t) = run.trace(i) {
                c.add(t.decided_by.name(), 1);
            }
        }
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Coverage) {
        for (key, c) in &other.archetypes {
            let mine = self.archetypes.entry(key.clone()).or_default();
            for (b, n) in &c.branches {
                mine.add(b, *n);
            }
            for (s, n) in &c.states {
                *mine.states.entry(s.clone()).or_default() += n;
            }
        }
    }
}
