//! Small `Copy` handles for the things a [`World`](crate::World) holds.
//!
//! [`FactionId`] and [`ArchetypeId`] are dense indices. [`AgentId`] is
//! generational: a slot index plus the slot's generation, so a handle kept
//! after its agent was despawned is refused rather than aliased to the
//! agent that reuses the slot. Handles are only meaningful for the world
//! that issued them.

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident($inner:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub $inner);

        impl $name {
            /// The handle as a `usize` index into the world's arrays.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The handle for array index `index`.
            ///
            /// # Panics
            /// When `index` does not fit the handle's integer type; a world
            /// never holds that many items, so this is a bug in the caller.
            #[inline]
            pub fn from_index(index: usize) -> Self {
                assert!(index <= <$inner>::MAX as usize, "handle index {index} out of range");
                Self(index as $inner)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({})", stringify!($name), self.0)
            }
        }
    };
}

/// One agent of a world: its slot in the world's struct of arrays and the
/// slot's generation when the agent was spawned.
///
/// Slots are reused after a despawn, each time with the next generation, so
/// two agents never share a handle: the world refuses a handle whose
/// generation is not the slot's current one (`World::is_alive`). Handles
/// order by slot, then generation; every list of live agents is sorted by
/// slot. A world that never despawns has only generation 0, where
/// `AgentId::from_index(i)` is the `i`-th agent spawned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AgentId {
    index: u32,
    generation: u32,
}

impl AgentId {
    /// The handle of slot `index` in generation `generation`.
    #[inline]
    pub const fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The handle of slot `index` in its first generation (0): the agent
    /// spawned into a fresh slot. Worlds that reuse slots hand out later
    /// generations; ask the world for a slot's handle there
    /// ([`Agents::id`](crate::Agents::id)).
    ///
    /// # Panics
    /// When `index` does not fit in `u32`; a world never holds that many
    /// agents, so this is a bug in the caller.
    #[inline]
    pub fn from_index(index: usize) -> Self {
        assert!(
            index <= u32::MAX as usize,
            "agent index {index} out of range"
        );
        Self::new(index as u32, 0)
    }

    /// The slot, as a `usize` index into the world's per-agent arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// The slot, as stored.
    #[inline]
    pub fn slot(self) -> u32 {
        self.index
    }

    /// The slot's generation when this agent was spawned (0 for the first
    /// agent in a slot).
    #[inline]
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// The handle as one integer: the generation in the high 32 bits, the
    /// slot in the low 32 (so generation-0 handles are their slot index).
    /// Scripts see agents as this number.
    #[inline]
    pub fn to_bits(self) -> u64 {
        u64::from(self.generation) << 32 | u64::from(self.index)
    }

    /// The handle [`AgentId::to_bits`] made.
    #[inline]
    pub fn from_bits(bits: u64) -> Self {
        Self::new(bits as u32, (bits >> 32) as u32)
    }
}

impl std::fmt::Display for AgentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.generation == 0 {
            write!(f, "AgentId({})", self.index)
        } else {
            write!(f, "AgentId({}v{})", self.index, self.generation)
        }
    }
}

handle!(
    /// One faction of a world (at most 64 factions per world).
    FactionId(u16)
);
handle!(
    /// One archetype of a world: the template agents are made from.
    ArchetypeId(u16)
);
