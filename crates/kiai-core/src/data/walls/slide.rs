//! Moving a body among walls: collide and slide ([`Walls::slide`]), the
//! integrate stage's containment and what a game's controller may use for
//! Driven bodies.

use glam::{Vec2, Vec3};

use super::sweep::Sweep;
use super::{RayScratch, Walls};

/// Most contacts one movement slides along (a corner takes two).
const MAX_SLIDES: usize = 4;

/// How far (world units) a sliding body stops short of the wall it
/// touches, so that rounding never puts it inside.
const SKIN: f32 = 1e-3;

impl Walls {
    /// Where the body of `sweep` ends when it moves by `sweep.delta`
    /// among the standing walls: it goes straight until it touches a
    /// wall, stops just short of it ([`SKIN`] = 1 mm) and slides along it
    /// with what is left of the movement minus its part into the wall, at
    /// most [`MAX_SLIDES`] times.
    ///
    /// The guarantee, whatever the rounding: the centre's path from
    /// `sweep.from` to the result never crosses a wall taller than the
    /// floor (the exact test of [`Walls::blocks`]), and the result is no
    /// closer to a wall than the radius less 1 mm unless the body started
    /// closer, in which case it got no closer than it was. When a slide
    /// would break that, the body stays where it is.
    pub fn slide(&self, sweep: &Sweep, scratch: &mut RayScratch) -> Vec2 {
        let from = sweep.from;
        if !from.is_finite() || !sweep.delta.is_finite() || sweep.delta == Vec2::ZERO {
            return from;
        }
        let mut pos = from;
        let mut rest = sweep.delta;
        let mut touched = false;
        for _ in 0..MAX_SLIDES {
            let len = rest.length();
            if len <= 0.0 {
                break;
            }
            let step = Sweep {
                from: pos,
                delta: rest,
                ..*sweep
            };
            let Some(c) = self.sweep_circle(&step, scratch) else {
                pos += rest;
                break;
            };
            touched = true;
            let travel = (c.t * len - SKIN).max(0.0) / len;
            pos += rest * travel;
            let left = rest * (1.0 - c.t);
            rest = left - c.normal * left.dot(c.normal).min(0.0);
        }
        if self.keeps_guarantee(sweep, pos, touched, scratch) {
            pos
        } else {
            from
        }
    }

    /// Whether ending at `to` keeps [`Walls::slide`]'s guarantee.
    fn keeps_guarantee(
        &self,
        sweep: &Sweep,
        to: Vec2,
        touched: bool,
        scratch: &mut RayScratch,
    ) -> bool {
        let lift = |p: Vec2| Vec3::new(p.x, sweep.floor.max(0.0), p.y);
        if self.blocks(lift(sweep.from), lift(to), scratch) {
            return false;
        }
        if !touched {
            return true;
        }
        let r = sweep.radius.max(Sweep::MIN_RADIUS);
        let reach = r + sweep.delta.length();
        let before = self.nearest_distance(sweep.from, reach, sweep.floor, scratch);
        let after = self.nearest_distance(to, reach, sweep.floor, scratch);
        after >= (r - SKIN).min(before)
    }
}
