//! The events a game reacts to: one queue, filled by the stages and by
//! structural changes, in a stable order per tick.
//!
//! After [`Pipeline::tick`](crate::Pipeline::tick), [`World::events`] holds
//! what happened since the previous tick began: changes made between the
//! two ticks (spawns, despawns, doors) and everything the tick itself did,
//! sorted by agent, then kind (see [`EventKind::rank`]). The next tick
//! starts a new queue, so a game that never reads them keeps no backlog;
//! [`World::drain_events`] takes them out.

use crate::data::{AgentId, Decision, Event, EventKind, NO_SOURCE, PerceptEvent};

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

    /// Copies the sense stage's events into the queue, with what a game
    /// needs to react (who made a sound, what a message says).
    pub(crate) fn record_percept_events(&mut self) {
        let tick = self.tick;
        let p = &self.percepts;
        let a = &self.agents;
        self.events.extend(p.events().iter().map(|e| Event {
            tick,
            kind: match *e {
                PerceptEvent::Gained {
                    agent,
                    sense,
                    target,
                } => EventKind::Gained {
                    agent,
                    sense,
                    target,
                },
                PerceptEvent::Lost {
                    agent,
                    sense,
                    target,
                } => EventKind::Lost {
                    agent,
                    sense,
                    target,
                },
                PerceptEvent::Heard {
                    agent,
                    sense,
                    sound,
                    loudness,
                } => {
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
                PerceptEvent::Message { agent, message } => {
                    let m = p.messages()[message as usize];
                    EventKind::Message {
                        agent,
                        from: m.from,
                        tag: m.tag,
                        position: m.position,
                    }
                }
            },
        }));
    }

    /// One `DecisionChanged` event per live agent whose state or target
    /// differs from `before` (its decision of the last tick).
    pub(crate) fn record_decision_changes(&mut self, before: &[Decision]) {
        let tick = self.tick;
        let a = &self.agents;
        for (i, (old, new)) in before.iter().zip(&a.decision).enumerate() {
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
