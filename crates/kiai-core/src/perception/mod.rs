//! Perception: which agents each agent's senses notice this tick.
//!
//! An archetype carries any number of named [`Sense`]s. The sense stage
//! buckets agents into a [`grid`](self) on X-Z, gathers the candidates within
//! each agent's largest [`Shape::reach`], and tests every sense exactly:
//! shape and faction filter, then for `occluded` senses the potentially
//! visible set ([`pvs`]) and a ray against the walls ([`occlusion`]). A sense
//! that saw a target last tick keeps it out to its `lose_range` (hysteresis).
//! Hearing senses hear this tick's sounds ([`hearing`]) and report who made
//! them. The result, [`Percepts`], is a list of agent ids per agent and sense,
//! sorted ascending, plus what each agent heard, its messages, and the events
//! (gained, lost, heard, message) since the last tick. An agent never senses
//! itself.
//!
//! The stage runs in parallel over fixed chunks of agents; each chunk writes
//! only its own buffers, so the result is identical at any thread count.

mod grid;
pub mod hearing;
pub mod occlusion;
pub mod pvs;
mod shape;

pub(crate) use grid::UniformGrid;
pub use shape::{CompiledShape, SenseKind, Shape, half_angle_cos};

use glam::Vec3;
use rayon::prelude::*;

use crate::faction::{Factions, MAX_FACTIONS};
use crate::ids::{AgentId, ArchetypeId, FactionId};

use hearing::{Heard, Sound};
use occlusion::{NearWalls, RayScratch, Walls};
use pvs::Pvs;

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
    /// Walls hide targets (seed 003's ray test), and the potentially visible
    /// set, if any, culls them first.
    pub occluded: bool,
    /// Hysteresis: a target sensed last tick stays sensed out to this range
    /// (world units, at least the shape's reach); `None`: no hysteresis.
    pub lose_range: Option<f32>,
    /// Ticks a sensed target stays in memory after it was last sensed
    /// (0: no memory).
    pub memory_ticks: u32,
}

impl Sense {
    /// A sense with no occlusion, hysteresis or memory.
    pub fn new(name: impl Into<String>, shape: Shape, filter: SenseFilter) -> Self {
        Self {
            name: name.into(),
            shape,
            filter,
            occluded: false,
            lose_range: None,
            memory_ticks: 0,
        }
    }
}

/// A sense ready for the inner loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CompiledSense {
    pub(crate) shape: CompiledShape,
    /// The shape at the lose-sight range, for targets sensed last tick.
    pub(crate) keep: Option<CompiledShape>,
    pub(crate) filter: SenseFilter,
    pub(crate) occluded: bool,
    pub(crate) hearing: Option<(f32, hearing::Falloff)>,
    pub(crate) memory_ticks: u32,
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
                    keep: s.lose_range.map(|r| s.shape.with_range(r).compile()),
                    filter: s.filter,
                    occluded: s.occluded,
                    hearing: match s.shape {
                        Shape::Hearing { threshold, falloff } => Some((threshold, falloff)),
                        _ => None,
                    },
                    memory_ticks: s.memory_ticks,
                })
                .collect(),
            reach: senses
                .iter()
                .map(|s| s.shape.reach().max(s.lose_range.unwrap_or(0.0)))
                .fold(0.0, f32::max),
        }
    }
}

/// Who a message goes to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Recipient {
    /// One agent.
    Agent(AgentId),
    /// Every agent of a faction (but the sender).
    Faction(FactionId),
    /// Every agent within `radius` world units of `center` (but the sender).
    Radius {
        /// Centre, world units.
        center: Vec3,
        /// Radius, world units, >= 0.
        radius: f32,
    },
}

/// A message between agents (seed 003: a captain radios a guard). Sent
/// during a tick, delivered at the next sense stage, in sending order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Message {
    /// The sender, if an agent.
    pub from: Option<AgentId>,
    /// Who receives it.
    pub to: Recipient,
    /// What it means; the game's or script's code (`1` = "come here").
    pub tag: u32,
    /// A position it refers to (where to come), world units.
    pub position: Vec3,
}

/// A change in what an agent perceives, in deterministic order (agent, then
/// sense, then lost before gained, then target).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PerceptEvent {
    /// `sense` of `agent` started sensing `target` (CryEngine's OnEnemySeen).
    Gained {
        /// The observer.
        agent: AgentId,
        /// Index of the sense in the archetype.
        sense: u16,
        /// Who is sensed now.
        target: AgentId,
    },
    /// `sense` of `agent` stopped sensing `target`.
    Lost {
        /// The observer.
        agent: AgentId,
        /// Index of the sense in the archetype.
        sense: u16,
        /// Who is no longer sensed.
        target: AgentId,
    },
    /// `agent` heard a sound.
    Heard {
        /// The listener.
        agent: AgentId,
        /// Index of the hearing sense.
        sense: u16,
        /// Index into [`Percepts::sounds`].
        sound: u32,
        /// Perceived loudness.
        loudness: f32,
    },
    /// `agent` received a message.
    Message {
        /// The receiver.
        agent: AgentId,
        /// Index into [`Percepts::messages`].
        message: u32,
    },
}

impl PerceptEvent {
    /// The agent the event happened to: the observer, listener or receiver.
    pub fn agent(&self) -> AgentId {
        match *self {
            PerceptEvent::Gained { agent, .. }
            | PerceptEvent::Lost { agent, .. }
            | PerceptEvent::Heard { agent, .. }
            | PerceptEvent::Message { agent, .. } => agent,
        }
    }
}

/// What an agent remembers of a target: where and when it was last sensed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemoryEntry {
    /// The sense that sensed it.
    pub sense: u16,
    /// Who.
    pub target: AgentId,
    /// Where it was, world units.
    pub position: Vec3,
    /// The tick it was last sensed.
    pub tick: u64,
}

/// A cap on the occlusion rays of one sense stage; see
/// [`World::set_perception_budget`](crate::World::set_perception_budget).
///
/// The rays an unbudgeted stage would cast form a sequence: agents in id
/// order, each with its *occluded candidates* (targets of its `occluded`
/// senses that pass the shape, or the lose-range shape for a target sensed
/// last tick, the faction filter and the PVS), in sense order and then in a
/// fixed order within the sense. A budgeted stage casts the next
/// `max_rays_per_tick` rays of that sequence, cyclically, from a
/// [`RayCursor`] kept in the world, and moves the cursor past them (when
/// the whole sequence fits, every ray is cast and the cursor stays). A
/// candidate without a ray this tick keeps last tick's answer for that
/// sense: it is reported when that sense reported it last tick. The
/// allowance of every agent is settled in agent order before the parallel
/// pass, so it never depends on the thread count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerceptionBudget {
    /// Most occlusion rays per sense stage.
    pub max_rays_per_tick: u32,
}

/// Where the next budgeted sense stage starts casting rays: candidate
/// `offset` of agent `agent` (see [`PerceptionBudget`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RayCursor {
    /// Agent index.
    pub agent: u32,
    /// Index into that agent's occluded candidates.
    pub offset: u32,
}

/// One agent's rays in a budgeted stage: its candidates `j` with
/// `(j - start) mod need < len` get a ray.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Allowance {
    start: u32,
    len: u32,
    need: u32,
}

impl Allowance {
    /// Every candidate gets a ray.
    const ALL: Allowance = Allowance {
        start: 0,
        len: u32::MAX,
        need: u32::MAX,
    };

    fn casts(&self, j: u32) -> bool {
        if self.len >= self.need {
            return true;
        }
        let rel = if j >= self.start {
            j - self.start
        } else {
            j + (self.need - self.start)
        };
        rel < self.len
    }
}

/// Settles, in agent order from `cursor`, which candidates get rays when
/// agent `i` has `need[i]` of them and `budget` rays are available; moves
/// `cursor` past the last ray. Returns the allowance per agent.
fn allocate(need: &[u32], budget: u32, cursor: &mut RayCursor) -> Vec<Allowance> {
    let n = need.len();
    let total: u64 = need.iter().map(|&x| u64::from(x)).sum();
    let mut allow: Vec<Allowance> = need
        .iter()
        .map(|&need| Allowance {
            start: 0,
            len: 0,
            need,
        })
        .collect();
    if total <= u64::from(budget) {
        for a in &mut allow {
            a.len = a.need;
        }
        return allow;
    }
    let (mut a, mut off) = (cursor.agent as usize, cursor.offset);
    if a >= n {
        (a, off) = (0, 0);
    }
    if off >= need[a] {
        (a, off) = ((a + 1) % n, 0);
    }
    let (first, first_off) = (a, off);
    let mut left = budget;
    let mut end = (first, first_off);
    let take = (need[a] - off).min(left);
    allow[a].start = off;
    allow[a].len = take;
    left -= take;
    end.1 += take;
    a = (a + 1) % n;
    while left > 0 && a != first {
        let take = need[a].min(left);
        allow[a].len = take;
        left -= take;
        if take > 0 {
            end = (a, take);
        }
        a = (a + 1) % n;
    }
    if left > 0 {
        // Back at the first agent: its candidates before the cursor.
        let take = first_off.min(left);
        allow[first].len += take;
        end = (first, take);
    }
    *cursor = if end.1 >= need[end.0] {
        RayCursor {
            agent: ((end.0 + 1) % n) as u32,
            offset: 0,
        }
    } else {
        RayCursor {
            agent: end.0 as u32,
            offset: end.1,
        }
    };
    allow
}

/// Agents per parallel work unit of the sense stage.
pub(crate) const CHUNK: usize = 256;

/// What every agent perceived in the last sense stage.
///
/// Results are stored in the order the sense stage processed the agents
/// (grid cell order, for locality), in fixed chunks of [`CHUNK`]; `rank`
/// maps an agent id to its position in that order.
#[derive(Clone, Debug, Default)]
pub struct Percepts {
    chunks: Vec<PerceptChunk>,
    prev: Vec<PerceptChunk>,
    /// Per agent id, its position in processing order.
    rank: Vec<u32>,
    prev_rank: Vec<u32>,
    tick: u64,
    sounds: Vec<Sound>,
    messages: Vec<Message>,
    events: Vec<PerceptEvent>,
    rays: u64,
}

#[derive(Clone, Debug, Default)]
struct PerceptChunk {
    /// Per local agent, its first slot; one extra entry at the end.
    slot_start: Vec<u32>,
    /// Per slot (agent × sense), the end of its ids in `ids`.
    slot_end: Vec<u32>,
    ids: Vec<AgentId>,
    /// Per slot, the end of its sounds in `heard`.
    heard_end: Vec<u32>,
    heard: Vec<Heard>,
    /// Per local agent, the end of its messages in `inbox`.
    inbox_end: Vec<u32>,
    inbox: Vec<u32>,
    events: Vec<PerceptEvent>,
    rays: u64,
    /// Per local agent, its occluded candidates (budgeted stages only).
    need: Vec<u32>,
    sense_scratch: SenseScratch,
    scratch: RayScratch,
    near_walls: NearWalls,
    hear_buf: Vec<Heard>,
}

impl PerceptChunk {
    fn slot_range(&self, local: usize, sense: usize) -> Option<(usize, usize)> {
        let first = *self.slot_start.get(local)? as usize;
        let next = *self.slot_start.get(local + 1)? as usize;
        let slot = first + sense;
        (slot < next).then_some(slot).map(|slot| (slot, next))
    }

    fn ids_of(&self, slot: usize) -> &[AgentId] {
        let start = if slot == 0 {
            0
        } else {
            self.slot_end[slot - 1] as usize
        };
        &self.ids[start..self.slot_end[slot] as usize]
    }

    fn heard_of(&self, slot: usize) -> &[Heard] {
        let start = if slot == 0 {
            0
        } else {
            self.heard_end[slot - 1] as usize
        };
        &self.heard[start..self.heard_end[slot] as usize]
    }

    fn sensed(&self, local: usize, sense: usize) -> &[AgentId] {
        self.slot_range(local, sense)
            .map_or(&[], |(slot, _)| self.ids_of(slot))
    }
}

/// The chunk and local index holding `agent`'s results.
fn locate<'a>(
    chunks: &'a [PerceptChunk],
    rank: &[u32],
    agent: usize,
) -> Option<(&'a PerceptChunk, usize)> {
    let r = *rank.get(agent)? as usize;
    Some((chunks.get(r / CHUNK)?, r % CHUNK))
}

impl Percepts {
    /// The agents that sense number `sense` (index into the archetype's
    /// senses) of `agent` noticed, ascending. For a hearing sense: the agents
    /// whose sounds it heard. Empty for unknown agents or senses.
    pub fn sensed(&self, agent: AgentId, sense: usize) -> &[AgentId] {
        locate(&self.chunks, &self.rank, agent.index())
            .map_or(&[], |(chunk, local)| chunk.sensed(local, sense))
    }

    /// The sounds hearing sense `sense` of `agent` heard, loudest first
    /// (ties by sound index); `Heard::sound` indexes [`Percepts::sounds`].
    pub fn heard(&self, agent: AgentId, sense: usize) -> &[Heard] {
        locate(&self.chunks, &self.rank, agent.index())
            .and_then(|(c, local)| Some((c, c.slot_range(local, sense)?.0)))
            .map_or(&[], |(c, slot)| c.heard_of(slot))
    }

    /// Indices into [`Percepts::messages`] of the messages `agent` received
    /// this tick, in sending order.
    pub fn inbox(&self, agent: AgentId) -> &[u32] {
        let Some((c, local)) = locate(&self.chunks, &self.rank, agent.index()) else {
            return &[];
        };
        let Some(&end) = c.inbox_end.get(local) else {
            return &[];
        };
        let start = if local == 0 {
            0
        } else {
            c.inbox_end[local - 1]
        };
        &c.inbox[start as usize..end as usize]
    }

    /// The sounds audible in this sense stage (emitted during the last tick).
    pub fn sounds(&self) -> &[Sound] {
        &self.sounds
    }

    /// The messages delivered in this sense stage.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// Gained, lost, heard and message events of this sense stage, ordered
    /// by agent, then sense, then kind, then target.
    pub fn events(&self) -> &[PerceptEvent] {
        &self.events
    }

    /// Occlusion rays cast in this sense stage.
    pub fn rays(&self) -> u64 {
        self.rays
    }

    /// The tick at which these percepts were computed.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Every (agent, sense, ids) triple in agent then sense order; for hashing
    /// and reports.
    pub fn iter(&self) -> impl Iterator<Item = (AgentId, usize, &[AgentId])> + '_ {
        (0..self.rank.len()).flat_map(move |a| {
            let located = locate(&self.chunks, &self.rank, a);
            let (first, next) = located.map_or((0, 0), |(chunk, local)| {
                (
                    chunk.slot_start[local] as usize,
                    chunk.slot_start[local + 1] as usize,
                )
            });
            (first..next).filter_map(move |slot| {
                let (chunk, _) = located?;
                Some((AgentId::from_index(a), slot - first, chunk.ids_of(slot)))
            })
        })
    }
}

/// Walls and potentially visible sets of a world.
#[derive(Clone, Debug)]
pub struct Occluders {
    /// Walls, in a uniform grid for ray walks.
    pub walls: Walls,
    /// Region visibility; `None`: every region may see every other.
    pub pvs: Option<Pvs>,
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
    pub(crate) occluders: Option<&'a Occluders>,
    /// Per agent, its PVS region (empty without a PVS).
    pub(crate) regions: &'a [Option<usize>],
}

/// Runs the sense stage into `out`, using `grid` as scratch. `sounds` and
/// `messages` are those of this stage (taken over by `out`); `memory` is
/// per agent.
///
/// Agents are processed in the grid's cell order (neighbours read the same
/// cells, from position arrays in that order), in fixed chunks of [`CHUNK`];
/// results are looked up per agent id through the permutation, events are
/// put back in agent order, and memory is updated afterwards in agent order.
/// Nothing depends on the number of threads.
#[allow(clippy::too_many_arguments, reason = "one call site, the pipeline")]
pub(crate) fn sense(
    input: &SenseInput<'_>,
    cell_size: f32,
    grid: &mut UniformGrid,
    out: &mut Percepts,
    tick: u64,
    sounds: Vec<Sound>,
    messages: Vec<Message>,
    memory: &mut [Vec<MemoryEntry>],
    budget: Option<(PerceptionBudget, &mut RayCursor)>,
) {
    let n = input.positions.len();
    assert_eq!(memory.len(), n, "one memory per agent");
    grid.rebuild(input.positions, cell_size);
    let chunk_count = n.div_ceil(CHUNK);
    std::mem::swap(&mut out.chunks, &mut out.prev);
    std::mem::swap(&mut out.rank, &mut out.prev_rank);
    out.chunks.resize_with(chunk_count, PerceptChunk::default);
    out.chunks.truncate(chunk_count);
    out.tick = tick;
    out.sounds = sounds;
    out.messages = messages;
    grid.gather(
        input.facings,
        input.archetype_of,
        input.factions_of,
        &out.prev_rank,
    );
    out.rank.clear();
    out.rank.extend_from_slice(&grid.rank);
    let hostile: Vec<u64> = (0..MAX_FACTIONS)
        .map(|from| {
            (0..MAX_FACTIONS)
                .filter(|&to| {
                    input
                        .factions
                        .is_hostile(FactionId::from_index(from), FactionId::from_index(to))
                })
                .fold(0u64, |mask, to| mask | 1 << to)
        })
        .collect();
    let grid = &*grid;
    let prev = &out.prev;
    let (sounds, messages) = (&out.sounds, &out.messages);
    let ctx = ChunkContext {
        input,
        grid,
        prev,
        hostile: &hostile,
        reach: cell_size,
        sounds,
        messages,
    };
    let occluding = input.occluders.is_some()
        && input
            .archetypes
            .iter()
            .any(|a| a.senses.iter().any(|s| s.occluded && s.hearing.is_none()));
    let allowances = match budget {
        Some((budget, cursor)) if occluding && n > 0 => {
            // Count every agent's occluded candidates, then settle the rays
            // in agent order: independent of the chunks' scheduling.
            out.chunks
                .par_iter_mut()
                .enumerate()
                .for_each(|(c, chunk)| {
                    sense_chunk(
                        &ctx,
                        c * CHUNK..((c + 1) * CHUNK).min(n),
                        chunk,
                        Pass::Count,
                    );
                });
            let need: Vec<u32> = grid
                .rank
                .iter()
                .map(|&r| out.chunks[r as usize / CHUNK].need[r as usize % CHUNK])
                .collect();
            let by_agent = allocate(&need, budget.max_rays_per_tick, cursor);
            let mut by_rank = vec![Allowance::default(); n];
            for (i, a) in by_agent.into_iter().enumerate() {
                by_rank[grid.rank[i] as usize] = a;
            }
            Some(by_rank)
        }
        _ => None,
    };
    let pass = match &allowances {
        Some(a) => Pass::Budgeted(a),
        None => Pass::Full,
    };
    out.chunks
        .par_iter_mut()
        .enumerate()
        .for_each(|(c, chunk)| {
            sense_chunk(&ctx, c * CHUNK..((c + 1) * CHUNK).min(n), chunk, pass);
        });
    out.events.clear();
    out.rays = 0;
    for chunk in &out.chunks {
        out.events.extend_from_slice(&chunk.events);
        out.rays += chunk.rays;
    }
    // Chunks hold agents in cell order; a stable sort by agent restores agent
    // order and keeps each agent's events in the order they were made.
    out.events.sort_by_key(|e| e.agent().0);
    if input
        .archetypes
        .iter()
        .any(|a| a.senses.iter().any(|s| s.memory_ticks > 0))
    {
        let out = &*out;
        memory
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, memory)| {
                for (local, mem) in memory.iter_mut().enumerate() {
                    remember(input, out, c * CHUNK + local, mem, tick);
                }
            });
    }
}

/// Memory: refresh what agent `i` senses now, forget what is too old.
fn remember(
    input: &SenseInput<'_>,
    percepts: &Percepts,
    i: usize,
    mem: &mut Vec<MemoryEntry>,
    tick: u64,
) {
    let senses = &input.archetypes[input.archetype_of[i].index()].senses;
    if !senses.iter().any(|s| s.memory_ticks > 0) {
        return;
    }
    let agent = AgentId::from_index(i);
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

struct ChunkContext<'a> {
    input: &'a SenseInput<'a>,
    grid: &'a UniformGrid,
    prev: &'a [PerceptChunk],
    /// Per faction, the bit mask of the factions it is hostile to.
    hostile: &'a [u64],
    /// The largest reach of any archetype.
    reach: f32,
    sounds: &'a [Sound],
    messages: &'a [Message],
}

impl ChunkContext<'_> {
    /// What sense `sense` of the agent at position `k` in cell order sensed
    /// in the previous stage.
    fn before(&self, k: usize, sense: usize) -> &[AgentId] {
        let r = self.grid.sorted.prev[k] as usize;
        self.prev
            .get(r / CHUNK)
            .map_or(&[], |c| c.sensed(r % CHUNK, sense))
    }
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

/// Writes into `mask` whether `shape` of an agent at `eye` facing `facing`
/// contains each element of `near` (bit `e % 64` of word `e / 64` for
/// element `e`). The sphere and cone work on fixed blocks of straight-line
/// arithmetic, which the compiler vectorises; they compute exactly what
/// [`CompiledShape::contains`] computes, operation for operation.
fn shape_mask(
    shape: CompiledShape,
    eye: Vec3,
    facing: Vec3,
    near: &Neighbourhood,
    mask: &mut Vec<u64>,
) {
    // One loop per shape, so that nothing of the others' set-up runs.
    match shape {
        CompiledShape::Sphere { radius_sq } => {
            block_mask(near, mask, |x, y, z| sphere_block(eye, radius_sq, x, y, z))
        }
        CompiledShape::Cone {
            range_sq,
            cos_half_fov,
        } => block_mask(near, mask, |x, y, z| {
            cone_block(eye, facing, range_sq, cos_half_fov, x, y, z)
        }),
        _ => block_mask(near, mask, |x, y, z| {
            let mut bits = 0u64;
            for e in 0..BLOCK {
                let hit = shape.contains(eye, facing, Vec3::new(x[e], y[e], z[e]));
                bits |= u64::from(hit) << e;
            }
            bits
        }),
    }
}

/// Writes into `mask` the bits `block` computes for each block of `near`.
#[inline(always)]
fn block_mask(
    near: &Neighbourhood,
    mask: &mut Vec<u64>,
    block: impl Fn(&[f32; BLOCK], &[f32; BLOCK], &[f32; BLOCK]) -> u64,
) {
    mask.clear();
    let n = near.padded;
    mask.resize(n.div_ceil(64), 0);
    let blocks = near.xs[..n]
        .chunks_exact(BLOCK)
        .zip(near.ys[..n].chunks_exact(BLOCK))
        .zip(near.zs[..n].chunks_exact(BLOCK));
    for (b, ((x, y), z)) in blocks.enumerate() {
        let (Ok(x), Ok(y), Ok(z)) = (
            <&[f32; BLOCK]>::try_from(x),
            <&[f32; BLOCK]>::try_from(y),
            <&[f32; BLOCK]>::try_from(z),
        ) else {
            continue;
        };
        mask[b * BLOCK / 64] |= block(x, y, z) << (b * BLOCK % 64);
    }
}

/// Packs a block of 0/1 flags into the low bits of a word (bit `e` for
/// flag `e`): per eight flags, one multiplication gathers the low bit of
/// each byte into the top byte.
#[inline(always)]
fn pack(flags: [u8; BLOCK]) -> u64 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let v = u128::from_le_bytes(flags);
    let (lo, hi) = (v as u64, (v >> 64) as u64);
    (lo.wrapping_mul(GATHER) >> 56) | (hi.wrapping_mul(GATHER) >> 56) << 8
}

#[inline(always)]
fn sphere_block(
    eye: Vec3,
    radius_sq: f32,
    x: &[f32; BLOCK],
    y: &[f32; BLOCK],
    z: &[f32; BLOCK],
) -> u64 {
    let mut hit = [0u8; BLOCK];
    for e in 0..BLOCK {
        let (dx, dy, dz) = (x[e] - eye.x, y[e] - eye.y, z[e] - eye.z);
        hit[e] = u8::from(radius_sq > dx * dx + dy * dy + dz * dz);
    }
    pack(hit)
}

#[inline(always)]
fn cone_block(
    eye: Vec3,
    facing: Vec3,
    range_sq: f32,
    cos_half_fov: f32,
    x: &[f32; BLOCK],
    y: &[f32; BLOCK],
    z: &[f32; BLOCK],
) -> u64 {
    let mut hit = [0u8; BLOCK];
    for e in 0..BLOCK {
        let (dx, dy, dz) = (x[e] - eye.x, y[e] - eye.y, z[e] - eye.z);
        let dist_sq = dx * dx + dy * dy + dz * dz;
        let inv = 1.0 / dist_sq.sqrt();
        let dot = facing.x * (dx * inv) + facing.y * (dy * inv) + facing.z * (dz * inv);
        hit[e] = u8::from((range_sq > dist_sq) & (dist_sq != 0.0) & (dot > cos_half_fov));
    }
    pack(hit)
}

/// Calls `f` with the index of every set bit of `mask`, ascending.
#[inline(always)]
fn for_each_bit(mask: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in mask.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(w * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// Sorts distinct ids ascending. Up to [`RANK_SORT_MAX`] of them are
/// placed by rank (the count of smaller ids, found by comparing against
/// all at once), which has no data-dependent branches; longer lists use
/// the standard sort.
fn sort_distinct(ids: &mut [AgentId]) {
    let n = ids.len();
    if n < 2 {
        return;
    }
    if n > RANK_SORT_MAX {
        ids.sort_unstable();
        return;
    }
    let mut keys = [u32::MAX; RANK_SORT_MAX];
    for (k, id) in keys.iter_mut().zip(ids.iter()) {
        *k = id.0;
    }
    // Every key's rank at once: one pass per key compared against all
    // (fixed width, vectorised). Padding keys (u32::MAX) rank last.
    let mut rank = [0u32; RANK_SORT_MAX];
    if n <= RANK_SORT_MAX / 2 {
        rank_pass::<{ RANK_SORT_MAX / 2 }>(&keys, n, &mut rank);
    } else {
        rank_pass::<RANK_SORT_MAX>(&keys, n, &mut rank);
    }
    let mut out = [0u32; RANK_SORT_MAX];
    for (&key, &r) in keys[..n].iter().zip(&rank[..n]) {
        out[r as usize % RANK_SORT_MAX] = key;
    }
    for (id, &k) in ids.iter_mut().zip(&out[..n]) {
        *id = AgentId(k);
    }
}

/// `rank[i]` += the number of the first `n` keys smaller than `keys[i]`,
/// for the first `W` keys.
#[inline(always)]
fn rank_pass<const W: usize>(
    keys: &[u32; RANK_SORT_MAX],
    n: usize,
    rank: &mut [u32; RANK_SORT_MAX],
) {
    let (Ok(lanes), Ok(rank)) = (
        <&[u32; W]>::try_from(&keys[..W]),
        <&mut [u32; W]>::try_from(&mut rank[..W]),
    ) else {
        return;
    };
    for &other in &keys[..n] {
        for i in 0..W {
            rank[i] += u32::from(other < lanes[i]);
        }
    }
}

/// Longest list [`sort_distinct`] sorts by rank.
const RANK_SORT_MAX: usize = 32;

/// Elements of a [`Neighbourhood`] come in blocks of this many, so that the
/// vectorised loops have no scalar tail.
pub(crate) const BLOCK: usize = 16;

/// The agents near one grid cell: everything the agents of that cell test
/// their senses against, their positions copied into contiguous arrays
/// (padded to a multiple of [`BLOCK`] with points at infinity, which no
/// shape contains).
#[derive(Clone, Debug, Default)]
struct Neighbourhood {
    /// The cell, or `usize::MAX` when none is loaded.
    cell: usize,
    xs: Vec<f32>,
    ys: Vec<f32>,
    zs: Vec<f32>,
    /// Per element, its position in cell order.
    pos: Vec<u32>,
    /// Elements, padding included: the first `padded` of `xs`, `ys`, `zs`.
    padded: usize,
    /// Per row of cells: the index of its first element and its first
    /// position in cell order (rows hold consecutive positions).
    rows: Vec<(usize, usize)>,
    /// Index of the element at the first position of the row span holding
    /// the cell, and that position.
    own_row: (usize, usize),
}

impl Neighbourhood {
    fn load(&mut self, grid: &UniformGrid, cell: usize, reach: f32) {
        self.cell = cell;
        self.rows.clear();
        let mut total = 0;
        let own = grid.for_each_cell_span(cell, reach, |span| {
            self.rows.push((total, span.start));
            total += span.len();
        });
        self.own_row = self.rows.get(own).copied().unwrap_or((0, 0));
        // Whole blocks are copied (the grid's arrays have a block of
        // padding at the end), each row's next block overwriting what the
        // last one copied beyond the row: few, predictable iterations.
        // The arrays only grow (no refill on every load); `padded` says how
        // much of them is this neighbourhood.
        let room = total + BLOCK;
        if self.xs.len() < room {
            for axis in [&mut self.xs, &mut self.ys, &mut self.zs] {
                axis.resize(room, 0.0);
            }
            self.pos.resize(room, 0);
        }
        let mut row_end = self.rows.iter().skip(1).map(|r| r.0).chain([total]);
        for &(first, start) in &self.rows {
            let end = row_end.next().unwrap_or(total);
            let (mut m, mut k) = (first, start);
            while m < end {
                for (to, from) in [
                    (&mut self.xs, &grid.xs),
                    (&mut self.ys, &grid.ys),
                    (&mut self.zs, &grid.zs),
                ] {
                    copy_block(&mut to[m..], &from[k..]);
                }
                if let Some(pos) = self.pos[m..].first_chunk_mut::<BLOCK>() {
                    for (e, p) in pos.iter_mut().enumerate() {
                        *p = (k + e) as u32;
                    }
                }
                m += BLOCK;
                k += BLOCK;
            }
        }
        for axis in [&mut self.xs, &mut self.ys, &mut self.zs] {
            if let Some(tail) = axis[total..].first_chunk_mut::<BLOCK>() {
                *tail = [f32::INFINITY; BLOCK];
            }
        }
        self.padded = total.div_ceil(BLOCK) * BLOCK;
    }

    /// The element of the agent at position `k` in cell order (which lies
    /// in the loaded cell).
    fn own(&self, k: usize) -> usize {
        self.own_row.0 + (k - self.own_row.1)
    }
}

/// Copies the first [`BLOCK`] values of `from` to the start of `to` (a
/// fixed-size copy: a few vector moves).
#[inline(always)]
fn copy_block(to: &mut [f32], from: &[f32]) {
    let (Some(to), Some(from)) = (to.first_chunk_mut::<BLOCK>(), from.first_chunk::<BLOCK>())
    else {
        return;
    };
    *to = *from;
}

/// Per-chunk scratch of the sense loop.
#[derive(Clone, Debug, Default)]
struct SenseScratch {
    near: Neighbourhood,
    /// Bit per element of `near`: inside the sense's shape.
    hits: Vec<u64>,
    /// Bit per element of `near`: inside the lose-sight shape.
    keeps: Vec<u64>,
}

/// What a run of [`sense_chunk`] does.
#[derive(Clone, Copy)]
enum Pass<'a> {
    /// Everything, every ray.
    Full,
    /// Only count each agent's occluded candidates into `need`.
    Count,
    /// Everything, with rays per agent (by position in cell order) as
    /// allowed.
    Budgeted(&'a [Allowance]),
}

/// The sense stage for the agents at positions `ranks` in cell order.
fn sense_chunk(
    ctx: &ChunkContext<'_>,
    ranks: std::ops::Range<usize>,
    chunk: &mut PerceptChunk,
    pass: Pass<'_>,
) {
    let counting = matches!(pass, Pass::Count);
    let input = ctx.input;
    let grid = ctx.grid;
    let (xs, ys, zs, order) = (&grid.xs[..], &grid.ys[..], &grid.zs[..], &grid.order[..]);
    let sorted = &grid.sorted;
    chunk.slot_start.clear();
    chunk.slot_end.clear();
    chunk.ids.clear();
    chunk.heard_end.clear();
    chunk.heard.clear();
    chunk.inbox_end.clear();
    chunk.inbox.clear();
    chunk.events.clear();
    chunk.rays = 0;
    chunk.need.clear();
    // The walls may have changed since the last stage.
    chunk.near_walls.clear();
    chunk.slot_start.push(0);
    let scratch = &mut chunk.sense_scratch;
    scratch.near.cell = usize::MAX;
    let mut cell = grid.cell_of_position(ranks.start);
    for k in ranks {
        let i = order[k] as usize;
        let compiled = &input.archetypes[sorted.archetype[k].index()];
        let senses = &compiled.senses[..];
        let eye = Vec3::new(xs[k], ys[k], zs[k]);
        let facing = sorted.facing[k];
        let faction = sorted.faction[k];
        let hostile = ctx.hostile.get(faction.index()).copied().unwrap_or(0);
        let region = input.regions.get(i).copied().flatten();
        let allowance = match pass {
            Pass::Budgeted(a) => a[k],
            _ => Allowance::ALL,
        };
        // Index of the next occluded candidate of this agent.
        let mut candidate = 0u32;
        let senses_agents = senses.iter().any(|s| s.hearing.is_none());
        // Pad the reach so f32 rounding at the edge never loses a
        // candidate; the exact tests below decide.
        let padded = ctx.reach + ctx.reach * 1e-5 + 1e-5;
        if senses_agents {
            cell = grid.cell_at(k, cell);
            if scratch.near.cell != cell {
                scratch.near.load(grid, cell, padded);
            }
        }
        let near = &scratch.near;
        let own = if senses_agents { near.own(k) } else { 0 };
        for (s_index, s) in senses.iter().enumerate() {
            let start = chunk.ids.len();
            if counting && (!s.occluded || s.hearing.is_some() || input.occluders.is_none()) {
                continue;
            }
            if let Some((threshold, falloff)) = s.hearing {
                hearing::hear(
                    eye,
                    i as u32,
                    threshold,
                    falloff,
                    ctx.sounds,
                    &mut chunk.hear_buf,
                );
                for h in &chunk.hear_buf {
                    chunk.heard.push(*h);
                    if let Some(src) = ctx.sounds.get(h.sound).map(|s| s.source)
                        && src != hearing::NO_SOURCE
                    {
                        chunk.ids.push(AgentId(src));
                    }
                    chunk.events.push(PerceptEvent::Heard {
                        agent: AgentId::from_index(i),
                        sense: s_index as u16,
                        sound: h.sound as u32,
                        loudness: h.loudness,
                    });
                }
                chunk.ids[start..].sort_unstable();
                chunk.ids.dedup_from(start);
            } else {
                let before = ctx.before(k, s_index);
                let simple = !s.occluded && s.keep.is_none();
                let hits = &mut scratch.hits;
                shape_mask(s.shape, eye, facing, near, hits);
                // An agent never senses itself.
                hits[own / 64] &= !(1u64 << (own % 64));
                let (factions, ids, at) = (&sorted.faction[..], order, &near.pos[..]);
                if s.filter != SenseFilter::All {
                    let want = s.filter == SenseFilter::Hostile;
                    for (w, word) in hits.iter_mut().enumerate() {
                        let mut bits = *word;
                        while bits != 0 {
                            let b = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let f = factions[at[w * 64 + b] as usize].index() % MAX_FACTIONS;
                            if (hostile >> f & 1 != 0) != want {
                                *word &= !(1u64 << b);
                            }
                        }
                    }
                }
                let hits = &scratch.hits;
                if simple {
                    for_each_bit(hits, |e| chunk.ids.push(AgentId(ids[at[e] as usize])));
                } else {
                    let keeps = &mut scratch.keeps;
                    match s.keep {
                        Some(keep) => {
                            shape_mask(keep, eye, facing, near, keeps);
                            keeps[own / 64] &= !(1u64 << (own % 64));
                        }
                        None => {
                            keeps.clear();
                            keeps.resize(hits.len(), 0);
                        }
                    }
                    // Candidates: inside, or maybe kept.
                    for (w, (&hit_word, &keep_word)) in hits.iter().zip(keeps.iter()).enumerate() {
                        let mut bits = hit_word | keep_word;
                        while bits != 0 {
                            let b = bits.trailing_zeros();
                            bits &= bits - 1;
                            let e = at[w * 64 + b as usize] as usize;
                            let target = AgentId(ids[e]);
                            let inside = hit_word >> b & 1 != 0
                                || (keep_word >> b & 1 != 0
                                    && s.filter.passes(input.factions, faction, factions[e])
                                    && before.binary_search(&target).is_ok());
                            if !inside {
                                continue;
                            }
                            if s.occluded
                                && let Some(occ) = input.occluders
                            {
                                let other = input.regions.get(target.index()).copied().flatten();
                                if occ
                                    .pvs
                                    .as_ref()
                                    .is_some_and(|pvs| !pvs.can_see(region, other))
                                {
                                    continue;
                                }
                                let j = candidate;
                                candidate += 1;
                                if counting {
                                    continue;
                                }
                                if !allowance.casts(j) {
                                    // Beyond the budget: last tick's answer.
                                    if before.binary_search(&target).is_err() {
                                        continue;
                                    }
                                    chunk.ids.push(target);
                                    continue;
                                }
                                chunk.rays += 1;
                                let p = Vec3::new(xs[e], ys[e], zs[e]);
                                if occ.walls.blocks_near(
                                    eye,
                                    p,
                                    padded,
                                    &mut chunk.near_walls,
                                    &mut chunk.scratch,
                                ) {
                                    continue;
                                }
                            }
                            chunk.ids.push(target);
                        }
                    }
                }
                if counting {
                    continue;
                }
                // Each agent lies in the neighbourhood once: distinct ids.
                sort_distinct(&mut chunk.ids[start..]);
                diff_events(
                    &mut chunk.events,
                    AgentId::from_index(i),
                    s_index as u16,
                    before,
                    &chunk.ids[start..],
                );
            }
            chunk.slot_end.push(chunk.ids.len() as u32);
            chunk.heard_end.push(chunk.heard.len() as u32);
        }
        if counting {
            chunk.need.push(candidate);
            continue;
        }
        debug_assert!(
            allowance.need == u32::MAX || allowance.need == candidate,
            "the counting pass saw other candidates"
        );
        // Messages, in sending order.
        for (m_index, m) in ctx.messages.iter().enumerate() {
            if receives(m, i, input) {
                chunk.inbox.push(m_index as u32);
                chunk.events.push(PerceptEvent::Message {
                    agent: AgentId::from_index(i),
                    message: m_index as u32,
                });
            }
        }
        chunk.inbox_end.push(chunk.inbox.len() as u32);
        chunk.slot_start.push(chunk.slot_end.len() as u32);
    }
}

/// Lost, then gained events between two ascending lists.
fn diff_events(
    events: &mut Vec<PerceptEvent>,
    agent: AgentId,
    sense: u16,
    before: &[AgentId],
    now: &[AgentId],
) {
    // Equal lists (the common case) compared without an early exit.
    if before.len() == now.len()
        && before
            .iter()
            .zip(now)
            .fold(0, |acc, (a, b)| acc | (a.0 ^ b.0))
            == 0
    {
        return;
    }
    missing_from(before, now, |target| {
        events.push(PerceptEvent::Lost {
            agent,
            sense,
            target,
        });
    });
    missing_from(now, before, |target| {
        events.push(PerceptEvent::Gained {
            agent,
            sense,
            target,
        });
    });
}

/// Calls `f` with each id of the ascending list `xs` that the ascending
/// list `ys` lacks, in order (one merge pass).
fn missing_from(xs: &[AgentId], ys: &[AgentId], mut f: impl FnMut(AgentId)) {
    let mut j = 0;
    for &x in xs {
        while j < ys.len() && ys[j] < x {
            j += 1;
        }
        if j >= ys.len() || ys[j] != x {
            f(x);
        }
    }
}

/// Removes adjacent duplicates from `self[start..]`.
trait DedupFrom {
    fn dedup_from(&mut self, start: usize);
}

impl DedupFrom for Vec<AgentId> {
    fn dedup_from(&mut self, start: usize) {
        let mut k = start;
        for r in start..self.len() {
            if k == start || self[r] != self[k - 1] {
                self[k] = self[r];
                k += 1;
            }
        }
        self.truncate(k);
    }
}

#[cfg(test)]
mod budget_tests {
    use super::*;

    fn rays(allow: &[Allowance]) -> Vec<Vec<u32>> {
        allow
            .iter()
            .map(|a| (0..a.need).filter(|&j| a.casts(j)).collect())
            .collect()
    }

    #[test]
    fn everything_fits_and_the_cursor_stays() {
        let mut c = RayCursor {
            agent: 1,
            offset: 1,
        };
        let allow = allocate(&[3, 0, 2], 5, &mut c);
        assert_eq!(rays(&allow), vec![vec![0, 1, 2], vec![], vec![0, 1]]);
        assert_eq!(
            c,
            RayCursor {
                agent: 1,
                offset: 1
            }
        );
    }

    #[test]
    fn rays_go_round_robin_from_the_cursor() {
        let need = [3, 0, 4, 2];
        let mut c = RayCursor::default();
        let mut seen = vec![vec![0u32; 3], vec![0; 0], vec![0; 4], vec![0; 2]];
        for _ in 0..3 {
            let allow = allocate(&need, 4, &mut c);
            let r = rays(&allow);
            assert_eq!(r.iter().map(Vec::len).sum::<usize>(), 4);
            for (a, js) in r.iter().enumerate() {
                for &j in js {
                    seen[a][j as usize] += 1;
                }
            }
        }
        // 12 rays over 9 candidates: each at least once, the first three twice.
        assert_eq!(
            seen,
            vec![vec![2, 2, 2], vec![], vec![1, 1, 1, 1], vec![1, 1]]
        );
        // Just past agent 0 (agent 1 has nothing now, but may next time).
        assert_eq!(
            c,
            RayCursor {
                agent: 1,
                offset: 0
            }
        );
    }

    #[test]
    fn an_agent_split_by_the_cursor_wraps() {
        let mut c = RayCursor {
            agent: 0,
            offset: 2,
        };
        let allow = allocate(&[4, 1], 4, &mut c);
        assert_eq!(rays(&allow), vec![vec![0, 2, 3], vec![0]]);
        assert_eq!(
            c,
            RayCursor {
                agent: 0,
                offset: 1
            }
        );
        // A stale cursor past the end starts over.
        let mut c = RayCursor {
            agent: 9,
            offset: 9,
        };
        let allow = allocate(&[4, 1], 2, &mut c);
        assert_eq!(rays(&allow), vec![vec![0, 1], vec![]]);
        assert_eq!(
            c,
            RayCursor {
                agent: 0,
                offset: 2
            }
        );
    }
}

#[cfg(test)]
mod sort_tests {
    use super::*;

    #[test]
    fn rank_sort_matches_the_standard_sort() {
        // Every length up to past the rank limit, ids scattered over u32
        // (including the largest values), distinct.
        let mut state = 0x9e37_79b9_u32;
        for n in 0..=RANK_SORT_MAX + 8 {
            for _ in 0..20 {
                let mut ids: Vec<AgentId> = Vec::new();
                while ids.len() < n {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    let id = if state.is_multiple_of(7) {
                        u32::MAX - state % 3
                    } else {
                        state
                    };
                    if !ids.contains(&AgentId(id)) {
                        ids.push(AgentId(id));
                    }
                }
                let mut want = ids.clone();
                want.sort_unstable();
                sort_distinct(&mut ids);
                assert_eq!(ids, want, "{n} ids");
            }
        }
    }
}
