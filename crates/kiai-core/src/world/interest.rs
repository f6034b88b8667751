//! Points of interest and what the tick level of detail made of them: each
//! agent's tier, whether it thinks this tick, when it last did.

use glam::Vec3;

use crate::data::{AgentId, LodTier};

use super::{World, WorldError};

impl World {
    /// Sets the points of interest (players, cameras), world units (points
    /// that are not finite are left out): agents
    /// whose archetype has [`LodTier`]s sense and decide as often as the
    /// tier of their distance to the nearest one says. Without any point
    /// of interest every such agent is in its last (farthest) tier. Takes
    /// effect at the next tick.
    pub fn set_interest_points(&mut self, points: impl IntoIterator<Item = Vec3>) {
        self.lod.points.clear();
        // A non-finite point is nowhere: it would put every agent at an
        // undefined distance.
        self.lod
            .points
            .extend(points.into_iter().filter(|p| p.is_finite()));
    }

    /// The points of interest set by [`World::set_interest_points`].
    pub fn interest_points(&self) -> &[Vec3] {
        &self.lod.points
    }

    /// Makes `agent` a point of interest wherever it stands (`true`; the
    /// player's own agent), or no longer one (`false`).
    pub fn set_interest_agent(&mut self, agent: AgentId, on: bool) -> Result<(), WorldError> {
        if !self.agents.is_alive(agent) {
            return Err(WorldError::NotAlive(agent));
        }
        match (self.lod.agents.binary_search(&agent), on) {
            (Err(k), true) => self.lod.agents.insert(k, agent),
            (Ok(k), false) => {
                self.lod.agents.remove(k);
            }
            _ => {}
        }
        Ok(())
    }

    /// The agents that are points of interest, sorted.
    pub fn interest_agents(&self) -> &[AgentId] {
        &self.lod.agents
    }

    /// Whether the tick level of detail acts: some archetype has a tier of
    /// period > 1.
    pub fn lod_active(&self) -> bool {
        self.lod.active
    }

    /// `agent`'s tier (index into its archetype's [`LodTier`]s) at the last
    /// tick; `None` when the level of detail is off or its archetype has
    /// no tiers.
    pub fn lod_tier(&self, agent: AgentId) -> Option<usize> {
        let i = agent.index();
        let tiers = &self
            .archetypes
            .get(self.agents.archetype.get(i)?.index())?
            .lod;
        if !self.lod.active || !self.agents.is_alive(agent) {
            return None;
        }
        let t = usize::from(*self.lod.tier.get(i)?);
        (t < tiers.len()).then_some(t)
    }

    /// The tier of `agent` as its archetype defines it (see
    /// [`World::lod_tier`]).
    pub fn lod_tier_def(&self, agent: AgentId) -> Option<LodTier> {
        let t = self.lod_tier(agent)?;
        let archetype = self.agents.archetype[agent.index()];
        self.archetypes[archetype.index()].lod.get(t).copied()
    }

    /// Whether `agent` senses and decides in the current tick (inside a
    /// tick) or did in the last one (between ticks); always `true` when
    /// the level of detail is off.
    pub fn thinks(&self, agent: AgentId) -> bool {
        self.lod.thinks(agent.index())
    }

    /// Per slot, whether the agent senses and decides in this tick;
    /// `None` when every agent does (the level of detail is off). Deciders
    /// skip the others: their decision is held (the pipeline keeps it).
    pub fn thinking(&self) -> Option<&[bool]> {
        self.lod.thinking(self.agents.len())
    }

    /// The last tick `agent` sensed and decided (its decision since is
    /// held); `None` when the level of detail is off or it has not thought
    /// yet.
    pub fn thought_at(&self, agent: AgentId) -> Option<u64> {
        if !self.lod.active || !self.agents.is_alive(agent) {
            return None;
        }
        self.lod
            .thought_at
            .get(agent.index())
            .and_then(|t| t.checked_sub(1))
    }

    /// Live agents per tier index at the last tick (index 0: the nearest
    /// tier of every archetype, and agents without tiers; agents spawned
    /// since have no tier yet); empty when the level of detail is off.
    /// Counted when asked, one pass over the agents.
    pub fn lod_counts(&self) -> Vec<usize> {
        let mut counts = Vec::new();
        if !self.lod.active {
            return counts;
        }
        let tiers = self.lod.tier.iter().zip(&self.agents.alive);
        for (&t, _) in tiers.filter(|(t, alive)| **alive && **t != u8::MAX) {
            let t = usize::from(t);
            if counts.len() <= t {
                counts.resize(t + 1, 0);
            }
            counts[t] += 1;
        }
        counts
    }

    /// Whether slot `i` is in a tier that thinks every tick (or has no
    /// tiers).
    pub(crate) fn thinks_every_tick(&self, i: usize) -> bool {
        self.lod.every_tick.get(i).copied().unwrap_or(true)
    }
}
