//! What happened in a tick, for the game to react to: one queue of
//! [`Event`]s per tick ([`World::events`](crate::World::events),
//! [`World::drain_events`](crate::World::drain_events)).

use glam::Vec3;
use kiai_nav::WaypointId;

use crate::data::{AgentId, BehaviourState, Decision};

/// One thing that happened, and when.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// The tick it happened in: the number of ticks run when it happened
    /// (events between two ticks carry the number of the next tick).
    pub tick: u64,
    /// What happened.
    pub kind: EventKind,
}

/// What happened. Events of one tick come in a stable order: by agent
/// (slot, then generation; events of no agent first), then by
/// [`EventKind::rank`], then in the order they were made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EventKind {
    /// `agent` joined the world.
    Spawned {
        /// The new agent.
        agent: AgentId,
    },
    /// `agent` left the world; its handle is refused from now on.
    Despawned {
        /// The agent that left.
        agent: AgentId,
    },
    /// Sense `sense` of `agent` started sensing `target`.
    Gained {
        /// The observer.
        agent: AgentId,
        /// Index of the sense in the observer's archetype.
        sense: u16,
        /// Who is sensed now.
        target: AgentId,
    },
    /// Sense `sense` of `agent` stopped sensing `target` (it moved out of
    /// reach or sight, or left the world).
    Lost {
        /// The observer.
        agent: AgentId,
        /// Index of the sense in the observer's archetype.
        sense: u16,
        /// Who is no longer sensed.
        target: AgentId,
    },
    /// Hearing sense `sense` of `agent` heard a sound.
    Heard {
        /// The listener.
        agent: AgentId,
        /// Index of the hearing sense.
        sense: u16,
        /// Who made it, if an agent (still in the world).
        source: Option<AgentId>,
        /// Where it was made, world units.
        position: Vec3,
        /// The game's tag of the sound.
        tag: u32,
        /// Perceived loudness, the sound's volume scale.
        loudness: f32,
    },
    /// `agent` received a message.
    Message {
        /// The receiver.
        agent: AgentId,
        /// The sender, if an agent.
        from: Option<AgentId>,
        /// The message's tag.
        tag: u32,
        /// The position it refers to, world units.
        position: Vec3,
    },
    /// `agent`'s decision changed state or target.
    DecisionChanged {
        /// Who decided.
        agent: AgentId,
        /// The state before.
        from: BehaviourState,
        /// The decision now.
        to: Decision,
    },
    /// A waypoint walker reached the waypoint nearest its chase target (the
    /// end of its route).
    Arrived {
        /// The walker.
        agent: AgentId,
        /// Where it arrived.
        waypoint: WaypointId,
    },
    /// A waypoint walker found no route to its goal (blocked links, inactive
    /// waypoints or a broken map); it falls back to article 001's local choice.
    RouteFailed {
        /// The walker.
        agent: AgentId,
        /// The waypoint it could not reach.
        goal: WaypointId,
    },
    /// A waypoint walker that waited for its route (the navigate stage's
    /// search budget went to older requests first) has it now and follows
    /// it from here; until then it walked toward the goal by article 001's
    /// selection. Routes found in the tick they are asked for send none.
    RouteFound {
        /// The walker.
        agent: AgentId,
        /// The waypoint the route leads to.
        goal: WaypointId,
        /// Ticks it waited (>= 1).
        waited: u32,
    },
    /// A waypoint walker made no progress toward where it walks for a few
    /// seconds (a crowd, a wall in the way); it re-planned from the
    /// nearest waypoint, or took a random neighbour there (article 001's
    /// fallback) when that is where it was already heading.
    Stuck {
        /// The walker.
        agent: AgentId,
        /// The waypoint it could not reach.
        waypoint: WaypointId,
    },
    /// A wall was enabled or disabled (a door closed or opened).
    DoorChanged {
        /// Index of the wall.
        wall: u32,
        /// Whether it is open (disabled) now.
        open: bool,
    },
}

impl EventKind {
    /// The agent the event is about, if any.
    pub fn agent(&self) -> Option<AgentId> {
        match *self {
            EventKind::Spawned { agent }
            | EventKind::Despawned { agent }
            | EventKind::Gained { agent, .. }
            | EventKind::Lost { agent, .. }
            | EventKind::Heard { agent, .. }
            | EventKind::Message { agent, .. }
            | EventKind::DecisionChanged { agent, .. }
            | EventKind::Arrived { agent, .. }
            | EventKind::RouteFailed { agent, .. }
            | EventKind::RouteFound { agent, .. }
            | EventKind::Stuck { agent, .. } => Some(agent),
            EventKind::DoorChanged { .. } => None,
        }
    }

    /// The place of the kind in the order of one agent's events: spawned,
    /// percepts (lost before gained, as the sense stage makes them), heard,
    /// messages, decisions, navigation, despawned.
    pub fn rank(&self) -> u8 {
        match self {
            EventKind::DoorChanged { .. } => 0,
            EventKind::Spawned { .. } => 1,
            EventKind::Lost { .. } | EventKind::Gained { .. } => 2,
            EventKind::Heard { .. } => 3,
            EventKind::Message { .. } => 4,
            EventKind::DecisionChanged { .. } => 5,
            EventKind::Arrived { .. }
            | EventKind::RouteFailed { .. }
            | EventKind::RouteFound { .. }
            | EventKind::Stuck { .. } => 6,
            EventKind::Despawned { .. } => 7,
        }
    }

    /// The snake_case name used in reports (`"gained"`).
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Spawned { .. } => "spawned",
            EventKind::Despawned { .. } => "despawned",
            EventKind::Gained { .. } => "gained",
            EventKind::Lost { .. } => "lost",
            EventKind::Heard { .. } => "heard",
            EventKind::Message { .. } => "message",
            EventKind::DecisionChanged { .. } => "decision_changed",
            EventKind::Arrived { .. } => "arrived",
            EventKind::RouteFailed { .. } => "route_failed",
            EventKind::RouteFound { .. } => "route_found",
            EventKind::Stuck { .. } => "stuck",
            EventKind::DoorChanged { .. } => "door_changed",
        }
    }
}
