//! Expectations checked against a run after every tick.

use std::collections::BTreeMap;

use kiai_content::expect::{Condition, Expectation, Quantifier, REACH_DISTANCE};
use kiai_core::nav::WaypointId;
use kiai_core::{AgentId, SenseKind, World, state_hash};

use crate::driver::Driver;

/// Where an expectation stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Not decided yet.
    Pending,
    /// Held as written, decided at this tick.
    Passed(u64),
    /// Broken at this tick, and why.
    Failed(u64, String),
}

/// Live agents by name, remembered between ticks.
#[derive(Debug, Default)]
pub(crate) struct Lookup {
    ids: BTreeMap<String, AgentId>,
    /// Waypoints by content id.
    pub(crate) waypoints: BTreeMap<u32, WaypointId>,
}

impl Lookup {
    /// The live agent called `name`, if any.
    pub(crate) fn get(&mut self, world: &World, name: &str) -> Option<AgentId> {
        let agents = world.agents();
        if let Some(&id) = self.ids.get(name)
            && agents.is_alive(id)
            && agents.names()[id.index()] == name
        {
            return Some(id);
        }
        let id = agents.find(name)?;
        self.ids.insert(name.to_owned(), id);
        Some(id)
    }
}

/// Whether `condition` holds now.
pub(crate) fn holds(condition: &Condition, run: &Driver, lookup: &mut Lookup) -> bool {
    let world = run.world();
    match condition {
        Condition::Sees {
            agent,
            target,
            sense,
        } => match (lookup.get(world, agent), lookup.get(world, target)) {
            (Some(a), Some(t)) => sees(world, a, t, sense.as_deref()),
            _ => false,
        },
        Condition::State {
            agent,
            equal,
            state,
        } => lookup
            .get(world, agent)
            .and_then(|a| run.state_name(a))
            .is_some_and(|s| (s == state) == *equal),
        Condition::Reaches { agent, waypoint } => {
            let w = lookup.waypoints.get(waypoint).copied();
            match (lookup.get(world, agent), w) {
                (Some(a), Some(w)) => reaches(world, a, w),
                _ => false,
            }
        }
        Condition::Count {
            state,
            equal,
            cmp,
            value,
        } => cmp.holds(count(run, state, *equal) as f64, *value),
        Condition::Distance { a, b, cmp, value } => {
            distance(world, lookup, a, b).is_some_and(|d| cmp.holds(f64::from(d), *value))
        }
        Condition::ScriptError => !run.script_errors().is_empty(),
        Condition::Hash(h) => state_hash(world) == *h,
    }
}

/// Whether a sense of `agent` (the one named, or any that does not hear)
/// reports `target`.
fn sees(world: &World, agent: AgentId, target: AgentId, sense: Option<&str>) -> bool {
    let Some(archetype) = world.archetype(world.agents().archetypes()[agent.index()]) else {
        return false;
    };
    archetype.senses.iter().enumerate().any(|(s, def)| {
        let wanted = match sense {
            Some(name) => def.name == name,
            None => def.shape.kind() != SenseKind::Hearing,
        };
        wanted
            && world
                .percepts()
                .sensed(agent, s)
                .binary_search(&target)
                .is_ok()
    })
}

/// Whether `agent` is at waypoint `w`.
fn reaches(world: &World, agent: AgentId, w: WaypointId) -> bool {
    let Some(nav) = world.nav() else {
        return false;
    };
    if world.nav_states()[agent.index()].at == Some(w) {
        return true;
    }
    nav.pos(w)
        .is_some_and(|p| world.agents().positions()[agent.index()].distance(p) <= REACH_DISTANCE)
}

/// Live agents whose state is (`equal`) or is not `state`.
fn count(run: &Driver, state: &str, equal: bool) -> usize {
    run.world()
        .agents()
        .ids()
        .filter(|&a| run.state_name(a).is_some_and(|s| (s == state) == equal))
        .count()
}

/// The distance between two live agents, world units.
fn distance(world: &World, lookup: &mut Lookup, a: &str, b: &str) -> Option<f32> {
    let (a, b) = (lookup.get(world, a)?, lookup.get(world, b)?);
    let p = world.agents().positions();
    Some(p[a.index()].distance(p[b.index()]))
}

/// What the condition looked like at the tick it was decided, for the
/// failure message: `state was random_walk`, `distance was 5.20`.
pub(crate) fn observed(condition: &Condition, run: &Driver, lookup: &mut Lookup) -> String {
    let world = run.world();
    let missing = |name: &str| format!("`{name}` is not in the world");
    match condition {
        Condition::Sees { agent, target, .. } => match lookup.get(world, agent) {
            None => missing(agent),
            Some(_) if lookup.get(world, target).is_none() => missing(target),
            Some(_) => String::new(),
        },
        Condition::State { agent, .. } => match lookup.get(world, agent) {
            Some(a) => format!("its state was {}", run.state_name(a).unwrap_or("?")),
            None => missing(agent),
        },
        Condition::Reaches { agent, .. } => match lookup.get(world, agent) {
            Some(a) => {
                let p = world.agents().positions()[a.index()];
                format!("it was at ({:.2}, {:.2}, {:.2})", p.x, p.y, p.z)
            }
            None => missing(agent),
        },
        Condition::Count { state, equal, .. } => {
            format!("the count was {}", count(run, state, *equal))
        }
        Condition::Distance { a, b, .. } => match distance(world, lookup, a, b) {
            Some(d) => format!("the distance was {d:.3}"),
            None => format!("`{a}` or `{b}` is not in the world"),
        },
        Condition::ScriptError => run.script_errors().join("; "),
        Condition::Hash(_) => format!("the hash was {:016x}", state_hash(world)),
    }
}

/// The sentence saying how `e` failed at `tick` (the window's end for a
/// condition that never held).
pub(crate) fn failure(e: &Expectation, tick: u64, first: u64, observed: &str) -> String {
    let mut out = match e.quantifier {
        Quantifier::Exists if first == tick => format!("did not hold at tick {tick}"),
        Quantifier::Exists => format!("did not hold at any tick from {first} to {tick}"),
        Quantifier::Never => format!("held at tick {tick}"),
        Quantifier::Always => format!("did not hold at tick {tick}"),
    };
    if !observed.is_empty() {
        out.push_str(": ");
        out.push_str(observed);
    }
    out
}
