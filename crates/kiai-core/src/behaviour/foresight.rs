//! Per-agent values worked out ahead, on another thread of the pool,
//! while the calling thread runs something else (a script decider's
//! scripts, which run on one thread); the calling thread joins in when it
//! is done.
//!
//! The values are a pure function of the agent and of a world nobody
//! writes in the meantime, so when and on which thread each is computed
//! changes nothing: the results are the same at any thread count.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::par::works_ahead;

/// Agents per block handed to a thread: small enough that the calling
/// thread, done with its own work, finds blocks left to share; large
/// enough that claiming one (an atomic add, an uncontended lock) is noise.
const BLOCK: usize = 512;

/// Values of type `T`, one per agent, for one tick.
#[derive(Debug, Default)]
pub(crate) struct Foresight<T> {
    values: Vec<T>,
    /// The tick the values were worked out for; `None`: none are held.
    tick: Option<u64>,
}

impl<T: Copy + Default + Send> Foresight<T> {
    /// Runs `meanwhile` on the calling thread while another thread of the
    /// pool runs `first` and then, when `value` is given, sets the value
    /// of each of `agents` agents to `value(i)`; the calling thread joins
    /// in when `meanwhile` returns. On a pool of one thread, or with fewer
    /// than [`PAR_MIN`](crate::par::PAR_MIN) agents (waking a thread would
    /// cost more than it saves), runs `first` and then `meanwhile` on the
    /// calling thread.
    /// Returns whether the values were worked out.
    pub(crate) fn fill_while(
        &mut self,
        tick: u64,
        agents: usize,
        value: Option<impl Fn(usize) -> T + Sync>,
        (first, meanwhile): (impl FnOnce() + Send, impl FnOnce()),
    ) -> bool {
        self.tick = None;
        if !works_ahead(agents) {
            first();
            meanwhile();
            return false;
        }
        let Some(value) = value else {
            rayon::in_place_scope(|s| {
                s.spawn(|_| first());
                meanwhile();
            });
            return false;
        };
        self.values.clear();
        self.values.resize(agents, T::default());
        // Each block is one job: the lock only lets a thread hold it
        // mutably, nobody waits on it.
        let blocks: Vec<Mutex<(usize, &mut [T])>> = self
            .values
            .chunks_mut(BLOCK)
            .enumerate()
            .map(Mutex::new)
            .collect();
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some(block) = blocks.get(next.fetch_add(1, Ordering::Relaxed)) {
                let Ok(mut block) = block.lock() else {
                    continue;
                };
                let (b, values) = &mut *block;
                for (k, v) in values.iter_mut().enumerate() {
                    *v = value(*b * BLOCK + k);
                }
            }
        };
        rayon::in_place_scope(|s| {
            s.spawn(|_| {
                first();
                work();
            });
            meanwhile();
            work();
        });
        drop(blocks);
        self.tick = Some(tick);
        true
    }

    /// The values worked out for `tick` over `agents` agents, if any;
    /// hands them out once (a later call, or another tick, gets `None`).
    pub(crate) fn take(&mut self, tick: u64, agents: usize) -> Option<&[T]> {
        let held = self.tick.take() == Some(tick) && self.values.len() == agents;
        held.then_some(&self.values[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::PAR_MIN;

    #[test]
    fn every_agent_gets_its_value_once_whatever_runs_meanwhile() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap_or_else(|e| panic!("pool: {e}"));
        let mut f = Foresight::<u64>::default();
        let mut ran = false;
        let worked = pool
            .install(|| f.fill_while(7, 5_000, Some(|i| (i * i) as u64), (|| {}, || ran = true)));
        assert!(worked && ran);
        let values = f.take(7, 5_000).map(<[u64]>::to_vec);
        let want: Vec<u64> = (0..5_000).map(|i| (i * i) as u64).collect();
        assert_eq!(values, Some(want));
        assert_eq!(f.take(7, 5_000), None, "handed out once");
    }

    #[test]
    fn one_thread_or_few_agents_run_first_then_meanwhile_and_work_nothing_out() {
        let pool = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap_or_else(|e| panic!("pool: {e}"))
        };
        let mut f = Foresight::<u8>::default();
        for (threads, agents) in [(1, 5_000), (2, PAR_MIN - 1)] {
            let order = Mutex::new(Vec::new());
            let note = |what| {
                if let Ok(mut o) = order.lock() {
                    o.push(what);
                }
            };
            let first = || note("first");
            let meanwhile = || note("meanwhile");
            let worked =
                pool(threads).install(|| f.fill_while(1, agents, Some(|_| 1), (first, meanwhile)));
            assert!(!worked, "{threads} threads, {agents} agents");
            assert_eq!(order.into_inner().ok(), Some(vec!["first", "meanwhile"]));
            assert_eq!(f.take(1, agents), None);
        }
        let two = pool(2);
        assert!(two.install(|| f.fill_while(1, PAR_MIN, Some(|_| 1), (|| {}, || {}))));
        assert_eq!(f.take(2, PAR_MIN), None, "another tick");
        assert!(two.install(|| f.fill_while(1, PAR_MIN, Some(|_| 1), (|| {}, || {}))));
        assert_eq!(f.take(1, PAR_MIN + 1), None, "another agent count");
        let first_ran = std::sync::atomic::AtomicBool::new(false);
        let first = || first_ran.store(true, Ordering::Relaxed);
        let none: Option<fn(usize) -> u8> = None;
        assert!(!two.install(|| f.fill_while(1, PAR_MIN, none, (first, || {}))));
        assert!(first_ran.into_inner(), "first runs without values too");
        assert_eq!(f.take(1, PAR_MIN), None, "no values");
    }
}
