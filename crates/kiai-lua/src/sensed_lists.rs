//! What the agents' senses list, for the sense queries of one tick's
//! scripts: located for every agent at the first query
//! ([`kiai_core::SensedIndex`]), because scripts run agent after agent in
//! agent order while the percepts are stored in grid cell order, and
//! looking each agent up on its own made `agent:nearest` wait on four
//! cache misses in a row.

use std::cell::{OnceCell, RefCell};

use kiai_core::{AgentId, SensedIndex, World};

/// The index of the tick's percepts, built on first use; shared by every
/// script of the tick.
#[derive(Debug, Default)]
pub(crate) struct SensedLists {
    /// This tick's index, once a query asked for it.
    index: OnceCell<SensedIndex>,
    /// The last tick's, kept for its buffers.
    spare: RefCell<SensedIndex>,
}

impl SensedLists {
    /// Forgets the last tick's lists (the percepts have changed since).
    pub(crate) fn begin_tick(&mut self) {
        if let Some(index) = self.index.take() {
            *self.spare.get_mut() = index;
        }
    }

    /// The agents `agent`'s sense number `sense` lists, ascending, as
    /// [`kiai_core::Percepts::sensed`] gives them.
    pub(crate) fn of(&self, world: &World, agent: AgentId, sense: usize) -> &[AgentId] {
        let index = self.index.get_or_init(|| {
            let mut index = self.spare.take();
            index.build(world.percepts());
            index
        });
        index.sensed(agent, sense)
    }
}
