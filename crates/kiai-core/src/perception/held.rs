//! Agents that do not think this tick (tick level of detail): their scan
//! keeps what they sensed at their last thinking tick, unless a sound they
//! hear or a message to them wakes them, and then they sense in full.

use crate::data::{AgentId, CHUNK, CompiledSense, PerceptChunk, hearing};

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

/// How many agents from position `k` in cell order (at most `end`) can
/// be held in one copy: they do not think this tick, nothing can wake
/// them (no messages this stage, no hearing senses), and they lay one
/// after another in one chunk of the previous stage. 0 when `k` itself
/// cannot.
pub(crate) fn run_length(ctx: &ChunkContext<'_>, k: usize, end: usize, thinks: &[bool]) -> usize {
    if !ctx.messages.is_empty() {
        return 0;
    }
    let g = ctx.grid;
    let holds = |k: usize| {
        !thinks[g.order[k] as usize] && !ctx.input.archetypes[g.sorted.archetype[k].index()].hears
    };
    let first = g.sorted.prev[k];
    if first == u32::MAX || !holds(k) {
        return 0;
    }
    let chunk_end = (first as usize / CHUNK + 1) * CHUNK;
    let mut n = 1;
    while k + n < end
        && (first as usize + n) < chunk_end
        && g.sorted.prev[k + n] == first + n as u32
        && holds(k + n)
    {
        n += 1;
    }
    n
}

/// Writes the `n` held agents from position `k` in cell order into
/// `chunk` in one copy of what they sensed last stage (see [`run_length`]).
pub(crate) fn hold_run(ctx: &ChunkContext<'_>, k: usize, n: usize, chunk: &mut PerceptChunk) {
    let r = ctx.grid.sorted.prev[k] as usize;
    let prev = &ctx.prev[r / CHUNK];
    let (l0, l1) = (r % CHUNK, r % CHUNK + n);
    let (s0, s1) = (prev.slot_start[l0] as usize, prev.slot_start[l1] as usize);
    let id0 = if s0 == 0 { 0 } else { prev.slot_end[s0 - 1] };
    let id1 = if s1 == 0 { 0 } else { prev.slot_end[s1 - 1] };
    let ids = chunk.ids.len() as u32;
    chunk
        .ids
        .extend_from_slice(&prev.ids[id0 as usize..id1 as usize]);
    chunk
        .slot_end
        .extend(prev.slot_end[s0..s1].iter().map(|&e| e - id0 + ids));
    let heard = chunk.heard.len() as u32;
    chunk.heard_end.extend(std::iter::repeat_n(heard, s1 - s0));
    let inbox = chunk.inbox.len() as u32;
    chunk.inbox_end.extend(std::iter::repeat_n(inbox, n));
    let events = chunk.events.len() as u32;
    chunk.event_end.extend(std::iter::repeat_n(events, n));
    let slots = chunk.slot_end.len() as u32 - (s1 - s0) as u32;
    chunk.slot_start.extend(
        prev.slot_start[l0 + 1..=l1]
            .iter()
            .map(|&s| s - s0 as u32 + slots),
    );
}
