//! Factions and who is hostile to whom.

use crate::data::FactionId;

/// Most factions a world may hold (hostility is a 64-bit mask per faction).
pub const MAX_FACTIONS: usize = 64;

/// The factions of a world and their hostility relation.
///
/// Hostility is directed: `red` may be hostile to `blue` while `blue` ignores
/// `red`. A faction is never hostile to itself.
#[derive(Clone, Debug, Default)]
pub struct Factions {
    names: Vec<String>,
    hostile: Vec<u64>,
}

/// Returned when a world already holds [`MAX_FACTIONS`] factions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyFactions;

impl std::fmt::Display for TooManyFactions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a world holds at most {MAX_FACTIONS} factions")
    }
}

impl std::error::Error for TooManyFactions {}

impl Factions {
    /// Adds a faction and returns its handle.
    pub fn add(&mut self, name: impl Into<String>) -> Result<FactionId, TooManyFactions> {
        if self.names.len() >= MAX_FACTIONS {
            return Err(TooManyFactions);
        }
        self.names.push(name.into());
        self.hostile.push(0);
        Ok(FactionId::from_index(self.names.len() - 1))
    }

    /// Makes `from` hostile to `to` (one direction). Ignored for unknown
    /// handles and for `from == to`.
    pub fn set_hostile(&mut self, from: FactionId, to: FactionId) {
        if from != to
            && to.index() < self.names.len()
            && let Some(mask) = self.hostile.get_mut(from.index())
        {
            *mask |= 1 << to.index();
        }
    }

    /// Makes `from` hostile to `to` (`hostile`) or not (one direction), as
    /// a running world's relations change. Ignored for unknown handles and
    /// for `from == to`.
    pub fn set_hostility(&mut self, from: FactionId, to: FactionId, hostile: bool) {
        if hostile {
            self.set_hostile(from, to);
        } else if let Some(mask) = self.hostile.get_mut(from.index()) {
            *mask &= !(1 << (to.index() % MAX_FACTIONS));
        }
    }

    /// The factions `from` (an index) is hostile to, bit `to` set for
    /// each (0 for an unknown faction).
    pub(crate) fn mask(&self, from: usize) -> u64 {
        self.hostile.get(from).copied().unwrap_or(0)
    }

    /// Whether `from` is hostile to `to`.
    #[inline]
    pub fn is_hostile(&self, from: FactionId, to: FactionId) -> bool {
        self.hostile
            .get(from.index())
            .is_some_and(|mask| mask & (1 << (to.index() % MAX_FACTIONS)) != 0)
    }

    /// The faction's name, if it exists.
    pub fn name(&self, id: FactionId) -> Option<&str> {
        self.names.get(id.index()).map(String::as_str)
    }

    /// The handle of the faction called `name`.
    pub fn find(&self, name: &str) -> Option<FactionId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(FactionId::from_index)
    }

    /// Number of factions.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no factions.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostility_is_directed() {
        let mut f = Factions::default();
        let red = f.add("red").unwrap_or(FactionId(0));
        let blue = f.add("blue").unwrap_or(FactionId(1));
        f.set_hostile(red, blue);
        assert!(f.is_hostile(red, blue));
        assert!(!f.is_hostile(blue, red));
        assert!(!f.is_hostile(red, red));
        assert_eq!(f.find("blue"), Some(blue));
    }

    #[test]
    fn at_most_64() {
        let mut f = Factions::default();
        for i in 0..MAX_FACTIONS {
            assert!(f.add(format!("f{i}")).is_ok());
        }
        assert_eq!(f.add("one too many"), Err(TooManyFactions));
    }
}
