//! The lint on a generated net's holes: on a map with generated waypoints
//! (and bounds), walkable ground that sees no waypoint within the spacing
//! it was generated at (its `navgen`, else `kiai navgen`'s default: 8 body
//! radii, at least 2 units) is reported, with where, and what to run.

use kiai_core::glam::Vec2;
use kiai_nav::navgen::{GeneratedNet, measure_coverage};

use super::{gen_input, has_generated, params};
use crate::format::def::ContentDef;
use crate::format::diag::Diagnostic;
use crate::format::locate::SpanIndex;

/// Seed of the coverage samples: fixed, so that the warning stays the same
/// from one check to the next.
const SEED: u64 = 1;

/// A warning when the waypoints of `def` (which has generated ones) leave
/// walkable ground uncovered; none otherwise, and none for maps without
/// generated waypoints or bounds (their nets are the designer's own).
pub(crate) fn warnings(def: &ContentDef, spans: &SpanIndex, file: &str) -> Vec<Diagnostic> {
    if !has_generated(def) {
        return Vec::new();
    }
    let (radius, spacing) = params(def);
    let Ok(input) = gen_input(def, radius, spacing) else {
        return Vec::new();
    };
    // Every active waypoint counts, generated or placed by hand.
    let net = GeneratedNet {
        points: def
            .waypoints
            .iter()
            .filter(|w| w.active)
            .map(|w| Vec2::new(w.pos.0, w.pos.2))
            .collect(),
        ..GeneratedNet::default()
    };
    let Ok(quality) = measure_coverage(&input, &net, SEED) else {
        return Vec::new();
    };
    let Some(first) = quality.uncovered.first() else {
        return Vec::new();
    };
    let others = match quality.uncovered.len() - 1 {
        0 => String::new(),
        1 => " and 1 other spot".to_owned(),
        n => format!(" and {n} other spots"),
    };
    vec![Diagnostic::warning(
        file,
        spans.pos("waypoints"),
        format!(
            "no waypoint within {spacing} units covers the walkable ground at ({:.1}, {:.1}){others} \
             (coverage {:.1}% of {} samples): run Edit → Generate waypoints… in the editor or \
             `kiai navgen {file} --write` to fill the holes",
            first.x,
            first.y,
            quality.coverage * 100.0,
            quality.samples
        ),
    )]
}
