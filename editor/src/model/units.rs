//! One number format per unit, used everywhere the editor shows a number:
//! distances and positions in world units with one decimal, angles in
//! whole degrees, milliseconds with two significant decimals, loudness
//! scaled to its size, cost multipliers with a `×`.

/// The suffix of world-unit distances (`12.5 u`).
pub const DISTANCE: &str = " u";
/// The suffix of speeds (`1.5 u/s`).
pub const SPEED: &str = " u/s";
/// The suffix of angles (`120°`).
pub const ANGLE: &str = "°";
/// The suffix of tick counts (`40 ticks`).
pub const TICKS: &str = " ticks";
/// The suffix of durations in seconds (`4.00 s`).
pub const SECONDS: &str = " s";
/// The suffix of percentages (`75 %`).
pub const PERCENT: &str = " %";

/// A distance in world units: `12.5 u`.
pub fn distance(v: f32) -> String {
    format!("{v:.1}{DISTANCE}")
}

/// A position in world units: `(12.5, 0.0, -3.2)`.
pub fn position(x: f32, y: f32, z: f32) -> String {
    format!("({x:.1}, {y:.1}, {z:.1})")
}

/// A point of the X-Z plane in world units: `(12.5, -3.2)`.
pub fn point(x: f32, z: f32) -> String {
    format!("({x:.1}, {z:.1})")
}

/// An angle in degrees: `120°`.
pub fn angle(deg: f32) -> String {
    format!("{deg:.0}{ANGLE}")
}

/// A speed in world units per second: `1.5 u/s`.
pub fn speed(v: f32) -> String {
    format!("{v:.1}{SPEED}")
}

/// Milliseconds: `0.042 ms`, `3.21 ms`, `14.8 ms`.
pub fn ms(v: f32) -> String {
    if v < 0.1 {
        format!("{v:.3} ms")
    } else if v < 10.0 {
        format!("{v:.2} ms")
    } else {
        format!("{v:.1} ms")
    }
}

/// Loudness (a sound's volume scaled by distance): `2977`, `12.5`,
/// `0.42`.
pub fn loudness(v: f32) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// A cost multiplier: `×5`, `×0.5`, `×1.25`.
pub fn multiplier(m: f32) -> String {
    let s = format!("{m:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("×{s}")
}

/// A count of ticks: `1 tick`, `40 ticks`.
pub fn ticks(n: u64) -> String {
    if n == 1 {
        "1 tick".to_owned()
    } else {
        format!("{n}{TICKS}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_unit_has_one_format() {
        assert_eq!(distance(12.345), "12.3 u");
        assert_eq!(position(1.0, 0.0, -2.25), "(1.0, 0.0, -2.2)");
        assert_eq!(angle(119.6), "120°");
        assert_eq!(speed(1.5), "1.5 u/s");
        assert_eq!(ms(0.0421), "0.042 ms");
        assert_eq!(ms(3.214), "3.21 ms");
        assert_eq!(ms(14.83), "14.8 ms");
        assert_eq!(loudness(2976.9), "2977");
        assert_eq!(loudness(12.46), "12.5");
        assert_eq!(loudness(0.4199), "0.42");
        assert_eq!(multiplier(5.0), "×5");
        assert_eq!(multiplier(0.5), "×0.5");
        assert_eq!(multiplier(1.25), "×1.25");
        assert_eq!(ticks(1), "1 tick");
        assert_eq!(ticks(40), "40 ticks");
    }
}
