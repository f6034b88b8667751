//! Searches under way: a route request's A* search (two for a re-plan
//! mid-link: onward, then back) run a slice per tick in one of the queue's
//! slots until it is done, so that one long search never pushes a tick past
//! its budget.

use kiai_nav::{NavGraph, NavQuery, PathFilter, SliceStatus, WaypointId};

use crate::data::NavState;
use crate::data::route_queue::{Flight, Route, RouteKey, RouteRequest};

/// What a request's searches found.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// From where the walker was heading.
    pub(super) onward: Option<Route>,
    /// From where it came from (re-plans mid-link only).
    pub(super) back: Option<Route>,
}

/// The search filter of a request.
pub(super) fn filter(key: &RouteKey) -> PathFilter<'static> {
    PathFilter {
        min_clearance: f32::from_bits(key.clearance_bits),
        ..PathFilter::new(key.cost_list)
    }
}

/// Where the walker of `r` stands now, as the waypoints to search from:
/// the one it walks to, and for a re-plan mid-link the one it came from.
pub(super) fn starts(
    state: &NavState,
    r: &RouteRequest,
) -> Option<(WaypointId, Option<WaypointId>)> {
    let (at, next) = (state.at?, state.next.or(state.at)?);
    Some((next, (r.replan && at != next).then_some(at)))
}

/// Begins the searches for `request` from where its walker stands; `None`
/// when the walker is not on the graph.
pub(super) fn take_off(
    nav: &NavGraph,
    query: &mut NavQuery,
    request: RouteRequest,
    state: &NavState,
) -> Option<Flight> {
    let (onward, back) = starts(state, &request)?;
    let mut flight = Flight {
        request,
        onward,
        back,
        onward_found: None,
        back_found: back.is_none().then_some(None),
        expanded: 0,
    };
    flight.onward_found = begin(nav, query, &request.key, onward);
    if flight.onward_found.is_some() {
        begin_back(nav, query, &mut flight);
    }
    Some(flight)
}

/// Starts a search from `from`; `Some(result)` when it needs none (the
/// goal itself, or a start that cannot be searched from).
fn begin(
    nav: &NavGraph,
    query: &mut NavQuery,
    key: &RouteKey,
    from: WaypointId,
) -> Option<Option<Route>> {
    if from == key.goal {
        return Some(Some((vec![from], 0.0)));
    }
    query
        .begin(nav, from, key.goal, &filter(key))
        .err()
        .map(|_| None)
}

/// Starts the back search, if the flight has one still to do.
fn begin_back(nav: &NavGraph, query: &mut NavQuery, flight: &mut Flight) {
    if flight.back_found.is_none()
        && let Some(back) = flight.back
    {
        flight.back_found = begin(nav, query, &flight.request.key, back);
    }
}

/// Records the result of the search that just ended and starts the next.
fn landed_one(nav: &NavGraph, query: &mut NavQuery, flight: &mut Flight, result: Option<Route>) {
    if flight.onward_found.is_none() {
        flight.onward_found = Some(result);
        begin_back(nav, query, flight);
    } else {
        flight.back_found = Some(result);
    }
}

/// Expands at most `allowance` waypoints (>= 1) of the flight's searches;
/// returns the waypoints expanded and, when the flight is done, what it
/// found.
pub(super) fn fly(
    nav: &NavGraph,
    query: &mut NavQuery,
    flight: &mut Flight,
    allowance: u64,
) -> (u64, Option<Found>) {
    let mut spent = 0;
    loop {
        if let (Some(onward), Some(back)) = (&mut flight.onward_found, &mut flight.back_found) {
            let found = Found {
                onward: onward.take(),
                back: back.take(),
            };
            return (spent, Some(found));
        }
        let left = allowance.saturating_sub(spent);
        if left == 0 {
            return (spent, None);
        }
        let before = query.expanded();
        let status = query.update(nav, u32::try_from(left).unwrap_or(u32::MAX));
        let expanded = u64::from(query.expanded().saturating_sub(before));
        // A search always expands at least its start; count one so that a
        // slice that failed still spends budget.
        spent += expanded.max(1);
        flight.expanded += expanded;
        match status {
            Ok(SliceStatus::InProgress) => {}
            Ok(SliceStatus::Done) => {
                let result = query
                    .finish(nav)
                    .ok()
                    .filter(|r| r.is_complete())
                    .map(|r| (query.path().to_vec(), r.cost));
                landed_one(nav, query, flight, result);
            }
            // The graph is not the one the search began on (the queue
            // drops its flights when the graph changes, so this is not
            // expected): no route.
            Err(_) => landed_one(nav, query, flight, None),
        }
    }
}
