//! The events a game reacts to: one queue, filled by the stages and by
//! structural changes, in a stable order per tick.
//!
//! After [`Pipeline::tick`](crate::Pipeline::tick), [`World::events`] holds
//! what happened since the previous tick began: changes made between the
//! two ticks (spawns, despawns, doors) and everything the tick itself did,
//! sorted by agent, then kind (see [`EventKind::rank`]). The next tick
//! starts a new queue, so a game that never reads them keeps no backlog;
//! [`World::drain_events`] takes them out.

use std::ops::Range;

use rayon::prelude::*;

use crate::data::{
    AgentId, Decision, Event, EventKind, NO_SOURCE, Perceived, PerceptRecord, Percepts,
};
use crate::par::{concat, light_min_len};
use crate::world::Agents;

use super::World;
use super::event_order::EventOrder;

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
        self.agent_events = 0..0;
    }

    /// Puts this tick's events in their stable order, around the agents'
    /// events [`World::settle_decisions`] wrote in order (`order` is
    /// scratch memory). The pipeline calls it when a tick ends.
    pub(crate) fn end_tick_events(&mut self, order: &mut EventOrder) {
        order.finish(&mut self.events, std::mem::take(&mut self.agent_events));
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

    /// After the decide stage, given `before` (every agent's decision of
    /// the last tick): agents that do not think this tick (tick level of
    /// detail) get theirs back, whatever the decider wrote. Then the
    /// agents' events of the tick go into the queue, in its order: agent by
    /// agent, what the sense stage found (gained and lost, heard, messages)
    /// and a `DecisionChanged` if the state or target differs. Blocks of
    /// agents are written in parallel into `order`'s buffers, then copied
    /// into the queue in order (by every thread when there are many,
    /// [`concat::extend`]).
    pub(crate) fn settle_decisions(&mut self, before: &[Decision], order: &mut EventOrder) {
        self.restore_held(before);
        let (p, a) = (&self.percepts, &self.agents);
        let n_blocks = a.len().div_ceil(AGENTS_PER_BLOCK);
        order.blocks.resize_with(n_blocks, Vec::new);
        let tick = self.tick;
        order
            .blocks
            .par_iter_mut()
            .enumerate()
            .for_each(|(b, out)| {
                let agents = b * AGENTS_PER_BLOCK..((b + 1) * AGENTS_PER_BLOCK).min(a.len());
                out.clear();
                block_events(out, agents, (p, a, before), tick);
            });
        let start = self.events.len();
        let blocks: Vec<&[Event]> = order.blocks[..n_blocks].iter().map(Vec::as_slice).collect();
        concat::extend(&mut self.events, &blocks, &mut order.starts);
        self.agent_events = start..self.events.len();
    }

    /// Agents that do not think this tick (tick level of detail) get their
    /// decision of the last tick (`before`) back.
    fn restore_held(&mut self, before: &[Decision]) {
        let Some(thinks) = self.lod.thinking(self.agents.len()) else {
            return;
        };
        let decisions = before.par_iter().zip(&mut self.agents.decision);
        let held = decisions.zip(thinks).with_min_len(light_min_len());
        held.for_each(|((old, new), &thinks)| {
            if !thinks {
                *new = *old;
            }
        });
    }
}

/// Agents per block when their events are written (in parallel): a
/// block's events cost about as much as waking a thread.
const AGENTS_PER_BLOCK: usize = 2048;

/// Appends to `out` the events of `agents` (a range of slots) in the
/// queue's order, agent by agent: the sense stage's (its records `p`,
/// sorted by agent), ranked, then a `DecisionChanged` where the state or
/// target differs from `before`.
fn block_events(
    out: &mut Vec<Event>,
    agents: Range<usize>,
    (p, a, before): (&Percepts, &Agents, &[Decision]),
    tick: u64,
) {
    let records = p.events();
    let mut r = records.partition_point(|rec| rec.agent.index() < agents.start);
    for i in agents.clone() {
        let from = out.len();
        while let Some(rec) = records.get(r).filter(|rec| rec.agent.index() == i) {
            out.push(Event {
                tick,
                kind: event_kind(p, a, rec),
            });
            r += 1;
        }
        // Heard and messages after gained and lost, as ranked (a hearing
        // sense may come before a sight).
        let mine = &mut out[from..];
        if !mine.is_sorted_by_key(|e| e.kind.rank()) {
            mine.sort_by_key(|e| e.kind.rank());
        }
        let (old, new) = (before[i], a.decision[i]);
        if a.alive[i] && (old.state != new.state || old.target != new.target) {
            out.push(Event {
                tick,
                kind: EventKind::DecisionChanged {
                    agent: AgentId::new(i as u32, a.generation[i]),
                    from: old.state,
                    to: new,
                },
            });
        }
    }
    // The records are sorted by agent: every one of the block's was taken.
    debug_assert_eq!(
        r,
        records.partition_point(|rec| rec.agent.index() < agents.end)
    );
}

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
