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
//!
//! When the graph changed since the last stage (a door, a blocked link, a
//! waypoint switched off or on), walkers re-plan first: one walking a link
//! that closed turns back to the waypoint it came from, and one on an A*
//! route that used a closed link or waypoint, or any route when something
//! opened, plans again: on from the waypoint it walks to, or back through
//! the one it came from, whichever is shorter from where it stands.
//! Reaching the goal and finding no route are reported as events.
//!
//! Links narrower than a walker's radius (their clearance, measured against
//! the walls) are never chosen or searched. Walkers that smooth their
//! routes cut corners ([`smooth`]); walkers that walls or crowds can hold
//! up notice when they stop making progress and find another way
//! ([`stuck`]).

mod smooth;
mod stuck;

use kiai_nav::{
    CostListId, Destination, Heading, NavGraph, NavQuery, NeighbourFilter, PathFilter,
    SelectOptions, WaypointId,
};

pub use crate::data::movement::RouteMode;
pub use crate::data::nav_state::NavState;

use crate::data::{AgentId, BehaviourState, BodyMode, EventKind, Movement};
use crate::world::Replan;
use crate::world::World;

/// Largest number of waypoints one A* search may expand.
const MAX_SEARCH_NODES: u32 = 65_536;

/// Scratch memory of the navigate stage, kept by the pipeline.
#[derive(Debug, Default)]
pub(crate) struct NavScratch {
    /// The A* query every walker's search reuses.
    query: Option<NavQuery>,
    /// Per slot, what the smoothing pass found clear.
    clear: Vec<smooth::Clear>,
}

/// What one walker needs besides its state: its archetype's settings and
/// the graph.
struct Walker<'a> {
    nav: &'a NavGraph,
    route: RouteMode,
    arrive_radius: f32,
    jitter: f32,
    cost_list: CostListId,
    /// Its body's radius: narrower links are skipped.
    radius: f32,
    /// Whether it smooths its route.
    smooth: bool,
}

impl Walker<'_> {
    /// What seed 001's selections may pick from.
    fn neighbours(&self) -> NeighbourFilter<'static> {
        NeighbourFilter {
            min_clearance: self.radius,
            ..NeighbourFilter::default()
        }
    }
}

/// Chooses new `next` waypoints for walkers that reached theirs, after
/// re-planning what a graph change affected; then walkers cut corners and
/// notice when they are stuck.
pub(crate) fn run(world: &mut World, scratch: &mut NavScratch) {
    world.refresh_clearance();
    if world.nav.is_none() {
        world.replan = Default::default();
        return;
    }
    choose(world, scratch);
    smooth::run(world, &mut scratch.clear);
    stuck::run(world, &scratch.clear);
}

/// Re-plans and picks next waypoints, in agent order.
fn choose(world: &mut World, scratch: &mut NavScratch) {
    let replan = std::mem::take(&mut world.replan);
    let Some(nav) = world.nav.as_ref() else {
        return;
    };
    let query = scratch
        .query
        .get_or_insert_with(|| NavQuery::new(MAX_SEARCH_NODES));
    let mut events = Vec::new();
    let a = &mut world.agents;
    for i in 0..a.len() {
        if !a.alive[i] || a.body[i] == BodyMode::Kinematic {
            continue;
        }
        let archetype = &world.archetypes[a.archetype[i].index()];
        let Movement::WaypointWalker {
            route,
            arrive_radius,
            jitter,
            smooth,
            ..
        } = archetype.movement
        else {
            continue;
        };
        let walker = Walker {
            nav,
            route,
            arrive_radius,
            jitter,
            cost_list: archetype.cost_list.unwrap_or(CostListId(0)),
            radius: archetype.radius,
            smooth,
        };
        let id = AgentId::new(i as u32, a.generation[i]);
        let state = &mut a.nav[i];
        if !replan.is_empty() {
            let position = a.position[i];
            replan_walker(&walker, query, state, (&replan, position), id, &mut events);
        }
        let target = destination(&a.decision[i], &a.position);
        let step = Step {
            position: a.position[i],
            decision: a.decision[i].state,
            target,
        };
        advance(
            &walker,
            query,
            state,
            step,
            &mut a.mind[i].rng,
            id,
            &mut events,
        );
    }
    for kind in events {
        world.push_event(kind);
    }
}

/// Where a decision sends a walker: its target's position, else its goal.
fn destination(d: &crate::data::Decision, positions: &[glam::Vec3]) -> Option<glam::Vec3> {
    d.target
        .and_then(|t| positions.get(t.index()).copied())
        .or(d.goal)
}

/// One walker's situation this tick.
#[derive(Clone, Copy)]
struct Step {
    position: glam::Vec3,
    decision: BehaviourState,
    /// Where its decision's target stands, if it has one.
    target: Option<glam::Vec3>,
}

/// Picks the walker's next waypoint if it reached its current one.
fn advance(
    walker: &Walker<'_>,
    query: &mut NavQuery,
    state: &mut NavState,
    step: Step,
    rng: &mut crate::data::AgentRng,
    id: AgentId,
    events: &mut Vec<EventKind>,
) {
    let nav = walker.nav;
    // A walker entering the graph walks to the nearest waypoint first; one
    // that smooths its route plans on from there at once, so that it can
    // cut that corner too.
    let entering = state.at.is_none();
    if entering {
        state.at = nav.nearest_waypoint(step.position, true);
        state.next = state.at;
    }
    let reached = (entering && walker.smooth)
        || state
            .next
            .and_then(|n| nav.pos(n))
            .is_none_or(|p| p.distance(step.position) <= walker.arrive_radius);
    if !reached {
        return;
    }
    let Some(at) = state.next.or(state.at) else {
        return;
    };
    let moved = state.at != Some(at);
    state.at = Some(at);
    let target_waypoint = step.target.and_then(|p| nav.nearest_waypoint(p, true));
    let heading = match step.decision {
        BehaviourState::Chase => Some(Heading::Toward),
        BehaviourState::Evade => Some(Heading::Away),
        BehaviourState::RandomWalk => None,
    };
    let filter = walker.neighbours();
    let chosen = match (heading, target_waypoint) {
        (Some(Heading::Toward), Some(goal)) if goal == at => {
            if moved {
                events.push(EventKind::Arrived {
                    agent: id,
                    waypoint: at,
                });
            }
            None
        }
        (Some(Heading::Toward), Some(goal)) if walker.route == RouteMode::AStar => {
            next_on_route(walker, query, state, at, goal, id, events)
        }
        (Some(heading), Some(goal)) => {
            let mut options = SelectOptions::new(heading, walker.cost_list);
            options.jitter = walker.jitter;
            options.filter = walker.neighbours();
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
    let chosen = match chosen {
        Some(hop) if entering && walker.smooth && hop != at => {
            state.route.push(hop);
            Some(at)
        }
        other => other,
    };
    state.next = match chosen {
        Some(next) => Some(next),
        // Nothing qualifies (at the goal, or a broken map): chasers hold,
        // others take a random neighbour.
        None if heading == Some(Heading::Toward) && target_waypoint == Some(at) => Some(at),
        None => nav.select_random_neighbour(at, &filter, rng).or(Some(at)),
    };
}

/// Re-plans a walker standing at `position` after a graph change (see the
/// module docs).
fn replan_walker(
    walker: &Walker<'_>,
    query: &mut NavQuery,
    state: &mut NavState,
    (replan, position): (&Replan, glam::Vec3),
    id: AgentId,
    events: &mut Vec<EventKind>,
) {
    let nav = walker.nav;
    let (Some(at), Some(next)) = (state.at, state.next) else {
        return;
    };
    if at != next && !nav.is_walkable(at, next) {
        // The way ahead closed: back to where it came from, and plan anew
        // there.
        state.next = Some(at);
        state.route.clear();
        state.route_goal = None;
        return;
    }
    let Some(goal) = state.route_goal else {
        return;
    };
    if !(replan.all || route_touches(state, replan)) {
        return;
    }
    state.route.clear();
    let nav = walker.nav;
    let via = |w: WaypointId| nav.pos(w).map_or(f32::INFINITY, |p| p.distance(position));
    let onward = plan(walker, query, state, next, goal).map(|cost| cost + via(next));
    let onward_route = std::mem::take(&mut state.route);
    let back = (at != next)
        .then(|| plan(walker, query, state, at, goal))
        .flatten()
        .map(|cost| cost + via(at));
    match (onward, back) {
        (_, Some(b)) if onward.is_none_or(|o| b < o) => state.next = Some(at),
        (Some(_), _) => state.route = onward_route,
        _ => events.push(EventKind::RouteFailed { agent: id, goal }),
    }
    state.route_goal = Some(goal);
}

/// Whether the walker's way (its current link and the rest of its route)
/// uses a link or waypoint that closed.
fn route_touches(state: &NavState, replan: &Replan) -> bool {
    let ahead = state
        .at
        .into_iter()
        .chain(state.next)
        .chain(state.route.iter().rev().copied());
    let way: Vec<WaypointId> = ahead.collect();
    way.iter().any(|w| replan.waypoints.contains(w))
        || way
            .windows(2)
            .any(|pair| replan.links.contains(&(pair[0], pair[1])))
}

/// Plans an A* route from `from` to `goal` into `state.route` (without
/// `from`, first hop last). Returns its cost (world units × multiplier),
/// or `None` when there is no complete route.
fn plan(
    walker: &Walker<'_>,
    query: &mut NavQuery,
    state: &mut NavState,
    from: WaypointId,
    goal: WaypointId,
) -> Option<f32> {
    state.route.clear();
    state.route_goal = Some(goal);
    if from == goal {
        return Some(0.0);
    }
    let mut filter = PathFilter::new(walker.cost_list);
    filter.min_clearance = walker.radius;
    let found = walker
        .nav
        .find_path(from, goal, &filter, query)
        .ok()
        .filter(|r| r.is_complete())?;
    state
        .route
        .extend(query.path().iter().skip(1).rev().copied());
    Some(found.cost)
}

/// The next hop of an A* route from `at` to `goal`, planning it if needed
/// (a `RouteFailed` event when there is none).
fn next_on_route(
    walker: &Walker<'_>,
    query: &mut NavQuery,
    state: &mut NavState,
    at: WaypointId,
    goal: WaypointId,
    id: AgentId,
    events: &mut Vec<EventKind>,
) -> Option<WaypointId> {
    if (state.route_goal != Some(goal) || state.route.is_empty())
        && plan(walker, query, state, at, goal).is_none()
    {
        events.push(EventKind::RouteFailed { agent: id, goal });
    }
    state.route.pop()
}
