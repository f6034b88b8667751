//! Route smoothing while walking (string pulling): a walker that smooths
//! its route skips the waypoint it walks to when the straight way to the
//! one after it is clear of walls with the walker's radius and the link
//! between them is wide enough, and on the last leg of its route walks
//! straight to its destination (its chase target or goal) once that way is
//! clear.
//!
//! A walker pushed off its link (by a crowd) so far that the waypoint it
//! walks to is hidden behind a corner follows the link instead: it walks to
//! a point [`LOOK_AHEAD`] units ahead of its place along the link, or
//! nearer, the first of them it can walk to straight.
//!
//! A walker also moves on to the waypoint after its next one when it
//! stands beyond its next one already (a crowd kept it from touching it),
//! instead of turning back to touch it.
//!
//! The clear-way tests (a few per walker and tick) run in parallel and
//! only read; the route changes are applied afterwards in agent order.

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::data::walls::Sweep;
use crate::data::{BehaviourState, BodyMode, Movement, RayScratch, Walls};
use crate::par::PAR_MIN;
use crate::world::World;

use super::destination;

/// How far ahead along its link a walker pushed off it aims, world units.
const LOOK_AHEAD: f32 = 2.0;

/// What one walker found clear this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Clear {
    /// Where its decision sends it, when the straight way there is clear.
    direct: Option<Vec3>,
    /// The straight way to the waypoint after its next one is clear.
    hop: bool,
    /// The point on its link it follows, when its next waypoint is hidden.
    follow: Option<Vec3>,
    /// It can walk straight to where it walks now (the stuck check
    /// counts only walkers that cannot).
    pub(super) sees_way: bool,
}

/// Cuts the corners of every smoothing walker's route (see the module
/// docs).
pub(super) fn run(world: &mut World, clear: &mut Vec<Clear>) {
    let smooths = |m: &Movement| matches!(m, Movement::WaypointWalker { smooth: true, .. });
    clear.clear();
    if !world.archetypes.iter().any(|a| smooths(&a.movement)) {
        return;
    }
    let Some(nav) = world.nav.as_ref() else {
        return;
    };
    let walls = world.occluders.as_ref().map(|o| &o.walls);
    let a = &world.agents;
    let archetypes = &world.archetypes;
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
            let state = &a.nav[i];
            c.direct = destination(d, &a.position)
                .filter(|_| d.state == BehaviourState::Chase && state.route.is_empty())
                .filter(|&to| way.is_clear(to, rays));
            c.hop = match (state.next, state.route.last()) {
                (Some(next), Some(&hop)) if c.direct.is_none() => {
                    nav.is_walkable(next, hop)
                        && nav
                            .link_clearance(next, hop)
                            .is_some_and(|w| w >= way.radius)
                        && (way.passed(nav.pos(next), nav.pos(hop))
                            || nav.pos(hop).is_some_and(|p| way.is_clear(p, rays)))
                }
                _ => false,
            };
            let next = state.next.and_then(|n| nav.pos(n));
            let sees_next = next.is_some_and(|p| way.is_clear(p, rays));
            if c.direct.is_none() && !c.hop && !sees_next {
                let from = state.at.and_then(|w| nav.pos(w));
                c.follow = from.zip(next).and_then(|link| way.follow(link, rays));
            }
            c.sees_way = c.direct.is_some() || c.hop || sees_next || c.follow.is_some();
        });
    let a = &mut world.agents;
    for (state, c) in a.nav.iter_mut().zip(clear.iter()) {
        state.direct = c.direct.or(c.follow);
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
    /// Whether the walker stands beyond waypoint `next` on the side of
    /// `hop` (it passed it, in a crowd that kept it from touching it).
    fn passed(&self, next: Option<Vec3>, hop: Option<Vec3>) -> bool {
        let (Some(next), Some(hop)) = (next, hop) else {
            return false;
        };
        let (out, me) = (hop - next, self.from - next);
        out.x * me.x + out.z * me.z > 0.0
    }

    /// The first point the walker can walk to straight among those
    /// [`LOOK_AHEAD`], half of it and nothing ahead of its place along the
    /// link `from -> to`.
    fn follow(&self, (from, to): (Vec3, Vec3), rays: &mut RayScratch) -> Option<Vec3> {
        let link = to - from;
        let length = link.length();
        let dir = link.try_normalize()?;
        let along = (self.from - from).dot(dir).clamp(0.0, length);
        [LOOK_AHEAD, LOOK_AHEAD * 0.5, 0.0]
            .into_iter()
            .map(|ahead| from + dir * (along + ahead).min(length))
            .find(|&p| self.is_clear(p, rays))
    }

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
