//! One chunk's scan: every agent of the chunk tests its senses against its
//! neighbourhood. Three modes share the same steps: [`count`] only counts
//! each agent's occluded candidates (for the ray budget), [`full`] senses
//! with a ray for every candidate, and [`budgeted`] senses with the rays
//! each agent was allowed.

use std::ops::Range;

use glam::Vec3;

use crate::data::{
    AgentId, CompiledSense, FactionId, Falloff, MAX_FACTIONS, NO_SOURCE, Occluders, Perceived,
    PerceptChunk, PerceptRecord, SenseFilter, hearing,
};

use super::budget::Allowance;
use super::events::diff_events;
use super::held;
use super::inbox::deliver;
use super::kernels::{for_each_bit, shape_mask};
use super::neighbourhood::Neighbourhood;
use super::sort::{DedupFrom, sort_distinct};
use super::stage::{ChunkContext, ChunkScratch};

/// One agent as the scan sees it.
struct Observer<'a> {
    /// Its position in cell order.
    k: usize,
    /// Its slot.
    i: usize,
    /// Its handle.
    id: AgentId,
    senses: &'a [CompiledSense],
    eye: Vec3,
    facing: Vec3,
    faction: FactionId,
    /// The factions it is hostile to, as a bit mask.
    hostile: u64,
    /// Its PVS region, if any.
    region: Option<usize>,
    /// Its own element in the neighbourhood (never sensed).
    own: usize,
}

/// Counts, for each agent at positions `ranks` in cell order, its occluded
/// candidates into `scratch.need` (see
/// [`PerceptionBudget`](crate::PerceptionBudget)).
pub(crate) fn count(ctx: &ChunkContext<'_>, ranks: Range<usize>, scratch: &mut ChunkScratch) {
    scratch.need.clear();
    scratch.near.cell = usize::MAX;
    let mut cell = ctx.grid.cell_of_position(ranks.start);
    for k in ranks {
        if let Some(thinks) = ctx.input.thinks {
            let i = ctx.grid.order[k] as usize;
            if !thinks[i] && !held::wakes(ctx, (k, i), observer_senses(ctx, k), scratch) {
                scratch.need.push(0);
                continue;
            }
        }
        let me = observer(ctx, k, &mut cell, &mut scratch.near);
        let mut candidates = 0u32;
        if let Some(occ) = ctx.input.occluders {
            for (s_index, s) in me.senses.iter().enumerate() {
                if !s.occluded || s.hearing.is_some() {
                    continue;
                }
                let before = ctx.before(k, s_index);
                let ChunkScratch {
                    near, hits, keeps, ..
                } = &mut *scratch;
                inside_mask(ctx, &me, s, near, hits);
                keep_mask(&me, s, near, hits.len(), keeps);
                let masks = Masks { near, hits, keeps };
                for_each_candidate(ctx, &me, s, before, masks, |_, target| {
                    if !hidden_by_pvs(ctx, occ, &me, target) {
                        candidates += 1;
                    }
                });
            }
        }
        scratch.need.push(candidates);
    }
}

/// Senses for the agents at positions `ranks` in cell order, with a ray for
/// every occluded candidate.
pub(crate) fn full(
    ctx: &ChunkContext<'_>,
    ranks: Range<usize>,
    chunk: &mut PerceptChunk,
    scratch: &mut ChunkScratch,
) {
    scan(ctx, ranks, chunk, scratch, |_| Allowance::ALL);
}

/// Senses for the agents at positions `ranks` in cell order, casting only
/// the rays `allowances` (by position in cell order) grant; candidates
/// without a ray keep last stage's answer.
pub(crate) fn budgeted(
    ctx: &ChunkContext<'_>,
    ranks: Range<usize>,
    chunk: &mut PerceptChunk,
    scratch: &mut ChunkScratch,
    allowances: &[Allowance],
) {
    scan(ctx, ranks, chunk, scratch, |k| allowances[k]);
}

/// The sensing scan both [`full`] and [`budgeted`] run.
fn scan(
    ctx: &ChunkContext<'_>,
    ranks: Range<usize>,
    chunk: &mut PerceptChunk,
    scratch: &mut ChunkScratch,
    allowance: impl Fn(usize) -> Allowance,
) {
    chunk.reset();
    scratch.woken.clear();
    // The walls may have changed since the last stage.
    scratch.near_walls.clear();
    scratch.near.cell = usize::MAX;
    let mut cell = ctx.grid.cell_of_position(ranks.start);
    let mut k = ranks.start;
    while k < ranks.end {
        if let Some(thinks) = ctx.input.thinks {
            let run = held::run_length(ctx, k, ranks.end, thinks);
            if run > 0 {
                held::hold_run(ctx, k, run, chunk);
                k += run;
                continue;
            }
            let i = ctx.grid.order[k] as usize;
            if !thinks[i] {
                let senses = observer_senses(ctx, k);
                if !held::wakes(ctx, (k, i), senses, scratch) {
                    held::hold(ctx, k, senses, chunk);
                    k += 1;
                    continue;
                }
                scratch.woken.push(i as u32);
            }
        }
        let me = observer(ctx, k, &mut cell, &mut scratch.near);
        k += 1;
        let allowance = allowance(me.k);
        let mut candidate = 0u32;
        for (s_index, s) in me.senses.iter().enumerate() {
            match s.hearing {
                Some((threshold, falloff)) => {
                    hear(ctx, &me, s_index, threshold, falloff, chunk, scratch);
                }
                None => sense_agents(ctx, &me, s_index, allowance, &mut candidate, chunk, scratch),
            }
            chunk.slot_end.push(chunk.ids.len() as u32);
            chunk.heard_end.push(chunk.heard.len() as u32);
        }
        debug_assert!(
            allowance.need == u32::MAX || allowance.need == candidate,
            "the counting scan saw other candidates"
        );
        deliver(ctx, me.id, chunk);
        chunk.event_end.push(chunk.events.len() as u32);
        chunk.slot_start.push(chunk.slot_end.len() as u32);
    }
}

/// The senses of the agent at position `k` in cell order.
#[inline(always)]
fn observer_senses<'a>(ctx: &ChunkContext<'a>, k: usize) -> &'a [CompiledSense] {
    &ctx.input.archetypes[ctx.grid.sorted.archetype[k].index()].senses[..]
}

/// The agent at position `k` in cell order, with its neighbourhood loaded
/// into `near` when it has senses that sense agents (`cell` follows the
/// scan from cell to cell).
#[inline(always)]
fn observer<'a>(
    ctx: &ChunkContext<'a>,
    k: usize,
    cell: &mut usize,
    near: &mut Neighbourhood,
) -> Observer<'a> {
    let grid = ctx.grid;
    let sorted = &grid.sorted;
    let i = grid.order[k] as usize;
    let senses = &ctx.input.archetypes[sorted.archetype[k].index()].senses[..];
    let faction = sorted.faction[k];
    let senses_agents = senses.iter().any(|s| s.hearing.is_none());
    if senses_agents {
        *cell = grid.cell_at(k, *cell);
        if near.cell != *cell {
            near.load(grid, *cell, ctx.padded_reach);
        }
    }
    Observer {
        k,
        i,
        id: AgentId::new(i as u32, sorted.generation[k]),
        senses,
        eye: Vec3::new(grid.xs[k], grid.ys[k], grid.zs[k]),
        facing: sorted.facing[k],
        faction,
        hostile: ctx.hostile.get(faction.index()).copied().unwrap_or(0),
        region: ctx.input.regions.get(i).copied().flatten(),
        own: if senses_agents { near.own(k) } else { 0 },
    }
}

/// A hearing sense: the sounds it hears this stage, and who made them.
fn hear(
    ctx: &ChunkContext<'_>,
    me: &Observer<'_>,
    s_index: usize,
    threshold: f32,
    falloff: Falloff,
    chunk: &mut PerceptChunk,
    scratch: &mut ChunkScratch,
) {
    let start = chunk.ids.len();
    let heard = &mut scratch.hear_buf;
    hearing::hear(me.eye, me.i as u32, threshold, falloff, ctx.sounds, heard);
    for h in heard.iter() {
        chunk.heard.push(*h);
        if let Some(src) = ctx.sounds.get(h.sound).map(|s| s.source)
            && src != NO_SOURCE
        {
            chunk
                .ids
                .push(AgentId::new(src, ctx.input.generations[src as usize]));
        }
        chunk.events.push(PerceptRecord {
            agent: me.id,
            sense: s_index as u16,
            what: Perceived::Heard(h.sound as u32, h.loudness),
        });
    }
    chunk.ids[start..].sort_unstable();
    chunk.ids.dedup_from(start);
}

/// A sense of agents: the neighbours inside its shape (or kept by
/// hysteresis), not hidden by walls, sorted, with the events against last
/// stage. `candidate` numbers the agent's occluded candidates across its
/// senses, for the ray budget.
fn sense_agents(
    ctx: &ChunkContext<'_>,
    me: &Observer<'_>,
    s_index: usize,
    allowance: Allowance,
    candidate: &mut u32,
    chunk: &mut PerceptChunk,
    scratch: &mut ChunkScratch,
) {
    let s = &me.senses[s_index];
    let start = chunk.ids.len();
    let before = ctx.before(me.k, s_index);
    let ChunkScratch {
        near,
        hits,
        keeps,
        rays,
        near_walls,
        ..
    } = scratch;
    inside_mask(ctx, me, s, near, hits);
    if !s.occluded && s.keep.is_none() {
        let (ids, gens, at) = (&ctx.grid.order, &ctx.grid.sorted.generation, &near.pos);
        for_each_bit(hits, |e| {
            let e = at[e] as usize;
            chunk.ids.push(AgentId::new(ids[e], gens[e]));
        });
    } else {
        keep_mask(me, s, near, hits.len(), keeps);
        let occluders = ctx.input.occluders.filter(|_| s.occluded);
        let masks = Masks { near, hits, keeps };
        for_each_candidate(ctx, me, s, before, masks, |e, target| {
            if let Some(occ) = occluders {
                if hidden_by_pvs(ctx, occ, me, target) {
                    return;
                }
                let j = *candidate;
                *candidate += 1;
                if !allowance.casts(j) {
                    // Beyond the budget: last stage's answer.
                    if before.binary_search(&target).is_ok() {
                        chunk.ids.push(target);
                    }
                    return;
                }
                chunk.rays += 1;
                let g = ctx.grid;
                let p = Vec3::new(g.xs[e], g.ys[e], g.zs[e]);
                if occ
                    .walls
                    .blocks_near(me.eye, p, ctx.padded_reach, near_walls, rays)
                {
                    return;
                }
            }
            chunk.ids.push(target);
        });
    }
    // Each agent lies in the neighbourhood once: distinct ids.
    sort_distinct(&mut chunk.ids[start..]);
    diff_events(
        &mut chunk.events,
        me.id,
        s_index as u16,
        before,
        &chunk.ids[start..],
    );
}

/// Sets in `hits` the neighbours inside sense `s`'s shape that pass its
/// faction filter; never the observer itself.
#[inline(always)]
fn inside_mask(
    ctx: &ChunkContext<'_>,
    me: &Observer<'_>,
    s: &CompiledSense,
    near: &Neighbourhood,
    hits: &mut Vec<u64>,
) {
    shape_mask(s.shape, me.eye, me.facing, near, hits);
    // An agent never senses itself.
    hits[me.own / 64] &= !(1u64 << (me.own % 64));
    if s.filter == SenseFilter::All {
        return;
    }
    let want = s.filter == SenseFilter::Hostile;
    let (factions, at) = (&ctx.grid.sorted.faction, &near.pos);
    for (w, word) in hits.iter_mut().enumerate() {
        let mut bits = *word;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let f = factions[at[w * 64 + b] as usize].index() % MAX_FACTIONS;
            if (me.hostile >> f & 1 != 0) != want {
                *word &= !(1u64 << b);
            }
        }
    }
}

/// Sets in `keeps` (of `words` words) the neighbours inside sense `s`'s
/// lose-sight shape; none without hysteresis.
#[inline(always)]
fn keep_mask(
    me: &Observer<'_>,
    s: &CompiledSense,
    near: &Neighbourhood,
    words: usize,
    keeps: &mut Vec<u64>,
) {
    match s.keep {
        Some(keep) => {
            shape_mask(keep, me.eye, me.facing, near, keeps);
            keeps[me.own / 64] &= !(1u64 << (me.own % 64));
        }
        None => {
            keeps.clear();
            keeps.resize(words, 0);
        }
    }
}

/// A sense's masks over one neighbourhood.
#[derive(Clone, Copy)]
struct Masks<'a> {
    near: &'a Neighbourhood,
    /// Inside the shape (see [`inside_mask`]).
    hits: &'a [u64],
    /// Inside the lose-sight shape (see [`keep_mask`]).
    keeps: &'a [u64],
}

/// Calls `f(e, target)`, `e` the target's position in cell order, for every
/// candidate of sense `s`: inside its shape, or inside its lose-sight shape,
/// passing its filter and sensed last stage (`before`).
#[inline(always)]
fn for_each_candidate(
    ctx: &ChunkContext<'_>,
    me: &Observer<'_>,
    s: &CompiledSense,
    before: &[AgentId],
    masks: Masks<'_>,
    mut f: impl FnMut(usize, AgentId),
) {
    let sorted = &ctx.grid.sorted;
    let (factions, gens) = (&sorted.faction, &sorted.generation);
    let (ids, at) = (&ctx.grid.order, &masks.near.pos);
    for (w, (&hit_word, &keep_word)) in masks.hits.iter().zip(masks.keeps.iter()).enumerate() {
        let mut bits = hit_word | keep_word;
        while bits != 0 {
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            let e = at[w * 64 + b as usize] as usize;
            let target = AgentId::new(ids[e], gens[e]);
            let inside = hit_word >> b & 1 != 0
                || (keep_word >> b & 1 != 0
                    && s.filter.passes(ctx.input.factions, me.faction, factions[e])
                    && before.binary_search(&target).is_ok());
            if inside {
                f(e, target);
            }
        }
    }
}

/// Whether the potentially visible set says `me` cannot see `target`'s
/// region.
#[inline(always)]
fn hidden_by_pvs(
    ctx: &ChunkContext<'_>,
    occ: &Occluders,
    me: &Observer<'_>,
    target: AgentId,
) -> bool {
    let other = ctx.input.regions.get(target.index()).copied().flatten();
    occ.pvs
        .as_ref()
        .is_some_and(|pvs| !pvs.can_see(me.region, other))
}
