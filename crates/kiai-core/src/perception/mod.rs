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

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::faction::Factions;
use crate::ids::{AgentId, ArchetypeId, FactionId};

use hearing::{Heard, Sound};
use occlusion::{RayScratch, Walls};
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

/// Agents per parallel work unit of the sense stage.
pub(crate) const CHUNK: usize = 256;

/// What every agent perceived in the last sense stage.
#[derive(Debug, Default)]
pub struct Percepts {
    chunks: Vec<PerceptChunk>,
    prev: Vec<PerceptChunk>,
    tick: u64,
    sounds: Vec<Sound>,
    messages: Vec<Message>,
    events: Vec<PerceptEvent>,
    rays: u64,
}

#[derive(Debug, Default)]
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
    /// Scratch: candidates (index, position) of the agent being processed.
    candidates: Vec<(u32, Vec3)>,
    scratch: RayScratch,
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

impl Percepts {
    /// The agents that sense number `sense` (index into the archetype's
    /// senses) of `agent` noticed, ascending. For a hearing sense: the agents
    /// whose sounds it heard. Empty for unknown agents or senses.
    pub fn sensed(&self, agent: AgentId, sense: usize) -> &[AgentId] {
        let i = agent.index();
        self.chunks
            .get(i / CHUNK)
            .map_or(&[], |chunk| chunk.sensed(i % CHUNK, sense))
    }

    /// The sounds hearing sense `sense` of `agent` heard, loudest first
    /// (ties by sound index); `Heard::sound` indexes [`Percepts::sounds`].
    pub fn heard(&self, agent: AgentId, sense: usize) -> &[Heard] {
        let i = agent.index();
        self.chunks
            .get(i / CHUNK)
            .and_then(|c| Some((c, c.slot_range(i % CHUNK, sense)?.0)))
            .map_or(&[], |(c, slot)| c.heard_of(slot))
    }

    /// Indices into [`Percepts::messages`] of the messages `agent` received
    /// this tick, in sending order.
    pub fn inbox(&self, agent: AgentId) -> &[u32] {
        let i = agent.index();
        let Some(c) = self.chunks.get(i / CHUNK) else {
            return &[];
        };
        let local = i % CHUNK;
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
        self.chunks.iter().enumerate().flat_map(|(c, chunk)| {
            let agents = chunk.slot_start.len().saturating_sub(1);
            (0..agents).flat_map(move |local| {
                let agent = AgentId::from_index(c * CHUNK + local);
                let first = chunk.slot_start[local] as usize;
                let next = chunk.slot_start[local + 1] as usize;
                (first..next).map(move |slot| (agent, slot - first, chunk.ids_of(slot)))
            })
        })
    }
}

/// Walls and potentially visible sets of a world.
#[derive(Debug)]
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
) {
    let n = input.positions.len();
    assert_eq!(memory.len(), n, "one memory per agent");
    grid.rebuild(input.positions, cell_size);
    let chunk_count = n.div_ceil(CHUNK);
    std::mem::swap(&mut out.chunks, &mut out.prev);
    out.chunks.resize_with(chunk_count, PerceptChunk::default);
    out.tick = tick;
    out.sounds = sounds;
    out.messages = messages;
    let grid = &*grid;
    let prev = &out.prev;
    let (sounds, messages) = (&out.sounds, &out.messages);
    out.chunks
        .par_iter_mut()
        .zip(memory.par_chunks_mut(CHUNK))
        .enumerate()
        .for_each(|(c, (chunk, memory))| {
            let ctx = ChunkContext {
                input,
                grid,
                prev: prev.get(c),
                sounds,
                messages,
                first: c * CHUNK,
                tick,
            };
            sense_chunk(&ctx, c * CHUNK..((c + 1) * CHUNK).min(n), chunk, memory);
        });
    out.events.clear();
    out.rays = 0;
    for chunk in &out.chunks {
        out.events.extend_from_slice(&chunk.events);
        out.rays += chunk.rays;
    }
}

struct ChunkContext<'a> {
    input: &'a SenseInput<'a>,
    grid: &'a UniformGrid,
    prev: Option<&'a PerceptChunk>,
    sounds: &'a [Sound],
    messages: &'a [Message],
    first: usize,
    tick: u64,
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

fn sense_chunk(
    ctx: &ChunkContext<'_>,
    agents: std::ops::Range<usize>,
    chunk: &mut PerceptChunk,
    memory: &mut [Vec<MemoryEntry>],
) {
    let input = ctx.input;
    chunk.slot_start.clear();
    chunk.slot_end.clear();
    chunk.ids.clear();
    chunk.heard_end.clear();
    chunk.heard.clear();
    chunk.inbox_end.clear();
    chunk.inbox.clear();
    chunk.events.clear();
    chunk.rays = 0;
    chunk.slot_start.push(0);
    for i in agents {
        let local = i - ctx.first;
        let compiled = &input.archetypes[input.archetype_of[i].index()];
        let (senses, reach) = (&compiled.senses[..], compiled.reach);
        let eye = input.positions[i];
        let facing = input.facings[i];
        let faction = input.factions_of[i];
        let region = input.regions.get(i).copied().flatten();
        chunk.candidates.clear();
        if senses.iter().any(|s| s.hearing.is_none()) {
            // Pad the reach so f32 rounding at the edge never loses a candidate;
            // the exact tests below decide.
            let padded = reach + reach * 1e-5 + 1e-5;
            let reach_sq = padded * padded;
            let candidates = &mut chunk.candidates;
            ctx.grid
                .for_each_near(Vec2::new(eye.x, eye.z), padded, |j, p| {
                    let (dx, dz) = (p.x - eye.x, p.z - eye.z);
                    if dx * dx + dz * dz <= reach_sq && j as usize != i {
                        candidates.push((j, p));
                    }
                });
        }
        for (s_index, s) in senses.iter().enumerate() {
            let start = chunk.ids.len();
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
                let mut k = start;
                for r in start..chunk.ids.len() {
                    if k == start || chunk.ids[r] != chunk.ids[k - 1] {
                        chunk.ids[k] = chunk.ids[r];
                        k += 1;
                    }
                }
                chunk.ids.truncate(k);
            } else {
                let before = ctx.prev.map_or(&[][..], |p| p.sensed(local, s_index));
                for &(j, p) in &chunk.candidates {
                    let target = AgentId(j);
                    if !s
                        .filter
                        .passes(input.factions, faction, input.factions_of[j as usize])
                    {
                        continue;
                    }
                    let inside = s.shape.contains(eye, facing, p)
                        || s.keep.is_some_and(|keep| {
                            keep.contains(eye, facing, p) && before.binary_search(&target).is_ok()
                        });
                    if !inside {
                        continue;
                    }
                    if s.occluded
                        && let Some(occ) = input.occluders
                    {
                        let other = input.regions.get(j as usize).copied().flatten();
                        if occ
                            .pvs
                            .as_ref()
                            .is_some_and(|pvs| !pvs.can_see(region, other))
                        {
                            continue;
                        }
                        chunk.rays += 1;
                        if occ.walls.blocks(eye, p, &mut chunk.scratch) {
                            continue;
                        }
                    }
                    chunk.ids.push(target);
                }
                chunk.ids[start..].sort_unstable();
                // Lost, then gained, since last tick (both lists sorted).
                let now = &chunk.ids[start..];
                let agent = AgentId::from_index(i);
                let sense = s_index as u16;
                for &target in before {
                    if now.binary_search(&target).is_err() {
                        chunk.events.push(PerceptEvent::Lost {
                            agent,
                            sense,
                            target,
                        });
                    }
                }
                for k in start..chunk.ids.len() {
                    let target = chunk.ids[k];
                    if before.binary_search(&target).is_err() {
                        chunk.events.push(PerceptEvent::Gained {
                            agent,
                            sense,
                            target,
                        });
                    }
                }
            }
            chunk.slot_end.push(chunk.ids.len() as u32);
            chunk.heard_end.push(chunk.heard.len() as u32);
        }
        // Memory: refresh what is sensed now, forget what is too old.
        if let Some(mem) = memory.get_mut(local)
            && senses.iter().any(|s| s.memory_ticks > 0)
        {
            let first = *chunk.slot_start.last().unwrap_or(&0) as usize;
            for (s_index, s) in senses.iter().enumerate() {
                if s.memory_ticks == 0 {
                    continue;
                }
                for &target in chunk.ids_of(first + s_index) {
                    let entry = MemoryEntry {
                        sense: s_index as u16,
                        target,
                        position: input.positions[target.index()],
                        tick: ctx.tick,
                    };
                    match mem.binary_search_by_key(&(entry.sense, target), |m| (m.sense, m.target))
                    {
                        Ok(k) => mem[k] = entry,
                        Err(k) => mem.insert(k, entry),
                    }
                }
            }
            mem.retain(|m| {
                senses
                    .get(m.sense as usize)
                    .is_some_and(|s| m.tick + u64::from(s.memory_ticks) >= ctx.tick)
            });
        }
        // Messages, in sending order.
        for (k, m) in ctx.messages.iter().enumerate() {
            if receives(m, i, input) {
                chunk.inbox.push(k as u32);
                chunk.events.push(PerceptEvent::Message {
                    agent: AgentId::from_index(i),
                    message: k as u32,
                });
            }
        }
        chunk.inbox_end.push(chunk.inbox.len() as u32);
        chunk.slot_start.push(chunk.slot_end.len() as u32);
    }
}
