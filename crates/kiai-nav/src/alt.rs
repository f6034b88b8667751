//! Landmark lower bounds for A* (ALT), as searches read them: the tables
//! ([`Landmarks`]) and the few landmarks one search uses ([`AltGoal`]).
//! How the landmarks are picked and the tables filled is in
//! `landmarks.rs`, above the frozen graph that holds these.

/// How many landmarks one search uses: the ones that bound its start best.
/// Each costs two table reads per waypoint reached.
pub(crate) const ACTIVE: usize = 4;

/// The landmark tables of one frozen graph (shared by its clones).
#[derive(Debug)]
pub(crate) struct Landmarks {
    /// Dense index of each landmark.
    pub(crate) nodes: Vec<u32>,
    /// Per cost-list slot (`None` for removed lists): for waypoint `v`,
    /// `table[v * 2k + l]` is the cost from landmark `l` to `v` and
    /// `table[v * 2k + k + l]` the cost from `v` to landmark `l`
    /// (infinity when there is no way); one waypoint's values share a
    /// cache line (64 bytes with the default 8 landmarks: see [`Table`]).
    pub(crate) tables: Vec<Option<Table>>,
}

/// One cost list's landmark table, its rows starting on a 64-byte
/// boundary: with 8 landmarks a waypoint's 16 values fill exactly one
/// cache line, so a search reads one line per waypoint it reaches, not two.
#[derive(Debug)]
pub(crate) struct Table {
    /// The values, from `offset` on (the floats before it pad the start to
    /// the boundary).
    data: Vec<f32>,
    /// Index of the first value.
    offset: usize,
    /// How many values there are.
    len: usize,
}

impl Table {
    /// A table of `len` zeros whose first value sits on a 64-byte boundary.
    pub(crate) fn zeros(len: usize) -> Self {
        const LINE: usize = 64;
        let data = vec![0.0f32; len + LINE / 4 - 1];
        let misalign = data.as_ptr() as usize % LINE;
        let offset = (LINE - misalign) % LINE / std::mem::size_of::<f32>();
        Self { data, offset, len }
    }

    /// The values.
    pub(crate) fn values(&self) -> &[f32] {
        &self.data[self.offset..self.offset + self.len]
    }

    /// The values, to fill.
    pub(crate) fn values_mut(&mut self) -> &mut [f32] {
        &mut self.data[self.offset..self.offset + self.len]
    }
}

/// The landmarks one search uses, with the goal's table values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AltGoal {
    /// Indices of the landmarks used (best first; when fewer than
    /// `ACTIVE` exist, the rest repeat the first).
    pub(crate) lm: [usize; ACTIVE],
    /// Cost from each used landmark to the goal.
    pub(crate) to_goal: [f32; ACTIVE],
    /// Cost from the goal to each used landmark.
    pub(crate) from_goal: [f32; ACTIVE],
}

impl AltGoal {
    /// No landmarks: a bound of 0.
    pub(crate) const NONE: AltGoal = AltGoal {
        lm: [0; ACTIVE],
        to_goal: [0.0; ACTIVE],
        from_goal: [0.0; ACTIVE],
    };

    /// The lower bound on the cost from dense waypoint `v` to the goal
    /// (0 when the landmarks say nothing; infinity when the goal cannot be
    /// reached from `v` even with every link open). The tables' `f32` sums
    /// round like the search's own, so a route found with these bounds can
    /// cost more than the cheapest by that rounding (about 1e-7 of its cost
    /// per link), as with the straight-line bound. `table` is the list's
    /// table of `k` landmarks.
    #[inline(always)]
    pub(crate) fn h(&self, table: &[f32], k: usize, v: u32) -> f32 {
        let Some(row) = table.get(v as usize * 2 * k..(v as usize + 1) * 2 * k) else {
            return 0.0;
        };
        // Always `ACTIVE` terms: unused ones repeat the first landmark
        // (see [`Landmarks::goal`]), which leaves the maximum as it is.
        let mut best = 0.0f32;
        for i in 0..ACTIVE {
            let l = self.lm[i];
            // `max` ignores the NaN of infinity - infinity (no bound).
            best = best
                .max(self.to_goal[i] - row[l])
                .max(row[k + l] - self.from_goal[i]);
        }
        best
    }
}

impl Landmarks {
    /// How many landmarks there are.
    pub(crate) fn count(&self) -> usize {
        self.nodes.len()
    }

    /// The landmarks that bound the cost `start -> goal` best under cost
    /// list slot `list`, or `None` when the list has no table.
    pub(crate) fn goal(&self, list: usize, start: u32, goal: u32) -> Option<AltGoal> {
        let table = self.tables.get(list)?.as_ref()?.values();
        let k = self.count();
        let count = k.min(ACTIVE);
        // The `count` best bounds, best first (ties to the smaller
        // landmark index), kept by insertion: no allocation per search.
        let mut best = [(f32::NEG_INFINITY, usize::MAX); ACTIVE];
        for l in 0..k {
            let b = bound(table, k, l, start as usize, goal as usize);
            if let Some(slot) = best[..count].iter().position(|&(s, _)| b > s) {
                best.copy_within(slot..count - 1, slot + 1);
                best[slot] = (b, l);
            }
        }
        let mut alt = AltGoal {
            lm: [0; ACTIVE],
            to_goal: [0.0; ACTIVE],
            from_goal: [0.0; ACTIVE],
        };
        // Slots past `count` repeat the best landmark, so that `h` can
        // always take `ACTIVE` terms without a branch.
        for i in 0..ACTIVE {
            let l = best[if i < count { i } else { 0 }].1;
            alt.lm[i] = l;
            alt.to_goal[i] = table[goal as usize * 2 * k + l];
            alt.from_goal[i] = table[goal as usize * 2 * k + k + l];
        }
        Some(alt)
    }

    /// The table of cost list slot `list` (see [`Landmarks::tables`]).
    pub(crate) fn table(&self, list: usize) -> &[f32] {
        self.tables
            .get(list)
            .and_then(Option::as_ref)
            .map_or(&[], Table::values)
    }

    /// Bytes the tables take.
    pub(crate) fn bytes(&self) -> usize {
        self.tables
            .iter()
            .flatten()
            .map(|t| std::mem::size_of_val(t.values()))
            .sum()
    }
}

/// Landmark `l`'s lower bound on the cost `v -> t`.
fn bound(table: &[f32], k: usize, l: usize, v: usize, t: usize) -> f32 {
    let (rv, rt) = (v * 2 * k, t * 2 * k);
    0.0f32
        .max(table[rt + l] - table[rv + l])
        .max(table[rv + k + l] - table[rt + k + l])
}
