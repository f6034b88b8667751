//! Gained and lost events: the difference between a sense's list this stage
//! and last stage.

use crate::data::{AgentId, Perceived, PerceptRecord};

/// Lost, then gained events between two ascending lists.
pub(crate) fn diff_events(
    events: &mut Vec<PerceptRecord>,
    agent: AgentId,
    sense: u16,
    before: &[AgentId],
    now: &[AgentId],
) {
    // Equal lists (the common case) compared without an early exit.
    if before.len() == now.len()
        && before
            .iter()
            .zip(now)
            .fold(0, |acc, (a, b)| acc | (a.to_bits() ^ b.to_bits()))
            == 0
    {
        return;
    }
    missing_from(before, now, |target| {
        events.push(PerceptRecord {
            agent,
            sense,
            what: Perceived::Lost(target),
        });
    });
    missing_from(now, before, |target| {
        events.push(PerceptRecord {
            agent,
            sense,
            what: Perceived::Gained(target),
        });
    });
}

/// Calls `f` with each id of the ascending list `xs` that the ascending
/// list `ys` lacks, in order (one merge pass).
fn missing_from(xs: &[AgentId], ys: &[AgentId], mut f: impl FnMut(AgentId)) {
    let mut j = 0;
    for &x in xs {
        while j < ys.len() && ys[j] < x {
            j += 1;
        }
        if j >= ys.len() || ys[j] != x {
            f(x);
        }
    }
}
