//! The `k` smallest of a few keys, sorted, without a branch per comparison: how the avoid
//! stage orders an agent's neighbours nearest first.
//!
//! An agent has about a dozen neighbours in reach, in no order. Selecting
//! and sorting so few with the standard library (insertion sort for small
//! slices) mispredicts a branch about every other comparison; a sorting
//! network does the work in compare-exchanges the processor runs without
//! branching, in a little over half the time in the 10k battle.

/// Keys a network sorts at once; `k` up to this takes the network path.
pub(crate) const WIDTH: usize = 16;

/// Applies compare-exchanges to `$v` at constant indices, so that the
/// compiler keeps the keys in registers (a loop over a table of pairs
/// went through memory, one exchange waiting on the last).
macro_rules! exchanges {
    ($v:ident; $(($i:literal, $j:literal)),* $(,)?) => {
        $(exchange($v, $i, $j);)*
    };
}

/// Appends to `out` the `k` smallest of `keys` (`k` at most [`WIDTH`]), in
/// ascending order. Equal keys are interchangeable, so the result is the
/// same as sorting and truncating.
pub(crate) fn keep_smallest(keys: &[u64], k: usize, out: &mut Vec<u64>) {
    debug_assert!(k <= WIDTH);
    let mut best = [u64::MAX; WIDTH];
    let mut blocks = keys.chunks(WIDTH);
    if let Some(first) = blocks.next() {
        best[..first.len()].copy_from_slice(first);
        sort_up_to(&mut best, first.len());
    }
    for block in blocks {
        let mut next = [u64::MAX; WIDTH];
        next[..block.len()].copy_from_slice(block);
        sort_up_to(&mut next, block.len());
        // The smaller of each pair of the one ascending and the other
        // descending are the 16 smallest of both, rising then falling.
        for (b, n) in best.iter_mut().zip(next.iter().rev()) {
            *b = (*b).min(*n);
        }
        sort_bitonic(&mut best);
    }
    out.extend_from_slice(&best[..keys.len().min(k)]);
}

/// Puts the smaller of `v[i]` and `v[j]` at `i`, the larger at `j`.
#[inline(always)]
fn exchange<const N: usize>(v: &mut [u64; N], i: usize, j: usize) {
    let (a, b) = (v[i], v[j]);
    v[i] = a.min(b);
    v[j] = a.max(b);
}

/// Sorts `v`, whose keys past the first `n` are `u64::MAX`: the first
/// [`HALF`] alone when the rest are all `u64::MAX` (a fifth of the
/// agents in the 10k battle have at most 8 neighbours in reach).
#[inline(always)]
fn sort_up_to(v: &mut [u64; WIDTH], n: usize) {
    match v.first_chunk_mut::<HALF>() {
        Some(low) if n <= HALF => sort_half(low),
        _ => sort(v),
    }
}

/// Keys the small network sorts.
const HALF: usize = 8;

/// Sorts `v` ascending: a sorting network for 8 inputs, 19
/// compare-exchanges in 6 layers (the smallest known, Knuth's), checked
/// on every 0/1 input like [`sort`].
#[inline(always)]
fn sort_half(v: &mut [u64; HALF]) {
    exchanges!(v;
        (0, 2), (1, 3), (4, 6), (5, 7),
        (0, 4), (1, 5), (2, 6), (3, 7),
        (0, 1), (2, 3), (4, 5), (6, 7),
        (2, 4), (3, 5),
        (1, 4), (3, 6),
        (1, 2), (3, 4), (5, 6),
    );
}

/// Sorts `v` ascending: a sorting network for 16 inputs, 60
/// compare-exchanges in 10 layers (Green's network, one layer a line).
/// Checked on every 0/1 input by the tests, which by the 0-1 principle
/// proves it sorts any input.
#[inline(always)]
fn sort(v: &mut [u64; WIDTH]) {
    exchanges!(v;
        (0, 13), (1, 12), (2, 15), (3, 14), (4, 8), (5, 6), (7, 11), (9, 10),
        (0, 5), (1, 7), (2, 9), (3, 4), (6, 13), (8, 14), (10, 15), (11, 12),
        (0, 1), (2, 3), (4, 5), (6, 8), (7, 9), (10, 11), (12, 13), (14, 15),
        (0, 2), (1, 3), (4, 10), (5, 11), (6, 7), (8, 9), (12, 14), (13, 15),
        (1, 2), (3, 12), (4, 6), (5, 7), (8, 10), (9, 11), (13, 14),
        (1, 4), (2, 6), (5, 8), (7, 10), (9, 13), (11, 14),
        (2, 4), (3, 6), (9, 12), (11, 13),
        (3, 5), (6, 8), (7, 9), (10, 12),
        (3, 4), (5, 6), (7, 8), (9, 10), (11, 12),
        (6, 7), (8, 9),
    );
}

/// Sorts `v` ascending when it rises then falls (or falls then rises):
/// Batcher's half-cleaners, 4 layers of 8.
#[inline(always)]
fn sort_bitonic(v: &mut [u64; WIDTH]) {
    exchanges!(v;
        (0, 8), (1, 9), (2, 10), (3, 11), (4, 12), (5, 13), (6, 14), (7, 15),
        (0, 4), (1, 5), (2, 6), (3, 7), (8, 12), (9, 13), (10, 14), (11, 15),
        (0, 2), (1, 3), (4, 6), (5, 7), (8, 10), (9, 11), (12, 14), (13, 15),
        (0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 15),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Asserts that `network` sorts every input of N zeros and ones, which
    /// by the 0-1 principle proves it sorts any input.
    fn sorts_every_zero_one_input<const N: usize>(network: fn(&mut [u64; N])) {
        for bits in 0..1u32 << N {
            let mut v = [0; N];
            for (i, x) in v.iter_mut().enumerate() {
                *x = u64::from(bits >> i & 1);
            }
            network(&mut v);
            assert!(v.is_sorted(), "{bits:b} -> {v:?}");
        }
    }

    #[test]
    fn the_network_sorts_every_zero_one_input() {
        sorts_every_zero_one_input(sort);
    }

    #[test]
    fn the_small_network_sorts_every_zero_one_input() {
        sorts_every_zero_one_input(sort_half);
    }

    proptest! {
        #[test]
        fn keeps_the_k_smallest_in_order(
            keys in proptest::collection::vec(0u64..64, 0..70),
            k in 0usize..=WIDTH,
        ) {
            let mut expected = keys.clone();
            expected.sort_unstable();
            expected.truncate(k);
            let mut got = vec![7];
            keep_smallest(&keys, k, &mut got);
            prop_assert_eq!(got[0], 7, "appended after what was there");
            prop_assert_eq!(&got[1..], &expected[..]);
        }
    }
}
