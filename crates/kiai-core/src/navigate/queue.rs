//! Serving the route queue within the tick's search budget.
//!
//! Requests are served oldest first, then by agent slot. Walkers sent to
//! one goal share a [`DistanceField`] (one reverse Dijkstra, filled a slice
//! per tick); the others get an A* search each ([`super::flight`]), up to
//! [`SLOTS`](crate::data::route_queue::SLOTS) under way at once, each run a slice per tick until done: the
//! budget is shared evenly among the searches under way, in rounds run in
//! parallel, so a tick never expands more than its budget however long a
//! search is. Which searches run and how far depends only on the waypoints
//! they expanded, so the result is the same at any thread count. A
//! walker's route starts where it stands when its search begins (the
//! waypoint it walks to, or, for a re-plan after a graph change, that one
//! or the one it came from, whichever is shorter); a walker that walked on
//! meanwhile joins the route where it is.

use std::sync::Arc;

use glam::Vec3;
use kiai_nav::{DistanceField, NavGraph, WaypointId};
use rayon::prelude::*;

use super::flight::{self, Found, filter, starts};
use crate::data::route_queue::{Route, RouteKey, RouteRequest, SharedField, Slot};
use crate::data::{AgentId, EventKind, NavState, RouteQueue};

/// Requests for one goal that make the queue fill a shared field instead
/// of searching for each.
const SHARE_FROM: usize = 2;

/// Finished fields kept for shared goals (the least recently used goes).
const FIELDS_KEPT: usize = 8;

/// Route hops read off a shared field that count as one expanded
/// waypoint against the budget.
const HOPS_PER_EXPANSION: u64 = 8;

/// What serving needs of the world besides the queue.
pub(super) struct Walkers<'a> {
    pub(super) nav: &'a NavGraph,
    pub(super) states: &'a mut [NavState],
    pub(super) positions: &'a [Vec3],
    pub(super) tick: u64,
}

/// Serves the queue within the budget (every request is of a living,
/// waiting walker); events for routes found late and routes that do not
/// exist go to `events`.
pub(super) fn serve(queue: &mut RouteQueue, w: &mut Walkers<'_>, events: &mut Vec<EventKind>) {
    queue.searches.ensure_slots();
    ground_stale_flights(queue);
    if queue.requests.is_empty() {
        return;
    }
    let mut left = queue.budget.map_or(u64::MAX, u64::from);
    start_shared_field(queue, w.nav);
    fill_shared_field(queue, w, &mut left);
    let requests = std::mem::take(&mut queue.requests);
    let mut waiting = Vec::with_capacity(requests.len());
    let mut to_search = Vec::new();
    for r in requests {
        let field = queue.fields.iter_mut().find(|f| f.key == r.key);
        if let Some(f) = field.filter(|_| left > 0) {
            f.used = w.tick;
            let (found, expanded) = from_field(w, &r, &f.field);
            left = left.saturating_sub(expanded);
            if settle(w, &r, found, events) {
                continue;
            }
        }
        // Its field is being filled, or the budget went on routes read off
        // fields, or it is being searched for: it waits.
        let filling = queue.filling.as_ref().is_some_and(|f| f.key == r.key);
        let flying = queue.searches.flights().any(|f| f.request.agent == r.agent);
        if !filling && !flying && left > 0 {
            to_search.push(r);
        }
        waiting.push(r);
    }
    queue.requests = waiting;
    let served = search(queue, w, to_search, left, events);
    if !served.is_empty() {
        queue.requests.retain(|r| !served.contains(&r.agent));
    }
}

/// Drops searches whose request went (the walker stopped waiting, left, or
/// asked for another goal) or changed (a re-plan now).
fn ground_stale_flights(queue: &mut RouteQueue) {
    for slot in &mut queue.searches.slots {
        let stale = slot.flight.as_ref().is_some_and(|f| {
            !queue.requests.iter().any(|r| {
                r.agent == f.request.agent && r.key == f.request.key && r.replan == f.request.replan
            })
        });
        if stale {
            slot.flight = None;
        }
    }
}

/// Runs the searches under way and starts new ones for `to_search` (in
/// queue order) in free slots, in rounds that share what is `left` of the
/// budget evenly among the searches under way, until it is spent or
/// nothing is left to search; settles the requests whose searches are done
/// and returns their agents.
fn search(
    queue: &mut RouteQueue,
    w: &mut Walkers<'_>,
    to_search: Vec<RouteRequest>,
    mut left: u64,
    events: &mut Vec<EventKind>,
) -> Vec<AgentId> {
    let mut next = to_search.into_iter();
    let mut served = Vec::new();
    while left > 0 {
        for slot in queue
            .searches
            .slots
            .iter_mut()
            .filter(|s| s.flight.is_none())
        {
            slot.flight = next.by_ref().find_map(|r| {
                flight::take_off(w.nav, &mut slot.query, r, &w.states[r.agent.index()])
            });
        }
        let flying = queue.searches.flights().count() as u64;
        if flying == 0 {
            break;
        }
        let share = (left / flying).max(1);
        let mut landed = Vec::new();
        let results = round(w.nav, &mut queue.searches.slots, share);
        for (slot, (spent, found)) in queue.searches.slots.iter_mut().zip(results) {
            left = left.saturating_sub(spent);
            if let Some(found) = found {
                landed.extend(slot.flight.take().map(|f| (f.request, found)));
            }
        }
        landed.sort_by_key(|(r, _)| (r.tick, r.agent.index()));
        for (r, found) in landed {
            if settle(w, &r, found, events) {
                served.push(r.agent);
            }
        }
    }
    served
}

/// One round: every search under way expands up to `share` waypoints, in
/// parallel; per slot, what it expanded and, when done, what it found.
fn round(nav: &NavGraph, slots: &mut [Slot], share: u64) -> Vec<(u64, Option<Found>)> {
    let one = |slot: &mut Slot| match &mut slot.flight {
        Some(f) => flight::fly(nav, &mut slot.query, f, share),
        None => (0, None),
    };
    if slots.iter().filter(|s| s.flight.is_some()).count() > 1 {
        slots.par_iter_mut().map(one).collect()
    } else {
        slots.iter_mut().map(one).collect()
    }
}

/// Begins a shared field for the first goal (in queue order) that enough
/// waiting walkers share, when none is being filled.
fn start_shared_field(queue: &mut RouteQueue, nav: &NavGraph) {
    if queue.filling.is_some() {
        return;
    }
    // Keys sorted, to count each one's requests by binary search: no map
    // to fill every tick.
    let mut keys: Vec<RouteKey> = queue.requests.iter().map(|r| r.key).collect();
    keys.sort_unstable();
    let count = |k: &RouteKey| {
        let first = keys.partition_point(|x| x < k);
        keys[first..].partition_point(|x| x == k)
    };
    let shared = queue
        .requests
        .iter()
        .map(|r| r.key)
        .find(|k| !queue.fields.iter().any(|f| f.key == *k) && count(k) >= SHARE_FROM);
    let Some(key) = shared else {
        return;
    };
    let mut field = queue.searches.spare_field.take().unwrap_or_default();
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
                let dropped = queue.fields.remove(k);
                queue.searches.recycle(dropped);
            }
        }
    }
}

/// Follows the field's next hops from the walker's place(s); also returns
/// what that counts against the budget.
fn from_field(w: &Walkers<'_>, r: &RouteRequest, field: &DistanceField) -> (Found, u64) {
    let Some((onward, back)) = starts(&w.states[r.agent.index()], r) else {
        return (Found::default(), 1);
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
    let found = Found {
        onward: walk(onward),
        back: back.and_then(walk),
    };
    // A hop costs a few loads where a search expands a waypoint with a
    // heap operation and its links: eight hops count as one expansion.
    let hops: u64 = found
        .onward
        .iter()
        .chain(&found.back)
        .map(|r| r.0.len() as u64)
        .sum();
    (found, hops.div_ceil(HOPS_PER_EXPANSION).max(1))
}

/// Gives the walker of `r` what its searches found: the route (the
/// shorter of onward and back from where it stands, for a re-plan), or a
/// `RouteFailed` event. A walker that walked on while its search ran joins
/// the route at the waypoint it walks to, or turns back to the one it came
/// from if only that is on it; if neither is, the route is of no use where
/// it stands and it keeps waiting (false: it is searched for again).
fn settle(
    w: &mut Walkers<'_>,
    r: &RouteRequest,
    found: Found,
    events: &mut Vec<EventKind>,
) -> bool {
    let i = r.agent.index();
    let position = w.positions[i];
    let nav = w.nav;
    let state = &mut w.states[i];
    let via = |(route, cost): &Route| {
        let first = route.first().and_then(|&p| nav.pos(p));
        cost + first.map_or(f32::INFINITY, |p| p.distance(position))
    };
    let chosen = match (found.onward, found.back) {
        (onward, Some(back)) if onward.as_ref().is_none_or(|o| via(&back) < via(o)) => Some(back),
        (onward, _) => onward,
    };
    let joined = chosen.as_ref().map(|(route, _)| {
        let on =
            |p: Option<WaypointId>| p.and_then(|p| Some((route.iter().position(|&q| q == p)?, p)));
        on(state.next).or_else(|| on(state.at))
    });
    if joined == Some(None) {
        return false;
    }
    state.waiting = false;
    state.route.clear();
    state.route_goal = Some(r.key.goal);
    let (Some((route, _)), Some(Some((k, join)))) = (chosen, joined) else {
        events.push(EventKind::RouteFailed {
            agent: r.agent,
            goal: r.key.goal,
        });
        return true;
    };
    state.next = Some(join);
    state.route.extend(route[k + 1..].iter().rev().copied());
    if r.tick < w.tick {
        events.push(EventKind::RouteFound {
            agent: r.agent,
            goal: r.key.goal,
            waited: u32::try_from(w.tick - r.tick).unwrap_or(u32::MAX),
        });
    }
    true
}
