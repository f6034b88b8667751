//! The tick's event queue in its stable order: by agent (events of no
//! agent first), then [`EventKind::rank`], then the order they were made.
//!
//! Most of a tick's events are its agents' percepts and decisions, which
//! the decide stage writes agent by agent, already in that order
//! ([`World::settle_decisions`](super::World)). What comes before them
//! (changes between ticks) and after (navigation, deferred spawns) is
//! sorted alone and merged in. A comparison sort of the whole queue (about
//! 330k events a tick in a 100k-agent battle) moved every event and took
//! 3.7 ms, outside every stage.

use std::ops::Range;

use crate::data::{AgentId, Event};

/// Scratch memory of the queue's order, kept between ticks.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventOrder {
    /// Per block of agents, its events in order (see
    /// `World::settle_decisions`).
    pub(crate) blocks: Vec<Vec<Event>>,
    /// Per block, the number of events of the blocks before it.
    pub(crate) starts: Vec<usize>,
    /// The events before and after the ordered run, sorted.
    before: Vec<Event>,
    after: Vec<Event>,
    /// The merged queue (swapped with the queue: the last tick's memory).
    merged: Vec<Event>,
}

/// An event's place in the queue's order.
type Key = (bool, Option<AgentId>, u8);

/// The queue's order: no agent first, then agent (slot, then generation),
/// then rank.
fn key(e: &Event) -> Key {
    let agent = e.kind.agent();
    (agent.is_some(), agent, e.kind.rank())
}

impl EventOrder {
    /// Sorts `queue` stably by [`key`], knowing that its events in
    /// `ordered` already are (an empty range: nothing is known).
    pub(crate) fn finish(&mut self, queue: &mut Vec<Event>, ordered: Range<usize>) {
        if ordered.is_empty() || ordered.end > queue.len() {
            queue.sort_by_key(key);
            return;
        }
        if ordered.start == 0 && ordered.end == queue.len() {
            return;
        }
        self.before.clear();
        self.before.extend_from_slice(&queue[..ordered.start]);
        self.before.sort_by_key(key);
        self.after.clear();
        self.after.extend_from_slice(&queue[ordered.end..]);
        self.after.sort_by_key(key);
        self.merged.clear();
        self.merged.reserve(queue.len());
        merge(
            [&self.before, &queue[ordered], &self.after],
            &mut self.merged,
        );
        std::mem::swap(queue, &mut self.merged);
    }
}

/// Appends the events of `runs` (each sorted by [`key`]) to `out` in
/// order; of equal keys, those of an earlier run first.
fn merge(runs: [&[Event]; 3], out: &mut Vec<Event>) {
    let mut at = [0usize; 3];
    loop {
        // Each run's head as (key, run): the smallest comes next, an
        // earlier run first on equal keys.
        let mut heads = [((false, None, 0), 0); 3];
        let mut n = 0;
        for (r, run) in runs.iter().enumerate() {
            if let Some(e) = run.get(at[r]) {
                heads[n] = (key(e), r);
                n += 1;
            }
        }
        let heads = &mut heads[..n];
        heads.sort_unstable();
        let Some(&(_, r)) = heads.first() else {
            return;
        };
        // The winning run up to the next head, in one copy (the ordered
        // run is long, the others short); its first event always goes.
        let run = &runs[r][at[r]..];
        let take = match heads.get(1) {
            None => run.len(),
            Some(&next) => run.partition_point(|e| (key(e), r) < next),
        };
        out.extend_from_slice(&run[..take]);
        at[r] += take;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::data::{BehaviourState, Decision, EventKind};

    /// An event of the agent in slot, generation `agent` (a door's for
    /// none) of kind number `kind`, told apart by `tag`.
    fn event(agent: Option<(u32, u32)>, kind: u8, tag: u32) -> Event {
        let a = agent.map_or(AgentId::new(0, 0), |(s, g)| AgentId::new(s, g));
        let target = AgentId::new(tag, 0);
        let kind = match (agent, kind % 6) {
            (None, _) => EventKind::DoorChanged {
                wall: tag,
                open: tag.is_multiple_of(2),
            },
            (_, 0) => EventKind::Spawned { agent: a },
            (_, 1) => EventKind::Gained {
                agent: a,
                sense: (tag % 3) as u16,
                target,
            },
            (_, 2) => EventKind::Lost {
                agent: a,
                sense: (tag % 3) as u16,
                target,
            },
            (_, 3) => EventKind::DecisionChanged {
                agent: a,
                from: BehaviourState::RandomWalk,
                to: Decision {
                    state: BehaviourState::Chase,
                    target: Some(target),
                    goal: None,
                },
            },
            (_, 4) => EventKind::Heard {
                agent: a,
                sense: 0,
                source: None,
                position: glam::Vec3::ZERO,
                tag,
                loudness: 1.0,
            },
            _ => EventKind::Despawned { agent: a },
        };
        Event {
            tick: u64::from(tag),
            kind,
        }
    }

    fn events(raw: &[(u32, u32, u8, bool)], first_tag: usize) -> Vec<Event> {
        raw.iter()
            .enumerate()
            .map(|(k, &(slot, generation, kind, door))| {
                let agent = (!door || kind % 3 != 0).then_some((slot, generation));
                event(agent, kind, (first_tag + k) as u32)
            })
            .collect()
    }

    fn any_events(n: usize) -> impl Strategy<Value = Vec<(u32, u32, u8, bool)>> {
        proptest::collection::vec((0u32..40, 0u32..2, 0u8..8, any::<bool>()), 0..n)
    }

    proptest! {
        /// A queue of events before, an ordered run, and events after is
        /// put in exactly the order a stable sort of the whole gives: ties
        /// across the runs, doors, two generations of a slot, empty runs.
        #[test]
        fn merging_around_the_ordered_run_is_the_stable_sort(
            before in any_events(30),
            run in any_events(400),
            after in any_events(30),
        ) {
            let mut ordered = events(&run, 1000);
            ordered.sort_by_key(key);
            let mut queue = events(&before, 0);
            let from = queue.len();
            queue.extend_from_slice(&ordered);
            let to = queue.len();
            queue.extend(events(&after, 2000));
            let mut want = queue.clone();
            want.sort_by_key(key);
            let mut order = EventOrder::default();
            for range in [from..to, 0..0] {
                let mut got = queue.clone();
                order.finish(&mut got, range);
                prop_assert_eq!(&got, &want);
            }
        }
    }
}
