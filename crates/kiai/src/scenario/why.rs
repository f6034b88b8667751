//! [`Why`]: why one agent was doing what it did at one tick, for the
//! report of a failed expectation.

use std::fmt;

use kiai_core::World;

use crate::driver::Driver;

/// One agent's decision and percepts at one tick.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    /// The agent's name.
    pub agent: String,
    /// The tick (ticks run).
    pub tick: u64,
    /// Whether it was in the world (the rest is empty when not).
    pub alive: bool,
    /// Its state: built-in or a script's label.
    pub state: String,
    /// Whom it chased or evaded.
    pub target: Option<String>,
    /// Who decided: `script` (its Lua `decide`), or the default decider's
    /// branch (`no_option`, `single_option`, `fixed_rule`, `weights`,
    /// `kept`, `plugin`).
    pub decided_by: String,
    /// The nearest hostile a directed sense saw (chase was possible).
    pub chase_option: Option<String>,
    /// The nearest hostile an all-around sense noticed while chased.
    pub evade_option: Option<String>,
    /// The default decider's rolls: kind, value and threshold.
    pub rolls: Vec<(String, f32, f32)>,
    /// Where it was, world units.
    pub position: [f32; 3],
    /// Which way it faced (unit vector).
    pub facing: [f32; 3],
    /// Per sense of its archetype (in order), the names it reported, sorted.
    pub senses: Vec<(String, Vec<String>)>,
}

impl Why {
    /// Why `name` was doing what it did in `run`'s last tick.
    pub fn of(run: &Driver, name: &str) -> Self {
        let world = run.world();
        let tick = world.tick();
        let mut why = Why {
            agent: name.to_owned(),
            tick,
            alive: false,
            state: String::new(),
            target: None,
            decided_by: String::new(),
            chase_option: None,
            evade_option: None,
            rolls: Vec::new(),
            position: [0.0; 3],
            facing: [0.0; 3],
            senses: Vec::new(),
        };
        let agents = world.agents();
        let Some(id) = agents.find(name) else {
            return why;
        };
        let i = id.index();
        let label = |a: Option<kiai_core::AgentId>| a.map(|a| agents.names()[a.index()].clone());
        why.alive = true;
        why.state = run.state_name(id).unwrap_or_default().to_owned();
        why.target = label(agents.decisions()[i].target);
        why.position = agents.positions()[i].to_array();
        why.facing = agents.facings()[i].to_array();
        why.senses = senses(world, i);
        if run.decided_by_script(id) {
            why.decided_by = "script".to_owned();
        } else if !agents.body_modes()[i].is_steered() {
            why.decided_by = "not_decided".to_owned();
        }
        if let Some(t) = run.trace(i) {
            if why.decided_by.is_empty() {
                why.decided_by = t.decided_by.name().to_owned();
            }
            why.chase_option = label(t.chase_option);
            why.evade_option = label(t.evade_option);
            why.rolls = t
                .rolls
                .iter()
                .map(|r| (r.kind.name().to_owned(), r.value, r.threshold))
                .collect();
        }
        why
    }
}

/// Per sense of agent slot `i`, the sorted names it reports.
fn senses(world: &World, i: usize) -> Vec<(String, Vec<String>)> {
    let agents = world.agents();
    let Some(id) = agents.id(i) else {
        return Vec::new();
    };
    let Some(archetype) = world.archetype(agents.archetypes()[i]) else {
        return Vec::new();
    };
    archetype
        .senses
        .iter()
        .enumerate()
        .map(|(s, sense)| {
            let mut names: Vec<String> = world
                .percepts()
                .sensed(id, s)
                .iter()
                .map(|o| agents.names()[o.index()].clone())
                .collect();
            names.sort_unstable();
            (sense.name.clone(), names)
        })
        .collect()
}

impl fmt::Display for Why {
    /// `guard at tick 120: random_walk by no_option, target none;
    /// options: chase none, evade none; at (0.00, 0.00, -25.00) facing
    /// (0.00, 0.00, -1.00); eyes []; ears [thief]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.alive {
            return write!(f, "{} at tick {}: not in the world", self.agent, self.tick);
        }
        let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "none".to_owned());
        write!(
            f,
            "{} at tick {}: {} by {}, target {}; options: chase {}, evade {}",
            self.agent,
            self.tick,
            self.state,
            self.decided_by,
            name(&self.target),
            name(&self.chase_option),
            name(&self.evade_option)
        )?;
        for (kind, value, threshold) in &self.rolls {
            write!(f, "; roll {kind} {value:.2} vs {threshold:.2}")?;
        }
        let [x, y, z] = self.position;
        let [fx, fy, fz] = self.facing;
        write!(
            f,
            "; at ({x:.2}, {y:.2}, {z:.2}) facing ({fx:.2}, {fy:.2}, {fz:.2})"
        )?;
        for (sense, names) in &self.senses {
            write!(f, "; {sense} [{}]", names.join(", "))?;
        }
        Ok(())
    }
}
