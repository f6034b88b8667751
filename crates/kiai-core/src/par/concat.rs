//! Many slices copied into one `Vec`, by every thread at once.
//!
//! Stages write their per-agent results in blocks, one per work item, and
//! a game reads them as one slice (the event queue, the percept records).
//! Joining the blocks with `extend_from_slice` copies every element on one
//! thread: in a 10k-agent battle about 1.8 MB of events a tick, a quarter
//! of a millisecond that more threads did not shorten. [`Concat`] is an
//! indexed parallel iterator over the blocks' elements in order, so that
//! `Vec::par_extend` writes each piece straight into its place in the
//! `Vec` on whichever thread takes it. Which thread copies an element
//! never changes where it goes: the result is the serial concatenation.

use rayon::iter::plumbing::{
    Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer, bridge,
};
use rayon::prelude::*;

/// Fewest elements per piece a thread copies: a piece of a few thousand
/// costs about as much as handing it to another thread. Results never
/// depend on it.
const COPY_MIN: usize = 4096;

/// The elements `lo..hi` of the concatenation of `parts`, where part `i`
/// starts at element `starts[i]`; a parallel iterator over references to
/// them, in order.
#[derive(Clone, Copy, Debug)]
struct Concat<'a, T> {
    parts: &'a [&'a [T]],
    starts: &'a [usize],
    lo: usize,
    hi: usize,
}

impl<'a, T> Concat<'a, T> {
    /// Every element of `parts`; `starts` holds, per part, the number of
    /// elements before it (as [`starts_of`] computes).
    fn new(parts: &'a [&'a [T]], starts: &'a [usize]) -> Self {
        debug_assert_eq!(parts.len(), starts.len());
        let hi = parts
            .last()
            .map_or(0, |p| starts[parts.len() - 1] + p.len());
        Self {
            parts,
            starts,
            lo: 0,
            hi,
        }
    }

    /// The elements `lo..hi` as the rest of the first part they touch,
    /// the whole parts between and the start of the last (empty when
    /// they lie in one part).
    fn slices(&self) -> (&'a [T], &'a [&'a [T]], &'a [T]) {
        if self.lo == self.hi {
            return (&[], &[], &[]);
        }
        let (first, last) = (self.part_of(self.lo), self.part_of(self.hi - 1));
        let (lo, hi) = (self.lo - self.starts[first], self.hi - self.starts[last]);
        if first == last {
            return (&self.parts[first][lo..hi], &[], &[]);
        }
        (
            &self.parts[first][lo..],
            &self.parts[first + 1..last],
            &self.parts[last][..hi],
        )
    }

    /// The part holding element `k` (`k` below the total): the last part
    /// starting at or before it (empty parts start where the next does).
    fn part_of(&self, k: usize) -> usize {
        self.starts.partition_point(|&s| s <= k) - 1
    }
}

/// Appends the elements of `parts`, in order, to `out`: on every thread
/// of the pool when there are enough of them for two pieces and another
/// thread to take one (`starts` is scratch memory), else one part after
/// another on this thread. The result is the same either way.
pub(crate) fn extend<T: Copy + Send + Sync>(
    out: &mut Vec<T>,
    parts: &[&[T]],
    starts: &mut Vec<usize>,
) {
    let total: usize = parts.iter().map(|p| p.len()).sum();
    if rayon::current_num_threads() < 2 || total < 2 * COPY_MIN {
        for part in parts {
            out.extend_from_slice(part);
        }
        return;
    }
    starts_of(parts, starts);
    let each = Concat::new(parts, starts);
    out.par_extend(each.with_min_len(COPY_MIN).copied());
}

/// Per part, the number of elements of the parts before it, into `out`.
fn starts_of<T>(parts: &[&[T]], out: &mut Vec<usize>) {
    out.clear();
    let mut at = 0;
    out.extend(parts.iter().map(|p| {
        let start = at;
        at += p.len();
        start
    }));
}

impl<'a, T: Sync + 'a> ParallelIterator for Concat<'a, T> {
    type Item = &'a T;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.hi - self.lo)
    }
}

impl<'a, T: Sync + 'a> IndexedParallelIterator for Concat<'a, T> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.hi - self.lo
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(self)
    }
}

impl<'a, T: Sync + 'a> Producer for Concat<'a, T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        let (front, middle, back) = self.slices();
        Iter {
            front: front.iter(),
            middle: middle.iter(),
            back: back.iter(),
            len: self.hi - self.lo,
        }
    }

    /// Hands the consumer one slice after another: a plain loop over each,
    /// rather than [`Iter`]'s steps between the first part, the whole parts
    /// and the last.
    fn fold_with<F: Folder<Self::Item>>(self, mut folder: F) -> F {
        let (front, middle, back) = self.slices();
        let whole = std::iter::once(front).chain(middle.iter().copied());
        for part in whole.chain(std::iter::once(back)) {
            folder = folder.consume_iter(part.iter());
            if folder.full() {
                break;
            }
        }
        folder
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        debug_assert!(index <= self.hi - self.lo);
        let mid = self.lo + index;
        (Self { hi: mid, ..self }, Self { lo: mid, ..self })
    }
}

/// The elements of one piece of a [`Concat`], in order: the rest of its
/// first part, the whole parts between, the start of its last part.
#[derive(Debug)]
struct Iter<'a, T> {
    front: std::slice::Iter<'a, T>,
    middle: std::slice::Iter<'a, &'a [T]>,
    back: std::slice::Iter<'a, T>,
    /// Elements left in all three.
    len: usize,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        loop {
            if let Some(x) = self.front.next() {
                self.len -= 1;
                return Some(x);
            }
            match self.middle.next() {
                Some(part) => self.front = part.iter(),
                None => {
                    let x = self.back.next()?;
                    self.len -= 1;
                    return Some(x);
                }
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

impl<T> DoubleEndedIterator for Iter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(x) = self.back.next_back() {
                self.len -= 1;
                return Some(x);
            }
            match self.middle.next_back() {
                Some(part) => self.back = part.iter(),
                None => {
                    let x = self.front.next_back()?;
                    self.len -= 1;
                    return Some(x);
                }
            }
        }
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Parts of the given sizes, numbered on from 0 across parts.
    fn parts(sizes: &[usize]) -> Vec<Vec<u32>> {
        let mut next = 0;
        sizes
            .iter()
            .map(|&n| {
                let part = (next..next + n as u32).collect();
                next += n as u32;
                part
            })
            .collect()
    }

    /// The parts as slices, their starts and their serial concatenation.
    fn setup(owned: &[Vec<u32>]) -> (Vec<&[u32]>, Vec<usize>, Vec<u32>) {
        let slices: Vec<&[u32]> = owned.iter().map(Vec::as_slice).collect();
        let mut starts = Vec::new();
        starts_of(&slices, &mut starts);
        (slices, starts, owned.concat())
    }

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    }

    proptest! {
        /// Copied in parallel after what a `Vec` held, in pieces of any
        /// size (one element, a few, as rayon splits), the parts come out
        /// as the serial concatenation.
        #[test]
        fn copied_in_parallel_is_the_serial_concatenation(
            sizes in prop::collection::vec(0usize..40, 0..12),
            min_len in 1usize..20,
        ) {
            let owned = parts(&sizes);
            let (slices, starts, serial) = setup(&owned);
            let pool = pool();
            for pieces in [Some(1), Some(min_len), None] {
                let mut out = vec![7, 8];
                pool.install(|| {
                    let all = Concat::new(&slices, &starts);
                    match pieces {
                        Some(1) => out.par_extend(all.with_max_len(1).copied()),
                        Some(m) => out.par_extend(all.with_min_len(m).copied()),
                        None => out.par_extend(all.copied()),
                    }
                });
                prop_assert_eq!(&out[..2], &[7, 8]);
                prop_assert_eq!(&out[2..], &serial[..]);
            }
        }

        /// Split anywhere (at part edges, at either end), each half's
        /// iterator gives its elements in order from the front, from the
        /// back and from both ends in turn, and says how many are left.
        #[test]
        fn a_split_gives_each_half_from_both_ends(
            sizes in prop::collection::vec(0usize..40, 0..12),
            cut in any::<prop::sample::Index>(),
            turns in prop::collection::vec(any::<bool>(), 0..200),
        ) {
            let owned = parts(&sizes);
            let (slices, starts, serial) = setup(&owned);
            let all = Concat::new(&slices, &starts);
            prop_assert_eq!(all.len(), serial.len());
            let cut = cut.index(serial.len() + 1);
            let (a, b) = all.split_at(cut);
            for (half, want) in [(a, &serial[..cut]), (b, &serial[cut..])] {
                let mut it = Producer::into_iter(half);
                let (mut front, mut back) = (Vec::new(), Vec::new());
                for &from_back in turns.iter().chain(std::iter::repeat(&false)) {
                    prop_assert_eq!(it.len(), want.len() - front.len() - back.len());
                    let next = if from_back { it.next_back() } else { it.next() };
                    match (next, from_back) {
                        (None, _) => break,
                        (Some(&x), false) => front.push(x),
                        (Some(&x), true) => back.push(x),
                    }
                }
                front.extend(back.iter().rev());
                prop_assert_eq!(&front[..], want);
            }
        }
    }

    /// Through [`extend`], both ways (one thread; many threads and enough
    /// elements for pieces), the same elements in the same order.
    #[test]
    fn extend_is_the_serial_concatenation_either_way() {
        let owned = parts(&[0, 5000, 1, 0, 7000, 3, 0]);
        let (slices, _, serial) = setup(&owned);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        for pool in [one, pool()] {
            let mut out = vec![1, 2, 3];
            pool.install(|| extend(&mut out, &slices, &mut Vec::new()));
            assert_eq!(&out[..3], &[1, 2, 3]);
            assert_eq!(&out[3..], &serial[..]);
        }
    }
}
