//! Messages: who receives each message of this stage, in sending order.

use crate::data::{AgentId, Message, PerceptChunk, PerceptEvent, Recipient};

use super::stage::{ChunkContext, SenseInput};

/// Delivers this stage's messages to agent `agent` (index), in sending
/// order: its inbox and one event per message.
pub(crate) fn deliver(ctx: &ChunkContext<'_>, agent: usize, chunk: &mut PerceptChunk) {
    for (m_index, m) in ctx.messages.iter().enumerate() {
        if receives(m, agent, ctx.input) {
            chunk.inbox.push(m_index as u32);
            chunk.events.push(PerceptEvent::Message {
                agent: AgentId::from_index(agent),
                message: m_index as u32,
            });
        }
    }
    chunk.inbox_end.push(chunk.inbox.len() as u32);
}

fn receives(m: &Message, agent: usize, input: &SenseInput<'_>) -> bool {
    if m.from.is_some_and(|f| f.index() == agent) {
        return false;
    }
    match m.to {
        Recipient::Agent(a) => a.index() == agent,
        Recipient::Faction(f) => input.factions_of[agent] == f,
        Recipient::Radius { center, radius } => {
            input.positions[agent].distance_squared(center) <= radius * radius
        }
    }
}
