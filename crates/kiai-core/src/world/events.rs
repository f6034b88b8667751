//! The events a game reacts to: one queue, filled by the stages and by
//! structural changes, in a stable order per tick.
//!
//! After [`Pipeline::tick`](crate::Pipeline::tick), [`World::events`] holds
//! what happened since the previous tick began: changes made between the
//! two ticks (spawns, despawns, doors) and everything the tick itself did,
//! sorted by agent, then kind (see [`EventKind::rank`]). The next tick
//! starts a new queue, so a game that never reads them keeps no backlog;
//! [`World::drain_events`] takes them out.

use rayon::prelude::*;

use crate::data::{
    AgentId, Decision, Event, EventKind, NO_SOURCE, Perceived, PerceptRecord, Percepts,
};
use crate::world::Agents;

use super::World;

impl World {
    /// What happened in the last tick (and between it and the one before),
    /// in a stable order: by agent, then kind, then the order it happened.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events out (see [`World::events`]).
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, Event> {
        self.tick_events_end = 0;
        self.events.drain(..)
    }

    /// Records an event of the running (or next) tick.
    pub(crate) fn push_event(&mut self, kind: EventKind) {
        self.events.push(Event {
            tick: self.tick,
            kind,
        });
    }

    /// Forgets the events of the last tick (those made since stay: they
    /// belong to this one). The pipeline calls it when a tick begins.
    pub(crate) fn begin_tick_events(&mut self) {
        let end = std::mem::take(&mut self.tick_events_end).min(self.events.len());
        self.events.drain(..end);
    }

    /// Puts this tick's events in their stable order. The pipeline calls it
    /// when a tick ends.
    pub(crate) fn end_tick_events(&mut self) {
        // A stable sort keeps each agent's events of one kind in the order
        // they were made.
        self.events.sort_by_key(|e| {
            let agent = e.kind.agent();
            (agent.is_some(), agent, e.kind.rank())
        });
        self.tick_events_end = self.events.len();
    }

    /// The last sense stage's changes, as events with what a game needs
    /// to react (who made a sound, what a message says), in the stage's
    /// order: by agent, then sense, lost before gained, then target.
    /// [`World::events`] holds them too once the tick ends, in its own
    /// order; this is for hooks that run within the tick (scripts' `on_seen`)
    /// and for what [`Pipeline::sense`](crate::Pipeline::sense) alone found.
    pub fn percept_events(&self) -> impl Iterator<Item = EventKind> + '_ {
        let (p, a) = (&self.percepts, &self.agents);
        p.events().iter().map(move |r| event_kind(p, a, r))
    }

    /// Copies the sense stage's events into the queue.
    pub(crate) fn record_percept_events(&mut self) {
        let tick = self.tick;
        let (p, a) = (&self.percepts, &self.agents);
        // Straight into the queue, in order (an indexed map), in parallel:
        // a 10k battle makes about 30k a tick.
        self.events.par_extend(
            p.events()
                .par_iter()
                .with_min_len(EVENTS_PER_JOB)
                .map(|r| Event {
                    tick,
                    kind: event_kind(p, a, r),
                }),
        );
    }

    /// After the decide stage, given `before` (every agent's decision of
    /// the last tick): agents that do not think this tick (tick level of
    /// detail) get theirs back, whatever the decider wrote; then one
    /// `DecisionChanged` event per live agent whose state or target
    /// differs. One pass for both: each is a walk over every decision.
    pub(crate) fn settle_decisions(&mut self, before: &[Decision]) {
        let tick = self.tick;
        let thinks = self.lod.thinking(self.agents.len());
        let a = &mut self.agents;
        for (i, (old, new)) in before.iter().zip(&mut a.decision).enumerate() {
            if thinks.is_some_and(|t| !t[i]) {
                *new = *old;
                continue;
            }
            if !a.alive[i] || (old.state == new.state && old.target == new.target) {
                continue;
            }
            self.events.push(Event {
                tick,
                kind: EventKind::DecisionChanged {
                    agent: AgentId::new(i as u32, a.generation[i]),
                    from: old.state,
                    to: *new,
                },
            });
        }
    }
}

/// Percept events per parallel job when they become events.
const EVENTS_PER_JOB: usize = 4096;

/// The event a sense stage's record `r` tells of, with what a game needs
/// to react (who made a sound, what a message says).
fn event_kind(p: &Percepts, a: &Agents, r: &PerceptRecord) -> EventKind {
    let (agent, sense) = (r.agent, r.sense);
    match r.what {
        Perceived::Gained(target) => EventKind::Gained {
            agent,
            sense,
            target,
        },
        Perceived::Lost(target) => EventKind::Lost {
            agent,
            sense,
            target,
        },
        Perceived::Heard(sound, loudness) => {
            let s = p.sounds()[sound as usize];
            let source = (s.source != NO_SOURCE)
                .then(|| a.id(s.source as usize))
                .flatten();
            EventKind::Heard {
                agent,
                sense,
                source,
                position: s.position,
                tag: s.tag,
                loudness,
            }
        }
        Perceived::Message(message) => {
            let m = p.messages()[message as usize];
            EventKind::Message {
                agent,
                from: m.from,
                tag: m.tag,
                position: m.position,
            }
        }
    }
}
