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
    list: impl IntoIterator<Item = AgentId>,
    from: Vec3,
    positions: &[Vec3],
) -> Option<(AgentId, f32)> {
    let mut best: Option<(f32, AgentId)> = None;
    for o in list {
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
                    let found = me.filter(|_| s < senses).and_then(|me| {
                        nearest_in(
                            percepts.sensed(me, s).iter().copied(),
                            positions[i],
                            positions,
                        )
                    });
                    let k = i * stride + s;
                    let (id, d) = found.map_or((NOBODY, 0), |(o, d)| (o.to_bits(), d.to_bits()));
                    ids[k].store(id, Ordering::Relaxed);
                    dist[k].store(d, Ordering::Relaxed);
                }
            }
            done.store(true, Ordering::Release);
        }
    }

    /// Whether this tick's [`Self::prepare`] made room (answers will be
    /// worked out ahead).
    pub(crate) fn is_on(&self) -> bool {
        !self.done.is_empty()
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

#[cfg(test)]
mod tests {
    use kiai_core::glam::Vec3;
    use kiai_core::{
        AgentSpawn, Archetype, Pipeline, Sense, SenseFilter, Shape, World, WorldConfig,
    };

    use super::*;

    /// Soldiers (a cone and a sphere) and scouts (a sphere only) of two
    /// hostile factions on a jittered grid, sensed once.
    fn sensed_world() -> World {
        let mut world = World::new(WorldConfig::default());
        let f = world.factions_mut();
        let (red, blue) = (
            f.add("red").unwrap_or_else(|e| panic!("{e}")),
            f.add("blue").unwrap_or_else(|e| panic!("{e}")),
        );
        f.set_hostile(red, blue);
        f.set_hostile(blue, red);
        let cone = Shape::Cone {
            range: 9.0,
            fov_deg: 120.0,
        };
        let sphere = Shape::Sphere { radius: 5.0 };
        let kinds = [
            vec![
                Sense::new("eyes", cone, SenseFilter::Hostile),
                Sense::new("radar", sphere, SenseFilter::All),
            ],
            vec![Sense::new("radar", sphere, SenseFilter::All)],
        ];
        let archetypes: Vec<_> = kinds
            .into_iter()
            .enumerate()
            .map(|(k, senses)| {
                world
                    .add_archetype(Archetype {
                        name: format!("a{k}"),
                        senses,
                        ..Archetype::default()
                    })
                    .unwrap_or_else(|e| panic!("{e}"))
            })
            .collect();
        for i in 0..700u32 {
            let jitter = (i.wrapping_mul(2_654_435_761) % 1000) as f32 / 500.0;
            world
                .spawn(AgentSpawn {
                    name: format!("u{i}"),
                    archetype: archetypes[(i % 3 == 0) as usize],
                    faction: if i % 2 == 0 { red } else { blue },
                    position: Vec3::new((i % 30) as f32 * 2.0 + jitter, 0.0, (i / 30) as f32 * 2.0),
                    facing: Vec3::new(1.0 - jitter, 0.0, jitter - 0.5),
                })
                .unwrap_or_else(|e| panic!("{e}"));
        }
        Pipeline::new().sense(&mut world);
        world
    }

    #[test]
    fn answers_worked_out_ahead_are_the_lists_nearest() {
        let world = sensed_world();
        let mut ahead = NearestAhead::default();
        ahead.prepare(&world, true);
        assert!(ahead.is_on());
        assert_eq!(ahead.get(0, 0), None, "nothing before the fill");
        ahead.fill(&world);
        let (a, p) = (world.agents(), world.percepts());
        let mut found = 0;
        for i in 0..a.len() {
            let me = a.id(i).unwrap_or_else(|| panic!("agent {i}"));
            let senses = world
                .archetype(a.archetypes()[i])
                .map_or(0, |arch| arch.senses.len());
            for s in 0..senses {
                let want = nearest_in(
                    p.sensed(me, s).iter().copied(),
                    a.positions()[i],
                    a.positions(),
                );
                assert_eq!(ahead.get(i, s), Some(want), "agent {i}, sense {s}");
                found += usize::from(want.is_some());
            }
        }
        assert!(found > 500, "{found} senses list someone");
        // Off: every query works its own out.
        ahead.prepare(&world, false);
        assert!(!ahead.is_on());
        assert_eq!(ahead.get(0, 0), None);
    }

    #[test]
    fn a_stopped_fill_leaves_the_rest_to_the_queries() {
        let world = sensed_world();
        let mut ahead = NearestAhead::default();
        ahead.prepare(&world, true);
        ahead.stop();
        ahead.fill(&world);
        assert_eq!(ahead.get(0, 0), None);
    }
}
