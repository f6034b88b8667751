//! Perception: which agents each agent's senses notice this tick.
//!
//! An archetype carries any number of named [`Sense`]s. The sense stage
//! buckets agents into a [`grid`](self) on X-Z, gathers the candidates within
//! each agent's largest [`Shape::reach`], and tests every sense exactly. The
//! result, [`Percepts`], is a list of agent ids per agent and sense, sorted
//! ascending. An agent never senses itself.
//!
//! The stage runs in parallel over fixed chunks of agents; each chunk writes
//! only its own buffers, so the result is identical at any thread count.

mod grid;
pub mod hearing;
pub mod occlusion;
pub mod pvs;
mod shape;

pub(crate) use grid::UniformGrid;
pub use shape::{CompiledShape, Shape, half_angle_cos};

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::faction::Factions;
use crate::ids::{AgentId, ArchetypeId, FactionId};

/// Which agents a sense reports, by faction relation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SenseFilter {
    /// Every other agent (seed 000).
    #[default]
    All,
    /// Only agents of factions the observer's faction is hostile to.
    Hostile,
    /// Only agents of factions the observer's faction is not hostile to
    /// (including its own).
    Friendly,
}

impl SenseFilter {
    /// Whether an observer of faction `observer` reports an agent of faction
    /// `target` through this filter.
    #[inline]
    pub fn passes(self, factions: &Factions, observer: FactionId, target: FactionId) -> bool {
        match self {
            SenseFilter::All => true,
            SenseFilter::Hostile => factions.is_hostile(observer, target),
            SenseFilter::Friendly => !factions.is_hostile(observer, target),
        }
    }
}

/// One named sense of an archetype.
#[derive(Clone, Debug, PartialEq)]
pub struct Sense {
    /// Name used in percept reports (`"eyes"`, `"radar"`), unique within the
    /// archetype.
    pub name: String,
    /// The region the sense covers.
    pub shape: Shape,
    /// Which agents it reports.
    pub filter: SenseFilter,
}

/// A sense ready for the inner loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CompiledSense {
    pub(crate) shape: CompiledShape,
    pub(crate) filter: SenseFilter,
}

/// An archetype's senses ready for the inner loop, with their largest reach.
#[derive(Clone, Debug, Default)]
pub(crate) struct CompiledSenses {
    pub(crate) senses: Vec<CompiledSense>,
    pub(crate) reach: f32,
}

impl CompiledSenses {
    pub(crate) fn new(senses: &[Sense]) -> Self {
        Self {
            senses: senses
                .iter()
                .map(|s| CompiledSense {
                    shape: s.shape.compile(),
                    filter: s.filter,
                })
                .collect(),
            reach: senses.iter().map(|s| s.shape.reach()).fold(0.0, f32::max),
        }
    }
}

/// Agents per parallel work unit of the sense stage.
pub(crate) const CHUNK: usize = 256;

/// What every agent sensed in the last sense stage: for each agent and each
/// of its archetype's senses (in declaration order) a sorted list of ids.
#[derive(Debug, Default)]
pub struct Percepts {
    chunks: Vec<PerceptChunk>,
    tick: u64,
}

#[derive(Debug, Default)]
struct PerceptChunk {
    /// Per local agent, its first slot; one extra entry at the end.
    slot_start: Vec<u32>,
    /// Per slot (agent × sense), the end of its ids in `ids`.
    slot_end: Vec<u32>,
    ids: Vec<AgentId>,
    /// Scratch: candidates (index, position) of the agent being processed.
    candidates: Vec<(u32, Vec3)>,
}

impl Percepts {
    /// The agents that sense number `sense` (index into the archetype's
    /// senses) of `agent` noticed, ascending. Empty for unknown agents or
    /// senses.
    pub fn sensed(&self, agent: AgentId, sense: usize) -> &[AgentId] {
        let i = agent.index();
        let Some(chunk) = self.chunks.get(i / CHUNK) else {
            return &[];
        };
        let local = i % CHUNK;
        let (Some(&first), Some(&next)) =
            (chunk.slot_start.get(local), chunk.slot_start.get(local + 1))
        else {
            return &[];
        };
        let slot = first as usize + sense;
        if slot >= next as usize {
            return &[];
        }
        let start = if slot == 0 {
            0
        } else {
            chunk.slot_end[slot - 1] as usize
        };
        &chunk.ids[start..chunk.slot_end[slot] as usize]
    }

    /// The tick at which these percepts were computed.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Every (agent, sense, ids) triple in agent then sense order; for hashing
    /// and reports.
    pub fn iter(&self) -> impl Iterator<Item = (AgentId, usize, &[AgentId])> + '_ {
        self.chunks.iter().enumerate().flat_map(|(c, chunk)| {
            let agents = chunk.slot_start.len().saturating_sub(1);
            (0..agents).flat_map(move |local| {
                let agent = AgentId::from_index(c * CHUNK + local);
                let first = chunk.slot_start[local] as usize;
                let next = chunk.slot_start[local + 1] as usize;
                (first..next).map(move |slot| {
                    let start = if slot == 0 {
                        0
                    } else {
                        chunk.slot_end[slot - 1] as usize
                    };
                    (
                        agent,
                        slot - first,
                        &chunk.ids[start..chunk.slot_end[slot] as usize],
                    )
                })
            })
        })
    }
}

/// Read-only inputs of the sense stage.
pub(crate) struct SenseInput<'a> {
    pub(crate) positions: &'a [Vec3],
    pub(crate) facings: &'a [Vec3],
    pub(crate) factions_of: &'a [FactionId],
    pub(crate) archetype_of: &'a [ArchetypeId],
    /// Per archetype, its compiled senses.
    pub(crate) archetypes: &'a [CompiledSenses],
    pub(crate) factions: &'a Factions,
}

/// Runs the sense stage into `out`, using `grid` as scratch.
pub(crate) fn sense(
    input: &SenseInput<'_>,
    cell_size: f32,
    grid: &mut UniformGrid,
    out: &mut Percepts,
    tick: u64,
) {
    let n = input.positions.len();
    grid.rebuild(input.positions, cell_size);
    let chunk_count = n.div_ceil(CHUNK);
    out.chunks.resize_with(chunk_count, PerceptChunk::default);
    out.tick = tick;
    let grid = &*grid;
    out.chunks
        .par_iter_mut()
        .enumerate()
        .for_each(|(c, chunk)| {
            sense_chunk(input, grid, c * CHUNK..((c + 1) * CHUNK).min(n), chunk)
        });
}

fn sense_chunk(
    input: &SenseInput<'_>,
    grid: &UniformGrid,
    agents: std::ops::Range<usize>,
    chunk: &mut PerceptChunk,
) {
    chunk.slot_start.clear();
    chunk.slot_end.clear();
    chunk.ids.clear();
    chunk.slot_start.push(0);
    for i in agents {
        let compiled = &input.archetypes[input.archetype_of[i].index()];
        let (senses, reach) = (&compiled.senses[..], compiled.reach);
        let eye = input.positions[i];
        let facing = input.facings[i];
        let faction = input.factions_of[i];
        chunk.candidates.clear();
        if !senses.is_empty() {
            // Pad the reach so f32 rounding at the edge never loses a candidate;
            // the exact tests below decide.
            let padded = reach + reach * 1e-5 + 1e-5;
            let reach_sq = padded * padded;
            let candidates = &mut chunk.candidates;
            grid.for_each_near(Vec2::new(eye.x, eye.z), padded, |j, p| {
                let (dx, dz) = (p.x - eye.x, p.z - eye.z);
                if dx * dx + dz * dz <= reach_sq && j as usize != i {
                    candidates.push((j, p));
                }
            });
        }
        for s in senses {
            let start = chunk.ids.len();
            for &(j, p) in &chunk.candidates {
                if s.filter
                    .passes(input.factions, faction, input.factions_of[j as usize])
                    && s.shape.contains(eye, facing, p)
                {
                    chunk.ids.push(AgentId(j));
                }
            }
            chunk.ids[start..].sort_unstable();
            chunk.slot_end.push(chunk.ids.len() as u32);
        }
        chunk.slot_start.push(chunk.slot_end.len() as u32);
    }
}
