//! Sense shapes as drawn: [`Outline`], the one geometry the editor's sense
//! overlay and kiai-bevy's gizmos both draw, so that a cone looks the same
//! in both.

use glam::Vec2;

use crate::data::hearing::audible_radius;
use crate::data::shape::Shape;

/// The volume of the sound a hearing sense's ring is drawn for (the
/// loudness scale's reference, 100).
pub const OUTLINE_VOLUME: f32 = 100.0;

/// A sense shape on the X-Z plane: points along its outline and, for shapes
/// drawn filled, the point the fill fans from.
#[derive(Clone, Debug, PartialEq)]
pub struct Outline {
    /// Points along the outline, X-Z world units. Circles and ellipses end
    /// where they start; a cone or sector starts at the eye and follows its
    /// arc (close it back to the eye to draw it); hearing is a ring, empty
    /// when a sound of [`OUTLINE_VOLUME`] is heard at any distance.
    pub points: Vec<Vec2>,
    /// Where a fill fans from (the eye, or an ellipse's centre); `None` for
    /// hearing, drawn as a ring without fill.
    pub fill_from: Option<Vec2>,
}

/// Points on the circle of radius `r` about `c` from angle `from` to `to`
/// (radians, X-Z), `steps` segments.
fn arc(c: Vec2, r: f32, from: f32, to: f32, steps: usize) -> impl Iterator<Item = Vec2> {
    (0..=steps).map(move |k| {
        let t = from + (to - from) * k as f32 / steps as f32;
        c + Vec2::new(t.cos(), t.sin()) * r
    })
}

impl Shape {
    /// The outline of this shape for an eye at X-Z `eye` facing the unit
    /// X-Z direction `facing`: a full circle or ellipse takes `steps`
    /// segments (at least 4), a cone's arc three quarters as many.
    pub fn outline(&self, eye: Vec2, facing: Vec2, steps: usize) -> Outline {
        let steps = steps.max(4);
        let tau = std::f32::consts::TAU;
        match *self {
            Shape::Sphere { radius } => Outline {
                points: arc(eye, radius, 0.0, tau, steps).collect(),
                fill_from: Some(eye),
            },
            Shape::Cone { range, fov_deg } | Shape::Sector { range, fov_deg, .. } => {
                let heading = facing.y.atan2(facing.x);
                let half = (fov_deg * 0.5).to_radians().min(std::f32::consts::PI);
                let mut points = vec![eye];
                points.extend(arc(
                    eye,
                    range,
                    heading - half,
                    heading + half,
                    steps * 3 / 4,
                ));
                Outline {
                    points,
                    fill_from: Some(eye),
                }
            }
            Shape::Ellipse { a, b, center_ahead } => {
                let c = eye + facing * center_ahead;
                let side = facing.perp();
                let points = (0..=steps)
                    .map(|k| {
                        let t = k as f32 / steps as f32 * tau;
                        c + facing * a * t.cos() + side * b * t.sin()
                    })
                    .collect();
                Outline {
                    points,
                    fill_from: Some(c),
                }
            }
            Shape::Hearing { threshold, falloff } => {
                let r = audible_radius(OUTLINE_VOLUME, threshold, falloff);
                Outline {
                    points: if r.is_finite() {
                        arc(eye, r, 0.0, tau, steps).collect()
                    } else {
                        Vec::new()
                    },
                    fill_from: None,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cone_starts_at_the_eye_and_spans_its_angle_around_the_facing() {
        let cone = Shape::Cone {
            range: 10.0,
            fov_deg: 90.0,
        };
        let o = cone.outline(Vec2::ZERO, Vec2::X, 64);
        assert_eq!(o.points.len(), 1 + 48 + 1);
        assert_eq!(o.points[0], Vec2::ZERO);
        let (first, last) = (o.points[1], o.points[o.points.len() - 1]);
        assert!((first.angle_to(Vec2::X).abs() - std::f32::consts::FRAC_PI_4).abs() < 1e-5);
        assert!((last.length() - 10.0).abs() < 1e-4);
        assert_eq!(o.fill_from, Some(Vec2::ZERO));
    }

    #[test]
    fn an_ellipse_is_centred_ahead_and_hearing_has_no_fill() {
        let e = Shape::Ellipse {
            a: 4.0,
            b: 2.0,
            center_ahead: 3.0,
        };
        let o = e.outline(Vec2::new(1.0, 1.0), Vec2::Y, 32);
        assert_eq!(o.fill_from, Some(Vec2::new(1.0, 4.0)));
        assert!(o.points.iter().all(|p| {
            let d = *p - Vec2::new(1.0, 4.0);
            ((d.y / 4.0).powi(2) + (d.x / 2.0).powi(2) - 1.0).abs() < 1e-4
        }));
        let h = Shape::Hearing {
            threshold: 1.0,
            falloff: crate::data::Falloff::InverseSquare,
        };
        let ring = h.outline(Vec2::ZERO, Vec2::X, 16);
        assert_eq!(ring.fill_from, None);
        assert!(ring.points.iter().all(|p| (p.length() - 10.0).abs() < 1e-3));
    }
}
