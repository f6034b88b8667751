//! Breakpoints: pause the run when a chosen agent (or any agent of an
//! archetype) changes its decision, gains or loses a percept, hears a
//! sound, receives a message, or its script fails. They are checked after
//! every tick against the runtime's own event queue (`World::events`) and
//! the script failures of that tick.

use std::collections::BTreeSet;

use kiai_core::{AgentId, BehaviourState, EventKind, World};

/// Whose events a breakpoint watches.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Who {
    /// The agent with this name.
    Agent(String),
    /// Every agent of the archetype with this name.
    Archetype(String),
}

impl Who {
    /// `raider_1` or `every raider`.
    pub fn describe(&self) -> String {
        match self {
            Who::Agent(name) => name.clone(),
            Who::Archetype(name) => format!("every {name}"),
        }
    }
}

/// What a breakpoint stops on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Trigger {
    /// Its decision changed state or target.
    Decision,
    /// A sense started sensing someone.
    Gained,
    /// A sense stopped sensing someone.
    Lost,
    /// A hearing sense heard a sound.
    Heard,
    /// It received a message.
    Message,
    /// Its archetype's script failed (an error, a blown budget, an invalid
    /// result).
    ScriptError,
}

impl Trigger {
    /// Every trigger, in menu order.
    pub const ALL: [Trigger; 6] = [
        Trigger::Decision,
        Trigger::Gained,
        Trigger::Lost,
        Trigger::Heard,
        Trigger::Message,
        Trigger::ScriptError,
    ];

    /// What it stops on, in words.
    pub fn label(self) -> &'static str {
        match self {
            Trigger::Decision => "decision changes",
            Trigger::Gained => "starts sensing someone",
            Trigger::Lost => "stops sensing someone",
            Trigger::Heard => "hears a sound",
            Trigger::Message => "receives a message",
            Trigger::ScriptError => "its script fails",
        }
    }

    /// The trigger an event fires, if any.
    pub fn of(kind: &EventKind) -> Option<Trigger> {
        match kind {
            EventKind::DecisionChanged { .. } => Some(Trigger::Decision),
            EventKind::Gained { .. } => Some(Trigger::Gained),
            EventKind::Lost { .. } => Some(Trigger::Lost),
            EventKind::Heard { .. } => Some(Trigger::Heard),
            EventKind::Message { .. } => Some(Trigger::Message),
            _ => None,
        }
    }
}

/// One breakpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakpoint {
    /// Whose events.
    pub who: Who,
    /// Which events.
    pub on: BTreeSet<Trigger>,
    /// Off: kept in the list but never stops.
    pub enabled: bool,
    /// A key of the script's `agent.memory`: stops when its value changes
    /// (scripted agents only).
    pub memory: Option<String>,
}

impl Breakpoint {
    /// A breakpoint on `who` for `on`, enabled.
    pub fn new(who: Who, on: impl IntoIterator<Item = Trigger>) -> Self {
        Self {
            who,
            on: on.into_iter().collect(),
            enabled: true,
            memory: None,
        }
    }

    /// A breakpoint on `who` for changes of memory key `key`, enabled.
    pub fn on_memory(who: Who, key: impl Into<String>) -> Self {
        Self {
            memory: Some(key.into()),
            ..Self::new(who, [])
        }
    }

    /// `raider_1: decision changes, its script fails`.
    pub fn describe(&self) -> String {
        let mut on: Vec<String> = self.on.iter().map(|t| t.label().to_owned()).collect();
        if let Some(key) = &self.memory {
            on.push(format!("memory `{key}` changes"));
        }
        format!("{}: {}", self.who.describe(), on.join(", "))
    }
}

/// Why the run stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// Ticks run when it stopped (the world's tick).
    pub tick: u64,
    /// The agent's slot.
    pub agent: usize,
    /// The agent's name.
    pub name: String,
    /// What happened, in words.
    pub cause: String,
    /// The breakpoint that stopped it (index into the list), or `None`
    /// for "step to the next event".
    pub breakpoint: Option<usize>,
}

/// A script that failed during a tick: its index in the run's script
/// table and the last error it reported.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptFailure {
    /// The script's index (`kiai::lua::ScriptId`'s number).
    pub script: u32,
    /// `file:line: message` of its last report.
    pub error: String,
}

/// What one tick did, for breakpoints: the world after it, the scripts
/// that failed in it, and which script decides each agent.
pub struct TickReport<'a> {
    /// The world after the tick (its event queue is the tick's).
    pub world: &'a World,
    /// Scripts whose failure count grew during the tick.
    pub failures: &'a [ScriptFailure],
    /// The script deciding the agent in a slot, if any.
    pub script_of: &'a dyn Fn(usize) -> Option<u32>,
    /// The state of the agent in a slot after a tick, in words, with the
    /// names scripts give (`investigate`), if recorded.
    pub state_of: &'a dyn Fn(usize, u64) -> Option<String>,
    /// The decision of the agent in a slot before the tick, if known.
    pub decision_before: &'a dyn Fn(usize) -> Option<kiai_core::Decision>,
}

impl TickReport<'_> {
    /// An event of this tick in words, decision changes with the states'
    /// names as the run shows them (a script's `investigate`, not the
    /// runtime's `chase` under it).
    fn describe(&self, kind: &EventKind) -> String {
        let EventKind::DecisionChanged { agent, from, to } = *kind else {
            return describe(self.world, kind);
        };
        let (slot, tick) = (agent.index(), self.world.tick());
        let before = tick
            .checked_sub(1)
            .and_then(|t| (self.state_of)(slot, t))
            .unwrap_or_else(|| state_words(from));
        // The old target too: `chase intruder_4 -> chase intruder_2`.
        let before = match (self.decision_before)(slot) {
            Some(d) => format!("{before}{}", target_words(self.world, d)),
            None => before,
        };
        let now = (self.state_of)(slot, tick).unwrap_or_else(|| state_words(to.state));
        decision_words(self.world, &before, &now, to)
    }
}

/// The breakpoints of the session, in the order they were added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Breakpoints(pub Vec<Breakpoint>);

impl Breakpoints {
    /// Whether any breakpoint is enabled.
    pub fn any(&self) -> bool {
        self.0.iter().any(|b| b.enabled)
    }

    /// The first breakpoint the tick in `report` hits: events in the
    /// world's stable order first, then script failures by agent.
    pub fn check(&self, report: &TickReport<'_>) -> Option<Hit> {
        if !self.any() {
            return None;
        }
        let watches = |b: &Breakpoint, slot: usize| watches(b, report.world, slot);
        for event in report.world.events() {
            let (Some(trigger), Some(agent)) = (Trigger::of(&event.kind), event.kind.agent())
            else {
                continue;
            };
            let slot = agent.index();
            if let Some(k) = self
                .0
                .iter()
                .position(|b| b.enabled && b.on.contains(&trigger) && watches(b, slot))
            {
                return Some(hit(
                    report.world,
                    slot,
                    report.describe(&event.kind),
                    Some(k),
                ));
            }
        }
        for failure in report.failures {
            for slot in 0..report.world.agents().len() {
                if !report.world.agents().alive()[slot]
                    || (report.script_of)(slot) != Some(failure.script)
                {
                    continue;
                }
                if let Some(k) = self.0.iter().position(|b| {
                    b.enabled && b.on.contains(&Trigger::ScriptError) && watches(b, slot)
                }) {
                    let cause = format!("its script failed: {}", failure.error);
                    return Some(hit(report.world, slot, cause, Some(k)));
                }
            }
        }
        None
    }
}

fn hit(world: &World, slot: usize, cause: String, breakpoint: Option<usize>) -> Hit {
    Hit {
        tick: world.tick(),
        agent: slot,
        name: name_of(world, slot),
        cause,
        breakpoint,
    }
}

/// Whether breakpoint `b` watches the agent in `slot`.
pub fn watches(b: &Breakpoint, world: &World, slot: usize) -> bool {
    let agents = world.agents();
    match &b.who {
        Who::Agent(name) => agents.names().get(slot) == Some(name),
        Who::Archetype(name) => agents
            .archetypes()
            .get(slot)
            .and_then(|a| world.archetypes().get(a.index()))
            .is_some_and(|a| &a.name == name),
    }
}

/// The first event of this tick about the agent in `slot`, in words, or
/// its script's failure.
pub fn event_of(report: &TickReport<'_>, slot: usize) -> Option<String> {
    let from_events = report
        .world
        .events()
        .iter()
        .filter(|e| e.kind.agent().is_some_and(|a| a.index() == slot))
        .find(|e| !matches!(e.kind, EventKind::Spawned { .. }))
        .map(|e| report.describe(&e.kind));
    from_events.or_else(|| {
        let script = (report.script_of)(slot)?;
        report
            .failures
            .iter()
            .find(|f| f.script == script)
            .map(|f| format!("its script failed: {}", f.error))
    })
}

/// A state's name in words: `random walk`.
pub fn state_words(state: BehaviourState) -> String {
    state.name().replace('_', " ")
}

/// The name of the agent in `slot`.
pub fn name_of(world: &World, slot: usize) -> String {
    world
        .agents()
        .names()
        .get(slot)
        .cloned()
        .unwrap_or_else(|| format!("agent {slot}"))
}

fn agent_name(world: &World, id: Option<AgentId>) -> String {
    id.map_or_else(|| "nobody".to_owned(), |a| name_of(world, a.index()))
}

fn sense_name(world: &World, agent: AgentId, sense: u16) -> String {
    world
        .agents()
        .archetypes()
        .get(agent.index())
        .and_then(|a| world.archetypes().get(a.index()))
        .and_then(|a| a.senses.get(usize::from(sense)))
        .map_or_else(|| format!("sense {sense}"), |s| s.name.clone())
}

/// ` baker`, ` toward (x, z)`, or nothing: what a decision is about.
fn target_words(world: &World, decision: kiai_core::Decision) -> String {
    match (decision.target, decision.goal) {
        (Some(t), _) => format!(" {}", agent_name(world, Some(t))),
        (None, Some(g)) => format!(" toward ({:.1}, {:.1})", g.x, g.z),
        (None, None) => String::new(),
    }
}

/// `decision changed: random walk -> chase baker` (or `toward (x, z)`).
fn decision_words(world: &World, from: &str, to: &str, decision: kiai_core::Decision) -> String {
    let target = target_words(world, decision);
    format!("decision changed: {from} -> {to}{target}")
}

/// An event in words, from the agent's point of view: `decision changed:
/// random walk → chase baker`, `eyes started sensing raider_1`.
pub fn describe(world: &World, kind: &EventKind) -> String {
    match *kind {
        EventKind::DecisionChanged { from, to, .. } => {
            decision_words(world, &state_words(from), &state_words(to.state), to)
        }
        EventKind::Gained {
            agent,
            sense,
            target,
        } => format!(
            "{} started sensing {}",
            sense_name(world, agent, sense),
            agent_name(world, Some(target))
        ),
        EventKind::Lost {
            agent,
            sense,
            target,
        } => format!(
            "{} stopped sensing {}",
            sense_name(world, agent, sense),
            agent_name(world, Some(target))
        ),
        EventKind::Heard {
            agent,
            sense,
            source,
            position,
            loudness,
            ..
        } => format!(
            "{} heard a sound from {} at ({:.1}, {:.1}), loudness {}",
            sense_name(world, agent, sense),
            agent_name(world, source),
            position.x,
            position.z,
            super::units::loudness(loudness)
        ),
        EventKind::Message {
            from,
            tag,
            position,
            ..
        } => format!(
            "message {tag} from {} about ({:.1}, {:.1})",
            agent_name(world, from),
            position.x,
            position.z
        ),
        EventKind::Spawned { .. } => "joined the world".to_owned(),
        EventKind::Despawned { .. } => "left the world".to_owned(),
        EventKind::Arrived { waypoint, .. } => {
            format!("arrived at waypoint {}", waypoint_name(world, waypoint))
        }
        EventKind::RouteFailed { goal, .. } => {
            format!("found no route to waypoint {}", waypoint_name(world, goal))
        }
        EventKind::RouteFound { goal, waited, .. } => format!(
            "found its route to waypoint {} after {waited} ticks",
            waypoint_name(world, goal)
        ),
        EventKind::Stuck { waypoint, .. } => {
            format!(
                "stuck on the way to waypoint {}",
                waypoint_name(world, waypoint)
            )
        }
        EventKind::DoorChanged { wall, open } => {
            format!("wall {wall} {}", if open { "opened" } else { "closed" })
        }
    }
}

/// A waypoint of the run's graph: the graph builds waypoints in the
/// content's order, so this is its position in the content's list.
fn waypoint_name(_world: &World, w: kiai_core::nav::WaypointId) -> String {
    format!("#{}", w.index())
}
