//! Messages: who receives each message of this stage, in sending order.

use crate::data::{AgentId, Message, Perceived, PerceptChunk, PerceptRecord, Recipient};

use super::stage::{ChunkContext, SenseInput};

/// Delivers this stage's messages to `agent`, in sending order: its inbox
/// and one event per message.
pub(crate) fn deliver(ctx: &ChunkContext<'_>, agent: AgentId, chunk: &mut PerceptChunk) {
    for (m_index, m) in ctx.messages.iter().enumerate() {
        if receives(m, agent, ctx.input) {
            chunk.inbox.push(m_index as u32);
            chunk.events.push(PerceptRecord {
                agent,
                sense: u16::MAX,
                what: Perceived::Message(m_index as u32),
            });
        }
    }
    chunk.inbox_end.push(chunk.inbox.len() as u32);
}

/// Whether `m` goes to `agent` (never back to its sender).
pub(super) fn receives(m: &Message, agent: AgentId, input: &SenseInput<'_>) -> bool {
    if m.from == Some(agent) {
        return false;
    }
    let i = agent.index();
    match m.to {
        Recipient::Agent(a) => a == agent,
        Recipient::Faction(f) => input.factions_of[i] == f,
        Recipient::Radius { center, radius } => {
            input.positions[i].distance_squared(center) <= radius * radius
        }
    }
}
