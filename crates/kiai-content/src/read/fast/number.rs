//! Numbers: the exact fast path for short decimals, which gives the bits
//! `str::parse` gives.

/// Powers of ten exact in `f32` (5^10 < 2^24).
const POW10: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// `-?digits[.digits]` whose digits form an integer `m <= 2^24` with at
/// most 10 after the point: `m / 10^k` of two exact `f32`s is one correctly
/// rounded division, the same value `str::parse` gives (Clinger's fast
/// path). Anything else is left to `str::parse`.
pub(super) fn short_decimal(run: &str) -> Option<f32> {
    let (negative, digits) = match run.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, run),
    };
    let mut m: u32 = 0;
    let mut count = 0u32;
    let mut after_point: Option<u32> = None;
    for c in digits.bytes() {
        match c {
            b'0'..=b'9' => {
                m = m.checked_mul(10)?.checked_add(u32::from(c - b'0'))?;
                count += 1;
                if let Some(k) = after_point.as_mut() {
                    *k += 1;
                }
            }
            b'.' if after_point.is_none() => after_point = Some(0),
            _ => return None,
        }
    }
    let k = after_point.unwrap_or(0) as usize;
    if count == 0 || m > 1 << 24 || k >= POW10.len() {
        return None;
    }
    #[allow(clippy::cast_precision_loss)] // exact: m <= 2^24
    let v = m as f32 / POW10[k];
    Some(if negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::short_decimal;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        /// The division fast path gives `str::parse`'s value, bit for bit.
        #[test]
        fn short_decimals_match_str_parse(t in "-?[0-9]{0,9}(\\.[0-9]{0,11})?") {
            if let Some(v) = short_decimal(&t) {
                let parsed: f32 = t.parse().map_err(|_| TestCaseError::fail(format!("{t} does not parse")))?;
                prop_assert_eq!(v.to_bits(), parsed.to_bits(), "{}", t);
            }
        }
    }

    /// Which texts the fast path takes at the edges of its range (the
    /// others go to `str::parse`), and that what it takes has `str::parse`'s
    /// bits.
    #[test]
    fn short_decimals_near_the_limits() {
        for (t, taken) in [
            ("16777216", true), // 2^24: the largest digits taken
            ("16777217", false),
            ("16777215.0", false), // the digits 167772150 are over 2^24
            ("1677721.6", true),
            ("0.1", true),
            ("-0.0", true),
            ("0.0000000001", true), // ten digits after the point: the most taken
            ("0.00000000001", false),
            ("1.", true),
            (".5", true),
            ("-.5", true),
            ("9999999.9", false),
            ("", false),
            ("-", false),
            ("1e5", false),
            ("1.2.3", false),
        ] {
            let Some(v) = short_decimal(t) else {
                assert!(!taken, "`{t}` must take the fast path");
                continue;
            };
            assert!(taken, "`{t}` must be left to str::parse");
            assert_eq!(Ok(v.to_bits()), t.parse::<f32>().map(f32::to_bits), "{t}");
        }
    }
}
