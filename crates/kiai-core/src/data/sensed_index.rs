//! [`SensedIndex`]: every agent's sensed lists of [`Percepts`], copied
//! into agent order once, for callers that then query agent after agent
//! in agent order (scripts).
//!
//! [`Percepts::sensed`] finds an agent's list through its processing rank,
//! its chunk, the chunk's per-agent and per-sense offsets and then the ids:
//! four loads that each wait for the one before, from chunks stored in grid
//! cell order (and written by several threads, so half of them sit in the
//! other core's cache), so a caller walking agents in index order misses
//! the cache at every step. The index copies the lists into agent order,
//! reading the chunks front to back (which the hardware prefetches), so a
//! query reads entries its neighbour in agent order just brought in.

use crate::data::{AgentId, CHUNK, PerceptChunk, Percepts};

/// One agent slot's lists in the copy.
#[derive(Clone, Copy, Debug, Default)]
struct SlotLists {
    /// The generation of the agent that sensed from the slot.
    generation: u32,
    /// Its first entry in [`SensedIndex::ends`].
    first: u32,
    /// How many senses it has (0: no lists).
    senses: u32,
    /// Where its ids start in [`SensedIndex::ids`].
    start: u32,
}

/// Every agent's sensed lists of one sense stage, copied into agent order;
/// see the [module docs](self) for why. Build it with
/// [`SensedIndex::build`] after the stage; its buffers are kept between
/// builds.
#[derive(Clone, Debug, Default)]
pub struct SensedIndex {
    /// Per agent slot.
    slots: Vec<SlotLists>,
    /// Per (agent, sense), in agent order: the end of its ids in `ids`.
    ends: Vec<u32>,
    /// Every list, in agent order.
    ids: Vec<AgentId>,
    /// Per processing rank, its agent slot (`u32::MAX`: none).
    slot_of: Vec<u32>,
}

impl SensedIndex {
    /// Copies the lists of every agent that `percepts` holds results for
    /// into agent order: three passes over the agents and one over the
    /// lists, each reading the chunks or the slots front to back.
    pub fn build(&mut self, percepts: &Percepts) {
        let chunks = &percepts.chunks;
        self.slot_of.clear();
        self.slot_of.resize(chunks.len() * CHUNK, u32::MAX);
        for (slot, &rank) in percepts.rank.iter().enumerate() {
            if let Some(s) = self.slot_of.get_mut(rank as usize) {
                *s = slot as u32;
            }
        }
        // Sizes, in processing order: `senses`, and the id count in `start`.
        self.slots.clear();
        self.slots.resize(percepts.rank.len(), SlotLists::default());
        self.each_agent(chunks, |slots, slot, from, to, c| {
            let start = if from == 0 { 0 } else { c.slot_end[from - 1] };
            slots[slot].senses = (to - from) as u32;
            slots[slot].start = c.slot_end[to - 1] - start;
        });
        // Offsets, in agent order.
        let (mut ends, mut ids) = (0u32, 0u32);
        for (s, generation) in self.slots.iter_mut().zip(&percepts.generation) {
            s.generation = *generation;
            s.first = ends;
            ends += s.senses;
            let count = s.start;
            s.start = ids;
            ids += count;
        }
        // The copy, in processing order again.
        let mut out_ends = std::mem::take(&mut self.ends);
        let mut out_ids = std::mem::take(&mut self.ids);
        out_ends.clear();
        out_ends.resize(ends as usize, 0);
        out_ids.clear();
        out_ids.resize(ids as usize, AgentId::from_index(0));
        self.each_agent(chunks, |slots, slot, from, to, c| {
            let s = slots[slot];
            let start = if from == 0 { 0 } else { c.slot_end[from - 1] };
            let base = s.start.wrapping_sub(start);
            let ends = &mut out_ends[s.first as usize..][..to - from];
            for (e, &end) in ends.iter_mut().zip(&c.slot_end[from..to]) {
                *e = base.wrapping_add(end);
            }
            let list = &c.ids[start as usize..c.slot_end[to - 1] as usize];
            // One by one: lists are a few ids long, too short for a
            // `memcpy` call to pay off.
            for (o, &id) in out_ids[s.start as usize..].iter_mut().zip(list) {
                *o = id;
            }
        });
        self.ends = out_ends;
        self.ids = out_ids;
    }

    /// Calls `f(slots, slot, first, next, chunk)` for every agent with at
    /// least one sense, in processing order: its sense slots in `chunk` are
    /// `first..next`.
    fn each_agent(
        &mut self,
        chunks: &[PerceptChunk],
        mut f: impl FnMut(&mut [SlotLists], usize, usize, usize, &PerceptChunk),
    ) {
        for (c, ranks) in chunks.iter().zip(self.slot_of.chunks(CHUNK)) {
            for (local, w) in c.slot_start.windows(2).enumerate() {
                let (from, to) = (w[0] as usize, w[1] as usize);
                let slot = ranks[local];
                if from < to && slot != u32::MAX {
                    f(&mut self.slots, slot as usize, from, to, c);
                }
            }
        }
    }

    /// `agent`'s list of sense `sense`: read from `index` when given (a
    /// copy of `percepts`), else from `percepts` (fewer lookups than the
    /// copy costs). The same list either way.
    pub fn or_percepts<'a>(
        index: Option<&'a Self>,
        percepts: &'a Percepts,
        agent: AgentId,
        sense: usize,
    ) -> &'a [AgentId] {
        match index {
            Some(index) => index.sensed(agent, sense),
            None => percepts.sensed(agent, sense),
        }
    }

    /// What [`Percepts::sensed`] returns for `agent` and `sense`, read
    /// from the copy.
    pub fn sensed(&self, agent: AgentId, sense: usize) -> &[AgentId] {
        let Some(s) = self.slots.get(agent.index()) else {
            return &[];
        };
        if s.generation != agent.generation() || sense >= s.senses as usize {
            return &[];
        }
        let k = s.first as usize + sense;
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.ids[start as usize..self.ends[k] as usize]
    }
}
