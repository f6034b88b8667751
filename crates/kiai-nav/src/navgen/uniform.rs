//! [`uniform_grid`]: the plain alternative the generator is measured
//! against, a world-aligned grid at the spacing with 8-neighbour links;
//! and [`uniform_grid_covering`], the coarsest such grid that covers as
//! much as a given net.

use super::{
    GeneratedNet, NavGenError, NavGenInput, NavGenQuality, cover, finish, links, measure,
    measure_coverage, obstacles,
};

/// Uniform grid spacings [`uniform_grid_covering`] tries, as fractions of
/// the input's spacing, coarsest first (8, 7, …, 1 units at spacing 8).
pub const GRID_FRACTIONS: [f32; 8] = [1.0, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125];

/// A uniform grid chosen for its coverage ([`uniform_grid_covering`]).
#[derive(Clone, Debug)]
pub struct CoveringGrid {
    /// Its spacing, world units (a fraction of the input's, see
    /// [`GRID_FRACTIONS`]).
    pub spacing: f32,
    /// The grid.
    pub net: GeneratedNet,
    /// Its quality, measured as [`measure`] does with the input's coverage
    /// distance (route ratios included).
    pub quality: NavGenQuality,
    /// The coarser spacings tried before it and their coverage (0..=1), in
    /// the order tried.
    pub tried: Vec<(f32, f32)>,
    /// Wall time building the grid took, seconds (the tries before it not
    /// counted): what the generator's time compares with.
    pub seconds: f64,
}

/// The coarsest uniform grid (spacings in [`GRID_FRACTIONS`] of
/// `input.spacing`) whose coverage of `input`'s map, measured at the
/// input's coverage distance on the samples of `seed`, reaches `target`
/// (0..=1); the finest that could be built when none does (a grid finer
/// than the spacing limit, or with too many samples, ends the search).
/// Compares the generator with a grid of the same coverage (`kiai
/// navgen`, `kiai bench`).
pub fn uniform_grid_covering(
    input: &NavGenInput,
    target: f32,
    seed: u64,
) -> Result<CoveringGrid, NavGenError> {
    let timed = |at: &NavGenInput| {
        let started = std::time::Instant::now();
        uniform_grid(at).map(|net| (net, started.elapsed().as_secs_f64()))
    };
    let (net, mut seconds) = timed(input)?;
    let mut chosen = (input.spacing, net);
    let mut tried = Vec::new();
    for f in GRID_FRACTIONS {
        let spacing = input.spacing * f;
        if f < 1.0 {
            let at = NavGenInput {
                spacing,
                ..input.clone()
            };
            let Ok((grid, took)) = timed(&at) else {
                break;
            };
            chosen = (spacing, grid);
            seconds = took;
        }
        // Measured against `input`: the same samples and coverage distance.
        let coverage = measure_coverage(input, &chosen.1, seed)?.coverage;
        if coverage >= target {
            break;
        }
        tried.push((spacing, coverage));
    }
    if tried.last().is_some_and(|&(s, _)| s == chosen.0) {
        // None reached the target: the finest is the answer, not a try.
        tried.pop();
    }
    let (spacing, net) = chosen;
    let quality = measure(input, &net, seed)?;
    Ok(CoveringGrid {
        spacing,
        net,
        quality,
        tried,
        seconds,
    })
}

/// A uniform grid at `input.spacing` over the walkable box: every
/// walkable grid point (after the fixed waypoints), linked to its 8
/// neighbours where the line is clear.
pub fn uniform_grid(input: &NavGenInput) -> Result<GeneratedNet, NavGenError> {
    input.check()?;
    let obstacles = obstacles(input);
    let (lo, hi) = input.walkable_box();
    let mut points = input.fixed.clone();
    points.extend(
        cover::samples(lo, hi, input.spacing, 0.0)
            .into_iter()
            .filter(|&p| obstacles.walkable(p, 0.0)),
    );
    let fixed = input.fixed.len();
    let range = input.spacing * std::f32::consts::SQRT_2 * 1.001;
    let pairs = links::link_points(
        &obstacles,
        &points,
        range,
        |_| true,
        |a, b| a < fixed && b < fixed,
    );
    Ok(finish(input, &obstacles, points, pairs))
}
