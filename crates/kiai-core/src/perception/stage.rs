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
    MemoryEntry, Message, NearWalls, Occluders, PerceptChunk, PerceptionBudget, Percepts,
    RayCursor, RayScratch, Sound,
};
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
    /// Per faction, the bit mask of the factions it is hostile to.
    hostile: Vec<u64>,
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
    };
    let output = SenseOutput {
        percepts: &mut world.percepts,
        memory: &mut world.agents.memory,
        budget: world.perception_budget.map(|b| (b, &mut world.ray_cursor)),
    };
    sense(&input, output, scratch);
    scratch.regions = regions;
}

/// Runs the sense stage for `input` into `out`.
pub(crate) fn sense(input: &SenseInput<'_>, out: SenseOutput<'_>, scratch: &mut SenseScratch) {
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
        hostile,
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
    hostility_masks(input.factions, hostile);
    let grid = &*grid;
    let ctx = ChunkContext {
        input,
        grid,
        prev: &out.prev,
        hostile,
        padded_reach: reach + reach * 1e-5 + 1e-5,
        sounds: &out.sounds,
        messages: &out.messages,
    };
    let range = |c: usize| c * CHUNK..((c + 1) * CHUNK).min(n);
    match budget {
        Some((budget, cursor)) if occluding(input) && n > 0 => {
            let allowances = ration_rays(&ctx, scans, budget, cursor);
            out.chunks
                .par_iter_mut()
                .zip(scans.par_iter_mut())
                .enumerate()
                .for_each(|(c, (chunk, scan))| {
                    scan::budgeted(&ctx, range(c), chunk, scan, &allowances);
                });
        }
        _ => {
            out.chunks
                .par_iter_mut()
                .zip(scans.par_iter_mut())
                .enumerate()
                .for_each(|(c, (chunk, scan))| scan::full(&ctx, range(c), chunk, scan));
        }
    }
    merge_events(out);
    update_memory(input, out, memory);
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

/// Per faction, the bit mask of the factions it is hostile to.
fn hostility_masks(factions: &Factions, out: &mut Vec<u64>) {
    out.clear();
    out.extend((0..MAX_FACTIONS).map(|from| {
        (0..MAX_FACTIONS)
            .filter(|&to| {
                factions.is_hostile(FactionId::from_index(from), FactionId::from_index(to))
            })
            .fold(0u64, |mask, to| mask | 1 << to)
    }));
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
/// rank), in the order they were made: no sort.
fn merge_events(out: &mut Percepts) {
    out.events.clear();
    out.rays = out.chunks.iter().map(|c| c.rays).sum();
    let Percepts {
        chunks,
        rank,
        events,
        ..
    } = out;
    for &r in rank.iter() {
        let Some(chunk) = chunks.get(r as usize / CHUNK) else {
            continue;
        };
        let local = r as usize % CHUNK;
        let start = local
            .checked_sub(1)
            .map_or(0, |k| chunk.event_end[k] as usize);
        let end = chunk.event_end[local] as usize;
        events.extend_from_slice(&chunk.events[start..end]);
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
                if input.alive[i] {
                    let id = AgentId::new(i as u32, input.generations[i]);
                    remember(input, percepts, id, mem, input.tick);
                }
            }
        });
}
