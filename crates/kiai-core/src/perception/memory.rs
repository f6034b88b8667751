//! Memory: where and when each agent last sensed each target, for senses
//! with `memory_ticks > 0`.

use crate::data::{AgentId, MemoryEntry, Percepts};

use super::stage::SenseInput;

/// Memory: refresh what `agent` senses now, forget what is too old.
pub(crate) fn remember(
    input: &SenseInput<'_>,
    percepts: &Percepts,
    agent: AgentId,
    mem: &mut Vec<MemoryEntry>,
    tick: u64,
) {
    let senses = &input.archetypes[input.archetype_of[agent.index()].index()].senses;
    if !senses.iter().any(|s| s.memory_ticks > 0) {
        return;
    }
    for (s_index, s) in senses.iter().enumerate() {
        if s.memory_ticks == 0 {
            continue;
        }
        for &target in percepts.sensed(agent, s_index) {
            let entry = MemoryEntry {
                sense: s_index as u16,
                target,
                position: input.positions[target.index()],
                tick,
            };
            match mem.binary_search_by_key(&(entry.sense, target), |m| (m.sense, m.target)) {
                Ok(k) => mem[k] = entry,
                Err(k) => mem.insert(k, entry),
            }
        }
    }
    mem.retain(|m| {
        senses
            .get(m.sense as usize)
            .is_some_and(|s| m.tick + u64::from(s.memory_ticks) >= tick)
    });
}
