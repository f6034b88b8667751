//! Sorting the short id lists the sense stage produces.

use crate::data::AgentId;

/// Sorts ids of distinct slots ascending (live agents: one per slot). Up
/// to [`RANK_SORT_MAX`] of them are placed by the rank of their slot (the
/// count of smaller slots, found by comparing against all at once), which
/// has no data-dependent branches; longer lists use the standard sort.
pub(crate) fn sort_distinct(ids: &mut [AgentId]) {
    let n = ids.len();
    if n < 2 {
        return;
    }
    if n > RANK_SORT_MAX {
        ids.sort_unstable();
        return;
    }
    // The narrowest width that holds the list: every array below is that
    // wide, so a short list zeroes and compares little.
    if n <= RANK_SORT_MAX / 4 {
        rank_sort::<{ RANK_SORT_MAX / 4 }>(ids);
    } else if n <= RANK_SORT_MAX * 3 / 8 {
        rank_sort::<{ RANK_SORT_MAX * 3 / 8 }>(ids);
    } else if n <= RANK_SORT_MAX / 2 {
        rank_sort::<{ RANK_SORT_MAX / 2 }>(ids);
    } else {
        rank_sort::<RANK_SORT_MAX>(ids);
    }
}

/// [`sort_distinct`] for at most `W` ids: each id's rank is the count of
/// smaller slots, found by comparing every slot against all at once
/// (fixed width, vectorised), and each id is written once, straight to
/// its place (the ranks of distinct slots are a permutation of 0..n).
#[inline(always)]
fn rank_sort<const W: usize>(ids: &mut [AgentId]) {
    let n = ids.len();
    // Slots with the sign bit flipped compare as signed integers in the
    // order of the slots (one vector compare, where unsigned needs three).
    // Padding keys (the largest) rank last.
    let mut keys = [i32::MAX; W];
    let mut generations = [0u32; W];
    for ((k, g), id) in keys.iter_mut().zip(&mut generations).zip(ids.iter()) {
        *k = (id.slot() ^ SIGN) as i32;
        *g = id.generation();
    }
    let mut rank = [0u32; W];
    for &other in &keys[..n.min(W)] {
        for i in 0..W {
            rank[i] += u32::from(other < keys[i]);
        }
    }
    for ((&key, &generation), &r) in keys.iter().zip(&generations).zip(&rank[..n.min(W)]) {
        if let Some(to) = ids.get_mut(r as usize) {
            *to = AgentId::new(key as u32 ^ SIGN, generation);
        }
    }
}

/// The sign bit of a 32-bit key.
const SIGN: u32 = 0x8000_0000;

/// Longest list [`sort_distinct`] sorts by rank.
const RANK_SORT_MAX: usize = 32;

/// Removes adjacent duplicates from `self[start..]`.
pub(crate) trait DedupFrom {
    fn dedup_from(&mut self, start: usize);
}

impl DedupFrom for Vec<AgentId> {
    fn dedup_from(&mut self, start: usize) {
        let mut k = start;
        for r in start..self.len() {
            if k == start || self[r] != self[k - 1] {
                self[k] = self[r];
                k += 1;
            }
        }
        self.truncate(k);
    }
}

#[cfg(test)]
mod sort_tests {
    use super::*;

    #[test]
    fn rank_sort_matches_the_standard_sort() {
        // Every length up to past the rank limit, ids scattered over u32
        // (including the largest values), distinct.
        let mut state = 0x9e37_79b9_u32;
        for n in 0..=RANK_SORT_MAX + 8 {
            for _ in 0..20 {
                let mut ids: Vec<AgentId> = Vec::new();
                while ids.len() < n {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    let id = if state.is_multiple_of(7) {
                        u32::MAX - state % 3
                    } else {
                        state
                    };
                    if !ids.contains(&AgentId::new(id, id % 5)) {
                        ids.push(AgentId::new(id, id % 5));
                    }
                }
                let mut want = ids.clone();
                want.sort_unstable();
                sort_distinct(&mut ids);
                assert_eq!(ids, want, "{n} ids");
            }
        }
    }
}
