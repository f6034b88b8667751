//! The tick pipeline: the [`Stage`]s in a straight line, each timed.
//!
//! [`Pipeline`] owns only scratch buffers and timings; it can be dropped and
//! replaced by a fresh one at any time without changing the simulation.

use std::time::{Duration, Instant};

use crate::behaviour::Decider;
use crate::par::{self, works_ahead};
use crate::world::World;
use crate::{awake, fog_update, integrate, lod, navigate, noise, perception, steering};

/// The stages of a tick, in the order [`Pipeline::tick`] runs them. Each
/// reads only what earlier stages (or earlier ticks) wrote. This list is
/// the one description of the tick: the crate docs and ARCHITECTURE.md
/// follow it (a test compares them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// Every sense of every agent finds the agents inside its shape (grid,
    /// walls, potentially visible sets), hears this tick's sounds and
    /// receives messages; memory is refreshed ([`World::percepts`]).
    /// Parallel over fixed chunks.
    Sense,
    /// A [`Decider`] picks a state, target and goal per agent (article 002's
    /// profiles, a game's deciders, Lua scripts; not for Kinematic bodies),
    /// then applies the sounds and messages the decisions make. Parallel
    /// per agent.
    Decide,
    /// Waypoint walkers that reached their waypoint choose the next one
    /// (article 001's selection or an A* route). Sequential in agent order.
    Navigate,
    /// Decisions become desired velocities and facings (random walk,
    /// pursue, evade, waypoints, missiles, a game's behaviours,
    /// separation), turned along walls ahead; Kinematic bodies are
    /// skipped. Parallel per agent.
    Steer,
    /// Simulated agents whose archetype avoids others trade their desired
    /// velocity for the nearest one that avoids their neighbours and the
    /// walls (ORCA), neighbours from the sense stage's grid. Parallel per
    /// agent.
    Avoid,
    /// Simulated bodies take their desired velocity and move one
    /// `tick_seconds` step: the world's bounds reflect them, walls hold
    /// their bodies (they slide along, never cross or enter one). Driven
    /// and Kinematic bodies are the game's to move. Parallel per agent.
    Integrate,
    /// Agents whose archetype makes noise emit a sound where they stand,
    /// heard at the next sense stage. Sequential in agent order.
    Noise,
    /// Sighted agents re-stamp the tile fog of war where they moved or
    /// turned. Sequential in agent order.
    Fog,
}

impl Stage {
    /// Every stage, in the order a tick runs them.
    pub const ALL: [Stage; 8] = [
        Stage::Sense,
        Stage::Decide,
        Stage::Navigate,
        Stage::Steer,
        Stage::Avoid,
        Stage::Integrate,
        Stage::Noise,
        Stage::Fog,
    ];

    /// The stage's name in reports (`"sense"`).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Sense => "sense",
            Stage::Decide => "decide",
            Stage::Navigate => "navigate",
            Stage::Steer => "steer",
            Stage::Avoid => "avoid",
            Stage::Integrate => "integrate",
            Stage::Noise => "noise",
            Stage::Fog => "fog",
        }
    }
}

/// Wall-clock time each stage of the last tick took. Measured outside the
/// simulation: timings never influence state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimings {
    /// [`Stage::Sense`].
    pub sense: Duration,
    /// [`Stage::Decide`].
    pub decide: Duration,
    /// [`Stage::Navigate`] (zero without waypoint walkers' graph).
    pub navigate: Duration,
    /// [`Stage::Steer`].
    pub steer: Duration,
    /// [`Stage::Avoid`] (zero when no archetype avoids).
    pub avoid: Duration,
    /// [`Stage::Integrate`].
    pub integrate: Duration,
    /// [`Stage::Noise`].
    pub noise: Duration,
    /// [`Stage::Fog`] (zero when the world has no fog).
    pub fog: Duration,
    /// The tick's work outside its stages: forgetting the last tick's
    /// events, clearing what agents hold of those despawned, applying the
    /// spawns and despawns deferred during the tick, and putting the event
    /// queue in order.
    pub upkeep: Duration,
}

impl StageTimings {
    /// The upkeep's name in reports (`kiai run`, the editor), beside the
    /// stages' [`Stage::name`].
    pub const UPKEEP: &'static str = "upkeep";

    /// The time of `stage`.
    pub fn get(&self, stage: Stage) -> Duration {
        match stage {
            Stage::Sense => self.sense,
            Stage::Decide => self.decide,
            Stage::Navigate => self.navigate,
            Stage::Steer => self.steer,
            Stage::Avoid => self.avoid,
            Stage::Integrate => self.integrate,
            Stage::Noise => self.noise,
            Stage::Fog => self.fog,
        }
    }

    /// The time of `stage`, to set it.
    pub fn get_mut(&mut self, stage: Stage) -> &mut Duration {
        match stage {
            Stage::Sense => &mut self.sense,
            Stage::Decide => &mut self.decide,
            Stage::Navigate => &mut self.navigate,
            Stage::Steer => &mut self.steer,
            Stage::Avoid => &mut self.avoid,
            Stage::Integrate => &mut self.integrate,
            Stage::Noise => &mut self.noise,
            Stage::Fog => &mut self.fog,
        }
    }

    /// Adds `other`'s time of every stage and its upkeep (for totals over
    /// many ticks).
    pub fn add(&mut self, other: &StageTimings) {
        for stage in Stage::ALL {
            *self.get_mut(stage) += other.get(stage);
        }
        self.upkeep += other.upkeep;
    }

    /// The whole tick: every stage and the upkeep.
    pub fn total(&self) -> Duration {
        Stage::ALL.iter().map(|&s| self.get(s)).sum::<Duration>() + self.upkeep
    }
}

/// Runs ticks over a [`World`]. Holds scratch memory only.
#[derive(Debug, Default)]
pub struct Pipeline {
    sense: perception::SenseScratch,
    navigate: navigate::NavScratch,
    avoid: steering::AvoidScratch,
    decisions: Vec<crate::data::Decision>,
    events: crate::world::EventOrder,
    timings: StageTimings,
    /// Lets the pool's other threads sleep between the tick's parallel
    /// passes (see [`Pipeline::set_threads_awake`]).
    threads_sleep: bool,
}

impl Pipeline {
    /// A pipeline with empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a tick keeps another thread of its rayon pool awake: on by
    /// default. Between the tick's parallel passes (a dozen or more per
    /// tick) idle pool threads would otherwise go to sleep, and waking one
    /// costs 17-95 µs per pass on a virtual machine; kept awake, a thread
    /// takes the tick's work as it appears and spins in between, calling
    /// `sched_yield`, until the tick returns or has had no parallel work
    /// for 4 ms. It applies to ticks run on a rayon worker thread (inside
    /// `ThreadPool::install`, as `kiai run` ticks) of a pool of two or more
    /// threads, in worlds of 1,024 agents or more (smaller ones never
    /// split); results are the same either way.
    ///
    /// Turn it off when the game needs that core for its own threads
    /// during the tick; when the pool's threads have a real-time
    /// scheduling policy (`SCHED_FIFO`, `SCHED_RR`: there `sched_yield`
    /// gives the core to no ordinary thread, and when the real-time threads
    /// use up Linux's real-time share, 95% of each second by default, the
    /// kernel stops them for the rest of that period); or when a
    /// [`Decider`] blocks (on a channel or a lock, not through rayon) for
    /// work it gave the same pool, which the kept thread may only take up
    /// once the tick ends.
    pub fn set_threads_awake(&mut self, awake: bool) {
        self.threads_sleep = !awake;
    }

    /// See [`Pipeline::set_threads_awake`].
    pub fn threads_awake(&self) -> bool {
        !self.threads_sleep
    }

    /// Timings of the last tick.
    pub fn timings(&self) -> &StageTimings {
        &self.timings
    }

    /// Advances `world` by one tick: clears what agents hold of agents
    /// despawned since the last tick, runs every [`Stage`] in order, timing
    /// each, with `decider` deciding for every agent, then applies the
    /// spawns and despawns deferred during the tick. Afterwards
    /// [`World::events`] tells what happened.
    pub fn tick(&mut self, world: &mut World, decider: &mut dyn Decider) {
        awake::while_awake(self.keeps_awake(world), || {
            self.tick_stages(world, decider);
        });
    }

    fn tick_stages(&mut self, world: &mut World, decider: &mut dyn Decider) {
        let begin = Instant::now();
        world.begin_tick_events();
        world.scrub_despawned();
        let mut stages = Duration::ZERO;
        for stage in Stage::ALL {
            let start = Instant::now();
            self.run(stage, world, decider);
            let took = start.elapsed();
            *self.timings.get_mut(stage) = took;
            stages += took;
        }
        world.apply_deferred();
        world.end_tick_events(&mut self.events);
        world.tick += 1;
        self.timings.upkeep = begin.elapsed().saturating_sub(stages);
    }

    /// Runs only the sense stage: afterwards [`World::percepts`] describes
    /// the current positions.
    pub fn sense(&mut self, world: &mut World) {
        let wanted = self.keeps_awake(world);
        let sense = &mut self.sense;
        awake::while_awake(wanted, || perception::run(world, sense));
    }

    /// Whether a tick of `world` keeps a thread awake: asked to, and with
    /// another thread and enough agents that its stages split (otherwise
    /// they never do, and a kept thread would only spin).
    fn keeps_awake(&self, world: &World) -> bool {
        !self.threads_sleep && works_ahead(world.agents.len())
    }

    fn run(&mut self, stage: Stage, world: &mut World, decider: &mut dyn Decider) {
        match stage {
            Stage::Sense => {
                lod::begin_tick(world);
                perception::run(world, &mut self.sense);
                lod::end_sense(world);
            }
            Stage::Decide => self.decide(world, decider),
            Stage::Navigate => navigate::run(world, &mut self.navigate),
            Stage::Steer => steering::run(world),
            Stage::Avoid => steering::avoid(world, self.sense.grid(), &mut self.avoid),
            Stage::Integrate => integrate::run(world),
            Stage::Noise => noise::run(world),
            Stage::Fog => fog_update::run(world),
        }
    }

    fn decide(&mut self, world: &mut World, decider: &mut dyn Decider) {
        par::copy_into(&world.agents.decision, &mut self.decisions);
        let mut minds = std::mem::take(&mut world.agents.mind);
        decider.decide(world, &mut minds, &mut self.decisions);
        world.agents.mind = minds;
        std::mem::swap(&mut world.agents.decision, &mut self.decisions);
        // `self.decisions` holds the previous ones now.
        world.settle_decisions(&self.decisions, &mut self.events);
        decider.apply(world);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_add_up_per_stage() {
        let mut a = StageTimings::default();
        for (k, stage) in Stage::ALL.into_iter().enumerate() {
            *a.get_mut(stage) = Duration::from_millis(k as u64 + 1);
        }
        let mut b = a;
        b.add(&a);
        assert_eq!(
            b.total(),
            Duration::from_millis(2 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8))
        );
        assert_eq!(b.get(Stage::Noise), Duration::from_millis(14));
    }
}
