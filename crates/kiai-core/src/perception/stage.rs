//! The sense stage: what runs once per tick, around the per-chunk scans.
//!
//! Agents are processed in the grid's cell order (neighbours read the same
//! cells, from position arrays in that order), in fixed chunks of
//! [`CHUNK`]; results are looked up per agent id through the permutation,
//! events are put back in agent order, and memory is updated afterwards in
//! agent order. Nothing depends on the number of threads.

use glam::Vec3;
use rayon::prelude::*;

use crate::data::{
    AgentId, ArchetypeId, CHUNK, CompiledSenses, FactionId, Factions, Heard, MAX_FACTIONS,
    MemoryEntry, Message, NearWalls, Occluders, PerceptChunk, PerceptRecord, PerceptionBudget,
    Percepts, RayCursor, RayScratch, Sound,
};
use crate::par::{concat, works_ahead};
use crate::world::World;

use super::budget::{Allowance, allocate};
use super::memory::remember;
use super::neighbourhood::Neighbourhood;
use super::scan;
use crate::data::agent_grid::{GatherInputs, UniformGrid};

/// Read-only inputs of the sense stage.
pub(crate) struct SenseInput<'a> {
    /// Per slot (as every per-agent slice here).
    pub(crate) positions: &'a [Vec3],
    /// Whether an agent lives in the slot; free slots take no part.
    pub(crate) alive: &'a [bool],
    /// The slot's generation: with the slot, the agent's handle.
    pub(crate) generations: &'a [u32],
    pub(crate) facings: &'a [Vec3],
    pub(crate) factions_of: &'a [FactionId],
    pub(crate) archetype_of: &'a [ArchetypeId],
    /// Per archetype, its compiled senses.
    pub(crate) archetypes: &'a [CompiledSenses],
    pub(crate) factions: &'a Factions,
    pub(crate) occluders: Option<&'a Occluders>,
    /// Per agent, its PVS region (empty without a PVS).
    pub(crate) regions: &'a [Option<usize>],
    /// The tick being sensed.
    pub(crate) tick: u64,
    /// Tick level of detail: per slot, whether the agent thinks this tick
    /// (`None`: every agent does). Held agents keep last stage's percepts.
    pub(crate) thinks: Option<&'a [bool]>,
    /// Per slot, whether the agent is in a tier that thinks every tick:
    /// the agents it senses think this tick too (with `thinks`).
    pub(crate) every_tick: &'a [bool],
}

/// What the sense stage writes into the world.
pub(crate) struct SenseOutput<'a> {
    /// Receives this stage's results; its sounds and messages are this
    /// stage's already.
    pub(crate) percepts: &'a mut Percepts,
    /// Per agent, what it remembers.
    pub(crate) memory: &'a mut [Vec<MemoryEntry>],
    /// The ray budget and its cursor, when the world has one.
    pub(crate) budget: Option<(PerceptionBudget, &'a mut RayCursor)>,
}

/// Scratch memory of the sense stage, kept by the pipeline between ticks so
/// a stage allocates nothing once it has grown.
#[derive(Debug, Default)]
pub(crate) struct SenseScratch {
    grid: UniformGrid,
    /// Per agent, its PVS region (empty without a PVS).
    regions: Vec<Option<usize>>,
    /// One per chunk.
    chunks: Vec<ChunkScratch>,
}

impl SenseScratch {
    /// The grid the last sense stage built (the avoid stage finds
    /// neighbours in it).
    pub(crate) fn grid(&self) -> &UniformGrid {
        &self.grid
    }
}

/// Scratch of one chunk's scan.
#[derive(Debug, Default)]
pub(crate) struct ChunkScratch {
    pub(crate) near: Neighbourhood,
    /// Bit per element of `near`: inside the sense's shape.
    pub(crate) hits: Vec<u64>,
    /// Bit per element of `near`: inside the lose-sight shape.
    pub(crate) keeps: Vec<u64>,
    pub(crate) rays: RayScratch,
    pub(crate) near_walls: NearWalls,
    pub(crate) hear_buf: Vec<Heard>,
    /// Per local agent, its occluded candidates (counting scans only).
    pub(crate) need: Vec<u32>,
    /// Slots of agents that did not think this tick but were woken by a
    /// sound or a message (see [`super::held`]).
    pub(crate) woken: Vec<u32>,
}

/// What every chunk's scan reads.
pub(crate) struct ChunkContext<'a> {
    pub(crate) input: &'a SenseInput<'a>,
    pub(crate) grid: &'a UniformGrid,
    /// Last stage's results, for events and hysteresis.
    pub(crate) prev: &'a [PerceptChunk],
    /// Per faction, the bit mask of the factions it is hostile to.
    pub(crate) hostile: &'a [u64],
    /// The largest reach of any archetype, padded so that f32 rounding at
    /// the edge never loses a candidate (the exact tests decide).
    pub(crate) padded_reach: f32,
    pub(crate) sounds: &'a [Sound],
    pub(crate) messages: &'a [Message],
}

impl ChunkContext<'_> {
    /// What sense `sense` of the agent at position `k` in cell order sensed
    /// in the previous stage.
    pub(crate) fn before(&self, k: usize, sense: usize) -> &[AgentId] {
        let r = self.grid.sorted.prev[k] as usize;
        self.prev
            .get(r / CHUNK)
            .map_or(&[], |c| c.sensed(r % CHUNK, sense))
    }
}

/// The sense stage of `world`: this tick's sounds (emitted last tick, plus
/// those scheduled for now) and messages go into the percepts, then every
/// agent senses.
pub(crate) fn run(world: &mut World, scratch: &mut SenseScratch) {
    let tick = world.tick;
    let mut sounds = std::mem::take(&mut world.pending_sounds);
    let due = world.scheduled_sounds.partition_point(|(t, _)| *t <= tick);
    sounds.extend(
        world
            .scheduled_sounds
            .drain(..due)
            .filter(|(t, _)| *t == tick)
            .map(|(_, s)| s),
    );
    world.percepts.sounds = sounds;
    world.percepts.messages = std::mem::take(&mut world.pending_messages);
    scratch.regions.clear();
    if let Some(pvs) = world.occluders.as_ref().and_then(|o| o.pvs.as_ref()) {
        scratch
            .regions
            .extend(world.agents.position.iter().map(|p| pvs.region_of(*p)));
    }
    let regions = std::mem::take(&mut scratch.regions);
    let slots = world.agents.position.len();
    let mut thinks = world
        .lod
        .thinking(slots)
        .is_some()
        .then(|| std::mem::take(&mut world.lod.thinks));
    let every_tick = std::mem::take(&mut world.lod.every_tick);
    let input = SenseInput {
        positions: &world.agents.position,
        alive: &world.agents.alive,
        generations: &world.agents.generation,
        facings: &world.agents.facing,
        factions_of: &world.agents.faction,
        archetype_of: &world.agents.archetype,
        archetypes: &world.compiled,
        factions: &world.factions,
        occluders: world.occluders.as_ref(),
        regions: &regions,
        tick,
        thinks: thinks.as_deref(),
        every_tick: &every_tick,
    };
    let output = SenseOutput {
        percepts: &mut world.percepts,
        memory: &mut world.agents.memory,
        budget: world.perception_budget.map(|b| (b, &mut world.ray_cursor)),
    };
    let woken = sense(&input, output, scratch);
    scratch.regions = regions;
    world.lod.every_tick = every_tick;
    if let Some(mut thinks) = thinks.take() {
        for i in woken {
            thinks[i as usize] = true;
        }
        world.lod.thinks = thinks;
    }
}

/// Runs the sense stage for `input` into `out`. Returns the slots of the
/// agents that did not think this tick (`input.thinks`) but were woken:
/// by a sound, a message, or an observer that thinks every tick sensing
/// them.
pub(crate) fn sense(
    input: &SenseInput<'_>,
    out: SenseOutput<'_>,
    scratch: &mut SenseScratch,
) -> Vec<u32> {
    let SenseOutput {
        percepts: out,
        memory,
        budget,
    } = out;
    assert_eq!(memory.len(), input.positions.len(), "one memory per slot");
    let reach = input
        .archetypes
        .iter()
        .map(|c| c.reach)
        .fold(0.0f32, f32::max);
    let SenseScratch {
        grid,
        chunks: scans,
        ..
    } = scratch;
    grid.rebuild(input.positions, input.alive, reach);
    // Live agents, in cell order.
    let n = grid.order.len();
    let chunk_count = n.div_ceil(CHUNK);
    std::mem::swap(&mut out.chunks, &mut out.prev);
    std::mem::swap(&mut out.rank, &mut out.prev_rank);
    out.chunks.resize_with(chunk_count, PerceptChunk::default);
    out.chunks.truncate(chunk_count);
    scans.resize_with(chunk_count, ChunkScratch::default);
    out.tick = input.tick;
    let agents = GatherInputs {
        facings: input.facings,
        archetypes: input.archetype_of,
        factions: input.factions_of,
        generations: input.generations,
    };
    grid.gather(agents, &out.prev_rank);
    out.rank.clear();
    out.rank.extend_from_slice(&grid.rank);
    out.generation.clear();
    out.generation.extend_from_slice(input.generations);
    hostility_masks(input.factions, &mut out.hostile);
    let grid = &*grid;
    let ctx = ChunkContext {
        input,
        grid,
        prev: &out.prev,
        hostile: &out.hostile,
        padded_reach: reach + reach * 1e-5 + 1e-5,
        sounds: &out.sounds,
        messages: &out.messages,
    };
    let allowances = match budget {
        Some((budget, cursor)) if occluding(input) && n > 0 => {
            Some(ration_rays(&ctx, scans, budget, cursor))
        }
        _ => None,
    };
    scan_chunks(&ctx, &mut out.chunks, scans, allowances.as_deref(), None);
    let mut woken: Vec<u32> = scans.iter().flat_map(|s| s.woken.iter().copied()).collect();
    let (seen, thinks) = match input.thinks {
        Some(thinks) => (sensed_by_every_tick(input, out, thinks), thinks),
        None => (Vec::new(), &[][..]),
    };
    if seen.is_empty() {
        merge_events(out, input.thinks.map(|_| &grid.order[..]));
        update_memory(input, out, memory);
        return woken;
    }
    let now = rescan(
        &ctx,
        (&mut out.chunks, scans),
        allowances.as_deref(),
        &seen,
        thinks,
    );
    woken.extend(seen);
    woken.sort_unstable();
    woken.dedup();
    merge_events(out, input.thinks.map(|_| &grid.order[..]));
    let input = SenseInput {
        thinks: Some(&now),
        ..*input
    };
    update_memory(&input, out, memory);
    woken
}

/// The second pass of a stage with held agents: the agents in `seen`,
/// sensed by an observer that thinks every tick, think now too; the chunks
/// holding them are scanned again (the agents that thought already get
/// the same results). Woken so late, they get every ray (the budget was
/// shared out). Returns who thinks now, per slot.
fn rescan(
    ctx: &ChunkContext<'_>,
    (chunks, scans): (&mut [PerceptChunk], &mut [ChunkScratch]),
    allowances: Option<&[Allowance]>,
    seen: &[u32],
    thinks: &[bool],
) -> Vec<bool> {
    let mut now = thinks.to_vec();
    for &i in seen {
        now[i as usize] = true;
    }
    let input = SenseInput {
        thinks: Some(&now),
        ..*ctx.input
    };
    let ctx = ChunkContext {
        input: &input,
        ..*ctx
    };
    let rank = &ctx.grid.rank;
    let dirty = dirty_chunks(rank, seen, chunks.len());
    let all = allowances.map(|a| {
        let mut a = a.to_vec();
        for &i in seen {
            a[rank[i as usize] as usize] = Allowance::ALL;
        }
        a
    });
    scan_chunks(&ctx, chunks, scans, all.as_deref(), Some(&dirty));
    now
}

/// Scans every chunk (or only those `only` marks), with the rays
/// `allowances` grant (`None`: every ray).
fn scan_chunks(
    ctx: &ChunkContext<'_>,
    chunks: &mut [PerceptChunk],
    scans: &mut [ChunkScratch],
    allowances: Option<&[Allowance]>,
    only: Option<&[bool]>,
) {
    let n = ctx.grid.order.len();
    let range = |c: usize| c * CHUNK..((c + 1) * CHUNK).min(n);
    chunks
        .par_iter_mut()
        .zip(scans.par_iter_mut())
        .enumerate()
        .filter(|(c, _)| only.is_none_or(|o| o[*c]))
        .for_each(|(c, (chunk, scan))| match allowances {
            Some(a) => scan::budgeted(ctx, range(c), chunk, scan, a),
            None => scan::full(ctx, range(c), chunk, scan),
        });
}

/// The slots, sorted, of agents that do not think this tick but that an
/// agent of a tier thinking every tick senses now.
fn sensed_by_every_tick(input: &SenseInput<'_>, out: &Percepts, thinks: &[bool]) -> Vec<u32> {
    let mut seen = Vec::new();
    for (i, (&every, &alive)) in input.every_tick.iter().zip(input.alive).enumerate() {
        if !every || !alive || !thinks[i] {
            continue;
        }
        let id = AgentId::new(i as u32, input.generations[i]);
        let senses = &input.archetypes[input.archetype_of[i].index()].senses;
        for (s, sense) in senses.iter().enumerate() {
            if sense.hearing.is_some() {
                continue;
            }
            seen.extend(
                out.sensed(id, s)
                    .iter()
                    .map(|t| t.index() as u32)
                    .filter(|&t| !thinks[t as usize]),
            );
        }
    }
    seen.sort_unstable();
    seen.dedup();
    seen
}

/// Per chunk, whether it holds one of `slots` (by their `rank` in cell
/// order).
fn dirty_chunks(rank: &[u32], slots: &[u32], chunks: usize) -> Vec<bool> {
    let mut dirty = vec![false; chunks];
    for &i in slots {
        dirty[rank[i as usize] as usize / CHUNK] = true;
    }
    dirty
}

/// Whether any archetype has an occluded sense that senses agents, in a
/// world with occluders: only then do rays need a budget.
fn occluding(input: &SenseInput<'_>) -> bool {
    input.occluders.is_some()
        && input
            .archetypes
            .iter()
            .any(|a| a.senses.iter().any(|s| s.occluded && s.hearing.is_none()))
}

/// Per faction (all [`MAX_FACTIONS`]), the bit mask of the factions it
/// is hostile to.
fn hostility_masks(factions: &Factions, out: &mut Vec<u64>) {
    out.clear();
    out.extend((0..MAX_FACTIONS).map(|from| factions.mask(from)));
}

/// Counts every agent's occluded candidates, then settles the rays in agent
/// order (independent of the chunks' scheduling). Returns the allowance of
/// each agent by its position in cell order.
fn ration_rays(
    ctx: &ChunkContext<'_>,
    scans: &mut [ChunkScratch],
    budget: PerceptionBudget,
    cursor: &mut RayCursor,
) -> Vec<Allowance> {
    let n = ctx.grid.order.len();
    scans.par_iter_mut().enumerate().for_each(|(c, scan)| {
        scan::count(ctx, c * CHUNK..((c + 1) * CHUNK).min(n), scan);
    });
    let rank = &ctx.grid.rank;
    // Per slot, in slot order; free slots need nothing.
    let need: Vec<u32> = rank
        .iter()
        .map(|&r| match r {
            u32::MAX => 0,
            r => scans[r as usize / CHUNK].need[r as usize % CHUNK],
        })
        .collect();
    let by_slot = allocate(&need, budget.max_rays_per_tick, cursor);
    let mut by_rank = vec![Allowance::default(); n];
    for (i, a) in by_slot.into_iter().enumerate() {
        if let Some(r) = by_rank.get_mut(rank[i] as usize) {
            *r = a;
        }
    }
    by_rank
}

/// Collects the chunks' events and ray counts. Chunks hold agents in cell
/// order; each agent's events are gathered in slot order (through the
/// rank), in the order they were made: no sort. With held agents (`order`,
/// the grid's cell order, given), few agents have events: only those are
/// visited, sorted by slot.
fn merge_events(out: &mut Percepts, order: Option<&[u32]>) {
    out.events.clear();
    out.rays = out.chunks.iter().map(|c| c.rays).sum();
    // A quiet stage (nothing gained, lost, heard or received) visits no
    // agent.
    if out.chunks.iter().all(|c| c.events.is_empty()) {
        return;
    }
    if let Some(order) = order {
        merge_sparse(out, order);
        return;
    }
    let Percepts {
        chunks,
        rank,
        events,
        ..
    } = out;
    let of_agent = |&r: &u32| -> &[PerceptRecord] {
        let Some(chunk) = chunks.get(r as usize / CHUNK) else {
            return &[];
        };
        let local = r as usize % CHUNK;
        let start = local
            .checked_sub(1)
            .map_or(0, |k| chunk.event_end[k] as usize);
        &chunk.events[start..chunk.event_end[local] as usize]
    };
    if !works_ahead(rank.len()) {
        for r in rank.iter() {
            events.extend_from_slice(of_agent(r));
        }
        return;
    }
    let mut parts = Vec::new();
    rank.par_iter().map(of_agent).collect_into_vec(&mut parts);
    concat::extend(events, &parts, &mut Vec::new());
}

/// [`merge_events`] visiting only the agents with events: (slot, chunk,
/// range of its events), sorted by slot.
fn merge_sparse(out: &mut Percepts, order: &[u32]) {
    let mut with: Vec<(u32, usize, usize, usize)> = Vec::new();
    for (c, chunk) in out.chunks.iter().enumerate() {
        if chunk.events.is_empty() {
            continue;
        }
        let mut start = 0;
        for (local, &end) in chunk.event_end.iter().enumerate() {
            let end = end as usize;
            if end > start {
                with.push((order[c * CHUNK + local], c, start, end));
            }
            start = end;
        }
    }
    with.sort_unstable_by_key(|w| w.0);
    for (_, c, start, end) in with {
        out.events
            .extend_from_slice(&out.chunks[c].events[start..end]);
    }
}

/// Refreshes every agent's memory from this stage's percepts, when any
/// sense remembers.
fn update_memory(input: &SenseInput<'_>, percepts: &Percepts, memory: &mut [Vec<MemoryEntry>]) {
    if !input
        .archetypes
        .iter()
        .any(|a| a.senses.iter().any(|s| s.memory_ticks > 0))
    {
        return;
    }
    memory
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, memory)| {
            for (local, mem) in memory.iter_mut().enumerate() {
                let i = c * CHUNK + local;
                if input.alive[i] && input.thinks.is_none_or(|t| t[i]) {
                    let id = AgentId::new(i as u32, input.generations[i]);
                    remember(input, percepts, id, mem, input.tick);
                }
            }
        });
}
