//! Waypoint generation: kiai-nav's generator (inflated-wall corners,
//! thinned coverage grid, pruned sight links) against a uniform grid with
//! 8-neighbour links (the plain way to cover a map) of the same coverage,
//! on a 500 x 500 town of 2,400 wall segments (400 buildings of four walls
//! with a doorway, 400 free-standing walls), radius 0.5, spacing 8.
//!
//! Coverage is measured the same way for both (a walkable sample sees a
//! waypoint within 8 units along a clear line). The generated net must
//! cover every sample; the grid's spacing is the largest of 8, 7, …, 1
//! units that covers as much ([`uniform_grid_covering`]), found before
//! timing. The note gives both
//! graphs' sizes and coverage, and the grid at the generator's spacing.

use kiai_core::glam::Vec2;
use kiai_nav::navgen::{
    GenWall, GeneratedNet, NavGenInput, generate, measure, regenerate_local, uniform_grid,
    uniform_grid_covering, zone_around,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Effort, Scenario, medians_interleaved};

/// The coverage of `net` on `input`'s town.
fn measure_coverage(input: &NavGenInput, net: &GeneratedNet) -> Result<f32, String> {
    kiai_nav::navgen::measure_coverage(input, net, 1)
        .map(|q| q.coverage)
        .map_err(|e| e.to_string())
}

/// A wall of height 3 from `a` to `b`.
fn wall(a: Vec2, b: Vec2) -> GenWall {
    GenWall {
        from: a,
        to: b,
        height: 3.0,
        door: false,
    }
}

/// The town of `blocks` x `blocks` blocks of 25 x 25: per block one
/// building (a rectangle whose south wall has a 2-unit doorway) and one
/// free-standing wall.
pub fn town(seed: u64, blocks: u32) -> NavGenInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut walls = Vec::new();
    for bz in 0..blocks {
        for bx in 0..blocks {
            let o = Vec2::new(bx as f32 * 25.0, bz as f32 * 25.0);
            let (w, h) = (
                rng.random_range(8.0..14.0f32),
                rng.random_range(8.0..14.0f32),
            );
            let c = o + Vec2::new(2.0, 2.0);
            let door = rng.random_range(1.0..w - 3.0);
            walls.push(wall(c, c + Vec2::new(door, 0.0)));
            walls.push(wall(c + Vec2::new(door + 2.0, 0.0), c + Vec2::new(w, 0.0)));
            walls.push(wall(c + Vec2::new(w, 0.0), c + Vec2::new(w, h)));
            walls.push(wall(c + Vec2::new(w, h), c + Vec2::new(0.0, h)));
            walls.push(wall(c + Vec2::new(0.0, h), c));
            let p = o + Vec2::new(rng.random_range(4.0..20.0), rng.random_range(19.0..23.0));
            let angle = rng.random_range(0.0..std::f32::consts::PI);
            walls.push(wall(
                p,
                p + Vec2::from_angle(angle) * rng.random_range(2.0..6.0),
            ));
        }
    }
    NavGenInput {
        min: Vec2::ZERO,
        max: Vec2::splat(blocks as f32 * 25.0),
        walls,
        fixed: Vec::new(),
        radius: 0.5,
        spacing: 8.0,
    }
}

/// The generation scenario.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let input = town(30, 20);
    let net = generate(&input).map_err(|e| e.to_string())?;
    let ours = measure_coverage(&input, &net)?;
    let same_spacing = uniform_grid(&input).map_err(|e| e.to_string())?;
    let covering = uniform_grid_covering(&input, ours, 1).map_err(|e| e.to_string())?;
    let (grid, theirs) = (&covering.net, covering.quality.coverage);
    let grid_input = NavGenInput {
        spacing: covering.spacing,
        ..input.clone()
    };
    let tried = covering
        .tried
        .iter()
        .map(|(s, c)| format!("{s} covers {c:.4}"))
        .collect::<Vec<_>>()
        .join(", ");
    let reps = if effort.quick { 2 } else { 7 };
    let times = medians_interleaved(reps, 2, |k| {
        let n = if k == 0 {
            generate(&input).map(|n| n.points.len())
        } else {
            uniform_grid(&grid_input).map(|n| n.points.len())
        };
        std::hint::black_box(n.ok());
    });
    // Route ratios on an 8 x 8-block corner of the town (the brute-force
    // reference is quadratic in the corners).
    let small = town(30, 8);
    let small_grid_input = NavGenInput {
        spacing: grid_input.spacing,
        ..small.clone()
    };
    let (small_net, small_grid) = (
        generate(&small).map_err(|e| e.to_string())?,
        uniform_grid(&small_grid_input).map_err(|e| e.to_string())?,
    );
    let ratio = |n| -> Result<String, String> {
        let q = measure(&small, n, 1).map_err(|e| e.to_string())?;
        Ok(format!(
            "median {:.3} max {:.3}",
            q.median().unwrap_or(f32::NAN),
            q.max().unwrap_or(f32::NAN)
        ))
    };
    let (ours_ratio, grid_ratio) = (ratio(&small_net)?, ratio(&small_grid)?);
    if ours < 0.999 {
        return Err(format!("navgen covers only {ours:.4} of the town"));
    }
    let local = local_scenario(&input, &net, reps)?;
    let village = village_scenario(reps)?;
    Ok(vec![
        Scenario {
            name: "navgen/town/2400-walls".to_owned(),
            ours_ms: times[0],
            peer: format!(
                "uniform grid of the same coverage (spacing {})",
                grid_input.spacing
            ),
            peer_ms: times[1],
            note: format!(
                "generated: {} waypoints, {} two-way links, coverage {ours:.4}; uniform grid at \
                 spacing {}: {} waypoints, {} links, coverage {theirs:.4} (within {} units along \
                 a clear line); coarser grids: {tried}; at the generator's spacing the grid has \
                 {} waypoints and {} links; route ratio on 8 x 8 blocks: generated \
                 {ours_ratio}, uniform grid {grid_ratio}",
                net.points.len(),
                net.links.len(),
                grid_input.spacing,
                grid.points.len(),
                grid.links.len(),
                input.cover_distance(),
                same_spacing.points.len(),
                same_spacing.links.len(),
            ),
        },
        local,
        village,
    ])
}

/// The generated village (content/examples/village_generated.ron): one
/// house wall's end dragged 3 units, regenerated around it as the editor
/// does each frame of the drag, against generating the village again.
fn village_scenario(reps: usize) -> Result<Scenario, String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../content/examples/village_generated.ron"
    );
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let def = kiai_content::parse(&text, path).map_err(|e| format!("{path}: {e:?}"))?;
    let (radius, spacing) = {
        let r = kiai_content::navgen::default_radius(&def);
        (r, kiai_content::navgen::default_spacing(r))
    };
    let input =
        kiai_content::navgen::gen_input(&def, radius, spacing).map_err(|e| e.to_string())?;
    let net = generate(&input).map_err(|e| e.to_string())?;
    let mut moved = input.clone();
    let old = moved.walls[0];
    moved.walls[0].to += Vec2::new(3.0, 0.0);
    let new = moved.walls[0];
    let times = local_against_all(
        &moved,
        &net,
        zone_around([old.from, old.to, new.from, new.to]),
        reps,
    );
    Ok(Scenario {
        name: "navgen/village/one-wall-dragged".to_owned(),
        ours_ms: times[0],
        peer: "generate it all again".to_owned(),
        peer_ms: times[1],
        note: format!(
            "content/examples/village_generated.ron ({} walls, {} waypoints): a house wall's end \
             moved 3 units and the net regenerated around it, what the editor does each frame \
             of a wall drag (one frame: 16.7 ms)",
            input.walls.len(),
            net.points.len()
        ),
    })
}

/// One wall of the town moved by (1.5, 0.5): [`regenerate_local`] (what
/// the editor runs while a wall is dragged) against generating it all.
fn local_scenario(
    input: &NavGenInput,
    net: &GeneratedNet,
    reps: usize,
) -> Result<Scenario, String> {
    let mut moved = input.clone();
    let i = moved.walls.len() / 2;
    let old = moved.walls[i];
    moved.walls[i].from += Vec2::new(1.5, 0.5);
    moved.walls[i].to += Vec2::new(1.5, 0.5);
    let new = moved.walls[i];
    let zone = zone_around([old.from, old.to, new.from, new.to]);
    let local = regenerate_local(&moved, net, zone).map_err(|e| e.to_string())?;
    let changed = local
        .points
        .iter()
        .filter(|p| !net.points.contains(p))
        .count();
    let times = local_against_all(&moved, net, zone, reps);
    Ok(Scenario {
        name: "navgen/town/one-wall-moved".to_owned(),
        ours_ms: times[0],
        peer: "generate it all again".to_owned(),
        peer_ms: times[1],
        note: format!(
            "regenerate_local after one wall moved 1.6 units: {changed} new waypoints of {}, \
             all within {:.1} units of the wall",
            local.points.len(),
            moved.local_reach()
        ),
    })
}

/// Median ms of [`regenerate_local`] of `net` after walls changed in
/// `zone` (`moved` is the new input) and of generating `moved` anew,
/// interleaved.
fn local_against_all(
    moved: &NavGenInput,
    net: &GeneratedNet,
    zone: (Vec2, Vec2),
    reps: usize,
) -> Vec<f64> {
    medians_interleaved(reps, 2, |k| {
        let n = if k == 0 {
            regenerate_local(moved, net, zone).map(|n| n.points.len())
        } else {
            generate(moved).map(|n| n.points.len())
        };
        std::hint::black_box(n.ok());
    })
}
