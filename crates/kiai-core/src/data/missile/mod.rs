//! Guided-missile steering (article 004, "KI-Programmierung Teil 11: Lenkwaffen –
//! Zielverfolgung und Ausrichtung").
//!
//! A missile cannot turn instantly: each tick it may change its heading only by
//! a bounded angle. Every tick runs the article's three steps:
//!
//! 1. **Guidance** picks a desired heading ([`Guidance`]):
//!    - [`Guidance::PurePursuit`] aims at the target's *current* position; this
//!      is the article's `Set_Destination` (desired = normalised `dest - pos`).
//!    - [`Guidance::ProportionalNavigation`] (pure PN) turns the heading at `N`
//!      times the line-of-sight rate, so the missile leads a moving target.
//! 2. **Control** turns the missile's frame toward that heading ([`ControlMode`]):
//!    - [`ControlMode::SeedTwoAxis`] transcribes the article's
//!      `Update_MovementDirection`: a dead-band (`dot > precision` means
//!      "aligned"), then a greedy trial yaw of `±turn_rate * dt` about the
//!      missile's own up axis, then a trial pitch of `±turn_rate * dt` about its
//!      own right axis, each kept only if it improves `dot(desired, forward)`.
//!    - [`ControlMode::MaxRate`] rotates the forward axis along the shortest arc
//!      toward the desired heading by at most `turn_rate * dt` (a glam [`Quat`]).
//! 3. **Movement** (the article's `Update_Movement`): move along forward by
//!    `speed * dt` unless closer to the destination than the arrival distance.
//!
//! "The three modes" are therefore the article's 2-axis controller, the
//! quaternion max-rate controller and proportional navigation; guidance and
//! control combine freely. [`Missile::step`] runs a whole tick and returns a
//! [`MissileStep`] for debug overlays and traces.
//!
//! Conventions: positions and distances in world units, speeds in world
//! units/s, angles in radians, angular rates in radians/s, `dt` in seconds. The
//! frame is `(right, up, forward)` with `right = up × forward`, which is the
//! article's initial frame `(X, Y, Z)`. All maths is `f32`. Inputs must be finite.
//!
//! Deviations from the article's C++ (each also documented where it applies):
//! - The seed evaluates the pitch trial against the *pre-yaw* forward axis,
//!   `dot` and horizontal axis (it reads the axes back from the matrix only at
//!   the end). That is a bug: a kept pitch may then make the heading worse, and
//!   it rotates about a stale axis. This module updates the frame and `dot`
//!   after the yaw, as the article's text ("analog") intends.
//! - The seed only normalises each axis after reading it from the matrix and
//!   never writes the result back, so the matrix drifts. This module keeps the
//!   three axes as the state and re-orthonormalises them (Gram–Schmidt, forward
//!   first) every time they rotate.
//! - The article's `Update_Movement(vel, ...)` takes a distance per frame; here it
//!   is `speed * dt`.
//!
//! Additions beyond the seed: [`ControlMode::MaxRate`], both PN and the
//! sigma-delta accumulator that lets the article's bang-bang 2-axis control follow
//! PN's small commands, and the swept hit test in [`Missile::step`].

use glam::{Quat, Vec3};

/// How the missile's frame turns toward the desired heading each tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ControlMode {
    /// The article's 2-axis control system: dead-band on `dot(desired, forward) >
    /// precision`, then greedy yaw of `±turn_rate * dt` about the own up axis,
    /// then greedy pitch of `±turn_rate * dt` about the own right axis.
    ///
    /// `turn_rate` bounds each axis separately (like the seed), so the heading
    /// may change by up to `acos(cos²(turn_rate * dt))` ≈ `√2 * turn_rate * dt`
    /// in one tick when both axes turn.
    #[default]
    SeedTwoAxis,
    /// Rotate forward toward the desired heading along the shortest arc by at
    /// most `turn_rate * dt` (exactly that when not yet aligned). When the
    /// desired heading is exactly behind, the missile yaws about its up axis.
    MaxRate,
}

/// How the desired heading is chosen from the target's position and velocity.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Guidance {
    /// Aim at the target's current position (the article's `Set_Destination`).
    /// Against a fast crossing target this ends in a tail chase.
    #[default]
    PurePursuit,
    /// Pure proportional navigation: with line of sight `r = target - pos`,
    /// relative velocity `v_r = target_vel - forward * speed` and line-of-sight
    /// rate `Ω = r × v_r / |r|²`, the commanded lateral acceleration is
    /// `a = n * Ω × v_m` (perpendicular to the missile's velocity `v_m`), i.e.
    /// the heading turns with angular velocity `n * Ω⊥` (the part of `Ω`
    /// perpendicular to forward). The command for one tick is that rotation
    /// over `dt` (capped at 90°); the control mode then limits it to
    /// `turn_rate * dt`.
    ///
    /// PN has no useful command when the target is not in front
    /// (`dot(forward, r) <= 0`) or not closing (`-dot(r̂, v_r) <= 0`); then this
    /// falls back to pure pursuit (with the dead-band, under
    /// [`ControlMode::SeedTwoAxis`]).
    ///
    /// Under [`ControlMode::SeedTwoAxis`] each axis can only turn by `−a`, 0 or
    /// `+a` (`a = turn_rate * dt`) per tick, and PN's per-tick commands are
    /// mostly smaller than `a/2`, so a plain greedy step would never turn. The
    /// missile therefore accumulates the commanded rotation (sigma-delta,
    /// capped at `2a`), aims the greedy 2-axis step at forward rotated by that
    /// residual with the dead-band off, and subtracts what was executed: on
    /// average the axes then turn at the commanded rate.
    ProportionalNavigation {
        /// Navigation constant `N`, dimensionless, typically 3..=5; > 1.
        n: f32,
    },
}

/// Signed rotations applied by [`Missile::update_movement_direction`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct AxisTurn {
    /// Yaw about the missile's own up axis, radians, in `{-a, 0, a}` with
    /// `a = turn_rate * dt`.
    pub yaw: f32,
    /// Pitch about the missile's own right axis (after the yaw), radians, in
    /// `{-a, 0, a}`.
    pub pitch: f32,
}

/// What one [`Missile::step`] did; meant for debug overlays and traces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MissileStep {
    /// Angle between forward before and after the turn, radians, `>= 0`.
    pub turn_angle: f32,
    /// Per-axis rotations; only non-zero under [`ControlMode::SeedTwoAxis`].
    pub axis_turn: AxisTurn,
    /// Desired heading this tick (unit vector, or zero when the missile sits
    /// exactly on the target).
    pub desired: Vec3,
    /// Actual heading after the turn (unit forward axis).
    pub heading: Vec3,
    /// Angle between `heading` and `desired`, radians in `[0, π]`
    /// (`0` when `desired` is zero).
    pub heading_error: f32,
    /// Distance to the target at the start of the tick, world units.
    pub distance: f32,
    /// The article's arrival test held: the distance at the start of the tick was
    /// below the arrival distance, so the missile did not move.
    pub arrived: bool,
    /// The target came within the arrival distance during this tick (assuming
    /// both move in straight lines over the tick); true whenever `arrived` is.
    pub hit: bool,
}

/// A guided missile: position, orthonormal frame, speed and turning ability.
///
/// Invariant: `right`, `up` and `forward` are unit vectors, pairwise
/// orthogonal, with `right = up × forward`. They can only be changed through
/// methods that keep that invariant.
#[derive(Clone, Debug, PartialEq)]
pub struct Missile {
    /// Position in world units.
    pub position: Vec3,
    /// Speed along forward, world units/s, `>= 0`.
    pub speed: f32,
    /// Maximum turn rate, radians/s, `>= 0`; keep `turn_rate * dt` well below
    /// `π/2`. Under [`ControlMode::SeedTwoAxis`] it applies to each axis.
    pub turn_rate: f32,
    /// The article's `precision`: cosine of the dead-band half-angle, in
    /// `[-1, 1]`; `dot(desired, forward) > precision` counts as aligned and no
    /// turn is made ([`ControlMode::SeedTwoAxis`] only). The seed uses 0.95
    /// (about 18°). A value `>= 1` disables the dead-band.
    pub precision: f32,
    /// The article's `minDistanceSqToDestination`: squared arrival distance,
    /// world units², `>= 0`; 0 means "never arrive".
    pub arrival_distance_sq: f32,
    /// How the frame turns.
    pub control: ControlMode,
    /// How the desired heading is chosen by [`Missile::step`].
    pub guidance: Guidance,
    right: Vec3,
    up: Vec3,
    forward: Vec3,
    destination: Vec3,
    desired: Vec3,
    /// PN rotation (radians, rotation vector) commanded but not yet executed
    /// by the 2-axis control; see [`Guidance::ProportionalNavigation`].
    pn_residual: Vec3,
}

impl Default for Missile {
    /// The article's constructor: at the origin, frame `(X, Y, Z)`, desired
    /// heading `+Z`, speed and turn rate 0, precision 0.95, arrival distance²
    /// 0.3 (the article's example values), seed 2-axis control, pure pursuit.
    fn default() -> Self {
        Self {
            position: Vec3::ZERO,
            speed: 0.0,
            turn_rate: 0.0,
            precision: 0.95,
            arrival_distance_sq: 0.3,
            control: ControlMode::SeedTwoAxis,
            guidance: Guidance::PurePursuit,
            right: Vec3::X,
            up: Vec3::Y,
            forward: Vec3::Z,
            destination: Vec3::ZERO,
            desired: Vec3::Z,
            pn_residual: Vec3::ZERO,
        }
    }
}

impl Missile {
    /// A missile at `position` (world units) heading along `forward`, rolled so
    /// that its up axis is as close as possible to `up_hint`, flying at `speed`
    /// (world units/s, `>= 0`) and turning at most `turn_rate` (radians/s,
    /// `>= 0`). Other fields take the [`Default`] (seed) values.
    ///
    /// A zero `forward` becomes `+Z`; an `up_hint` that is zero or parallel to
    /// `forward` is replaced by some perpendicular vector.
    pub fn new(position: Vec3, forward: Vec3, up_hint: Vec3, speed: f32, turn_rate: f32) -> Self {
        let mut missile = Self {
            position,
            speed,
            turn_rate,
            ..Self::default()
        };
        missile.set_orientation(forward, up_hint);
        missile.desired = missile.forward;
        missile
    }

    /// Sets the control mode (builder style).
    #[must_use]
    pub fn with_control(mut self, control: ControlMode) -> Self {
        self.control = control;
        self
    }

    /// Sets the guidance law (builder style).
    #[must_use]
    pub fn with_guidance(mut self, guidance: Guidance) -> Self {
        self.guidance = guidance;
        self
    }

    /// Sets the article's dead-band `precision` (cosine, `[-1, 1]`; builder style).
    #[must_use]
    pub fn with_precision(mut self, precision: f32) -> Self {
        self.precision = precision;
        self
    }

    /// Sets the arrival distance (world units, `>= 0`; stored squared; builder
    /// style).
    #[must_use]
    pub fn with_arrival_distance(mut self, distance: f32) -> Self {
        self.arrival_distance_sq = distance * distance;
        self
    }

    /// Re-orients the missile: heading along `forward`, up axis as close as
    /// possible to `up_hint` (same fallbacks as [`Missile::new`]).
    pub fn set_orientation(&mut self, forward: Vec3, up_hint: Vec3) {
        let forward = forward.try_normalize().unwrap_or(Vec3::Z);
        let up = (up_hint - forward * up_hint.dot(forward))
            .try_normalize()
            .unwrap_or_else(|| forward.any_orthonormal_vector());
        self.forward = forward;
        self.up = up;
        self.right = up.cross(forward);
    }

    /// Heading: the unit forward axis (the article's `MovementDirection`).
    pub fn forward(&self) -> Vec3 {
        self.forward
    }

    /// The unit up axis, the yaw axis (the article's `VerticalAxis`).
    pub fn up(&self) -> Vec3 {
        self.up
    }

    /// The unit right axis `up × forward`, the pitch axis (the article's
    /// `HorizontalAxis`).
    pub fn right(&self) -> Vec3 {
        self.right
    }

    /// Orientation as a rotation from the missile's local frame (`X` right,
    /// `Y` up, `Z` forward) to the world, for rendering.
    pub fn rotation(&self) -> Quat {
        Quat::from_mat3(&glam::Mat3::from_cols(self.right, self.up, self.forward))
    }

    /// The last destination, world units (the article's `DestinationPosition`).
    pub fn destination(&self) -> Vec3 {
        self.destination
    }

    /// The desired heading: unit vector, or zero when the missile sat exactly
    /// on the destination (the article's `MovementDirectionDesired`).
    pub fn desired(&self) -> Vec3 {
        self.desired
    }

    /// The article's `Set_Destination`: stores `destination` (world units) and
    /// sets the desired heading to the normalised `destination - position`
    /// (zero if they coincide; then no turn improves anything).
    pub fn set_destination(&mut self, destination: Vec3) {
        self.destination = destination;
        self.desired = (destination - self.position).normalize_or_zero();
    }

    /// Sets the desired heading directly (e.g. from a custom guidance law);
    /// `direction` is normalised, zero stays zero.
    pub fn set_desired(&mut self, direction: Vec3) {
        self.desired = direction.normalize_or_zero();
    }

    /// The article's `Update_MovementDirection(precision, frameTime)`, i.e. the
    /// [`ControlMode::SeedTwoAxis`] controller, whatever `self.control` is.
    ///
    /// With `dot = dot(desired, forward)` and `a = turn_rate * dt` (radians):
    /// if `dot > precision`, nothing happens. Otherwise a yaw of `+a` about the
    /// own up axis is tried and kept if the new `dot` is strictly greater; if
    /// not, `-a` is tried and kept under the same test. Then the same for a
    /// pitch about the own right axis. The axes are re-orthonormalised.
    ///
    /// Deviation from the article's code: the pitch trial uses the frame and
    /// `dot` *after* the kept yaw (the seed compares against stale pre-yaw
    /// values and rotates about the pre-yaw horizontal axis; that is a bug,
    /// since the text says pitch is checked "analog" to yaw). So a kept turn
    /// never makes the heading worse.
    pub fn update_movement_direction(&mut self, precision: f32, dt: f32) -> AxisTurn {
        let mut dot = self.desired.dot(self.forward);
        if dot > precision {
            return AxisTurn::default();
        }
        let angle = self.turn_rate * dt;
        let yaw = self.try_axis_turn(self.up, angle, &mut dot);
        let pitch = self.try_axis_turn(self.right, angle, &mut dot);
        AxisTurn { yaw, pitch }
    }

    /// Tries `+angle`, then `-angle` about `axis`; keeps the first that strictly
    /// improves `dot`. Returns the kept signed angle (0 if none).
    fn try_axis_turn(&mut self, axis: Vec3, angle: f32, dot: &mut f32) -> f32 {
        if angle == 0.0 {
            return 0.0;
        }
        for signed in [angle, -angle] {
            let rotation = Quat::from_axis_angle(axis, signed);
            let dot_test = self.desired.dot(rotation * self.forward);
            if dot_test > *dot {
                self.rotate_frame(rotation);
                *dot = self.desired.dot(self.forward);
                return signed;
            }
        }
        0.0
    }

    /// [`ControlMode::MaxRate`]: rotates forward toward the desired heading
    /// along the shortest arc by at most `turn_rate * dt`. Returns the angle
    /// turned, radians. No dead-band. Exactly opposite: yaw about up.
    pub fn turn_max_rate(&mut self, dt: f32) -> f32 {
        let max_angle = self.turn_rate * dt;
        if self.desired == Vec3::ZERO || max_angle <= 0.0 {
            return 0.0;
        }
        let cross = self.forward.cross(self.desired);
        let sin = cross.length();
        let cos = self.forward.dot(self.desired);
        let angle = sin.atan2(cos);
        let axis = if sin > 1e-6 {
            cross / sin
        } else if cos < 0.0 {
            self.up
        } else {
            return 0.0; // aligned to within 1e-6 rad
        };
        let turn = angle.min(max_angle);
        self.rotate_frame(Quat::from_axis_angle(axis, turn));
        turn
    }

    /// The article's `Update_Movement`: unless `|position - destination|² <
    /// arrival_distance_sq`, moves along forward by `speed * dt` (world
    /// units). Returns whether it moved.
    pub fn update_movement(&mut self, dt: f32) -> bool {
        if (self.position - self.destination).length_squared() < self.arrival_distance_sq {
            return false;
        }
        self.position += self.forward * (self.speed * dt);
        true
    }

    /// The pure-PN heading rate (radians/s, a rotation vector perpendicular to
    /// forward) for navigation constant `n`, or `None` when PN has no useful
    /// command (target not in front, not closing, or coincident) and guidance
    /// falls back to pure pursuit. See [`Guidance::ProportionalNavigation`].
    pub fn proportional_navigation_rate(
        &self,
        target_pos: Vec3,
        target_vel: Vec3,
        n: f32,
    ) -> Option<Vec3> {
        let r = target_pos - self.position;
        let dist_sq = r.length_squared();
        if dist_sq == 0.0 {
            return None;
        }
        let v_rel = target_vel - self.forward * self.speed;
        if r.dot(self.forward) <= 0.0 || r.dot(v_rel) >= 0.0 {
            return None;
        }
        let los_rate = r.cross(v_rel) / dist_sq;
        Some(n * (los_rate - self.forward * los_rate.dot(self.forward)))
    }

    /// `forward` rotated by the rotation vector `rotation` (radians), the angle
    /// capped at 90°.
    fn heading_after(&self, rotation: Vec3) -> Vec3 {
        let angle = rotation.length();
        if angle <= 0.0 || !angle.is_finite() {
            return self.forward;
        }
        Quat::from_axis_angle(rotation / angle, angle.min(std::f32::consts::FRAC_PI_2))
            * self.forward
    }

    /// Runs one tick of `dt` seconds (`> 0`) against a target at `target_pos`
    /// (world units, position at the start of the tick) moving with
    /// `target_vel` (world units/s): guidance (sets destination and desired
    /// heading), control (turn), movement. The caller moves the target.
    pub fn step(&mut self, target_pos: Vec3, target_vel: Vec3, dt: f32) -> MissileStep {
        let forward_before = self.forward;
        let start = self.position;
        self.set_destination(target_pos);
        let pn_rate = match self.guidance {
            Guidance::PurePursuit => None,
            Guidance::ProportionalNavigation { n } => {
                self.proportional_navigation_rate(target_pos, target_vel, n)
            }
        };
        let axis_turn = match (self.control, pn_rate) {
            (ControlMode::SeedTwoAxis, None) => {
                self.pn_residual = Vec3::ZERO;
                self.update_movement_direction(self.precision, dt)
            }
            (ControlMode::SeedTwoAxis, Some(rate)) => {
                // Sigma-delta: accumulate the commanded rotation, let the
                // bang-bang axes work it off, keep what they did not do.
                let limit = 2.0 * self.turn_rate * dt;
                self.pn_residual = (self.pn_residual + rate * dt).clamp_length_max(limit);
                self.desired = self.heading_after(self.pn_residual);
                let turn = self.update_movement_direction(f32::INFINITY, dt);
                let done = Quat::from_rotation_arc(forward_before, self.forward).to_scaled_axis();
                let rest = self.pn_residual - done;
                self.pn_residual = rest - self.forward * rest.dot(self.forward);
                turn
            }
            (ControlMode::MaxRate, rate) => {
                if let Some(rate) = rate {
                    self.desired = self.heading_after(rate * dt);
                }
                self.turn_max_rate(dt);
                AxisTurn::default()
            }
        };
        let moved = self.update_movement(dt);

        // Swept test: relative motion over the tick is a straight segment.
        let r0 = target_pos - start;
        let d = target_vel * dt - (self.position - start);
        let d_sq = d.length_squared();
        let t = if d_sq > 0.0 {
            (-r0.dot(d) / d_sq).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let closest_sq = (r0 + d * t).length_squared();

        MissileStep {
            turn_angle: angle_between(forward_before, self.forward),
            axis_turn,
            desired: self.desired,
            heading: self.forward,
            heading_error: if self.desired == Vec3::ZERO {
                0.0
            } else {
                angle_between(self.forward, self.desired)
            },
            distance: r0.length(),
            arrived: !moved,
            hit: !moved || closest_sq < self.arrival_distance_sq,
        }
    }

    /// Rotates all three axes by `rotation`, then re-orthonormalises.
    fn rotate_frame(&mut self, rotation: Quat) {
        self.forward = rotation * self.forward;
        self.up = rotation * self.up;
        self.orthonormalize();
    }

    /// Gram–Schmidt, forward first: forward is normalised, up loses its forward
    /// component and is normalised, right is rebuilt as `up × forward`.
    fn orthonormalize(&mut self) {
        self.forward = self.forward.normalize();
        self.up = (self.up - self.forward * self.up.dot(self.forward)).normalize();
        self.right = self.up.cross(self.forward);
    }
}

/// Angle between two unit vectors, radians in `[0, π]`, accurate near 0.
fn angle_between(a: Vec3, b: Vec3) -> f32 {
    a.cross(b).length().atan2(a.dot(b))
}

#[cfg(test)]
mod tests;
