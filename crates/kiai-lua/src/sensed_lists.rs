//! What the agents' senses list, for the sense queries of one tick's
//! scripts. Scripts run agent after agent in agent order while the
//! percepts are stored in grid cell order, so looking each agent up on its
//! own waits on four cache misses in a row: when the scripts query about
//! as many agents as the world holds, every list is copied into agent
//! order at the tick's first query ([`kiai_core::SensedIndex`]) and read
//! from there. A few queries in a big world read the percepts directly
//! (the copy would cost more than they save). Both give the same lists.

use std::cell::{Cell, OnceCell, RefCell};

use kiai_core::{AgentId, SensedIndex, World};

/// The tick's lists: the percepts, or their copy in agent order; shared by
/// every script of the tick.
#[derive(Debug, Default)]
pub(crate) struct SensedLists {
    /// This tick's copy, once a query asked for it.
    index: OnceCell<SensedIndex>,
    /// The last tick's copy, kept for its buffers.
    spare: RefCell<SensedIndex>,
    /// Sense queries so far this tick.
    queries: Cell<usize>,
    /// Sense queries in the last tick: the forecast for this one.
    last_queries: usize,
}

impl SensedLists {
    /// Forgets the last tick's lists (the percepts have changed since).
    pub(crate) fn begin_tick(&mut self) {
        self.last_queries = self.queries.replace(0);
        if let Some(index) = self.index.take() {
            *self.spare.get_mut() = index;
        }
    }

    /// This tick's copy, if a query built it: the default decision reads
    /// it too.
    pub(crate) fn built(&self) -> Option<&SensedIndex> {
        self.index.get()
    }

    /// The agents `agent`'s sense number `sense` lists, ascending, as
    /// [`kiai_core::Percepts::sensed`] gives them.
    pub(crate) fn of<'a>(
        &'a self,
        world: &'a World,
        agent: AgentId,
        sense: usize,
    ) -> &'a [AgentId] {
        self.queries.set(self.queries.get() + 1);
        let index = match self.index.get() {
            Some(index) => Some(index),
            // The copy costs about 20 ns per agent and saves about 50 ns
            // per query (the `lua` bench's light scene, 10k agents): it
            // pays once the last tick asked for half as many lists as
            // there are agents.
            None if self.last_queries * 2 < world.agents().len() => None,
            None => Some(self.index.get_or_init(|| {
                let mut index = self.spare.take();
                index.build(world.percepts());
                index
            })),
        };
        SensedIndex::or_percepts(index, world.percepts(), agent, sense)
    }
}
