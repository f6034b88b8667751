//! Waypoint following (seed 001): agents whose movement is
//! [`Movement::WaypointWalker`] walk the world's waypoint graph, choosing
//! their next waypoint whenever they reach one.
//!
//! Random walkers pick a random neighbour (seed 001's fallback); chasers head
//! toward the waypoint nearest their target, evaders away from the one
//! nearest their threat, either by seed 001's local selection with the
//! archetype's cost list or, in [`RouteMode::AStar`], along an A* route. An
//! agent whose selection finds nothing (a broken map) falls back to a random
//! neighbour. This stage runs sequentially in agent order, so it is
//! deterministic at any thread count; walking to the chosen waypoint is part
//! of the parallel steering.

use kiai_nav::{
    CostListId, Destination, Heading, NavGraph, NavQuery, NeighbourFilter, PathFilter,
    SelectOptions, WaypointId,
};

pub use crate::data::movement::RouteMode;
pub use crate::data::nav_state::NavState;

use crate::data::{BehaviourState, Movement};
use crate::world::World;

/// Largest number of waypoints one A* search may expand.
const MAX_SEARCH_NODES: u32 = 65_536;

/// Chooses new `next` waypoints for walkers that reached theirs.
pub(crate) fn run(world: &mut World, query: &mut Option<NavQuery>) {
    let Some(nav) = world.nav.as_ref() else {
        return;
    };
    let query = query.get_or_insert_with(|| NavQuery::new(MAX_SEARCH_NODES));
    let a = &mut world.agents;
    for i in 0..a.len() {
        let archetype = &world.archetypes[a.archetype[i].index()];
        let Movement::WaypointWalker {
            route,
            arrive_radius,
            jitter,
            ..
        } = archetype.movement
        else {
            continue;
        };
        let cost_list = archetype.cost_list.unwrap_or(CostListId(0));
        let position = a.position[i];
        let state = &mut a.nav[i];
        if state.at.is_none() {
            state.at = nav.nearest_waypoint(position, true);
            state.next = state.at;
        }
        let reached = state
            .next
            .and_then(|n| nav.pos(n))
            .is_none_or(|p| p.distance(position) <= arrive_radius);
        if !reached {
            continue;
        }
        let Some(at) = state.next.or(state.at) else {
            continue;
        };
        state.at = Some(at);
        let decision = a.decision[i];
        let target_waypoint = decision
            .target
            .and_then(|t| a.position.get(t.index()))
            .and_then(|p| nav.nearest_waypoint(*p, true));
        let rng = &mut a.mind[i].rng;
        let heading = match decision.state {
            BehaviourState::Chase => Some(Heading::Toward),
            BehaviourState::Evade => Some(Heading::Away),
            BehaviourState::RandomWalk => None,
        };
        let filter = NeighbourFilter::default();
        let chosen = match (heading, target_waypoint) {
            (Some(Heading::Toward), Some(goal)) if goal == at => None,
            (Some(Heading::Toward), Some(goal)) if route == RouteMode::AStar => {
                next_on_route(nav, query, state, at, goal, cost_list)
            }
            (Some(heading), Some(goal)) => {
                let mut options = SelectOptions::new(heading, cost_list);
                options.jitter = jitter;
                state.route.clear();
                state.route_goal = None;
                nav.select_neighbour(at, Destination::Waypoint(goal), &options, rng)
            }
            _ => {
                state.route.clear();
                state.route_goal = None;
                nav.select_random_neighbour(at, &filter, rng)
            }
        };
        state.next = match chosen {
            Some(next) => Some(next),
            // Nothing qualifies (at the goal, or a broken map): chasers hold,
            // others take a random neighbour.
            None if heading == Some(Heading::Toward) && target_waypoint == Some(at) => Some(at),
            None => nav.select_random_neighbour(at, &filter, rng).or(Some(at)),
        };
    }
}

/// The next hop of an A* route from `at` to `goal`, planning it if needed.
fn next_on_route(
    nav: &NavGraph,
    query: &mut NavQuery,
    state: &mut NavState,
    at: WaypointId,
    goal: WaypointId,
    cost_list: CostListId,
) -> Option<WaypointId> {
    if state.route_goal != Some(goal) || state.route.is_empty() {
        state.route.clear();
        state.route_goal = Some(goal);
        let found = nav
            .find_path(at, goal, &PathFilter::new(cost_list), query)
            .ok()
            .filter(|r| r.is_complete());
        if found.is_some() {
            // Skip the start; store the rest with the first hop last.
            state
                .route
                .extend(query.path().iter().skip(1).rev().copied());
        }
    }
    state.route.pop()
}
