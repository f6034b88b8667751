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

use glam::Vec3;
use kiai_nav::{
    CostListId, Destination, Heading, NavGraph, NavQuery, NeighbourFilter, PathFilter,
    SelectOptions, WaypointId,
};

use crate::archetype::Movement;
use crate::behaviour::BehaviourState;
use crate::world::World;

/// How waypoint walkers choose their way to a destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RouteMode {
    /// Seed 001's local choice at every waypoint (greedy, cheap, can be
    /// fooled by dead ends; the random-neighbour fallback unsticks it).
    #[default]
    Select,
    /// An A* route to the destination waypoint, re-planned when the
    /// destination changes (toward only; evading uses seed 001's selection).
    AStar,
}

/// Where a waypoint walker is on the graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NavState {
    /// The waypoint it last reached.
    pub at: Option<WaypointId>,
    /// The waypoint it walks to.
    pub next: Option<WaypointId>,
    /// The rest of its A* route after `next` (first hop last).
    pub route: Vec<WaypointId>,
    /// The destination the route leads to.
    pub route_goal: Option<WaypointId>,
}

/// Largest number of waypoints one A* search may expand.
const MAX_SEARCH_NODES: u32 = 65_536;

/// Chooses new `next` waypoints for walkers that reached theirs.
pub(crate) fn navigate(world: &mut World, query: &mut Option<NavQuery>) {
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

/// The position of `agent`'s next waypoint, if it walks the graph.
pub(crate) fn next_waypoint_pos(world: &World, state: &NavState) -> Option<Vec3> {
    world.nav.as_ref()?.pos(state.next?)
}
