//! Route smoothing while walking (string pulling): a walker that smooths
//! its route skips the waypoint it walks to when the straight way to the
//! one after it is clear of walls with the walker's radius and the link
//! between them is wide enough, and walks straight to its destination (its
//! chase target or goal) once that way is clear.
//!
//! The clear-way tests (one or two per walker and tick) run in parallel and
//! only read; the route changes are applied afterwards in agent order.

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::data::walls::Sweep;
use crate::data::{BehaviourState, BodyMode, Movement, RayScratch, Walls};
use crate::par::PAR_MIN;
use crate::world::World;

use super::destination;

/// What one walker found clear this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Clear {
    /// Where its decision sends it, when the straight way there is clear.
    direct: Option<Vec3>,
    /// The straight way to the waypoint after its next one is clear.
    hop: bool,
}

/// Cuts the corners of every smoothing walker's route (see the module
/// docs).
pub(super) fn run(world: &mut World, clear: &mut Vec<Clear>) {
    let smooths = |m: &Movement| matches!(m, Movement::WaypointWalker { smooth: true, .. });
    if !world.archetypes.iter().any(|a| smooths(&a.movement)) {
        return;
    }
    let Some(nav) = world.nav.as_ref() else {
        return;
    };
    let walls = world.occluders.as_ref().map(|o| &o.walls);
    let a = &world.agents;
    let archetypes = &world.archetypes;
    clear.clear();
    clear.resize(a.len(), Clear::default());
    clear
        .par_iter_mut()
        .enumerate()
        .with_min_len(PAR_MIN)
        .for_each_init(RayScratch::new, |rays, (i, c)| {
            let archetype = &archetypes[a.archetype[i].index()];
            if !a.alive[i] || a.body[i] == BodyMode::Kinematic || !smooths(&archetype.movement) {
                return;
            }
            let way = Way {
                walls,
                from: a.position[i],
                radius: archetype.radius,
            };
            let d = &a.decision[i];
            c.direct = destination(d, &a.position)
                .filter(|_| d.state == BehaviourState::Chase)
                .filter(|&to| way.is_clear(to, rays));
            let state = &a.nav[i];
            c.hop = match (state.next, state.route.last()) {
                (Some(next), Some(&hop)) if c.direct.is_none() => {
                    nav.is_walkable(next, hop)
                        && nav
                            .link_clearance(next, hop)
                            .is_some_and(|w| w >= way.radius)
                        && nav.pos(hop).is_some_and(|p| way.is_clear(p, rays))
                }
                _ => false,
            };
        });
    let a = &mut world.agents;
    for (state, c) in a.nav.iter_mut().zip(clear.iter()) {
        state.direct = c.direct;
        if c.hop {
            state.at = state.next;
            state.next = state.route.pop();
        }
    }
}

/// A straight way from a walker's position, for its body.
struct Way<'a> {
    walls: Option<&'a Walls>,
    from: Vec3,
    radius: f32,
}

impl Way<'_> {
    /// Whether the walker's body can walk straight to `to`.
    fn is_clear(&self, to: Vec3, rays: &mut RayScratch) -> bool {
        let Some(walls) = self.walls else {
            return true;
        };
        let xz = |p: Vec3| Vec2::new(p.x, p.z);
        let floor = self.from.y + Sweep::STEP_HEIGHT;
        walls.clear_of((xz(self.from), xz(to)), self.radius, floor, rays)
    }
}
