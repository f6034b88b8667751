//! Which items of an old list are which items of the new one.
//!
//! Items are compared by a key (a waypoint's id, an agent's name, a map
//! entry's key; otherwise the whole item). The common start and end are
//! matched first; in between, keys that occur once in both lists are
//! matched in the longest run that keeps their order (patience diff:
//! linear plus a sort, whatever the list size). Unmatched items between
//! two matches are paired in order (an item changed in place, a renamed
//! one) and the rest are deletions or insertions.

use std::collections::HashMap;

/// One step of an alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Old item `.0` is new item `.1` (maybe changed).
    Keep(usize, usize),
    /// Old item `.0` is gone.
    Delete(usize),
    /// New item `.0` is added (after the last kept old item before it).
    Insert(usize),
}

/// Aligns `old` with `new` by their keys, in order of both lists.
pub(crate) fn align<K: std::hash::Hash + Eq>(old: &[K], new: &[K]) -> Vec<Step> {
    let (n, m) = (old.len(), new.len());
    let mut head = 0;
    while head < n && head < m && old[head] == new[head] {
        head += 1;
    }
    let mut tail = 0;
    while tail < n - head && tail < m - head && old[n - 1 - tail] == new[m - 1 - tail] {
        tail += 1;
    }
    let mut matches: Vec<(usize, usize)> = (0..head).map(|i| (i, i)).collect();
    matches.extend(unique_matches(
        &old[head..n - tail],
        &new[head..m - tail],
        head,
    ));
    matches.extend((0..tail).map(|t| (n - tail + t, m - tail + t)));
    let mut steps = Vec::with_capacity(n.max(m));
    let (mut i, mut j) = (0, 0);
    for (mi, mj) in matches.into_iter().chain(std::iter::once((n, m))) {
        let paired = (mi - i).min(mj - j);
        steps.extend((0..paired).map(|k| Step::Keep(i + k, j + k)));
        steps.extend((i + paired..mi).map(Step::Delete));
        steps.extend((j + paired..mj).map(Step::Insert));
        if mi < n && mj < m {
            steps.push(Step::Keep(mi, mj));
        }
        (i, j) = (mi + 1, mj + 1);
    }
    steps
}

/// Matches of keys that occur exactly once in each of `old` and `new`,
/// the longest subsequence in order of both; indices offset by `base`.
fn unique_matches<K: std::hash::Hash + Eq>(
    old: &[K],
    new: &[K],
    base: usize,
) -> Vec<(usize, usize)> {
    if old.is_empty() || new.is_empty() {
        return Vec::new();
    }
    // key -> (count in old, index in old, count in new, index in new)
    let mut seen: HashMap<&K, (u32, usize, u32, usize)> = HashMap::with_capacity(old.len());
    for (i, k) in old.iter().enumerate() {
        let e = seen.entry(k).or_insert((0, i, 0, 0));
        e.0 += 1;
    }
    for (j, k) in new.iter().enumerate() {
        if let Some(e) = seen.get_mut(k) {
            e.2 += 1;
            e.3 = j;
        }
    }
    let mut pairs: Vec<(usize, usize)> = seen
        .into_values()
        .filter(|e| e.0 == 1 && e.2 == 1)
        .map(|e| (e.1, e.3))
        .collect();
    pairs.sort_unstable();
    longest_increasing(&pairs)
        .into_iter()
        .map(|(i, j)| (i + base, j + base))
        .collect()
}

/// The longest run of `pairs` (sorted by `.0`) whose `.1` increase.
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[l]: index in `pairs` of the smallest `.1` ending a run of l + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut prev: Vec<Option<usize>> = vec![None; pairs.len()];
    for (p, &(_, j)) in pairs.iter().enumerate() {
        let l = tails.partition_point(|&t| pairs[t].1 < j);
        prev[p] = l.checked_sub(1).map(|l| tails[l]);
        if l == tails.len() {
            tails.push(p);
        } else {
            tails[l] = p;
        }
    }
    let mut out = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(p) = at {
        out.push(pairs[p]);
        at = prev[p];
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Step::*;

    #[test]
    fn deletions_insertions_and_changes_in_place() {
        assert_eq!(
            align(&[1, 2, 3, 4], &[1, 3, 4, 5]),
            vec![Keep(0, 0), Delete(1), Keep(2, 1), Keep(3, 2), Insert(3)]
        );
        // 2 renamed to 9: paired in place.
        assert_eq!(
            align(&[1, 2, 3], &[1, 9, 3]),
            vec![Keep(0, 0), Keep(1, 1), Keep(2, 2)]
        );
        assert_eq!(align::<u8>(&[], &[7, 8]), vec![Insert(0), Insert(1)]);
        assert_eq!(align(&[7, 8], &[]), vec![Delete(0), Delete(1)]);
    }

    #[test]
    fn scattered_deletions_in_a_long_list_are_found() {
        let old: Vec<u32> = (0..10_000).collect();
        let new: Vec<u32> = old
            .iter()
            .copied()
            .filter(|k| k % 997 != 5)
            .chain([20_000])
            .collect();
        let steps = align(&old, &new);
        let deleted: Vec<usize> = steps
            .iter()
            .filter_map(|s| match s {
                Delete(i) => Some(*i),
                _ => None,
            })
            .collect();
        let expected: Vec<usize> = (0..10_000).filter(|k| k % 997 == 5).collect();
        assert_eq!(deleted, expected);
        assert_eq!(steps.last(), Some(&Insert(new.len() - 1)));
        assert!(
            steps
                .iter()
                .all(|s| !matches!(s, Keep(i, j) if old[*i] != new[*j]))
        );
    }
}
