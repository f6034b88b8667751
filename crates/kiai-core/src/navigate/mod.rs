//! Waypoint following (article 001): agents whose movement is
//! [`Movement::WaypointWalker`] walk the world's waypoint graph, choosing
//! their next waypoint whenever they reach one.
//!
//! Random walkers pick a random neighbour (article 001's fallback); chasers head
//! toward the waypoint nearest their target, evaders away from the one
//! nearest their threat, either by article 001's local selection with the
//! archetype's cost list or, in [`RouteMode::AStar`], along an A* route. An
//! agent whose selection finds nothing (a broken map) falls back to a random
//! neighbour. This stage runs in agent order, so it is deterministic at any
//! thread count; walking to the chosen waypoint is part of the parallel
//! steering.
//!
//! A* routes come from a queue ([`queue`]): a walker that needs one asks,
//! and each tick the stage serves the oldest requests within the world's
//! search budget (searches in parallel, walkers sent to one goal sharing a
//! distance field). A walker whose request waits walks toward its goal by
//! article 001's selection meanwhile and takes its route when it comes.
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

mod flight;
mod queue;
mod smooth;
mod stuck;

use kiai_nav::{
    CostListId, Destination, Heading, NavGraph, NeighbourFilter, SelectOptions, WaypointId,
};

pub use crate::data::movement::RouteMode;
pub use crate::data::nav_state::NavState;

use crate::data::route_queue::{RouteKey, RouteRequest};
use crate::data::{AgentId, BehaviourState, BodyMode, EventKind, Movement, RouteQueue};
use crate::world::Replan;
use crate::world::World;

/// Scratch memory of the navigate stage, kept by the pipeline.
#[derive(Debug, Default)]
pub(crate) struct NavScratch {
    /// Walkers that asked for a route this tick, to move on once the
    /// queue has been served.
    asked: Vec<Asked>,
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
    /// What article 001's selections may pick from.
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

/// Re-plans and picks next waypoints, in agent order: walkers that need a
/// route ask for one, the queue is served, then they move on.
fn choose(world: &mut World, scratch: &mut NavScratch) {
    let replan = std::mem::take(&mut world.replan);
    if !replan.is_empty() {
        world.routes.graph_changed();
    }
    let Some(nav) = world.nav.as_ref() else {
        return;
    };
    let tick = world.tick;
    let mut events = Vec::new();
    scratch.asked.clear();
    let a = &mut world.agents;
    for i in 0..a.len() {
        if !a.alive[i] || a.body[i] == BodyMode::Kinematic {
            continue;
        }
        let Some(walker) = Walker::of(nav, &world.archetypes[a.archetype[i].index()]) else {
            continue;
        };
        let id = AgentId::new(i as u32, a.generation[i]);
        let state = &mut a.nav[i];
        let mut asking = Asking {
            routes: &mut world.routes,
            tick,
            id,
            queued: state.waiting,
        };
        if !replan.is_empty() {
            replan_walker(&walker, state, &replan, &mut asking);
        }
        let step = Step {
            position: a.position[i],
            decision: a.decision[i].state,
            target: destination(&a.decision[i], &a.position),
        };
        if let Some(asked) = advance(
            &walker,
            state,
            step,
            &mut a.mind[i].rng,
            &mut asking,
            &mut events,
        ) {
            scratch.asked.push(asked);
        }
    }
    // Requests of agents gone, or no longer waiting (they changed their
    // mind), go.
    world
        .routes
        .requests
        .retain(|r| a.is_alive(r.agent) && a.nav[r.agent.index()].waiting);
    let mut walkers = queue::Walkers {
        nav,
        states: &mut a.nav,
        positions: &a.position,
        tick,
    };
    queue::serve(&mut world.routes, &mut walkers, &mut events);
    for asked in &scratch.asked {
        let i = asked.slot as usize;
        let Some(walker) = Walker::of(nav, &world.archetypes[a.archetype[i].index()]) else {
            continue;
        };
        move_on(&walker, &mut a.nav[i], asked, &mut a.mind[i].rng);
    }
    // The world puts each tick's events in agent order when it ends.
    for kind in events {
        world.push_event(kind);
    }
}

impl<'a> Walker<'a> {
    /// The walker an archetype makes, if it walks the graph.
    fn of(nav: &'a NavGraph, archetype: &crate::data::Archetype) -> Option<Self> {
        let Movement::WaypointWalker {
            route,
            arrive_radius,
            jitter,
            smooth,
            ..
        } = archetype.movement
        else {
            return None;
        };
        Some(Walker {
            nav,
            route,
            arrive_radius,
            jitter,
            cost_list: archetype.cost_list.unwrap_or(CostListId(0)),
            radius: archetype.radius,
            smooth,
        })
    }

    /// What this walker asks for when it needs a route to `goal`.
    fn key(&self, goal: WaypointId) -> RouteKey {
        RouteKey {
            goal,
            cost_list: self.cost_list,
            clearance_bits: self.radius.to_bits(),
        }
    }

    /// Article 001's options for heading toward or away.
    fn select_options(&self, heading: Heading) -> SelectOptions<'static> {
        let mut options = SelectOptions::new(heading, self.cost_list);
        options.jitter = self.jitter;
        options.filter = self.neighbours();
        options
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

/// What a walker needs to ask the route queue.
struct Asking<'q> {
    routes: &'q mut RouteQueue,
    tick: u64,
    id: AgentId,
    /// Whether the queue may hold a request of this walker: it was waiting
    /// when the tick began (requests of walkers that stopped waiting go
    /// only when all have moved) or it asked since.
    queued: bool,
}

impl Asking<'_> {
    /// Asks for a route to `key.goal`; the walker waits for it.
    fn ask(&mut self, state: &mut NavState, key: RouteKey, replan: bool) {
        state.route.clear();
        state.route_goal = Some(key.goal);
        let request = RouteRequest {
            tick: self.tick,
            agent: self.id,
            key,
            replan,
        };
        self.routes.ask(request, self.queued);
        self.queued = true;
        state.waiting = true;
    }
}

/// A walker at a waypoint that asked for a route this tick: it picks its
/// next waypoint once the queue has been served.
#[derive(Clone, Copy, Debug)]
struct Asked {
    slot: u32,
    at: WaypointId,
    goal: WaypointId,
    /// It entered the graph this tick.
    entering: bool,
}

/// Picks the walker's next waypoint if it reached its current one; returns
/// what it asked of the route queue when it must wait for the queue.
fn advance(
    walker: &Walker<'_>,
    state: &mut NavState,
    step: Step,
    rng: &mut crate::data::AgentRng,
    asking: &mut Asking<'_>,
    events: &mut Vec<EventKind>,
) -> Option<Asked> {
    let nav = walker.nav;
    let id = asking.id;
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
        return None;
    }
    let at = state.next.or(state.at)?;
    let moved = state.at != Some(at);
    state.at = Some(at);
    let target_waypoint = step.target.and_then(|p| nav.nearest_waypoint(p, true));
    let heading = match step.decision {
        BehaviourState::Chase => Some(Heading::Toward),
        BehaviourState::Evade => Some(Heading::Away),
        BehaviourState::RandomWalk => None,
    };
    let chosen = match (heading, target_waypoint) {
        (Some(Heading::Toward), Some(goal)) if goal == at => {
            if moved {
                events.push(EventKind::Arrived {
                    agent: id,
                    waypoint: at,
                });
            }
            state.waiting = false;
            None
        }
        (Some(Heading::Toward), Some(goal)) if walker.route == RouteMode::AStar => {
            if state.route_goal == Some(goal) && !state.route.is_empty() && !state.waiting {
                state.route.pop()
            } else {
                // A walker still waiting for this goal keeps its place in
                // the queue; one that asked for another goal changes it.
                if !(state.waiting && state.route_goal == Some(goal)) {
                    asking.ask(state, walker.key(goal), false);
                }
                return Some(Asked {
                    slot: id.index() as u32,
                    at,
                    goal,
                    entering,
                });
            }
        }
        (Some(heading), Some(goal)) => {
            forget_route(state);
            nav.select_neighbour(
                at,
                Destination::Waypoint(goal),
                &walker.select_options(heading),
                rng,
            )
        }
        _ => {
            forget_route(state);
            nav.select_random_neighbour(at, &walker.neighbours(), rng)
        }
    };
    settle_next(
        walker,
        state,
        (at, chosen, entering),
        heading,
        target_waypoint,
        rng,
    );
    None
}

/// Forgets the walker's route and any request for one.
fn forget_route(state: &mut NavState) {
    state.route.clear();
    state.route_goal = None;
    state.waiting = false;
}

/// Sets the walker's next waypoint from what it `chosen` at `at` (a
/// walker entering the graph that smooths keeps the hop for later, to cut
/// that corner); when nothing qualifies (at the goal, or a broken map)
/// chasers hold and others take a random neighbour.
fn settle_next(
    walker: &Walker<'_>,
    state: &mut NavState,
    (at, chosen, entering): (WaypointId, Option<WaypointId>, bool),
    heading: Option<Heading>,
    target_waypoint: Option<WaypointId>,
    rng: &mut crate::data::AgentRng,
) {
    let chosen = match chosen {
        Some(hop) if entering && walker.smooth && hop != at => {
            state.route.push(hop);
            Some(at)
        }
        other => other,
    };
    state.next = match chosen {
        Some(next) => Some(next),
        None if heading == Some(Heading::Toward) && target_waypoint == Some(at) => Some(at),
        None => walker
            .nav
            .select_random_neighbour(at, &walker.neighbours(), rng)
            .or(Some(at)),
    };
}

/// Moves on a walker that asked for a route this tick, once the queue was
/// served: along its route if it came (none if there is none), else a step
/// toward the goal by article 001's selection while it waits.
fn move_on(
    walker: &Walker<'_>,
    state: &mut NavState,
    asked: &Asked,
    rng: &mut crate::data::AgentRng,
) {
    let chosen = if state.waiting {
        walker.nav.select_neighbour(
            asked.at,
            Destination::Waypoint(asked.goal),
            &walker.select_options(Heading::Toward),
            rng,
        )
    } else {
        state.route.pop()
    };
    let toward = Some(Heading::Toward);
    settle_next(
        walker,
        state,
        (asked.at, chosen, asked.entering),
        toward,
        Some(asked.goal),
        rng,
    );
}

/// Re-plans a walker after a graph change (see the module docs): one
/// walking a link that closed turns back at once; one whose route the
/// change touches asks the queue for a new one.
fn replan_walker(
    walker: &Walker<'_>,
    state: &mut NavState,
    replan: &Replan,
    asking: &mut Asking<'_>,
) {
    let nav = walker.nav;
    let (Some(at), Some(next)) = (state.at, state.next) else {
        return;
    };
    if at != next && !nav.is_walkable(at, next) {
        // The way ahead closed: back to where it came from, and plan anew
        // there.
        state.next = Some(at);
        forget_route(state);
        return;
    }
    let Some(goal) = state.route_goal else {
        return;
    };
    // A waiting request is served on the changed graph anyway.
    if state.waiting || !(replan.all || route_touches(state, replan)) {
        return;
    }
    asking.ask(state, walker.key(goal), true);
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
