//! The convex corners of the inflated walls: where shortest routes bend.
//!
//! Wall ends closer than [`JOIN`] are one junction. Around a junction the
//! walls leave free sectors; a sector wider than a half turn is a convex
//! corner of the walls inflated by the radius. Its outer arc is cut into
//! equal steps of at most a quarter turn and each step gets one point on
//! its bisector, far enough out that the corner polygon circumscribes the
//! rounded wall end at radius + [`CORNER_MARGIN`]: the lines between
//! neighbouring points, and along a wall's sides, stay clear of it.

use std::collections::BTreeMap;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

/// Widest angle one corner point stands for, radians (a quarter turn).
const MAX_STEP: f32 = FRAC_PI_2;

use glam::Vec2;

use super::walls::Obstacles;

/// Wall ends this close (world units) form one junction.
pub const JOIN: f32 = 1e-3;

/// Extra distance (world units) corner points keep beyond the radius.
pub const CORNER_MARGIN: f32 = 0.05;

/// The corner points of `obstacles`' walls that are walkable, in a
/// deterministic order (by junction position, then angle).
pub(super) fn corner_points(obstacles: &Obstacles) -> Vec<Vec2> {
    let mut junctions: BTreeMap<(i64, i64), (Vec2, Vec<f32>)> = BTreeMap::new();
    for &(a, b) in obstacles.segments() {
        if a.distance(b) <= JOIN {
            // A post: free all round.
            junctions.entry(key(a)).or_insert((a, Vec::new()));
            continue;
        }
        for (end, other) in [(a, b), (b, a)] {
            let d = other - end;
            let entry = junctions.entry(key(end)).or_insert((end, Vec::new()));
            entry.1.push(d.y.atan2(d.x));
        }
    }
    let mut points = Vec::new();
    for (pos, mut angles) in junctions.into_values() {
        angles.sort_by(f32::total_cmp);
        for p in arc_points(pos, &angles, obstacles.radius()) {
            if obstacles.placeable(p, CORNER_MARGIN * 0.5) {
                points.push(p);
            }
        }
    }
    points
}

/// The junction key: the position snapped to [`JOIN`].
fn key(p: Vec2) -> (i64, i64) {
    ((p.x / JOIN).round() as i64, (p.y / JOIN).round() as i64)
}

/// Points on the outer arcs of the sectors wider than a half turn around
/// a junction at `pos` whose walls leave at `angles` (radians, sorted).
fn arc_points(pos: Vec2, angles: &[f32], radius: f32) -> Vec<Vec2> {
    let mut out = Vec::new();
    let reach = |step: f32| (radius + CORNER_MARGIN) / (step * 0.5).cos();
    if angles.is_empty() {
        let r = reach(MAX_STEP);
        out.extend((0..4).map(|i| pos + Vec2::from_angle(FRAC_PI_4 + i as f32 * MAX_STEP) * r));
        return out;
    }
    for (i, &start) in angles.iter().enumerate() {
        let end = if i + 1 < angles.len() {
            angles[i + 1]
        } else {
            angles[0] + TAU
        };
        let gap = end - start;
        if gap <= PI + 1e-3 {
            continue;
        }
        let arc = gap - PI;
        let n = (arc / MAX_STEP).ceil().max(1.0) as usize;
        let step = arc / n as f32;
        let r = reach(step.max(1e-3));
        for j in 0..n {
            let angle = start + FRAC_PI_2 + step * (j as f32 + 0.5);
            out.push(pos + Vec2::from_angle(angle) * r);
        }
    }
    out
}
