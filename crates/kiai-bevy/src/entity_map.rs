//! Which entity is which agent: one entry per kiai agent slot, matched by
//! the full handle (slot and generation), so a stale handle never finds
//! the entity of the slot's next agent.

use bevy_ecs::entity::Entity;
use kiai::core::AgentId;
use std::collections::BTreeMap;

/// Agents and their entities, both ways.
#[derive(Debug, Default, Clone)]
pub(crate) struct EntityMap {
    /// Per agent slot: the agent and its entity.
    by_slot: Vec<Option<(AgentId, Entity)>>,
    /// Per entity: its agent.
    by_entity: BTreeMap<Entity, AgentId>,
    /// Agents whose slot a new agent took before their last events went
    /// out (an entity despawned, another spawned, between two ticks).
    departed: Vec<(AgentId, Entity)>,
}

impl EntityMap {
    /// Records that `entity` is `agent`.
    pub(crate) fn insert(&mut self, agent: AgentId, entity: Entity) {
        let i = agent.index();
        if self.by_slot.len() <= i {
            self.by_slot.resize(i + 1, None);
        }
        if let Some((old_agent, old)) = self.by_slot[i].replace((agent, entity)) {
            self.by_entity.remove(&old);
            if old_agent != agent {
                self.departed.push((old_agent, old));
            }
        }
        self.by_entity.insert(entity, agent);
    }

    /// Forgets `agent` (after its last event was sent).
    pub(crate) fn remove(&mut self, agent: AgentId) {
        if let Some(slot) = self.by_slot.get_mut(agent.index())
            && slot.is_some_and(|(a, _)| a == agent)
            && let Some((_, entity)) = slot.take()
        {
            self.by_entity.remove(&entity);
        }
        self.departed.retain(|(a, _)| *a != agent);
    }

    /// The entity of `agent`, if it has one.
    pub(crate) fn entity(&self, agent: AgentId) -> Option<Entity> {
        match self.by_slot.get(agent.index())? {
            Some((a, e)) if *a == agent => Some(*e),
            _ => self
                .departed
                .iter()
                .find(|(a, _)| *a == agent)
                .map(|(_, e)| *e),
        }
    }

    /// Forgets the departed agents whose slots others took (their last
    /// events went out).
    pub(crate) fn forget_departed(&mut self) {
        self.departed.clear();
    }

    /// The agent of `entity`, if it is one.
    pub(crate) fn agent(&self, entity: Entity) -> Option<AgentId> {
        self.by_entity.get(&entity).copied()
    }

    /// Forgets everything (a new world).
    pub(crate) fn clear(&mut self) {
        self.by_slot.clear();
        self.by_entity.clear();
        self.departed.clear();
    }
}
