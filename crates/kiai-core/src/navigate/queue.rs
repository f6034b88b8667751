//! Serving the route queue within the tick's search budget.
//!
//! Requests are served oldest first, then by agent slot. Walkers sent to
//! one goal share a [`DistanceField`] (one reverse Dijkstra, filled a slice
//! per tick); the others get an A* search each, run in rounds of
//! [`SLOTS`] searches in parallel and applied in queue order. How many
//! rounds a tick runs depends only on the waypoints the searches expanded,
//! so the result is the same at any thread count. A walker's route starts
//! where it stands when its request is served: the waypoint it walks to
//! (or, for a re-plan after a graph change, that one or the one it came
//! from, whichever is shorter).

use std::sync::Arc;

use glam::Vec3;
use kiai_nav::{DistanceField, NavGraph, NavQuery, PathFilter, WaypointId};
use rayon::prelude::*;

use crate::data::route_queue::{RouteKey, RouteRequest, SharedField};
use crate::data::{EventKind, NavState, RouteQueue};

/// Searches run side by side in one round (a fixed number, so that the
/// rounds, and with them the results, do not depend on the thread count).
pub(super) const SLOTS: usize = 4;

/// Requests for one goal that make the queue fill a shared field instead
/// of searching for each.
const SHARE_FROM: usize = 2;

/// Finished fields kept for shared goals (the least recently used goes).
const FIELDS_KEPT: usize = 8;

/// Route hops read off a shared field that count as one expanded
/// waypoint against the budget.
const HOPS_PER_EXPANSION: u64 = 8;

/// Largest number of waypoints one A* search may expand.
const MAX_SEARCH_NODES: u32 = 65_536;

/// The navigate stage's search memory: one query per slot.
#[derive(Debug, Default)]
pub(super) struct QueueScratch {
    queries: Vec<NavQuery>,
}

/// What serving needs of the world besides the queue.
pub(super) struct Walkers<'a> {
    pub(super) nav: &'a NavGraph,
    pub(super) states: &'a mut [NavState],
    pub(super) positions: &'a [Vec3],
    pub(super) tick: u64,
}

/// One search a request needs: from where the walker will be, and for a
/// re-plan mid-link also back through the waypoint it came from.
#[derive(Clone, Copy, Debug)]
struct Job {
    onward: WaypointId,
    back: Option<WaypointId>,
    key: RouteKey,
}

/// A cheapest route, start first, and its cost.
type Route = (Vec<WaypointId>, f32);

/// What a job found, and the waypoints it expanded.
#[derive(Debug, Default)]
struct Found {
    onward: Option<Route>,
    back: Option<Route>,
    expanded: u64,
}

/// Serves the queue within the budget (every request is of a living,
/// waiting walker); events for routes found late and routes that do not
/// exist go to `events`.
pub(super) fn serve(
    queue: &mut RouteQueue,
    w: &mut Walkers<'_>,
    scratch: &mut QueueScratch,
    events: &mut Vec<EventKind>,
) {
    if queue.requests.is_empty() {
        return;
    }
    let mut left = queue.budget.map_or(u64::MAX, u64::from);
    start_shared_field(queue, w.nav);
    fill_shared_field(queue, w, &mut left);
    let requests = std::mem::take(&mut queue.requests);
    let mut searches = Vec::new();
    for r in requests {
        let field = queue.fields.iter_mut().find(|f| f.key == r.key);
        if let Some(f) = field.filter(|_| left > 0) {
            f.used = w.tick;
            let found = from_field(w, &r, &f.field);
            left = left.saturating_sub(found.expanded);
            settle(w, &r, found, events);
        } else if left == 0 || queue.filling.as_ref().is_some_and(|f| f.key == r.key) {
            // Its field is being filled, or the budget went on routes read
            // off fields: it waits.
            queue.requests.push(r);
        } else {
            searches.push(r);
        }
    }
    let mut rest = searches.into_iter().peekable();
    while left > 0 && rest.peek().is_some() {
        // As many searches as the rest of the budget is likely to pay
        // for (at least one, at most a slot each), so that a tick
        // overshoots its budget by about one search, not by a round.
        let typical = u64::from(queue.typical_search.max(1));
        let size = (left / typical).clamp(1, SLOTS as u64) as usize;
        let round: Vec<RouteRequest> = rest.by_ref().take(size).collect();
        let mut spent = 0;
        for (r, found) in round.iter().zip(run_round(w, &round, scratch)) {
            spent += found.expanded;
            settle(w, r, found, events);
        }
        left = left.saturating_sub(spent);
        let mean = spent / round.len().max(1) as u64;
        // A running mean, weighing the last round a quarter.
        let next = (u64::from(queue.typical_search) * 3 + mean) / 4;
        queue.typical_search = u32::try_from(next.max(1)).unwrap_or(u32::MAX);
    }
    queue.requests.extend(rest);
    queue.requests.sort_by_key(|r| (r.tick, r.agent.index()));
}

/// Begins a shared field for the first goal (in queue order) that enough
/// waiting walkers share, when none is being filled.
fn start_shared_field(queue: &mut RouteQueue, nav: &NavGraph) {
    if queue.filling.is_some() {
        return;
    }
    let mut counts = std::collections::BTreeMap::<RouteKey, usize>::new();
    for r in &queue.requests {
        *counts.entry(r.key).or_default() += 1;
    }
    let shared = queue.requests.iter().map(|r| r.key).find(|k| {
        counts.get(k).is_some_and(|&c| c >= SHARE_FROM) && !queue.fields.iter().any(|f| f.key == *k)
    });
    let Some(key) = shared else {
        return;
    };
    let mut field = DistanceField::new();
    if field.begin(nav, key.goal, &filter(&key)).is_ok() {
        queue.filling = Some(SharedField {
            key,
            field: Arc::new(field),
            used: 0,
        });
    }
}

/// Fills the shared field under way with half of what is left of the
/// budget when other walkers wait too, else all of it.
fn fill_shared_field(queue: &mut RouteQueue, w: &Walkers<'_>, left: &mut u64) {
    let Some(filling) = &mut queue.filling else {
        return;
    };
    let others = queue.requests.iter().any(|r| r.key != filling.key);
    let share = if others { *left / 2 } else { *left }.max(1);
    let field = Arc::make_mut(&mut filling.field);
    let before = field.settled();
    let done = field.update(w.nav, u32::try_from(share).unwrap_or(u32::MAX));
    *left = left.saturating_sub(field.settled() - before);
    if !matches!(done, Ok(kiai_nav::SliceStatus::InProgress)) {
        let mut finished = queue.filling.take();
        if let Some(f) = &mut finished {
            f.used = w.tick;
        }
        queue.fields.extend(finished);
        if queue.fields.len() > FIELDS_KEPT {
            let oldest = (0..queue.fields.len()).min_by_key(|&k| queue.fields[k].used);
            if let Some(k) = oldest {
                queue.fields.remove(k);
            }
        }
    }
}

/// The search filter of a request.
fn filter(key: &RouteKey) -> PathFilter<'static> {
    PathFilter {
        min_clearance: f32::from_bits(key.clearance_bits),
        ..PathFilter::new(key.cost_list)
    }
}

/// Where the walker of `r` stands now, as the job to search.
fn job(w: &Walkers<'_>, r: &RouteRequest) -> Option<Job> {
    let s = &w.states[r.agent.index()];
    let (at, next) = (s.at?, s.next.or(s.at)?);
    Some(Job {
        onward: next,
        back: (r.replan && at != next).then_some(at),
        key: r.key,
    })
}

/// Follows the field's next hops from the walker's place(s).
fn from_field(w: &Walkers<'_>, r: &RouteRequest, field: &DistanceField) -> Found {
    let Some(job) = job(w, r) else {
        return Found::default();
    };
    let walk = |from: WaypointId| -> Option<Route> {
        let cost = field.cost_to_goal(w.nav, from)?;
        let mut route = vec![from];
        let mut at = from;
        while let Some(next) = field.next_hop(w.nav, at) {
            route.push(next);
            at = next;
        }
        Some((route, cost))
    };
    let onward = walk(job.onward);
    let back = job.back.and_then(walk);
    // A hop costs a few loads where a search expands a waypoint with a
    // heap operation and its links: eight hops count as one expansion.
    let hops: u64 = onward.iter().chain(&back).map(|r| r.0.len() as u64).sum();
    let expanded = hops.div_ceil(HOPS_PER_EXPANSION).max(1);
    Found {
        onward,
        back,
        expanded,
    }
}

/// Runs one round of searches, in parallel when there is more than one.
fn run_round(w: &Walkers<'_>, round: &[RouteRequest], scratch: &mut QueueScratch) -> Vec<Found> {
    let jobs: Vec<Option<Job>> = round.iter().map(|r| job(w, r)).collect();
    if scratch.queries.len() < SLOTS {
        scratch
            .queries
            .resize_with(SLOTS, || NavQuery::new(MAX_SEARCH_NODES));
    }
    let nav = w.nav;
    let one = |(job, query): (&Option<Job>, &mut NavQuery)| match job {
        Some(job) => search(nav, job, query),
        None => Found::default(),
    };
    if jobs.len() == 1 {
        jobs.iter()
            .zip(scratch.queries.iter_mut())
            .map(one)
            .collect()
    } else {
        jobs.par_iter()
            .zip(scratch.queries.par_iter_mut())
            .map(one)
            .collect()
    }
}

/// The searches of one job.
fn search(nav: &NavGraph, job: &Job, query: &mut NavQuery) -> Found {
    let filter = filter(&job.key);
    let mut expanded = 0u64;
    let mut one = |from: WaypointId| -> Option<Route> {
        if from == job.key.goal {
            return Some((vec![from], 0.0));
        }
        let result = nav.find_path(from, job.key.goal, &filter, query).ok()?;
        expanded += u64::from(result.expanded);
        result
            .is_complete()
            .then(|| (query.path().to_vec(), result.cost))
    };
    let onward = one(job.onward);
    let back = job.back.and_then(&mut one);
    Found {
        onward,
        back,
        expanded: expanded.max(1),
    }
}

/// Gives the walker of `r` what its searches found: the route (the
/// shorter of onward and back from where it stands, for a re-plan), or a
/// `RouteFailed` event.
fn settle(w: &mut Walkers<'_>, r: &RouteRequest, found: Found, events: &mut Vec<EventKind>) {
    let i = r.agent.index();
    let position = w.positions[i];
    let nav = w.nav;
    let state = &mut w.states[i];
    state.waiting = false;
    state.route.clear();
    state.route_goal = Some(r.key.goal);
    let via = |(route, cost): &Route| {
        let first = route.first().and_then(|&p| nav.pos(p));
        cost + first.map_or(f32::INFINITY, |p| p.distance(position))
    };
    let chosen = match (found.onward, found.back) {
        (onward, Some(back)) if onward.as_ref().is_none_or(|o| via(&back) < via(o)) => {
            state.next = back.0.first().copied().or(state.next);
            Some(back)
        }
        (onward, _) => onward,
    };
    let Some((route, _)) = chosen else {
        events.push(EventKind::RouteFailed {
            agent: r.agent,
            goal: r.key.goal,
        });
        return;
    };
    state.route.extend(route.iter().skip(1).rev().copied());
    if r.tick < w.tick {
        events.push(EventKind::RouteFound {
            agent: r.agent,
            goal: r.key.goal,
            waited: u32::try_from(w.tick - r.tick).unwrap_or(u32::MAX),
        });
    }
}
