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
        match self {
            Plane::Xz => bevy_math::Quat::from_rotation_y((-facing.x).atan2(-facing.z)),
            Plane::Xy => bevy_math::Quat::from_rotation_z(facing.z.atan2(facing.x)),
        }
    }

    /// The facing (kiai) a body's rotation gives, the inverse of
    /// [`Plane::rotation`] for rotations about the up axis.
    pub fn facing(self, rotation: bevy_math::Quat) -> glam::Vec3 {
        match self {
            Plane::Xz => self.to_kiai(rotation * Vec3::NEG_Z),
            Plane::Xy => self.to_kiai(rotation * Vec3::X),
        }
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
            for angle in [0.0f32, 0.7, 2.0, -2.5] {
                let f = glam::Vec3::new(angle.cos(), 0.0, angle.sin());
                let back = plane.facing(plane.rotation(f));
                assert!((back - f).length() < 1e-5, "{plane:?} {f} -> {back}");
            }
        }
    }
}
