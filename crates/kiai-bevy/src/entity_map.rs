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
}

impl EntityMap {
    /// Records that `entity` is `agent`.
    pub(crate) fn insert(&mut self, agent: AgentId, entity: Entity) {
        let i = agent.index();
        if self.by_slot.len() <= i {
            self.by_slot.resize(i + 1, None);
        }
        if let Some((_, old)) = self.by_slot[i].replace((agent, entity)) {
            self.by_entity.remove(&old);
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
    }

    /// The entity of `agent`, if it has one.
    pub(crate) fn entity(&self, agent: AgentId) -> Option<Entity> {
        match self.by_slot.get(agent.index())? {
            Some((a, e)) if *a == agent => Some(*e),
            _ => None,
        }
    }

    /// The agent of `entity`, if it is one.
    pub(crate) fn agent(&self, entity: Entity) -> Option<AgentId> {
        self.by_entity.get(&entity).copied()
    }

    /// Forgets everything (a new world).
    pub(crate) fn clear(&mut self) {
        self.by_slot.clear();
        self.by_entity.clear();
    }
}
