//! Unit id -> slot lookup: direct for small ids, an ordered map for large ones.

use std::collections::BTreeMap;

use crate::occupancy::NONE;
use crate::unit::UnitId;

/// Unit id -> slot: a table indexed by id for ids below [`DENSE_IDS`] (O(1), 4 bytes per
/// id up to the largest one used), an ordered map above.
#[derive(Clone, Debug, Default)]
pub(crate) struct UnitIndex {
    /// `dense[id]`: the slot of unit `id` (`NONE` for none), for ids below [`DENSE_IDS`].
    dense: Vec<u32>,
    /// Slots of the units with larger ids.
    sparse: BTreeMap<UnitId, u32>,
    /// Number of registered ids.
    len: usize,
}

/// Ids below this use the direct lookup table.
const DENSE_IDS: u32 = 1 << 20;

impl UnitIndex {
    /// The slot of unit `id`, if registered.
    #[inline]
    pub(crate) fn get(&self, id: UnitId) -> Option<u32> {
        match self.dense.get(id.0 as usize) {
            Some(&s) => (s != NONE).then_some(s),
            None if id.0 < DENSE_IDS => None,
            None => self.sparse.get(&id).copied(),
        }
    }

    /// Registers unit `id` at `slot` (`id` must not be registered).
    pub(crate) fn insert(&mut self, id: UnitId, slot: u32) {
        if id.0 < DENSE_IDS {
            let i = id.0 as usize;
            if self.dense.len() <= i {
                self.dense.resize(i + 1, NONE);
            }
            self.dense[i] = slot;
        } else {
            self.sparse.insert(id, slot);
        }
        self.len += 1;
    }

    /// Unregisters unit `id`, returning its slot, or `None` if it was not registered.
    pub(crate) fn remove(&mut self, id: UnitId) -> Option<u32> {
        let slot = if id.0 < DENSE_IDS {
            let s = self.dense.get_mut(id.0 as usize)?;
            std::mem::replace(s, NONE)
        } else {
            self.sparse.remove(&id)?
        };
        if slot == NONE {
            return None;
        }
        self.len -= 1;
        Some(slot)
    }

    /// Number of registered ids.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// All ids in increasing order.
    pub(crate) fn ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        let dense = self
            .dense
            .iter()
            .enumerate()
            .filter(|(_, s)| **s != NONE)
            .map(|(i, _)| UnitId(i as u32));
        dense.chain(self.sparse.keys().copied())
    }
}
