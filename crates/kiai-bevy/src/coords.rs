//! How kiai's space maps onto the game's: kiai works in world units with Y
//! up and agents on the X-Z ground plane; a 3D Bevy game uses the same
//! axes, a 2D one draws the ground plane as its X-Y screen plane.

use bevy_math::Vec3;
use kiai::core::glam;

/// The plane a game's agents live on (a field of [`crate::KiaiPlugin`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Plane {
    /// A 3D game: Bevy's axes are kiai's (Y up, agents on X-Z).
    #[default]
    Xz,
    /// A 2D game: kiai's X-Z ground plane is Bevy's X-Y plane (kiai `x`
    /// is Bevy `x`, kiai `z` is Bevy `y`); kiai's height is 0 and a
    /// `Transform`'s `z` (its draw layer) is the game's own.
    Xy,
}

impl Plane {
    /// A kiai position or direction as a Bevy one; for [`Plane::Xy`],
    /// `z` is the Bevy `z` to keep (the draw layer).
    pub fn to_bevy(self, v: glam::Vec3, z: f32) -> Vec3 {
        match self {
            Plane::Xz => Vec3::new(v.x, v.y, v.z),
            Plane::Xy => Vec3::new(v.x, v.z, z),
        }
    }

    /// A Bevy position or direction as a kiai one (height 0 on
    /// [`Plane::Xy`]).
    pub fn to_kiai(self, v: Vec3) -> glam::Vec3 {
        match self {
            Plane::Xz => glam::Vec3::new(v.x, v.y, v.z),
            Plane::Xy => glam::Vec3::new(v.x, 0.0, v.y),
        }
    }

    /// The rotation that turns a body's forward axis to kiai's `facing`:
    /// +X on [`Plane::Xy`] (a sprite facing right), -Z on [`Plane::Xz`]
    /// (Bevy's forward), about the up axis only.
    pub fn rotation(self, facing: glam::Vec3) -> bevy_math::Quat {
        // The angle's cosine and sine from the facing, then the half
        // angle's by the half-angle formulas: two square roots instead of
        // an arctangent, a sine and a cosine (this runs for every body
        // every tick).
        let (c, s) = match self {
            // From -Z toward -X about +Y: cos = -z, sin = -x.
            Plane::Xz => (-facing.z, -facing.x),
            Plane::Xy => (facing.x, facing.z),
        };
        let len = (c * c + s * s).sqrt();
        if len.is_nan() || len <= 0.0 {
            return bevy_math::Quat::IDENTITY;
        }
        let c = (c / len).clamp(-1.0, 1.0);
        let half_sin = ((1.0 - c) * 0.5).sqrt().copysign(s);
        let half_cos = ((1.0 + c) * 0.5).sqrt();
        match self {
            Plane::Xz => bevy_math::Quat::from_xyzw(0.0, half_sin, 0.0, half_cos),
            Plane::Xy => bevy_math::Quat::from_xyzw(0.0, 0.0, half_sin, half_cos),
        }
    }

    /// The facing (kiai, on the ground plane) a body's rotation gives, the
    /// inverse of [`Plane::rotation`] for rotations about the up axis; a
    /// pitched or rolled body faces where its forward axis points on the
    /// ground (zero when it points straight up or down).
    pub fn facing(self, rotation: bevy_math::Quat) -> glam::Vec3 {
        let forward = match self {
            Plane::Xz => self.to_kiai(rotation * Vec3::NEG_Z),
            Plane::Xy => self.to_kiai(rotation * Vec3::X),
        };
        glam::Vec3::new(forward.x, 0.0, forward.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_facings_round_trip() {
        for plane in [Plane::Xz, Plane::Xy] {
            let p = glam::Vec3::new(3.0, 0.0, -7.5);
            assert_eq!(plane.to_kiai(plane.to_bevy(p, 2.0)), p);
            for angle in [0.0f32, 0.7, 2.0, -2.5, std::f32::consts::PI, -1.0e-7] {
                let f = glam::Vec3::new(angle.cos(), 0.0, angle.sin());
                let back = plane.facing(plane.rotation(f));
                assert!((back - f).length() < 1e-5, "{plane:?} {f} -> {back}");
                let about_up = match plane {
                    Plane::Xz => bevy_math::Quat::from_rotation_y((-f.x).atan2(-f.z)),
                    Plane::Xy => bevy_math::Quat::from_rotation_z(f.z.atan2(f.x)),
                };
                assert!(
                    plane.rotation(f).angle_between(about_up) < 1e-3,
                    "{plane:?} {f}"
                );
            }
        }
    }
}
