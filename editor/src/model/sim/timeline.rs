//! The timeline of a run: what every tick reached left behind. The state
//! hash after each tick (the recording, checked again by replays), each
//! agent's state after each tick (the Why tab's history, the legend, the
//! scripted breakpoints' "from"), and copies of the world every few ticks,
//! from which seeking back restarts.

use std::collections::BTreeMap;

use kiai_core::World;

use crate::model::breakpoints;

/// A snapshot of the world is kept every this many ticks (runs without
/// scripts: a Lua state cannot be copied, so scripted runs replay from tick
/// 0).
pub const SNAPSHOT_EVERY: u64 = 25;

/// Most snapshots kept; beyond it every other one is dropped and the
/// spacing doubles.
pub const MAX_SNAPSHOTS: usize = 64;

/// What the ticks of a run left behind.
pub struct Timeline {
    /// State hash after each tick ever reached in this run.
    hashes: Vec<u64>,
    /// The state of every agent after each tick reached, as an index
    /// into `state_names`: `states[t][agent]`.
    states: Vec<Vec<u8>>,
    /// Names of the states agents were in so far: the runtime's three
    /// (`random walk`, `chase`, `evade`), then the labels scripts gave, in
    /// the order they first appeared.
    state_names: Vec<String>,
    /// A replay found a hash different from the recording (tick).
    mismatch: Option<u64>,
    snapshots: BTreeMap<u64, World>,
    snapshot_every: u64,
}

impl Default for Timeline {
    fn default() -> Self {
        Self {
            hashes: Vec::new(),
            states: Vec::new(),
            state_names: kiai_core::BehaviourState::ALL
                .iter()
                .map(|s| breakpoints::state_words(*s))
                .collect(),
            mismatch: None,
            snapshots: BTreeMap::new(),
            snapshot_every: SNAPSHOT_EVERY,
        }
    }
}

impl Timeline {
    /// The timeline of a replay of a recording with these hashes: each
    /// tick replayed is checked against them ([`Timeline::mismatch`]).
    pub(super) fn replaying(hashes: Vec<u64>) -> Self {
        Self {
            hashes,
            ..Self::default()
        }
    }

    /// Records tick `tick` (1-based): its state `hash` (checked against
    /// the one recorded, if any) and, the first time the tick is reached,
    /// the state of each of the `agents` (`state_of` names it).
    pub(super) fn record(
        &mut self,
        tick: u64,
        hash: u64,
        agents: usize,
        state_of: impl Fn(usize) -> String,
    ) {
        let index = (tick - 1) as usize;
        if index < self.hashes.len() {
            if self.hashes[index] != hash && self.mismatch.is_none() {
                self.mismatch = Some(tick);
            }
        } else {
            self.hashes.push(hash);
        }
        if index >= self.states.len() {
            let row = (0..agents).map(|i| self.intern(state_of(i))).collect();
            self.states.push(row);
        }
    }

    /// The index of state `name`, interning it the first time it appears.
    fn intern(&mut self, name: String) -> u8 {
        let k = match self.state_names.iter().position(|n| *n == name) {
            Some(k) => k,
            None if self.state_names.len() < usize::from(u8::MAX) => {
                self.state_names.push(name);
                self.state_names.len() - 1
            }
            None => 0,
        };
        k as u8
    }

    /// Keeps a copy of `world` when its tick is due one (never for a
    /// `scripted` run: a Lua state cannot be copied).
    pub(super) fn snapshot(&mut self, world: &World, scripted: bool) {
        let tick = world.tick();
        if scripted
            || !tick.is_multiple_of(self.snapshot_every)
            || self.snapshots.contains_key(&tick)
        {
            return;
        }
        self.snapshots.insert(tick, world.clone());
        if self.snapshots.len() > MAX_SNAPSHOTS {
            self.snapshot_every *= 2;
            let every = self.snapshot_every;
            self.snapshots.retain(|t, _| t.is_multiple_of(every));
        }
    }

    /// A copy of the latest snapshot before `tick` (tick 0's for tick 0).
    pub(super) fn snapshot_before(&self, tick: u64) -> Option<World> {
        self.snapshots
            .range(..tick.max(1))
            .next_back()
            .map(|(_, w)| w.clone())
    }

    /// Snapshots held (ticks), for tools and tests.
    pub fn snapshot_ticks(&self) -> Vec<u64> {
        self.snapshots.keys().copied().collect()
    }

    /// Forgets what was recorded after tick `at` (another branch goes on
    /// from there).
    pub(super) fn branch_at(&mut self, at: u64) {
        self.hashes.truncate(at as usize);
        self.states.truncate(at as usize);
        self.mismatch = self.mismatch.filter(|t| *t <= at);
    }

    /// The state hash after each tick recorded.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The first tick at which a replay found a hash different from the
    /// recording.
    pub fn mismatch(&self) -> Option<u64> {
        self.mismatch
    }

    /// Ticks recorded (the timeline's length).
    pub fn recorded(&self) -> u64 {
        self.hashes.len() as u64
    }

    /// Names of the states agents were in so far (see
    /// [`Timeline::state_at`]).
    pub fn state_names(&self) -> &[String] {
        &self.state_names
    }

    /// The index of state `name` in [`Timeline::state_names`], if it
    /// appeared.
    pub fn state_index(&self, name: &str) -> Option<usize> {
        self.state_names.iter().position(|n| n == name)
    }

    /// The state of `agent` after tick `tick` (1-based), as an index into
    /// [`Timeline::state_names`], if reached.
    pub fn state_at(&self, tick: u64, agent: usize) -> Option<usize> {
        let code = *self.states.get(tick.checked_sub(1)? as usize)?.get(agent)?;
        Some(usize::from(code))
    }

    /// The name of the state of the agent in `slot` after tick `tick`
    /// (script names included), if recorded.
    pub fn state_name_at(&self, slot: usize, tick: u64) -> Option<String> {
        let k = self.state_at(tick, slot)?;
        self.state_names.get(k).cloned()
    }
}
