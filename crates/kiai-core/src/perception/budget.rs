//! Sharing the ray budget among the agents (see
//! [`PerceptionBudget`](crate::PerceptionBudget)): which occluded candidates
//! of which agent get a ray this stage.

use crate::data::RayCursor;

/// One agent's rays in a budgeted stage: its candidates `j` with
/// `(j - start) mod need < len` get a ray.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Allowance {
    start: u32,
    len: u32,
    pub(crate) need: u32,
}

impl Allowance {
    /// Every candidate gets a ray.
    pub(crate) const ALL: Allowance = Allowance {
        start: 0,
        len: u32::MAX,
        need: u32::MAX,
    };

    pub(crate) fn casts(&self, j: u32) -> bool {
        if self.len >= self.need {
            return true;
        }
        let rel = if j >= self.start {
            j - self.start
        } else {
            j + (self.need - self.start)
        };
        rel < self.len
    }
}

/// Settles, in agent order from `cursor`, which candidates get rays when
/// agent `i` has `need[i]` of them and `budget` rays are available; moves
/// `cursor` past the last ray. Returns the allowance per agent.
pub(crate) fn allocate(need: &[u32], budget: u32, cursor: &mut RayCursor) -> Vec<Allowance> {
    let n = need.len();
    let total: u64 = need.iter().map(|&x| u64::from(x)).sum();
    let mut allow: Vec<Allowance> = need
        .iter()
        .map(|&need| Allowance {
            start: 0,
            len: 0,
            need,
        })
        .collect();
    if total <= u64::from(budget) {
        for a in &mut allow {
            a.len = a.need;
        }
        return allow;
    }
    let (mut a, mut off) = (cursor.agent as usize, cursor.offset);
    if a >= n {
        (a, off) = (0, 0);
    }
    if off >= need[a] {
        (a, off) = ((a + 1) % n, 0);
    }
    let (first, first_off) = (a, off);
    let mut left = budget;
    let mut end = (first, first_off);
    let take = (need[a] - off).min(left);
    allow[a].start = off;
    allow[a].len = take;
    left -= take;
    end.1 += take;
    a = (a + 1) % n;
    while left > 0 && a != first {
        let take = need[a].min(left);
        allow[a].len = take;
        left -= take;
        if take > 0 {
            end = (a, take);
        }
        a = (a + 1) % n;
    }
    if left > 0 {
        // Back at the first agent: its candidates before the cursor.
        let take = first_off.min(left);
        allow[first].len += take;
        end = (first, take);
    }
    *cursor = if end.1 >= need[end.0] {
        RayCursor {
            agent: ((end.0 + 1) % n) as u32,
            offset: 0,
        }
    } else {
        RayCursor {
            agent: end.0 as u32,
            offset: end.1,
        }
    };
    allow
}

#[cfg(test)]
mod budget_tests {
    use super::*;

    fn rays(allow: &[Allowance]) -> Vec<Vec<u32>> {
        allow
            .iter()
            .map(|a| (0..a.need).filter(|&j| a.casts(j)).collect())
            .collect()
    }

    #[test]
    fn everything_fits_and_the_cursor_stays() {
        let mut c = RayCursor {
            agent: 1,
            offset: 1,
        };
        let allow = allocate(&[3, 0, 2], 5, &mut c);
        assert_eq!(rays(&allow), vec![vec![0, 1, 2], vec![], vec![0, 1]]);
        assert_eq!(
            c,
            RayCursor {
                agent: 1,
                offset: 1
            }
        );
    }

    #[test]
    fn rays_go_round_robin_from_the_cursor() {
        let need = [3, 0, 4, 2];
        let mut c = RayCursor::default();
        let mut seen = vec![vec![0u32; 3], vec![0; 0], vec![0; 4], vec![0; 2]];
        for _ in 0..3 {
            let allow = allocate(&need, 4, &mut c);
            let r = rays(&allow);
            assert_eq!(r.iter().map(Vec::len).sum::<usize>(), 4);
            for (a, js) in r.iter().enumerate() {
                for &j in js {
                    seen[a][j as usize] += 1;
                }
            }
        }
        // 12 rays over 9 candidates: each at least once, the first three twice.
        assert_eq!(
            seen,
            vec![vec![2, 2, 2], vec![], vec![1, 1, 1, 1], vec![1, 1]]
        );
        // Just past agent 0 (agent 1 has nothing now, but may next time).
        assert_eq!(
            c,
            RayCursor {
                agent: 1,
                offset: 0
            }
        );
    }

    #[test]
    fn an_agent_split_by_the_cursor_wraps() {
        let mut c = RayCursor {
            agent: 0,
            offset: 2,
        };
        let allow = allocate(&[4, 1], 4, &mut c);
        assert_eq!(rays(&allow), vec![vec![0, 2, 3], vec![0]]);
        assert_eq!(
            c,
            RayCursor {
                agent: 0,
                offset: 1
            }
        );
        // A stale cursor past the end starts over.
        let mut c = RayCursor {
            agent: 9,
            offset: 9,
        };
        let allow = allocate(&[4, 1], 2, &mut c);
        assert_eq!(rays(&allow), vec![vec![0, 1], vec![]]);
        assert_eq!(
            c,
            RayCursor {
                agent: 0,
                offset: 2
            }
        );
    }
}
