//! Each sense's nearest listed agent, worked out ahead for `agent:nearest`.
//!
//! While a tick's scripts run (on one thread), another thread goes through
//! the agents in index order, as the scripts do (and faster: it soon runs
//! ahead of them), and stores for each agent and sense the nearest agent
//! the sense lists and its distance, one block of agents at a time, until
//! the scripts are done. A query whose agent's block is done reads the
//! answer; one that comes first works it out itself. Both are the same
//! function of the same percepts and positions, so nothing depends on
//! which one answers.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use kiai_core::glam::Vec3;
use kiai_core::{AgentId, World};

/// Agents per block marked done at once.
const BLOCK: usize = 256;

/// Marks a list with nobody in it.
const NOBODY: u64 = u64::MAX;

/// The nearest agent of `list` to `from` (ties: the first in the list,
/// which is ascending) and its distance, world units.
pub(crate) fn nearest_in(
    list: &[AgentId],
    from: Vec3,
    positions: &[Vec3],
) -> Option<(AgentId, f32)> {
    let mut best: Option<(f32, AgentId)> = None;
    for &o in list {
        let d = from.distance_squared(positions[o.index()]);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, o));
        }
    }
    best.map(|(d, o)| (o, d.sqrt()))
}

/// Per agent and sense, the nearest agent the sense lists: written by one
/// thread, read by another as soon as its block is done.
#[derive(Debug, Default)]
pub(crate) struct NearestAhead {
    /// Senses per agent: the most any archetype has.
    senses: usize,
    /// `[slot * senses + sense]`: the nearest's handle bits ([`NOBODY`]:
    /// the list is empty).
    ids: Vec<AtomicU64>,
    /// `[slot * senses + sense]`: its distance's bits.
    dist: Vec<AtomicU32>,
    /// Per block of [`BLOCK`] slots: its entries are this tick's.
    done: Vec<AtomicBool>,
    /// The scripts are done: nobody asks any more, stop filling.
    stopped: AtomicBool,
}

impl NearestAhead {
    /// Makes room for `world`'s agents and marks every block not done;
    /// with `on` false, no block at all (every query works it out).
    pub(crate) fn prepare(&mut self, world: &World, on: bool) {
        self.done.clear();
        *self.stopped.get_mut() = false;
        if !on {
            return;
        }
        let senses = world
            .archetypes()
            .iter()
            .map(|a| a.senses.len())
            .max()
            .unwrap_or(0);
        let slots = world.agents().len();
        let n = slots * senses;
        self.senses = senses;
        self.ids.resize_with(n, || AtomicU64::new(NOBODY));
        self.ids.truncate(n);
        self.dist.resize_with(n, AtomicU32::default);
        self.dist.truncate(n);
        self.done
            .resize_with(slots.div_ceil(BLOCK), AtomicBool::default);
    }

    /// Works the blocks out in index order (on whichever thread) until
    /// [`Self::stop`].
    pub(crate) fn fill(&self, world: &World) {
        let a = world.agents();
        let (positions, percepts) = (a.positions(), world.percepts());
        let (ids, dist, stride) = (&self.ids[..], &self.dist[..], self.senses);
        for (b, done) in self.done.iter().enumerate() {
            if self.stopped.load(Ordering::Relaxed) {
                return;
            }
            for i in b * BLOCK..((b + 1) * BLOCK).min(a.len()) {
                let me = a.id(i);
                let senses = me
                    .and_then(|_| world.archetype(a.archetypes()[i]))
                    .map_or(0, |arch| arch.senses.len());
                for s in 0..stride {
                    let found = me
                        .filter(|_| s < senses)
                        .and_then(|me| nearest_in(percepts.sensed(me, s), positions[i], positions));
                    let k = i * stride + s;
                    let (id, d) = found.map_or((NOBODY, 0), |(o, d)| (o.to_bits(), d.to_bits()));
                    ids[k].store(id, Ordering::Relaxed);
                    dist[k].store(d, Ordering::Relaxed);
                }
            }
            done.store(true, Ordering::Release);
        }
    }

    /// Tells [`Self::fill`] to stop: the scripts that asked are done.
    pub(crate) fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// The nearest agent sense `sense` of the agent in slot `slot` lists
    /// and its distance, if its block is done (`None`: not yet, work it
    /// out).
    pub(crate) fn get(&self, slot: usize, sense: usize) -> Option<Option<(AgentId, f32)>> {
        if sense >= self.senses || !self.done.get(slot / BLOCK)?.load(Ordering::Acquire) {
            return None;
        }
        let k = slot * self.senses + sense;
        let id = self.ids.get(k)?.load(Ordering::Relaxed);
        let d = f32::from_bits(self.dist.get(k)?.load(Ordering::Relaxed));
        Some((id != NOBODY).then(|| (AgentId::from_bits(id), d)))
    }
}
