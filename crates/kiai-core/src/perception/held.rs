//! Agents that do not think this tick (tick level of detail): their scan
//! keeps what they sensed at their last thinking tick, unless a sound they
//! hear or a message to them wakes them, and then they sense in full.

use crate::data::{AgentId, CompiledSense, PerceptChunk, hearing};

use super::inbox::receives;
use super::stage::{ChunkContext, ChunkScratch};

/// Whether the agent in slot `i` (at `k` in cell order), which does not
/// think this tick, hears a sound or receives a message now.
pub(crate) fn wakes(
    ctx: &ChunkContext<'_>,
    (k, i): (usize, usize),
    senses: &[CompiledSense],
    scratch: &mut ChunkScratch,
) -> bool {
    let g = ctx.grid;
    let id = AgentId::new(i as u32, g.sorted.generation[k]);
    if ctx.messages.iter().any(|m| receives(m, id, ctx.input)) {
        return true;
    }
    let at = glam::Vec3::new(g.xs[k], g.ys[k], g.zs[k]);
    senses.iter().any(|s| {
        s.hearing.is_some_and(|(threshold, falloff)| {
            let heard = &mut scratch.hear_buf;
            hearing::hear(at, i as u32, threshold, falloff, ctx.sounds, heard);
            !heard.is_empty()
        })
    })
}

/// Writes the held agent at `k` in cell order into `chunk`: each sense
/// of agents reports what it reported last stage, hearing senses nothing
/// (a sound it heard would have woken it), no messages, no events.
pub(crate) fn hold(
    ctx: &ChunkContext<'_>,
    k: usize,
    senses: &[CompiledSense],
    chunk: &mut PerceptChunk,
) {
    for (s_index, s) in senses.iter().enumerate() {
        if s.hearing.is_none() {
            chunk.ids.extend_from_slice(ctx.before(k, s_index));
        }
        chunk.slot_end.push(chunk.ids.len() as u32);
        chunk.heard_end.push(chunk.heard.len() as u32);
    }
    chunk.inbox_end.push(chunk.inbox.len() as u32);
    chunk.event_end.push(chunk.events.len() as u32);
    chunk.slot_start.push(chunk.slot_end.len() as u32);
}
