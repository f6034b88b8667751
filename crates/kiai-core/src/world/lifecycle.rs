//! Agents that come and go: spawning into the lowest free slot, despawning
//! (the handle is refused from then on), and the spawns and despawns asked
//! for during a tick, applied at its end in the order they were asked for.
//!
//! A despawn takes effect at once for the agent itself (its slot, its fog
//! unit, sounds it made). What *others* hold of it is cleared at the start
//! of the next tick, before any stage reads it: decision targets, memory
//! entries and messages addressed to it go; every sense list is recomputed
//! by the sense stage, which reports a `Lost` event to each agent that
//! sensed it. Until then, handles found in percepts, memory or decisions
//! describe the last tick: check them with [`World::is_alive`].

use glam::Vec3;

use crate::data::rng::agent_stream;
use crate::data::{
    AgentId, BodyMode, Decision, EventKind, Mind, Missile, Movement, NO_SOURCE, NavState, Recipient,
};

use super::{AgentSpawn, World, WorldError};

/// A structural change asked for during a tick (by a script or a plugin),
/// applied when the tick ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Deferred {
    /// Spawn an agent.
    Spawn(AgentSpawn),
    /// Despawn an agent (ignored if it is gone by then).
    Despawn(AgentId),
}

/// Which waypoint walkers must re-plan their routes at the next navigate
/// stage.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Replan {
    /// Every walker with a route (a link or waypoint opened: any route may
    /// now be shorter).
    pub(crate) all: bool,
    /// Walkers whose route uses one of these links `(from, to)` (closed).
    pub(crate) links: Vec<(kiai_nav::WaypointId, kiai_nav::WaypointId)>,
    /// Walkers whose route passes one of these waypoints (deactivated).
    pub(crate) waypoints: Vec<kiai_nav::WaypointId>,
}

impl Replan {
    pub(crate) fn is_empty(&self) -> bool {
        !self.all && self.links.is_empty() && self.waypoints.is_empty()
    }
}

impl World {
    /// Adds an agent, into the lowest free slot (or a new one), and returns
    /// its handle. Its random stream is derived from the world seed and its
    /// handle, so the same spawns and despawns in the same order give the
    /// same streams. Its body mode is its archetype's. A `Spawned` event
    /// follows.
    pub fn spawn(&mut self, spawn: AgentSpawn) -> Result<AgentId, WorldError> {
        let Some(archetype) = self.archetypes.get(spawn.archetype.index()) else {
            return Err(WorldError::UnknownHandle(spawn.archetype.to_string()));
        };
        if spawn.faction.index() >= self.factions.len() {
            return Err(WorldError::UnknownHandle(spawn.faction.to_string()));
        }
        let a = &mut self.agents;
        let index = match a.free.first() {
            Some(&slot) => slot as usize,
            None => {
                u32::try_from(a.len()).map_err(|_| WorldError::Full("agents"))?;
                a.grow();
                a.len() - 1
            }
        };
        a.free.remove(&(index as u32));
        self.lod.forget(index);
        let a = &mut self.agents;
        let id = AgentId::new(index as u32, a.generation[index]);
        let facing = spawn.facing.try_normalize().unwrap_or(Vec3::X);
        a.alive[index] = true;
        a.names[index] = spawn.name;
        a.archetype[index] = spawn.archetype;
        a.faction[index] = spawn.faction;
        a.position[index] = spawn.position;
        a.velocity[index] = Vec3::ZERO;
        a.facing[index] = facing;
        a.desired_velocity[index] = Vec3::ZERO;
        a.desired_facing[index] = facing;
        a.preferred_velocity[index] = Vec3::ZERO;
        a.body[index] = archetype.body;
        a.decision[index] = Decision::default();
        a.memory[index].clear();
        a.nav[index] = NavState::default();
        a.goal[index] = None;
        a.missile[index] = missile_of(archetype.movement, spawn.position, facing);
        a.mind[index] = Mind {
            rng: agent_stream(self.config.seed, id),
            saved: None,
            weights: archetype.profile.map_or([1.0, 1.0], |p| [p.chase, p.evade]),
        };
        if let Err(e) = self.add_fog_unit(index) {
            self.free_slot(id);
            return Err(e);
        }
        self.push_event(EventKind::Spawned { agent: id });
        Ok(id)
    }

    /// Removes `agent` from the world. Its handle is refused from now on
    /// (never aliased: the slot's next agent gets a new generation); what
    /// others hold of it is cleared as the module docs say. A `Despawned`
    /// event follows. Errors with [`WorldError::NotAlive`] for a handle
    /// that is not alive.
    pub fn despawn(&mut self, agent: AgentId) -> Result<(), WorldError> {
        if !self.agents.is_alive(agent) {
            return Err(WorldError::NotAlive(agent));
        }
        if let Some(fog) = &mut self.fog {
            fog.grid.remove_unit(kiai_fog::UnitId(agent.slot()));
        }
        for s in &mut self.pending_sounds {
            if s.source == agent.slot() {
                s.source = NO_SOURCE;
            }
        }
        self.free_slot(agent);
        self.percepts.forget(agent.index());
        self.scrub_pending = true;
        self.push_event(EventKind::Despawned { agent });
        Ok(())
    }

    /// Marks `agent`'s slot free, moves its generation on and clears what
    /// the agent itself held.
    fn free_slot(&mut self, agent: AgentId) {
        let a = &mut self.agents;
        let i = agent.index();
        a.alive[i] = false;
        a.velocity[i] = Vec3::ZERO;
        a.desired_velocity[i] = Vec3::ZERO;
        a.preferred_velocity[i] = Vec3::ZERO;
        a.decision[i] = Decision::default();
        a.memory[i].clear();
        a.nav[i] = NavState::default();
        a.goal[i] = None;
        a.missile[i] = None;
        // A slot whose generations are used up is retired, never reused.
        if let Some(next) = a.generation[i].checked_add(1) {
            a.generation[i] = next;
            a.free.insert(agent.slot());
        }
    }

    /// Asks for `spawn` at the end of the running tick (from a script or a
    /// plugin, while the world is shared); between ticks, [`World::spawn`]
    /// acts at once.
    pub fn defer(&mut self, change: Deferred) {
        self.deferred.push(change);
    }

    /// Applies the deferred spawns and despawns, in the order they were
    /// asked for. Invalid ones (a despawned agent, an unknown archetype)
    /// are skipped; the pipeline calls this at the end of every tick.
    pub fn apply_deferred(&mut self) {
        for change in std::mem::take(&mut self.deferred) {
            // Skipped changes are refused by the same checks a game's
            // direct calls get; there is nobody to report them to.
            let _ = match change {
                Deferred::Spawn(s) => self.spawn(s).map(|_| ()),
                Deferred::Despawn(id) => self.despawn(id),
            };
        }
    }

    /// Clears what agents hold of agents despawned since the last tick:
    /// decision targets, memory entries and messages to them. The pipeline
    /// calls this first in every tick; it costs nothing when nobody left.
    pub(crate) fn scrub_despawned(&mut self) {
        if !std::mem::take(&mut self.scrub_pending) {
            return;
        }
        let a = &mut self.agents;
        let (alive, generation) = (&a.alive, &a.generation);
        let live = |id: AgentId| {
            let i = id.index();
            alive.get(i).copied().unwrap_or(false) && generation[i] == id.generation()
        };
        for d in &mut a.decision {
            if d.target.is_some_and(|t| !live(t)) {
                d.target = None;
            }
        }
        for mem in &mut a.memory {
            mem.retain(|m| live(m.target));
        }
        self.pending_messages.retain_mut(|m| {
            if m.from.is_some_and(|f| !live(f)) {
                m.from = None;
            }
            !matches!(m.to, Recipient::Agent(to) if !live(to))
        });
    }

    /// Who moves `agent`'s body, if it is alive.
    pub fn body_mode(&self, agent: AgentId) -> Option<BodyMode> {
        self.agents
            .is_alive(agent)
            .then(|| self.agents.body[agent.index()])
    }

    /// Sets who moves `agent`'s body (its archetype's mode until then).
    pub fn set_body_mode(&mut self, agent: AgentId, mode: BodyMode) -> Result<(), WorldError> {
        if !self.agents.is_alive(agent) {
            return Err(WorldError::NotAlive(agent));
        }
        self.agents.body[agent.index()] = mode;
        Ok(())
    }
}

/// The missile frame of an agent that moves as a missile.
fn missile_of(movement: Movement, position: Vec3, facing: Vec3) -> Option<Box<Missile>> {
    match movement {
        Movement::Missile {
            speed,
            turn_rate,
            control,
            guidance,
            arrival_distance,
            precision,
        } => Some(Box::new(
            Missile::new(position, facing, Vec3::Y, speed, turn_rate)
                .with_control(control)
                .with_guidance(guidance)
                .with_precision(precision)
                .with_arrival_distance(arrival_distance),
        )),
        _ => None,
    }
}
