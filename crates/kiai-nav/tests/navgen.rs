//! Waypoints generated from walls: property tests on random layouts
//! (mazes, rooms with doors, open fields with pillars).
//!
//! Stated figures: coverage distance = the spacing; route pairs at least
//! 2 x spacing apart; graph route <= 1.15 x the brute-force shortest path
//! around the inflated walls, median <= 1.05 x.

use glam::Vec2;
use kiai_nav::navgen::{
    GenWall, GeneratedNet, NavGenInput, generate, measure, regenerate_local, zone_around,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A wall of height 3 (a door when `door`).
fn wall(a: (f32, f32), b: (f32, f32), door: bool) -> GenWall {
    GenWall {
        from: Vec2::new(a.0, a.1),
        to: Vec2::new(b.0, b.1),
        height: 3.0,
        door,
    }
}

/// An input over `0..size` with `walls`, radius 0.4, spacing 4.
fn input(size: f32, walls: Vec<GenWall>) -> NavGenInput {
    NavGenInput {
        min: Vec2::ZERO,
        max: Vec2::splat(size),
        walls,
        fixed: Vec::new(),
        radius: 0.4,
        spacing: 4.0,
    }
}

/// Square pillars (four walls each) at random spots of a 40 x 40 field.
fn pillars(seed: u64) -> NavGenInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut walls = Vec::new();
    for _ in 0..8 {
        let (x, z) = (
            rng.random_range(4.0..34.0f32),
            rng.random_range(4.0..34.0f32),
        );
        let s = rng.random_range(0.5..3.0f32);
        let c = [(x, z), (x + s, z), (x + s, z + s), (x, z + s)];
        for i in 0..4 {
            walls.push(wall(c[i], c[(i + 1) % 4], false));
        }
    }
    if rng.random_range(0..2) == 0 {
        walls.push(wall((2.0, 20.0), (20.0, 22.0), false));
    }
    input(40.0, walls)
}

/// 3 x 3 rooms of side 12, each inner wall with a doorway of width 2
/// holding a door (closed when `closed`... doors are always generated
/// open).
fn rooms(seed: u64) -> NavGenInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut walls = Vec::new();
    for k in 1..3 {
        let line = k as f32 * 12.0;
        for cell in 0..3 {
            let (a, b) = (cell as f32 * 12.0, cell as f32 * 12.0 + 12.0);
            let gap = rng.random_range(a + 2.0..b - 4.0);
            walls.push(wall((line, a), (line, gap), false));
            walls.push(wall((line, gap), (line, gap + 2.0), true));
            walls.push(wall((line, gap + 2.0), (line, b), false));
            walls.push(wall((a, line), (gap, line), false));
            walls.push(wall((gap, line), (gap + 2.0, line), true));
            walls.push(wall((gap + 2.0, line), (b, line), false));
        }
    }
    input(36.0, walls)
}

/// A 5 x 5 maze of cells of side 7 (random spanning tree; walls where
/// there is no passage).
fn maze(seed: u64) -> NavGenInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = 5usize;
    let cell = 7.0f32;
    let mut seen = vec![false; n * n];
    let mut open = std::collections::BTreeSet::new();
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(&c) = stack.last() {
        let (x, z) = (c % n, c / n);
        let mut next = Vec::new();
        if x > 0 {
            next.push(c - 1);
        }
        if x + 1 < n {
            next.push(c + 1);
        }
        if z > 0 {
            next.push(c - n);
        }
        if z + 1 < n {
            next.push(c + n);
        }
        next.retain(|&m| !seen[m]);
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let m = next[rng.random_range(0..next.len())];
        seen[m] = true;
        open.insert((c.min(m), c.max(m)));
        stack.push(m);
    }
    let mut walls = Vec::new();
    for z in 0..n {
        for x in 0..n {
            let c = z * n + x;
            let (fx, fz) = (x as f32 * cell, z as f32 * cell);
            if x + 1 < n && !open.contains(&(c, c + 1)) {
                walls.push(wall((fx + cell, fz), (fx + cell, fz + cell), false));
            }
            if z + 1 < n && !open.contains(&(c, c + n)) {
                walls.push(wall((fx, fz + cell), (fx + cell, fz + cell), false));
            }
        }
    }
    input(n as f32 * cell, walls)
}

/// Distance from `p` to the segment `a..b`.
fn point_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// Distance between two segments, by fine sampling of the first (an
/// independent check of the generator's exact geometry).
fn sampled_distance(p: Vec2, q: Vec2, a: Vec2, b: Vec2) -> f32 {
    (0..=200)
        .map(|i| point_segment(p.lerp(q, i as f32 / 200.0), a, b))
        .fold(f32::INFINITY, f32::min)
}

/// Checks what every layout must satisfy.
fn check(input: &NavGenInput) -> Result<GeneratedNet, TestCaseError> {
    let net = generate(input).map_err(|e| TestCaseError::fail(e.to_string()))?;
    for l in &net.links {
        let (p, q) = (net.points[l.a as usize], net.points[l.b as usize]);
        for w in input.walls.iter().filter(|w| w.blocks()) {
            let d = sampled_distance(p, q, w.from, w.to);
            prop_assert!(d >= input.radius - 0.01, "link {p}..{q} is {d} from a wall");
        }
    }
    let quality = measure(input, &net, 9).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(quality.coverage, 1.0);
    prop_assert_eq!(quality.unreached, 0);
    let (median, max) = (
        quality.median().unwrap_or(1.0),
        quality.max().unwrap_or(1.0),
    );
    prop_assert!(max <= 1.15, "max route ratio {max}");
    prop_assert!(median <= 1.05, "median route ratio {median}");
    Ok(net)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn pillars_fields_are_covered_and_routes_near_shortest(seed in 0u64..10_000) {
        check(&pillars(seed))?;
    }

    #[test]
    fn mazes_are_covered_and_routes_near_shortest(seed in 0u64..10_000) {
        check(&maze(seed))?;
    }

    #[test]
    fn rooms_with_doors_route_through_doors_and_closed_doors_block(seed in 0u64..10_000) {
        let input = rooms(seed);
        let net = check(&input)?;
        // Closing every door (the runtime blocks the links crossing it):
        // no route leaves the first room.
        let mut reach = vec![false; net.points.len()];
        let start = (0..net.points.len()).find(|&i| net.points[i].x < 12.0 && net.points[i].y < 12.0);
        let Some(start) = start else { return Err(TestCaseError::fail("no waypoint in room 0")) };
        reach[start] = true;
        let mut stack = vec![start];
        while let Some(n) = stack.pop() {
            for l in net.links.iter().filter(|l| !l.door) {
                for (x, y) in [(l.a, l.b), (l.b, l.a)] {
                    if x as usize == n && !reach[y as usize] {
                        reach[y as usize] = true;
                        stack.push(y as usize);
                    }
                }
            }
        }
        for (i, p) in net.points.iter().enumerate() {
            prop_assert!(!reach[i] || (p.x < 12.0 && p.y < 12.0), "{p} reached with doors closed");
        }
        prop_assert!(net.links.iter().any(|l| l.door), "no link through a door");
    }
}

#[test]
fn generation_is_deterministic() {
    let input = maze(5);
    assert_eq!(generate(&input), generate(&input));
}

#[test]
fn bad_input_is_refused_not_panicked() {
    let mut bad = input(10.0, Vec::new());
    bad.spacing = 0.0;
    assert!(generate(&bad).is_err());
    let mut bad = input(0.5, Vec::new());
    bad.radius = 1.0;
    assert!(generate(&bad).is_err());
    let mut bad = input(10.0, Vec::new());
    bad.min.x = f32::NAN;
    assert!(generate(&bad).is_err());
}

/// Moving one wall changes only waypoints within `local_reach` of it.
#[test]
fn a_moved_wall_changes_only_its_neighbourhood() -> Result<(), Box<dyn std::error::Error>> {
    for seed in 0..6 {
        let before = pillars(seed);
        let old = generate(&before)?;
        let mut after = before.clone();
        let moved = after.walls.len() / 2;
        let old_wall = after.walls[moved];
        after.walls[moved].from += Vec2::new(1.5, 0.5);
        after.walls[moved].to += Vec2::new(1.5, 0.5);
        let new_wall = after.walls[moved];
        let zone = zone_around([old_wall.from, old_wall.to, new_wall.from, new_wall.to]);
        let local = regenerate_local(&after, &old, zone)?;
        let reach = after.local_reach();
        let near = |p: Vec2| {
            point_segment(p, old_wall.from, old_wall.to).min(point_segment(
                p,
                new_wall.from,
                new_wall.to,
            )) <= reach
        };
        for net in [&local, &generate(&after)?] {
            let added = net.points.iter().filter(|p| !old.points.contains(p));
            let removed = old.points.iter().filter(|p| !net.points.contains(p));
            for p in added.chain(removed) {
                assert!(
                    near(*p),
                    "seed {seed}: {p} changed, farther than {reach} from the wall"
                );
            }
        }
    }
    Ok(())
}
