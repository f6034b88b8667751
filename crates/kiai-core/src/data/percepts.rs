//! What the senses reported: [`Percepts`] (sorted id lists per agent and
//! sense, what was heard, the inbox), the changes since the last stage
//! ([`PerceptRecord`]), and what agents remember ([`MemoryEntry`]).

use glam::Vec3;

use crate::data::{AgentId, Factions, Heard, MAX_FACTIONS, Message, Sound};

/// What the sense stage records of a change in what an agent perceives,
/// compactly (sounds and messages by their index in [`Percepts`]); a game
/// reads the same changes as [`EventKind`](crate::data::EventKind)s
/// through [`World::percept_events`](crate::World::percept_events) and
/// [`World::events`](crate::World::events).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PerceptRecord {
    /// The observer, listener or receiver.
    pub(crate) agent: AgentId,
    /// Index of the sense in the archetype (`u16::MAX` for a message).
    pub(crate) sense: u16,
    /// What changed.
    pub(crate) what: Perceived,
}

/// The change a [`PerceptRecord`] records.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Perceived {
    /// The sense started sensing this agent.
    Gained(AgentId),
    /// The sense stopped sensing this agent.
    Lost(AgentId),
    /// The sound of this index in [`Percepts::sounds`] was heard this loud.
    Heard(u32, f32),
    /// The message of this index in [`Percepts::messages`] arrived.
    Message(u32),
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
///
/// Results are stored in the order the sense stage processed the agents
/// (grid cell order, for locality), in fixed chunks of [`CHUNK`]; `rank`
/// maps an agent id to its position in that order.
#[derive(Clone, Debug, Default)]
pub struct Percepts {
    pub(crate) chunks: Vec<PerceptChunk>,
    /// The previous stage's chunks (double buffer, for events and
    /// hysteresis).
    pub(crate) prev: Vec<PerceptChunk>,
    /// Per slot, its agent's position in processing order (`u32::MAX`:
    /// no agent sensed from there).
    pub(crate) rank: Vec<u32>,
    /// Per slot, the generation of the agent that sensed from there.
    pub(crate) generation: Vec<u32>,
    pub(crate) prev_rank: Vec<u32>,
    pub(crate) tick: u64,
    pub(crate) sounds: Vec<Sound>,
    pub(crate) messages: Vec<Message>,
    pub(crate) events: Vec<PerceptRecord>,
    pub(crate) rays: u64,
    /// Per faction (all [`MAX_FACTIONS`]), the factions it was hostile to
    /// when these percepts were sensed: senses that report hostiles (or
    /// friends) filtered with these.
    pub(crate) hostile: Vec<u64>,
}

/// The results of one chunk of [`CHUNK`] agents (in processing order):
/// flat arrays, no allocation per agent.
#[derive(Clone, Debug, Default)]
pub(crate) struct PerceptChunk {
    /// Per local agent, its first slot; one extra entry at the end.
    pub(crate) slot_start: Vec<u32>,
    /// Per slot (agent × sense), the end of its ids in `ids`.
    pub(crate) slot_end: Vec<u32>,
    pub(crate) ids: Vec<AgentId>,
    /// Per slot, the end of its sounds in `heard`.
    pub(crate) heard_end: Vec<u32>,
    pub(crate) heard: Vec<Heard>,
    /// Per local agent, the end of its messages in `inbox`.
    pub(crate) inbox_end: Vec<u32>,
    pub(crate) inbox: Vec<u32>,
    pub(crate) events: Vec<PerceptRecord>,
    /// Per local agent, the end of its events in `events`.
    pub(crate) event_end: Vec<u32>,
    pub(crate) rays: u64,
}

impl PerceptChunk {
    /// Empties the chunk for a new stage (keeping its memory).
    pub(crate) fn reset(&mut self) {
        self.slot_start.clear();
        self.slot_end.clear();
        self.ids.clear();
        self.heard_end.clear();
        self.heard.clear();
        self.inbox_end.clear();
        self.inbox.clear();
        self.events.clear();
        self.event_end.clear();
        self.rays = 0;
        self.slot_start.push(0);
    }

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

    pub(crate) fn sensed(&self, local: usize, sense: usize) -> &[AgentId] {
        self.slot_range(local, sense)
            .map_or(&[], |(slot, _)| self.ids_of(slot))
    }
}

impl Percepts {
    /// The chunk and local index holding `agent`'s results, if this stage
    /// sensed for exactly that agent (not for an earlier or later one in
    /// its slot).
    fn locate(&self, agent: AgentId) -> Option<(&PerceptChunk, usize)> {
        let slot = agent.index();
        if self.generation.get(slot) != Some(&agent.generation()) {
            return None;
        }
        let r = *self.rank.get(slot)? as usize;
        Some((self.chunks.get(r / CHUNK)?, r % CHUNK))
    }

    /// Forgets what the agent in slot `slot` sensed (it left the world).
    pub(crate) fn forget(&mut self, slot: usize) {
        if let Some(r) = self.rank.get_mut(slot) {
            *r = u32::MAX;
        }
    }

    /// The agents that sense number `sense` (index into the archetype's
    /// senses) of `agent` noticed, ascending. For a hearing sense: the agents
    /// whose sounds it heard. Empty for unknown agents or senses.
    pub fn sensed(&self, agent: AgentId, sense: usize) -> &[AgentId] {
        self.locate(agent)
            .map_or(&[], |(chunk, local)| chunk.sensed(local, sense))
    }

    /// The sounds hearing sense `sense` of `agent` heard, loudest first
    /// (ties by sound index); `Heard::sound` indexes [`Percepts::sounds`].
    pub fn heard(&self, agent: AgentId, sense: usize) -> &[Heard] {
        self.locate(agent)
            .and_then(|(c, local)| Some((c, c.slot_range(local, sense)?.0)))
            .map_or(&[], |(c, slot)| c.heard_of(slot))
    }

    /// Indices into [`Percepts::messages`] of the messages `agent` received
    /// this tick, in sending order.
    pub fn inbox(&self, agent: AgentId) -> &[u32] {
        let Some((c, local)) = self.locate(agent) else {
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

    /// Whether the faction filters of these percepts are `factions`' as
    /// they are now: then a sense that reports hostiles lists only agents
    /// its observer is hostile to. Always so inside a tick (factions change
    /// only between ticks); after a change, until the next sense stage,
    /// not.
    pub(crate) fn filtered_with(&self, factions: &Factions) -> bool {
        self.hostile.len() == MAX_FACTIONS
            && self
                .hostile
                .iter()
                .enumerate()
                .all(|(f, &mask)| mask == factions.mask(f))
    }

    /// Gained, lost, heard and message records of this sense stage,
    /// ordered by agent, then sense, then kind, then target.
    pub(crate) fn events(&self) -> &[PerceptRecord] {
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
            let id = AgentId::new(a as u32, self.generation.get(a).copied().unwrap_or(0));
            let located = self.locate(id);
            let (first, next) = located.map_or((0, 0), |(chunk, local)| {
                (
                    chunk.slot_start[local] as usize,
                    chunk.slot_start[local + 1] as usize,
                )
            });
            (first..next).filter_map(move |slot| {
                let (chunk, _) = located?;
                Some((id, slot - first, chunk.ids_of(slot)))
            })
        })
    }
}
