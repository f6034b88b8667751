//! Agent glyphs: a shape per faction (circle, square, diamond, triangle,
//! pentagon, hexagon) of equal area, filled with the faction's colour
//! while editing and the state's colour while the run plays, outlined, and
//! with a nose pointing where the agent faces. Sized in screen points:
//! never smaller than [`MIN_RADIUS`] however far the map is zoomed out.

use eframe::egui::{Color32, Mesh, Pos2, Vec2};

/// Smallest glyph radius (of the equal-area circle), screen points.
pub const MIN_RADIUS: f32 = 8.0;
/// Largest glyph radius, screen points.
pub const MAX_RADIUS: f32 = 16.0;
/// The world radius a glyph stands for when zoomed in, world units.
pub const WORLD_RADIUS: f32 = 0.6;

/// The glyph radius at `zoom` screen points per world unit.
pub fn radius(zoom: f32) -> f32 {
    (WORLD_RADIUS * zoom).clamp(MIN_RADIUS, MAX_RADIUS)
}

/// A faction's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The first faction.
    Circle,
    /// The second.
    Square,
    /// The third.
    Diamond,
    /// The fourth.
    Triangle,
    /// The fifth.
    Pentagon,
    /// The sixth.
    Hexagon,
}

impl Shape {
    /// The shape of faction `i` (cycling).
    pub fn of_faction(i: usize) -> Shape {
        [
            Shape::Circle,
            Shape::Square,
            Shape::Diamond,
            Shape::Triangle,
            Shape::Pentagon,
            Shape::Hexagon,
        ][i % 6]
    }

    /// Corners around `c` for an area of a circle of radius `r`: (number of
    /// corners, circumradius, rotation in radians).
    fn corners(self, r: f32) -> (usize, f32, f32) {
        use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
        match self {
            Shape::Circle => (20, r, 0.0),
            Shape::Square => (4, r * (PI / 2.0).sqrt(), FRAC_PI_4),
            Shape::Diamond => (4, r * (PI / 2.0).sqrt(), 0.0),
            Shape::Triangle => (3, r * (PI / 1.299_038).sqrt(), -FRAC_PI_2),
            Shape::Pentagon => (5, r * (PI / 2.377_641).sqrt(), -FRAC_PI_2),
            Shape::Hexagon => (6, r * (PI / 2.598_076).sqrt(), 0.0),
        }
    }

    /// The outline points around `c` (y down, as on screen).
    pub fn points(self, c: Pos2, r: f32) -> Vec<Pos2> {
        let (n, radius, turn) = self.corners(r);
        (0..n)
            .map(|k| {
                let a = turn + k as f32 * std::f32::consts::TAU / n as f32;
                c + Vec2::new(a.cos(), a.sin()) * radius
            })
            .collect()
    }
}

/// How one glyph is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Glyph {
    /// Centre, in the mesh's coordinates.
    pub at: Pos2,
    /// Radius of the equal-area circle, in the mesh's coordinates.
    pub r: f32,
    /// The faction's shape.
    pub shape: Shape,
    /// The fill.
    pub fill: Color32,
    /// The outline (and the nose's edge).
    pub outline: Color32,
    /// Unit facing in the mesh's coordinates, if the nose is drawn.
    pub facing: Option<Vec2>,
}

/// Adds `g` to `mesh`: the outline, the fill, the nose.
pub fn add(mesh: &mut Mesh, g: &Glyph) {
    let border = (g.r * 0.18).max(g.r * 0.1);
    if let Some(f) = g.facing {
        let n = Vec2::new(-f.y, f.x);
        let tip = g.at + f * (g.r * 1.75);
        let base = g.at + f * (g.r * 0.7);
        triangle(
            mesh,
            [
                tip + f * border,
                base + n * (g.r * 0.7 + border),
                base - n * (g.r * 0.7 + border),
            ],
            g.outline,
        );
        triangle(
            mesh,
            [tip, base + n * g.r * 0.6, base - n * g.r * 0.6],
            g.fill,
        );
    }
    fan(mesh, g.at, &g.shape.points(g.at, g.r + border), g.outline);
    fan(mesh, g.at, &g.shape.points(g.at, g.r), g.fill);
}

fn triangle(mesh: &mut Mesh, p: [Pos2; 3], colour: Color32) {
    let i = mesh.vertices.len() as u32;
    for q in p {
        mesh.colored_vertex(q, colour);
    }
    mesh.add_triangle(i, i + 1, i + 2);
}

fn fan(mesh: &mut Mesh, c: Pos2, outline: &[Pos2], colour: Color32) {
    let i = mesh.vertices.len() as u32;
    mesh.colored_vertex(c, colour);
    for p in outline {
        mesh.colored_vertex(*p, colour);
    }
    let n = outline.len() as u32;
    for k in 0..n {
        mesh.add_triangle(i, i + 1 + k, i + 1 + (k + 1) % n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(points: &[Pos2]) -> f32 {
        let n = points.len();
        (0..n)
            .map(|k| {
                let (a, b) = (points[k], points[(k + 1) % n]);
                a.x * b.y - b.x * a.y
            })
            .sum::<f32>()
            .abs()
            / 2.0
    }

    #[test]
    fn every_shape_covers_about_the_area_of_its_circle() {
        let circle = std::f32::consts::PI * 100.0;
        for k in 0..6 {
            let s = Shape::of_faction(k);
            let a = area(&s.points(Pos2::ZERO, 10.0));
            assert!((a / circle - 1.0).abs() < 0.05, "{s:?}: {a} vs {circle}");
        }
    }

    #[test]
    fn glyphs_never_shrink_below_the_minimum() {
        assert_eq!(radius(0.01), MIN_RADIUS);
        assert_eq!(radius(1000.0), MAX_RADIUS);
    }
}
