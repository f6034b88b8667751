//! Sense shapes and their point-inclusion tests.
//!
//! All tests use strict inequalities where article 000 does (`range² > distance²`,
//! `dot > cos(fov / 2)`), so results match the seed bit for bit on the same
//! inputs. Positions are world units, angles are degrees, Y is up; the 2.5D
//! shapes ([`Shape::Sector`], [`Shape::Ellipse`]) work on the X-Z plane.

use glam::{Vec2, Vec3};

use crate::data::Falloff;

/// The region in which a sense notices other agents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// All-around sense (radar, noise): `distance² < radius²`. Article 000.
    Sphere {
        /// Radius in world units, > 0.
        radius: f32,
    },
    /// Directed 3D sense (eyes): `distance² < range²` and
    /// `dot(facing, direction) > cos(fov_deg / 2)`. Article 000.
    Cone {
        /// Range in world units, > 0.
        range: f32,
        /// Full opening angle in degrees, in (0, 360].
        fov_deg: f32,
    },
    /// The cheaper 2.5D sense of article 003: horizontal (X-Z) range and angle
    /// plus `|dy| <= max_height_diff`.
    Sector {
        /// Horizontal range in world units, > 0.
        range: f32,
        /// Full horizontal opening angle in degrees, in (0, 360].
        fov_deg: f32,
        /// Largest height difference seen, in world units, >= 0.
        max_height_diff: f32,
    },
    /// Peripheral plus focused vision as one ellipse on X-Z (article 003): foci at
    /// `center_ahead ± c` along the horizontal facing, `c = sqrt(a² - b²)`;
    /// inside when `|p - f1| + |p - f2| <= 2a`.
    Ellipse {
        /// Semi-major axis (along the facing) in world units, > 0 and >= `b`.
        a: f32,
        /// Semi-minor axis in world units, > 0.
        b: f32,
        /// Distance of the ellipse's centre ahead of the agent, world units.
        center_ahead: f32,
    },
    /// Hearing (article 003): senses sounds, not agents. A sound is heard when
    /// its loudness at the listener (by `falloff`) is at least `threshold`;
    /// the sense reports the agents that made the sounds heard.
    Hearing {
        /// Quietest loudness heard, > 0, on the scale of sound volumes.
        threshold: f32,
        /// How loudness falls with distance.
        falloff: Falloff,
    },
}

/// What a sense perceives, for deciders that treat senses by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenseKind {
    /// All-around (a sphere): radar, noise, presence (article 000).
    AllAround,
    /// Directed (cone, sector, ellipse): eyes (article 000, 003).
    Directed,
    /// Hearing: sound events (article 003).
    Hearing,
}

impl Shape {
    /// Whether the shape is all-around, directed or hearing.
    pub fn kind(&self) -> SenseKind {
        match self {
            Shape::Sphere { .. } => SenseKind::AllAround,
            Shape::Cone { .. } | Shape::Sector { .. } | Shape::Ellipse { .. } => {
                SenseKind::Directed
            }
            Shape::Hearing { .. } => SenseKind::Hearing,
        }
    }

    /// The same shape reaching `range` instead (for the lose-sight range of
    /// hysteresis); an ellipse scales both axes and its offset. Hearing is
    /// unchanged.
    pub fn with_range(&self, range: f32) -> Shape {
        match *self {
            Shape::Sphere { .. } => Shape::Sphere { radius: range },
            Shape::Cone { fov_deg, .. } => Shape::Cone { range, fov_deg },
            Shape::Sector {
                fov_deg,
                max_height_diff,
                ..
            } => Shape::Sector {
                range,
                fov_deg,
                max_height_diff,
            },
            Shape::Ellipse { a, b, center_ahead } => {
                let k = range / self.reach().max(f32::EPSILON);
                Shape::Ellipse {
                    a: a * k,
                    b: b * k,
                    center_ahead: center_ahead * k,
                }
            }
            Shape::Hearing { .. } => *self,
        }
    }

    /// The horizontal (X-Z) distance from the agent beyond which the shape
    /// cannot contain anything: the broadphase gathers candidates within it.
    pub fn reach(&self) -> f32 {
        match *self {
            Shape::Sphere { radius } => radius,
            Shape::Cone { range, .. } | Shape::Sector { range, .. } => range,
            Shape::Ellipse {
                a, center_ahead, ..
            } => center_ahead.abs() + a,
            Shape::Hearing { .. } => 0.0,
        }
    }

    /// Precomputes squares and cosines for fast tests.
    pub fn compile(&self) -> CompiledShape {
        match *self {
            Shape::Sphere { radius } => CompiledShape::Sphere {
                radius_sq: radius * radius,
            },
            Shape::Cone { range, fov_deg } => CompiledShape::Cone {
                range_sq: range * range,
                cos_half_fov: half_angle_cos(fov_deg),
            },
            Shape::Sector {
                range,
                fov_deg,
                max_height_diff,
            } => CompiledShape::Sector {
                range_sq: range * range,
                cos_half_fov: half_angle_cos(fov_deg),
                max_height_diff,
            },
            Shape::Ellipse { a, b, center_ahead } => {
                let c = (a * a - b * b).max(0.0).sqrt();
                CompiledShape::Ellipse {
                    focus_near: center_ahead - c,
                    focus_far: center_ahead + c,
                    two_a: 2.0 * a,
                }
            }
            Shape::Hearing { .. } => CompiledShape::Hearing,
        }
    }
}

/// `cos(fov_deg / 2)` in radians, as the article's `CosFieldOfView`.
pub fn half_angle_cos(fov_deg: f32) -> f32 {
    (fov_deg * 0.5).to_radians().cos()
}

/// A [`Shape`] with its constants precomputed; see [`Shape::compile`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CompiledShape {
    /// See [`Shape::Sphere`].
    Sphere {
        /// radius², world units².
        radius_sq: f32,
    },
    /// See [`Shape::Cone`].
    Cone {
        /// range², world units².
        range_sq: f32,
        /// cos(fov / 2), in [-1, 1].
        cos_half_fov: f32,
    },
    /// See [`Shape::Sector`].
    Sector {
        /// Horizontal range², world units².
        range_sq: f32,
        /// cos(fov / 2), in [-1, 1].
        cos_half_fov: f32,
        /// Largest |dy| seen, world units.
        max_height_diff: f32,
    },
    /// See [`Shape::Ellipse`].
    Ellipse {
        /// Distance of the near focus ahead of the agent, world units.
        focus_near: f32,
        /// Distance of the far focus ahead of the agent, world units.
        focus_far: f32,
        /// 2a, world units.
        two_a: f32,
    },
    /// See [`Shape::Hearing`]: contains no agent.
    Hearing,
}

impl CompiledShape {
    /// Whether an agent at `eye` looking along the unit vector `facing`
    /// senses a point at `target`.
    #[inline]
    pub fn contains(&self, eye: Vec3, facing: Vec3, target: Vec3) -> bool {
        match *self {
            CompiledShape::Sphere { radius_sq } => radius_sq > (target - eye).length_squared(),
            CompiledShape::Cone {
                range_sq,
                cos_half_fov,
            } => {
                let d = target - eye;
                let dist_sq = d.length_squared();
                // As in article 000: a coincident target has no direction (the
                // article's NaN dot fails the test).
                if !strictly_within(dist_sq, range_sq) || dist_sq == 0.0 {
                    return false;
                }
                let inv = 1.0 / dist_sq.sqrt();
                facing.dot(d * inv) > cos_half_fov
            }
            CompiledShape::Sector {
                range_sq,
                cos_half_fov,
                max_height_diff,
            } => {
                let d = target - eye;
                if d.y.abs() > max_height_diff {
                    return false;
                }
                let h = Vec2::new(d.x, d.z);
                let dist_sq = h.length_squared();
                if !strictly_within(dist_sq, range_sq) || dist_sq == 0.0 {
                    return false;
                }
                let inv = 1.0 / dist_sq.sqrt();
                horizontal(facing).dot(h * inv) > cos_half_fov
            }
            CompiledShape::Ellipse {
                focus_near,
                focus_far,
                two_a,
            } => {
                let f = horizontal(facing);
                let e = Vec2::new(eye.x, eye.z);
                let p = Vec2::new(target.x, target.z);
                let f1 = e + f * focus_near;
                let f2 = e + f * focus_far;
                p.distance(f1) + p.distance(f2) <= two_a
            }
            CompiledShape::Hearing => false,
        }
    }
}

/// `limit_sq > dist_sq`, false when either is NaN (as in the seed, where a
/// NaN comparison fails).
#[inline]
fn strictly_within(dist_sq: f32, limit_sq: f32) -> bool {
    limit_sq > dist_sq
}

/// The facing projected on X-Z and normalised (zero when looking straight up
/// or down: then only fields of view wider than 180° see anything).
#[inline]
fn horizontal(facing: Vec3) -> Vec2 {
    Vec2::new(facing.x, facing.z).normalize_or_zero()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_is_strict() {
        let s = Shape::Sphere { radius: 2.0 }.compile();
        assert!(s.contains(Vec3::ZERO, Vec3::X, Vec3::new(1.999, 0.0, 0.0)));
        assert!(!s.contains(Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0)));
        assert!(s.contains(Vec3::ZERO, Vec3::X, Vec3::ZERO));
    }

    #[test]
    fn cone_checks_angle_and_range() {
        let c = Shape::Cone {
            range: 10.0,
            fov_deg: 90.0,
        }
        .compile();
        assert!(c.contains(Vec3::ZERO, Vec3::X, Vec3::new(5.0, 0.0, 1.0)));
        assert!(!c.contains(Vec3::ZERO, Vec3::X, Vec3::new(5.0, 0.0, 6.0)));
        assert!(!c.contains(Vec3::ZERO, Vec3::X, Vec3::new(-5.0, 0.0, 0.0)));
        assert!(!c.contains(Vec3::ZERO, Vec3::X, Vec3::new(10.0, 0.0, 0.0)));
        assert!(!c.contains(Vec3::ZERO, Vec3::X, Vec3::ZERO));
        // 3D: the cone also rejects targets far above.
        assert!(!c.contains(Vec3::ZERO, Vec3::X, Vec3::new(1.0, 5.0, 0.0)));
    }

    #[test]
    fn sector_ignores_height_within_limit() {
        let s = Shape::Sector {
            range: 10.0,
            fov_deg: 90.0,
            max_height_diff: 2.0,
        }
        .compile();
        assert!(s.contains(Vec3::ZERO, Vec3::X, Vec3::new(1.0, 2.0, 0.0)));
        assert!(!s.contains(Vec3::ZERO, Vec3::X, Vec3::new(1.0, 2.5, 0.0)));
    }

    #[test]
    fn ellipse_reaches_far_ahead_not_behind() {
        let e = Shape::Ellipse {
            a: 20.0,
            b: 6.0,
            center_ahead: 14.0,
        }
        .compile();
        assert!(e.contains(Vec3::ZERO, Vec3::X, Vec3::new(33.0, 0.0, 0.0)));
        assert!(!e.contains(Vec3::ZERO, Vec3::X, Vec3::new(35.0, 0.0, 0.0)));
        assert!(e.contains(Vec3::ZERO, Vec3::X, Vec3::new(-5.0, 0.0, 0.0)));
        assert!(!e.contains(Vec3::ZERO, Vec3::X, Vec3::new(-7.0, 0.0, 0.0)));
        assert!(e.contains(Vec3::ZERO, Vec3::X, Vec3::new(14.0, 0.0, 5.9)));
        assert!(!e.contains(Vec3::ZERO, Vec3::X, Vec3::new(14.0, 0.0, 6.1)));
    }
}
