//! Which units stand on which tile, so that a tile whose visible mask changes can tell the
//! units on it, and the list of units to re-examine at the next event drain.

/// "No slot": the end of an occupancy list, and (the same sentinel) an empty entry of the
/// unit index and the template tables. Kept here, at the bottom of the grid's internals,
/// so that everything above can use it.
pub(crate) const NONE: u32 = u32::MAX;

/// Which units stand on which tile (intrusive doubly linked lists), and the units whose
/// tile's mask changed since the last drain. `occupied` (one bit per tile, small enough to
/// stay in cache) spares the counter loops a look at `head` for the many empty tiles.
#[derive(Clone, Debug)]
pub(crate) struct Occupancy {
    /// Per tile: the first unit slot standing on it, `NONE` when empty.
    head: Vec<u32>,
    /// Per tile, one bit: some unit stands on it.
    occupied: Vec<u64>,
    /// Per unit slot: the next slot on the same tile, `NONE` at the end.
    next: Vec<u32>,
    /// Per unit slot: the previous slot on the same tile, `NONE` at the head.
    prev: Vec<u32>,
    /// Per unit slot: already in `dirty_list`.
    dirty: Vec<bool>,
    /// Unit slots to re-examine at the next drain, in the order they were marked.
    dirty_list: Vec<u32>,
}

impl Occupancy {
    /// Empty lists for a grid of `tiles` tiles and no unit slots.
    pub(crate) fn new(tiles: usize) -> Self {
        Self {
            head: vec![NONE; tiles],
            occupied: vec![0; tiles.div_ceil(64)],
            next: Vec::new(),
            prev: Vec::new(),
            dirty: Vec::new(),
            dirty_list: Vec::new(),
        }
    }

    /// Makes room for one more unit slot (standing nowhere, not marked).
    pub(crate) fn push_slot(&mut self) {
        self.next.push(NONE);
        self.prev.push(NONE);
        self.dirty.push(false);
    }

    /// Marks a unit slot for re-examination at the next drain (once until then).
    #[inline]
    pub(crate) fn mark(&mut self, slot: u32) {
        let d = &mut self.dirty[slot as usize];
        if !*d {
            *d = true;
            self.dirty_list.push(slot);
        }
    }

    /// True when some unit stands on row-major tile `tile`.
    #[inline]
    pub(crate) fn is_occupied(&self, tile: usize) -> bool {
        self.occupied[tile >> 6] & (1 << (tile & 63)) != 0
    }

    /// A tile's mask changed: every unit standing on it must re-check who sees it.
    #[inline]
    pub(crate) fn notify(&mut self, tile: usize) {
        let mut s = self.head[tile];
        while s != NONE {
            self.mark(s);
            s = self.next[s as usize];
        }
    }

    /// Puts a unit slot on row-major tile `tile`.
    pub(crate) fn link(&mut self, slot: u32, tile: usize) {
        // Most tiles are empty: skip the (likely cache-missing) load of their list head.
        let h = if self.is_occupied(tile) {
            self.head[tile]
        } else {
            NONE
        };
        self.next[slot as usize] = h;
        self.prev[slot as usize] = NONE;
        if h != NONE {
            self.prev[h as usize] = slot;
        }
        self.head[tile] = slot;
        self.occupied[tile >> 6] |= 1 << (tile & 63);
    }

    /// Takes a unit slot off row-major tile `tile`, where it stands.
    pub(crate) fn unlink(&mut self, slot: u32, tile: usize) {
        let (p, n) = (self.prev[slot as usize], self.next[slot as usize]);
        if p == NONE {
            self.head[tile] = n;
            if n == NONE {
                self.occupied[tile >> 6] &= !(1 << (tile & 63));
            }
        } else {
            self.next[p as usize] = n;
        }
        if n != NONE {
            self.prev[n as usize] = p;
        }
    }

    /// Calls `visit` on each marked slot, in marking order, unmarking it first; the list
    /// is then empty (its memory kept for the next marks).
    #[inline]
    pub(crate) fn drain_dirty(&mut self, mut visit: impl FnMut(u32)) {
        let mut dirty = std::mem::take(&mut self.dirty_list);
        for &slot in &dirty {
            self.dirty[slot as usize] = false;
            visit(slot);
        }
        dirty.clear();
        self.dirty_list = dirty;
    }
}
