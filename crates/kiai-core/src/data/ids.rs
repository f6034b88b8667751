//! Small `Copy` handles for the things a [`World`](crate::World) holds.
//!
//! Handles are dense indices: `AgentId(3)` is the fourth agent spawned. They
//! are only meaningful for the world that issued them.

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

handle!(
    /// One agent of a world (index into the world's struct-of-arrays).
    AgentId(u32)
);
handle!(
    /// One faction of a world (at most 64 factions per world).
    FactionId(u16)
);
handle!(
    /// One archetype of a world: the template agents are made from.
    ArchetypeId(u16)
);
