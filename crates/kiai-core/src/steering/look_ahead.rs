//! Wall look-ahead: an agent heading for a wall turns along it before it
//! touches (a feeler the length of one second's movement, swept with the
//! agent's body against the wall grid).

use glam::{Vec2, Vec3};

use crate::data::walls::Sweep;
use crate::data::{RayScratch, Walls};

/// How far ahead the feeler reaches, in seconds of movement.
pub(crate) const LOOK_AHEAD_SECONDS: f32 = 1.0;

/// The velocity an agent of `radius` at `position` wanting `velocity`
/// (world units per second) takes among `walls`: unchanged when its body
/// can move freely for [`LOOK_AHEAD_SECONDS`]; otherwise the part heading
/// into the first wall it would touch is taken away, the more the nearer
/// the wall (all of it at touching distance), and the speed kept, so the
/// agent curves along the wall. Head-on it turns left.
pub(crate) fn look_ahead(
    walls: &Walls,
    (position, velocity): (Vec3, Vec3),
    radius: f32,
    scratch: &mut RayScratch,
) -> Vec3 {
    let heading = Vec2::new(velocity.x, velocity.z);
    let speed = heading.length();
    if speed.is_nan() || speed <= 0.0 {
        return velocity;
    }
    let ahead = position + velocity * LOOK_AHEAD_SECONDS;
    let Some(contact) = walls.sweep_circle(&Sweep::body(position, ahead, radius), scratch) else {
        return velocity;
    };
    let into = heading.dot(contact.normal);
    if into >= 0.0 {
        return velocity;
    }
    let turned = heading - contact.normal * into * (1.0 - contact.t);
    let along = if turned.length() > speed * 1e-3 {
        turned
    } else {
        contact.normal.perp()
    };
    let out = along.normalize_or_zero() * speed;
    Vec3::new(out.x, velocity.y, out.y)
}
