//! Hearing (article 003, "听觉感知"): a sphere test around the listener, no
//! occlusion ("sound can be treated as unobstructed"), and a perceived loudness
//! that falls with distance. The result for each sound is its source and its
//! loudness, handed to the decision layer (article 003's guard: a loud sound makes
//! it hostile, a quiet one makes it alert).
//!
//! Article 003 says the loudness comes from "a simple linear calculation" in its
//! text but divides by the squared distance in its code; both are offered as
//! [`Falloff`]. Its code keeps a sound unless `distanceSq > radiusSq`, i.e. the
//! boundary is *inclusive*; kiai's threshold test follows that:
//! a sound is heard when `loudness >= threshold` (unlike the strict shape tests
//! of article 000). Distances are 3D (the seed uses a `Vector3` offset).

use glam::Vec3;

/// `Sound::source` value meaning "no agent made this sound"; also the
/// `listener_id` of a listener that is not an agent.
pub const NO_SOURCE: u32 = u32::MAX;

/// A sound emitted this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sound {
    /// Where it is emitted, world units.
    pub position: Vec3,
    /// Loudness at the source, >= 0 and finite (non-finite volumes are never
    /// heard); its scale is the game's, compared against listeners' thresholds.
    pub volume: f32,
    /// Index of the agent that made it, or [`NO_SOURCE`].
    pub source: u32,
    /// Free game-defined kind (footstep, gunshot, ...); not interpreted here.
    pub tag: u32,
}

/// How perceived loudness falls with the distance `d` (world units) between
/// listener and sound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Falloff {
    /// Article 003's code, transcribed exactly: `volume / d²` (no clamp near the
    /// source). At `d == 0` this is `+inf` for a positive volume (what the
    /// article's float division gives) and `0` for a zero volume.
    InverseSquare,
    /// Article 003's text: `volume * (1 - d / range)` for `d < range`, `0` from
    /// `range` on. `range` in world units, > 0 (otherwise loudness is always 0).
    Linear {
        /// Distance at which the sound fades to silence, world units, > 0.
        range: f32,
    },
}

impl Falloff {
    /// Perceived loudness of a sound of `volume` at squared distance
    /// `distance_squared` (world units², >= 0). Never NaN for finite,
    /// non-negative inputs; non-increasing in the distance.
    pub fn loudness(self, volume: f32, distance_squared: f32) -> f32 {
        match self {
            Falloff::InverseSquare => {
                if volume == 0.0 {
                    0.0
                } else {
                    volume / distance_squared
                }
            }
            Falloff::Linear { range } => {
                let d = distance_squared.sqrt();
                if d < range {
                    volume * (1.0 - d / range)
                } else {
                    0.0
                }
            }
        }
    }
}

/// A sound that was heard: its index in the `sounds` slice and its perceived
/// loudness (>= the listener's threshold; may be `+inf` at distance 0 with
/// [`Falloff::InverseSquare`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heard {
    /// Index into the `sounds` slice passed to [`hear`].
    pub sound: usize,
    /// Perceived loudness, same scale as [`Sound::volume`].
    pub loudness: f32,
}

/// What a listener at `listener` (world units) hears: clears `out`, then adds
/// every sound with `loudness >= threshold` (inclusive, as in article 003),
/// skipping sounds whose `source` is `listener_id` (pass [`NO_SOURCE`] for a
/// listener that is not an agent; it skips nothing), and sounds with a
/// non-finite position or volume. `out` is sorted by loudness, loudest first,
/// ties by sound index, so the result is deterministic. A NaN threshold hears
/// nothing; a threshold <= 0 hears every (finite, non-negative) sound. No
/// allocation once `out` has grown.
pub fn hear(
    listener: Vec3,
    listener_id: u32,
    threshold: f32,
    falloff: Falloff,
    sounds: &[Sound],
    out: &mut Vec<Heard>,
) {
    out.clear();
    for (i, s) in sounds.iter().enumerate() {
        if (listener_id != NO_SOURCE && s.source == listener_id)
            || !s.position.is_finite()
            || !s.volume.is_finite()
        {
            continue;
        }
        let loudness = falloff.loudness(s.volume, listener.distance_squared(s.position));
        if loudness >= threshold {
            out.push(Heard { sound: i, loudness });
        }
    }
    out.sort_unstable_by(|a, b| {
        b.loudness
            .total_cmp(&a.loudness)
            .then(a.sound.cmp(&b.sound))
    });
}

/// Broadphase bound, world units: a sound of `volume` is never heard by a
/// listener with `threshold` farther than this (distance compared inclusively).
/// Rounded up by a relative 1e-5 so float rounding never drops an audible
/// sound. `f32::INFINITY` when it is heard at any distance (`threshold <= 0`);
/// `0` when it is heard nowhere, or only at the source.
pub fn audible_radius(volume: f32, threshold: f32, falloff: Falloff) -> f32 {
    const SLACK: f32 = 1.0 + 1e-5;
    if threshold <= 0.0 {
        return f32::INFINITY;
    }
    if volume.is_nan() || volume <= 0.0 || !volume.is_finite() || threshold.is_nan() {
        return 0.0;
    }
    match falloff {
        Falloff::InverseSquare => (volume / threshold).sqrt() * SLACK,
        Falloff::Linear { range } => {
            if volume < threshold || range.is_nan() || range <= 0.0 {
                0.0
            } else {
                (range * (1.0 - threshold / volume) * SLACK).min(range)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sound(x: f32, volume: f32, source: u32) -> Sound {
        Sound {
            position: Vec3::new(x, 0.0, 0.0),
            volume,
            source,
            tag: 0,
        }
    }

    fn heard(listener_id: u32, threshold: f32, falloff: Falloff, sounds: &[Sound]) -> Vec<Heard> {
        let mut out = vec![Heard {
            sound: 99,
            loudness: 0.0,
        }];
        hear(
            Vec3::ZERO,
            listener_id,
            threshold,
            falloff,
            sounds,
            &mut out,
        );
        out
    }

    #[test]
    fn inverse_square_is_the_seed_formula() {
        let f = Falloff::InverseSquare;
        assert_eq!(f.loudness(100.0, 100.0), 1.0);
        assert_eq!(f.loudness(100.0, 0.25), 400.0, "no clamp near the source");
        assert_eq!(f.loudness(5.0, 0.0), f32::INFINITY);
        assert_eq!(f.loudness(0.0, 0.0), 0.0);
    }

    #[test]
    fn linear_is_the_seed_text() {
        let f = Falloff::Linear { range: 10.0 };
        assert_eq!(f.loudness(2.0, 25.0), 1.0);
        assert_eq!(f.loudness(2.0, 100.0), 0.0);
        assert_eq!(f.loudness(2.0, 400.0), 0.0);
        assert_eq!(f.loudness(2.0, 0.0), 2.0);
        assert_eq!(Falloff::Linear { range: 0.0 }.loudness(2.0, 0.0), 0.0);
    }

    #[test]
    fn threshold_boundary_is_inclusive() {
        let s = [sound(10.0, 100.0, NO_SOURCE)]; // loudness exactly 1.0
        assert_eq!(heard(NO_SOURCE, 1.0, Falloff::InverseSquare, &s).len(), 1);
        let above = f32::from_bits(1.0f32.to_bits() + 1);
        assert!(heard(NO_SOURCE, above, Falloff::InverseSquare, &s).is_empty());
        let lin = Falloff::Linear { range: 20.0 }; // 100 * 0.5 = 50
        assert_eq!(heard(NO_SOURCE, 50.0, lin, &s).len(), 1);
        assert!(heard(NO_SOURCE, 50.001, lin, &s).is_empty());
        assert!(heard(NO_SOURCE, f32::NAN, lin, &s).is_empty());
    }

    #[test]
    fn sorted_loudest_first_ties_by_index() {
        let s = [
            sound(2.0, 4.0, 1),  // 1.0
            sound(-1.0, 9.0, 2), // 9.0
            sound(-2.0, 4.0, 3), // 1.0 (tie with 0)
            sound(0.0, 1.0, 4),  // +inf
            sound(3.0, 18.0, 5), // 2.0
            sound(0.5, 1.0, 7),  // own sound: skipped
            sound(f32::NAN, 1.0, 6),
        ];
        let got: Vec<usize> = heard(7, 0.5, Falloff::InverseSquare, &s)
            .iter()
            .map(|h| h.sound)
            .collect();
        assert_eq!(got, vec![3, 1, 4, 0, 2]);
    }

    #[test]
    fn own_sounds_are_skipped_but_anonymous_ones_are_not() {
        let s = [sound(1.0, 1.0, 3), sound(1.0, 1.0, NO_SOURCE)];
        let only = |id| {
            heard(id, 0.1, Falloff::InverseSquare, &s)
                .iter()
                .map(|h| h.sound)
                .collect::<Vec<_>>()
        };
        assert_eq!(only(3), vec![1]);
        assert_eq!(only(NO_SOURCE), vec![0, 1]);
        assert_eq!(only(4), vec![0, 1]);
    }

    /// Article 003's guard: a loud sound makes it hostile, a quiet one alert.
    #[test]
    fn guard_hears_loud_above_hostile_threshold_and_quiet_only_as_alert() {
        let (alert, hostile) = (0.1, 1.0);
        // At 10 units both falloffs give 4.0 for the loud sound and 0.2 for the quiet one.
        let cases = [
            (Falloff::InverseSquare, 400.0, 20.0),
            (Falloff::Linear { range: 12.5 }, 20.0, 1.0),
        ];
        for (falloff, loud_volume, quiet_volume) in cases {
            let sounds = [sound(10.0, loud_volume, 1), sound(-10.0, quiet_volume, 2)];
            let loud = heard(0, hostile, falloff, &sounds[..1]);
            let quiet = heard(0, hostile, falloff, &sounds[1..]);
            assert_eq!(
                loud.len(),
                1,
                "{falloff:?}: loud sound makes the guard hostile"
            );
            assert!(
                quiet.is_empty(),
                "{falloff:?}: quiet sound is below hostile"
            );
            let all = heard(0, alert, falloff, &sounds);
            assert_eq!(all.iter().map(|h| h.sound).collect::<Vec<_>>(), vec![0, 1]);
            assert!(
                all[1].loudness < hostile,
                "{falloff:?}: quiet one only alerts"
            );
        }
    }

    #[test]
    fn audible_radius_edges() {
        assert_eq!(
            audible_radius(1.0, 0.0, Falloff::InverseSquare),
            f32::INFINITY
        );
        assert_eq!(audible_radius(0.0, 1.0, Falloff::InverseSquare), 0.0);
        assert_eq!(
            audible_radius(0.5, 1.0, Falloff::Linear { range: 5.0 }),
            0.0
        );
        let r = audible_radius(400.0, 4.0, Falloff::InverseSquare);
        assert!((10.0..10.001).contains(&r));
        let r = audible_radius(2.0, 1.0, Falloff::Linear { range: 10.0 });
        assert!((5.0..5.001).contains(&r));
    }

    fn falloff() -> impl Strategy<Value = Falloff> {
        prop_oneof![
            Just(Falloff::InverseSquare),
            (0.1f32..100.0).prop_map(|range| Falloff::Linear { range })
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn loudness_does_not_grow_with_distance(f in falloff(), v in 0.0f32..1000.0, d1 in 0.0f32..200.0, d2 in 0.0f32..200.0) {
            let (near, far) = (d1.min(d2), d1.max(d2));
            prop_assert!(f.loudness(v, near * near) >= f.loudness(v, far * far));
        }

        #[test]
        fn audible_radius_is_a_conservative_broadphase(
            f in falloff(),
            v in 0.0f32..1000.0,
            t in 0.001f32..50.0,
            p in (-300.0f32..300.0, -300.0f32..300.0, -300.0f32..300.0),
        ) {
            let pos = Vec3::new(p.0, p.1, p.2);
            let mut out = Vec::new();
            hear(Vec3::ZERO, NO_SOURCE, t, f, &[Sound { position: pos, volume: v, source: 0, tag: 0 }], &mut out);
            if !out.is_empty() {
                prop_assert!(pos.length() <= audible_radius(v, t, f));
            }
        }
    }
}
