//! The open lists' keys (`heap_key`, `open_key`, `alt_key`) and 4-ary
//! min-heaps of them: shallower than a binary heap, and the four
//! children of a node share a cache line, which makes A*'s open list faster.

/// Min-heap of packed `(f bits << 32) | node` keys.
#[derive(Clone, Debug, Default)]
pub(crate) struct MinHeap4 {
    data: Vec<u64>,
}

impl MinHeap4 {
    pub(crate) fn clear(&mut self) {
        self.data.clear();
    }

    /// Makes room for `n` keys in all.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.data.reserve(n.saturating_sub(self.data.len()));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    #[inline]
    pub(crate) fn push(&mut self, key: u64) {
        let mut i = self.data.len();
        self.data.push(key);
        while i > 0 {
            let p = (i - 1) / 4;
            if self.data[p] <= key {
                break;
            }
            self.data[i] = self.data[p];
            i = p;
        }
        self.data[i] = key;
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u64> {
        let last = self.data.pop()?;
        let n = self.data.len();
        if n == 0 {
            return Some(last);
        }
        let top = self.data[0];
        let mut i = 0;
        loop {
            let c = 4 * i + 1;
            if c >= n {
                break;
            }
            let end = (c + 4).min(n);
            let mut m = c;
            let mut mk = self.data[c];
            for j in c + 1..end {
                let k = self.data[j];
                if k < mk {
                    m = j;
                    mk = k;
                }
            }
            if mk >= last {
                break;
            }
            self.data[i] = mk;
            i = m;
        }
        self.data[i] = last;
        Some(top)
    }
}

/// A 4-ary min-heap of packed `(f bits << 32) | node` keys with decrease-key.
///
/// Holds at most one entry per node: `at[node]` is the index of `node`'s
/// entry while it is queued (the node is the low 32 bits of its key). A* then
/// never pops stale entries, which with lazy deletion are close to half of
/// all pops. Keys are 128 bits: `f`, then a tie-break, then the node (see
/// [`crate::query`]); four children still share one cache line.
#[derive(Clone, Debug, Default)]
pub(crate) struct IndexedHeap4 {
    data: Vec<u128>,
}

/// The node of a packed key.
#[inline]
fn node_of(key: u128) -> usize {
    key as u32 as usize
}

impl IndexedHeap4 {
    pub(crate) fn clear(&mut self) {
        self.data.clear();
    }

    /// Makes room for `n` keys in all.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.data.reserve(n.saturating_sub(self.data.len()));
    }

    /// The smallest key, if any.
    #[inline]
    pub(crate) fn peek(&self) -> Option<u128> {
        self.data.first().copied()
    }

    /// Queues a node that is not queued yet.
    #[inline]
    pub(crate) fn push(&mut self, key: u128, at: &mut [u32]) {
        let i = self.data.len();
        self.data.push(key);
        self.sift_up(i, key, at);
    }

    /// Lowers the key of a queued node (`key` <= its current key).
    #[inline]
    pub(crate) fn decrease(&mut self, key: u128, at: &mut [u32]) {
        let i = at[node_of(key)] as usize;
        self.sift_up(i, key, at);
    }

    #[inline]
    fn sift_up(&mut self, mut i: usize, key: u128, at: &mut [u32]) {
        while i > 0 {
            let p = (i - 1) / 4;
            let pk = self.data[p];
            if pk <= key {
                break;
            }
            self.data[i] = pk;
            at[node_of(pk)] = i as u32;
            i = p;
        }
        self.data[i] = key;
        at[node_of(key)] = i as u32;
    }

    /// The current key of a queued `node`.
    #[cfg(test)]
    fn peek_of(&self, node: usize, at: &[u32]) -> u128 {
        self.data[at[node] as usize]
    }

    /// Removes and returns the smallest key.
    #[inline]
    pub(crate) fn pop(&mut self, at: &mut [u32]) -> Option<u128> {
        let last = self.data.pop()?;
        let n = self.data.len();
        if n == 0 {
            return Some(last);
        }
        let top = self.data[0];
        let mut i = 0;
        loop {
            let c = 4 * i + 1;
            let (m, mk) = if let Some(ch) = self.data.get(c..c + 4) {
                // Four children: a branch-free tournament.
                let (a, ak) = if ch[1] < ch[0] {
                    (1, ch[1])
                } else {
                    (0, ch[0])
                };
                let (b, bk) = if ch[3] < ch[2] {
                    (3, ch[3])
                } else {
                    (2, ch[2])
                };
                if bk < ak { (c + b, bk) } else { (c + a, ak) }
            } else if c < n {
                let mut m = c;
                let mut mk = self.data[c];
                for (j, &k) in self.data.iter().enumerate().skip(c + 1) {
                    if k < mk {
                        m = j;
                        mk = k;
                    }
                }
                (m, mk)
            } else {
                break;
            };
            if mk >= last {
                break;
            }
            self.data[i] = mk;
            at[node_of(mk)] = i as u32;
            i = m;
        }
        self.data[i] = last;
        at[node_of(last)] = i as u32;
        Some(top)
    }
}

/// Min-heap key for a non-negative finite `f`: the bit pattern of a
/// non-negative f32 orders like its value; the dense index breaks ties.
#[inline]
pub(crate) fn heap_key(f: f32, node: u32) -> u64 {
    (u64::from(f.max(0.0).to_bits()) << 32) | u64::from(node)
}

/// A* open-list key of a plain search: `f` (non-negative or infinite),
/// then the node: ties go to the smaller dense index, as they always did.
#[inline]
pub(crate) fn open_key(f: f32, node: u32) -> u128 {
    (u128::from(f.max(0.0).to_bits()) << 64) | u128::from(node)
}

/// A* open-list key of a search with landmarks: `g + h` (in `f64`, where
/// the sum of two `f32` is exact), then `h`, then the node. On a grid
/// every waypoint between start and goal can lie on a cheapest route: with
/// their `f` equal to the bit, the one nearest the goal (the smallest `h`,
/// the goal itself first) goes first and A* walks one route through; summed
/// in `f32`, rounding would order them by noise, and A* would expand all
/// of them before the goal.
#[inline]
pub(crate) fn alt_key(g: f32, h: f32, node: u32) -> u128 {
    let f = f64::from(g).max(0.0) + f64::from(h).max(0.0);
    (u128::from(f.to_bits()) << 64) | (u128::from(h.max(0.0).to_bits()) << 32) | u128::from(node)
}

/// `(f bits, node)` of a heap key.
#[inline]
pub(crate) fn heap_unkey(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, key as u32)
}

#[cfg(test)]
mod tests {
    use super::{IndexedHeap4, MinHeap4};

    #[test]
    fn pops_in_ascending_order() {
        let mut h = MinHeap4::default();
        let mut x = 12345u64;
        let mut keys = Vec::new();
        for _ in 0..1000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            keys.push(x >> 20);
            h.push(x >> 20);
        }
        keys.sort_unstable();
        let popped: Vec<u64> = std::iter::from_fn(|| h.pop()).collect();
        assert_eq!(popped, keys);
    }

    #[test]
    fn indexed_pops_in_ascending_order_after_decreases() {
        let mut h = IndexedHeap4::default();
        let mut at = vec![0u32; 1000];
        let mut cur = vec![0u128; 1000];
        let mut x = 987u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 40
        };
        for (node, c) in cur.iter_mut().enumerate() {
            *c = (u128::from(next()) << 64) | (u128::from(next() % 4) << 32) | node as u128;
            h.push(*c, &mut at);
        }
        for _ in 0..3000 {
            let node = (next() % 1000) as usize;
            let f = (cur[node] >> 64).saturating_sub(u128::from(next() % 50));
            cur[node] = (f << 64) | (u128::from(next() % 4) << 32) | node as u128;
            if cur[node] > h.peek_of(node, &at) {
                cur[node] = h.peek_of(node, &at);
                continue;
            }
            h.decrease(cur[node], &mut at);
        }
        cur.sort_unstable();
        let popped: Vec<u128> = std::iter::from_fn(|| h.pop(&mut at)).collect();
        assert_eq!(popped, cur);
    }
}
