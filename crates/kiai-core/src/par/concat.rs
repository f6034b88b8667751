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
pub(crate) const COPY_MIN: usize = 4096;

/// The elements `lo..hi` of the concatenation of `parts`, where part `i`
/// starts at element `starts[i]`; a parallel iterator over references to
/// them, in order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Concat<'a, T> {
    parts: &'a [&'a [T]],
    starts: &'a [usize],
    lo: usize,
    hi: usize,
}

impl<'a, T> Concat<'a, T> {
    /// Every element of `parts`; `starts` holds, per part, the number of
    /// elements before it (as [`starts_of`] computes).
    pub(crate) fn new(parts: &'a [&'a [T]], starts: &'a [usize]) -> Self {
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

/// Per part, the number of elements of the parts before it, into `out`.
pub(crate) fn starts_of<T>(parts: &[&[T]], out: &mut Vec<usize>) {
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

    /// Hands the consumer whole slices: copying from a slice iterator
    /// compiles to block copies, element by element through [`Iter`] not.
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
        let mid = self.lo + index;
        (Self { hi: mid, ..self }, Self { lo: mid, ..self })
    }
}

/// The elements of one piece of a [`Concat`], in order: the rest of its
/// first part, the whole parts between, the start of its last part.
#[derive(Debug)]
pub(crate) struct Iter<'a, T> {
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

    proptest! {
        /// Copied in parallel, in pieces as small as one element, the parts
        /// come out as the serial concatenation; split anywhere, each
        /// piece's iterator gives its elements from both ends.
        #[test]
        fn is_the_serial_concatenation(
            sizes in prop::collection::vec(0usize..40, 0..12),
            cut in 0usize..400,
            from_back in 0usize..400,
        ) {
            let owned = parts(&sizes);
            let slices: Vec<&[u32]> = owned.iter().map(Vec::as_slice).collect();
            let mut starts = Vec::new();
            starts_of(&slices, &mut starts);
            let serial: Vec<u32> = owned.concat();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(3)
                .build()
                .unwrap_or_else(|e| panic!("{e}"));
            let mut out = vec![7, 8];
            pool.install(|| {
                out.par_extend(Concat::new(&slices, &starts).with_max_len(1).copied());
            });
            prop_assert_eq!(&out[2..], &serial[..]);
            let all = Concat::new(&slices, &starts);
            prop_assert_eq!(all.len(), serial.len());
            let cut = cut.min(serial.len());
            let (a, b) = all.split_at(cut);
            let (a, b): (Vec<u32>, Vec<u32>) =
                (Producer::into_iter(a).copied().collect(), Producer::into_iter(b).copied().collect());
            prop_assert_eq!(&a[..], &serial[..cut]);
            prop_assert_eq!(&b[..], &serial[cut..]);
            let mut it = Producer::into_iter(Concat::new(&slices, &starts));
            let k = from_back.min(serial.len());
            let back: Vec<u32> = it.by_ref().rev().take(k).copied().collect();
            prop_assert_eq!(it.len(), serial.len() - k);
            let front: Vec<u32> = it.copied().collect();
            let mut rebuilt = front;
            rebuilt.extend(back.into_iter().rev());
            prop_assert_eq!(rebuilt, serial);
        }
    }
}
