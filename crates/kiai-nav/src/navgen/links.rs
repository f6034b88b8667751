//! Links: every pair of points in clear sight within the link range, then
//! pruned where a detour through a common neighbour is hardly longer (the
//! long link adds size, not route quality).

use std::collections::BTreeSet;

use glam::Vec2;

use super::buckets::Buckets;
use super::walls::Obstacles;

/// A link is dropped when a route through one common neighbour is at
/// most this fraction longer.
const PRUNE: f32 = 0.01;

/// Two-way links `(a, b)`, `a < b`, between `points` in clear sight within
/// `range` (world units), sorted: every pair with at least one `active`
/// end, leaving out pairs `skip` refuses.
pub(super) fn link_points(
    obstacles: &Obstacles,
    points: &[Vec2],
    range: f32,
    active: impl Fn(usize) -> bool,
    skip: impl Fn(usize, usize) -> bool,
) -> Vec<(u32, u32)> {
    let mut index = Buckets::new(range);
    for (i, &p) in points.iter().enumerate() {
        index.insert(i as u32, p);
    }
    let mut links = Vec::new();
    for (i, &p) in points.iter().enumerate().filter(|&(i, _)| active(i)) {
        for j in index.near(p, range) {
            let (a, b) = (i.min(j as usize) as u32, i.max(j as usize) as u32);
            let done = (j as usize) < i && active(j as usize);
            if a == b || done || skip(a as usize, b as usize) {
                continue;
            }
            let q = points[j as usize];
            if q.distance(p) <= range && p.distance(q) > 1e-4 && obstacles.clear(p, q) {
                links.push((a, b));
            }
        }
    }
    prune(points, links)
}

/// Drops links with a nearly-as-short detour through a common neighbour,
/// longest first; returns the rest sorted.
fn prune(points: &[Vec2], links: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let mut adj: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); points.len()];
    for &(a, b) in &links {
        adj[a as usize].insert(b);
        adj[b as usize].insert(a);
    }
    let len = |a: u32, b: u32| points[a as usize].distance(points[b as usize]);
    let mut order = links;
    order.sort_by(|x, y| len(y.0, y.1).total_cmp(&len(x.0, x.1)).then(x.cmp(y)));
    let mut kept = Vec::new();
    for (a, c) in order {
        let direct = len(a, c);
        let detour = adj[a as usize]
            .intersection(&adj[c as usize])
            .any(|&b| len(a, b) + len(b, c) <= direct * (1.0 + PRUNE));
        if detour {
            adj[a as usize].remove(&c);
            adj[c as usize].remove(&a);
        } else {
            kept.push((a, c));
        }
    }
    kept.sort_unstable();
    kept
}
