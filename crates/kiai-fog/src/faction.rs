//! Factions and faction bit masks.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign, Not};

/// Most factions one `FogGrid` can track: one bit each in a `u32` [`FactionMask`].
pub const MAX_FACTIONS: u8 = 32;

/// A faction (side, player, team): a small index, `0..MAX_FACTIONS` and below the
/// grid's configured faction count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FactionId(pub u8);

impl FactionId {
    /// The faction's bit in a [`FactionMask`] (empty for ids >= [`MAX_FACTIONS`]).
    pub fn mask(self) -> FactionMask {
        FactionMask(1u32.checked_shl(u32::from(self.0)).unwrap_or(0))
    }
}

impl fmt::Display for FactionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "faction {}", self.0)
    }
}

/// A set of factions, bit `i` = [`FactionId`]`(i)`.
///
/// Used per tile (which factions see it, which have explored it) and as a
/// *spectator*: one faction, an alliance (several bits) or everyone ([`FactionMask::ALL`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FactionMask(pub u32);

impl FactionMask {
    /// No faction.
    pub const NONE: Self = Self(0);
    /// Every faction (all 32 bits; bits above the grid's faction count are never set on tiles).
    pub const ALL: Self = Self(u32::MAX);

    /// The mask of the given factions.
    pub fn of(factions: impl IntoIterator<Item = FactionId>) -> Self {
        factions.into_iter().fold(Self::NONE, |m, f| m | f.mask())
    }

    /// True when `faction`'s bit is set.
    pub fn contains(self, faction: FactionId) -> bool {
        self.0 & faction.mask().0 != 0
    }

    /// True when the two masks share a faction.
    pub fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }

    /// True when no bit is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of factions in the mask.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The factions in the mask, in increasing id order.
    pub fn iter(self) -> impl Iterator<Item = FactionId> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            Some(FactionId(i as u8))
        })
    }
}

impl From<FactionId> for FactionMask {
    fn from(f: FactionId) -> Self {
        f.mask()
    }
}

impl BitOr for FactionMask {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl BitOr<FactionId> for FactionMask {
    type Output = Self;
    fn bitor(self, rhs: FactionId) -> Self {
        self | rhs.mask()
    }
}

impl BitOrAssign for FactionMask {
    fn bitor_assign(&mut self, rhs: Self) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for FactionMask {
    type Output = Self;
    fn bitand(self, rhs: Self) -> Self {
        Self(self.0 & rhs.0)
    }
}

impl Not for FactionMask {
    type Output = Self;
    fn not(self) -> Self {
        Self(!self.0)
    }
}
