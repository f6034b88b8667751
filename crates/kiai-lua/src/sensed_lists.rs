//! What the agents' senses list, for the sense queries of one tick's
//! scripts. Scripts run agent after agent in agent order while the
//! percepts are stored in grid cell order, so looking each agent up on its
//! own waits on four cache misses in a row: when the scripts query about
//! as many agents as the world holds, every list is copied into agent
//! order ([`kiai_core::SensedIndex`]) and read from there. The decider
//! has another thread make the copy while the scripts start (their
//! queries read the percepts until it is ready), or makes it before they
//! start (one thread, few agents); a tool running scripts outside a tick
//! has the first query make it. A few queries in a big world read the
//! percepts directly (the copy would cost more than they save). Both give
//! the same lists, so nothing depends on when the copy is ready. When the
//! scripts asked for the nearest listed agent as often as half the agents
//! last tick, that thread first works those out too ([`NearestAhead`]).

use std::cell::Cell;
use std::sync::{Mutex, OnceLock};

use kiai_core::behaviour::works_ahead;
use kiai_core::{AgentId, SensedIndex, World};

use crate::nearest_ahead::{NearestAhead, nearest_in};

/// The tick's lists: the percepts, or their copy in agent order; shared by
/// every script of the tick.
#[derive(Debug, Default)]
pub(crate) struct SensedLists {
    copy: AgentOrder,
    /// The copy was handed over ([`Self::copy_elsewhere`]): queries never
    /// make it.
    elsewhere: Cell<bool>,
    /// Sense queries so far this tick that read a list: `sees`, `sensed`,
    /// and `nearest` when nothing is worked out ahead this tick (whether a
    /// query answered ahead would have read one depends on timing, so
    /// those never count: the forecast depends only on the thread count).
    queries: Cell<usize>,
    /// Such queries in the last tick: the forecast for this one.
    last_queries: usize,
    /// Each sense's nearest listed agent, when worked out ahead.
    ahead: NearestAhead,
    /// Nearest-agent queries so far this tick, and in the last tick.
    nearest_queries: (Cell<usize>, usize),
}

/// The tick's copy of the lists in agent order, which any thread may make.
#[derive(Debug, Default)]
pub(crate) struct AgentOrder {
    /// This tick's copy, once made.
    index: OnceLock<SensedIndex>,
    /// The last tick's copy, kept for its buffers.
    spare: Mutex<SensedIndex>,
}

impl AgentOrder {
    /// Makes this tick's copy of `world`'s lists, unless made already.
    pub(crate) fn make(&self, world: &World) -> &SensedIndex {
        self.index.get_or_init(|| {
            let mut index = self
                .spare
                .lock()
                .map(|mut spare| std::mem::take(&mut *spare))
                .unwrap_or_default();
            index.build(world.percepts());
            index
        })
    }
}

impl SensedLists {
    /// Forgets the last tick's lists (the percepts have changed since).
    pub(crate) fn begin_tick(&mut self) {
        self.last_queries = self.queries.replace(0);
        self.nearest_queries.1 = self.nearest_queries.0.replace(0);
        self.elsewhere.set(false);
        let copy = &mut self.copy;
        if let (Some(index), Ok(spare)) = (copy.index.take(), copy.spare.get_mut()) {
            *spare = index;
        }
    }

    /// Whether this tick's scripts are forecast to query enough lists for
    /// the copy to pay: the last tick's asked for half as many lists as
    /// there are agents. (The copy costs about 20 ns per agent and saves
    /// about 50 ns per query: the `lua` bench's light scene, 10k agents.)
    pub(crate) fn copy_pays(&self, world: &World) -> bool {
        self.last_queries * 2 >= world.agents().len()
    }

    /// Makes room for working the nearest listed agents out ahead, on
    /// another thread while the scripts run, when there is one and the
    /// last tick's scripts asked for them as often as half the agents
    /// (else none are: every query works its own out).
    pub(crate) fn prepare_ahead(&mut self, world: &World) {
        let n = world.agents().len();
        let on = works_ahead(n) && self.nearest_queries.1 * 2 >= n;
        self.ahead.prepare(world, on);
    }

    /// What works the nearest listed agents out ahead
    /// ([`NearestAhead::fill`], on whichever thread; nothing unless
    /// [`Self::prepare_ahead`] made room this tick).
    pub(crate) fn ahead(&self) -> &NearestAhead {
        &self.ahead
    }

    /// The nearest agent that sense `sense` of agent `agent` lists, and
    /// its distance (ties: the lower id): worked out ahead, or now.
    pub(crate) fn nearest(
        &self,
        world: &World,
        agent: AgentId,
        sense: usize,
    ) -> Option<(AgentId, f32)> {
        let q = &self.nearest_queries.0;
        q.set(q.get() + 1);
        if !self.ahead.is_on() {
            self.queries.set(self.queries.get() + 1);
        }
        let i = agent.index();
        self.ahead.get(i, sense).unwrap_or_else(|| {
            let positions = world.agents().positions();
            nearest_in(
                self.list(world, agent, sense).iter().copied(),
                positions[i],
                positions,
            )
        })
    }

    /// Hands this tick's copy to the caller, who makes it with
    /// [`AgentOrder::make`] (on another thread while the scripts run, or
    /// before they start): queries never make it, and read the percepts
    /// until it is made.
    pub(crate) fn copy_elsewhere(&self) -> &AgentOrder {
        self.elsewhere.set(true);
        &self.copy
    }

    /// This tick's copy, once made: the default decision reads it too.
    pub(crate) fn built(&self) -> Option<&SensedIndex> {
        self.copy.index.get()
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
        self.list(world, agent, sense)
    }

    /// [`Self::of`] without counting the query.
    fn list<'a>(&'a self, world: &'a World, agent: AgentId, sense: usize) -> &'a [AgentId] {
        let index = match self.copy.index.get() {
            Some(index) => Some(index),
            None if self.elsewhere.get() || !self.copy_pays(world) => None,
            None => Some(self.copy.make(world)),
        };
        SensedIndex::or_percepts(index, world.percepts(), agent, sense)
    }
}
