//! Row-span arithmetic: a unit's seen tiles as sorted runs per row ([`AbsSpan`]), the
//! per-row difference between its old and new runs, and applying that difference to the
//! counters, so that re-stamping a unit touches only the tiles entering or leaving its sight.

use crate::occupancy::Occupancy;
use crate::storage::Planes;

/// A stamped run of tiles in grid coordinates: row `z`, columns `x0..=x1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AbsSpan {
    /// Row.
    pub(crate) z: i32,
    /// First column, inclusive.
    pub(crate) x0: i32,
    /// Last column, inclusive (`>= x0`).
    pub(crate) x1: i32,
}

/// Calls `emit(x0, x1)` for each maximal run of `a` not covered by `b` (one row each,
/// both sorted, disjoint).
#[inline]
fn row_difference(a: &[AbsSpan], b: &[AbsSpan], mut emit: impl FnMut(i32, i32)) {
    let mut j = 0;
    for s in a {
        while j < b.len() && b[j].x1 < s.x0 {
            j += 1;
        }
        let mut cur = s.x0;
        let mut k = j;
        while cur <= s.x1 {
            if k < b.len() && b[k].x0 <= s.x1 {
                if b[k].x0 > cur {
                    emit(cur, b[k].x0 - 1);
                }
                cur = cur.max(b[k].x1 + 1);
                k += 1;
            } else {
                emit(cur, s.x1);
                break;
            }
        }
    }
}

/// Calls `emit(added, z, x0, x1)` for the runs in `old` but not `new` (`added` false) and
/// in `new` but not `old` (`added` true), row by row. Both lists sorted by `(z, x0)`.
pub(crate) fn diff_spans(
    old: &[AbsSpan],
    new: &[AbsSpan],
    mut emit: impl FnMut(bool, i32, i32, i32),
) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let z = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) => a.z.min(b.z),
            (Some(a), None) => a.z,
            (None, Some(b)) => b.z,
            (None, None) => break,
        };
        let i_end = i + old[i..].iter().take_while(|s| s.z == z).count();
        let j_end = j + new[j..].iter().take_while(|s| s.z == z).count();
        let (o, n) = (&old[i..i_end], &new[j..j_end]);
        if o != n {
            row_difference(o, n, |x0, x1| emit(false, z, x0, x1));
            row_difference(n, o, |x0, x1| emit(true, z, x0, x1));
        }
        i = i_end;
        j = j_end;
    }
}

/// Moves faction `f`'s contribution from `old` to `new`, touching only tiles in one but not both.
pub(crate) fn apply_diff(
    planes: &mut Planes,
    occ: &mut Occupancy,
    f: usize,
    old: &[AbsSpan],
    new: &[AbsSpan],
) {
    diff_spans(old, new, |added, z, x0, x1| {
        if added {
            planes.add(occ, f, z, x0, x1);
        } else {
            planes.remove(occ, f, z, x0, x1);
        }
    });
}
