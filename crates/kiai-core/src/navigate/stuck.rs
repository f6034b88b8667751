//! Stuck walkers: a walker that walls or crowds can hold up (the world has
//! walls, or its archetype avoids others) and that made no progress toward
//! where it walks for [`STUCK_SECONDS`] enters the graph again (plans from the nearest
//! waypoint, or takes a random neighbour there (article 001's fallback) when
//! it was already heading for it, with a `Stuck` event.
//!
//! Progress is this tick's velocity toward the point it walks to: under a
//! tenth of its speed is none. Walkers within their arrive radius of that
//! point are arriving, not stuck, and a smoothing walker that sees its way
//! and whose last velocity local avoidance changed by a quarter of its
//! speed or more is waiting for others (a queue at a door), not stuck.

use glam::Vec3;

use crate::data::{AgentId, BodyMode, EventKind, Movement, NavState};
use crate::world::World;

/// Seconds without progress after which a walker counts as stuck.
pub(crate) const STUCK_SECONDS: f32 = 4.0;

/// The share of its speed a walker must make toward its point to progress.
const PROGRESS: f32 = 0.1;

/// Counts every walker's ticks without progress and unsticks those that
/// reached [`STUCK_SECONDS`], in agent order.
pub(super) fn run(world: &mut World, clear: &[super::smooth::Clear]) {
    let Some(nav) = world.nav.as_ref() else {
        return;
    };
    let walls = world
        .occluders
        .as_ref()
        .is_some_and(|o| o.walls.enabled_walls().next().is_some());
    let limit = (STUCK_SECONDS / world.config.tick_seconds.max(1e-6))
        .ceil()
        .clamp(1.0, f32::from(u16::MAX)) as u16;
    let mut events = Vec::new();
    let a = &mut world.agents;
    for i in 0..a.len() {
        let archetype = &world.archetypes[a.archetype[i].index()];
        let Movement::WaypointWalker {
            speed,
            arrive_radius,
            ..
        } = archetype.movement
        else {
            continue;
        };
        if !a.alive[i]
            || a.body[i] == BodyMode::Kinematic
            || !(walls || archetype.avoidance.is_some())
        {
            continue;
        }
        let state = &mut a.nav[i];
        let (position, velocity) = (a.position[i], a.velocity[i]);
        let waiting = clear.get(i).is_some_and(|c| c.sees_way)
            && a.desired_velocity[i].distance(a.preferred_velocity[i]) >= 0.25 * speed;
        if waiting || progresses(state, nav, (position, velocity), (speed, arrive_radius)) {
            state.stalled = 0;
            continue;
        }
        state.stalled = state.stalled.saturating_add(1);
        if state.stalled < limit {
            continue;
        }
        state.stalled = 0;
        if let Some(waypoint) = state.next {
            events.push(EventKind::Stuck {
                agent: AgentId::new(i as u32, a.generation[i]),
                waypoint,
            });
        }
        let filter = kiai_nav::NeighbourFilter {
            min_clearance: archetype.radius,
            ..kiai_nav::NeighbourFilter::default()
        };
        let Some(nearest) = nav.nearest_waypoint(position, true) else {
            continue;
        };
        state.direct = None;
        state.route.clear();
        if state.next == Some(nearest) {
            state.next = nav
                .select_random_neighbour(nearest, &filter, &mut a.mind[i].rng)
                .or(Some(nearest));
            state.at = Some(nearest);
        } else {
            // Enter the graph again: the navigate stage plans from the
            // nearest waypoint next tick.
            state.at = None;
            state.next = None;
        }
    }
    for kind in events {
        world.push_event(kind);
    }
}

/// Whether a walker moving at `velocity` progresses toward the point it
/// walks to (or is arriving there).
fn progresses(
    state: &NavState,
    nav: &kiai_nav::NavGraph,
    (position, velocity): (Vec3, Vec3),
    (speed, arrive_radius): (f32, f32),
) -> bool {
    let Some(point) = state.heading_point(nav) else {
        return true;
    };
    let mut to = point - position;
    to.y = 0.0;
    let distance = to.length();
    if distance <= arrive_radius || speed.is_nan() || speed <= 0.0 {
        return true;
    }
    velocity.dot(to / distance) >= PROGRESS * speed
}
