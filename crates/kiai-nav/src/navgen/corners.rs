//! The convex corners of the inflated walls: where shortest routes bend.
//!
//! Wall ends closer than [`JOIN`] are one junction. Around a junction the
//! walls leave free sectors; a sector wider than a half turn is a convex
//! corner of the walls inflated by the radius, and gets points on its
//! outer arc, at most 45 degrees apart, far enough out that the straight
//! lines between neighbouring points stay clear of the rounded wall end.

use std::collections::BTreeMap;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

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
        let r = reach(FRAC_PI_4);
        out.extend((0..8).map(|i| pos + Vec2::from_angle(i as f32 * FRAC_PI_4) * r));
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
        let n = (arc / FRAC_PI_4).ceil().max(1.0) as usize;
        let step = arc / n as f32;
        let r = reach(step.max(1e-3));
        for j in 0..=n {
            let angle = start + FRAC_PI_2 + step * j as f32;
            out.push(pos + Vec2::from_angle(angle) * r);
        }
    }
    out
}
