//! [`uniform_grid`]: the plain alternative the generator is measured
//! against, a world-aligned grid at the spacing with 8-neighbour links.

use super::{GeneratedNet, NavGenError, NavGenInput, cover, finish, links, obstacles};

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
