//! Layer 2, generated waypoints in content: a [`ContentDef`]'s bounds,
//! walls and hand-placed waypoints as kiai-nav's generator reads them
//! ([`gen_input`]), and a generated net merged back ([`merge`]) so that
//! regenerating replaces only what the generator made.
//!
//! Generated waypoints carry the tag [`GENERATED_TAG`]. A link belongs to
//! the generator when either end is a generated waypoint; links between
//! two hand-placed waypoints are the designer's and never touched. A
//! generated waypoint that stands where the new net has one keeps its id
//! and its text; a generated link whose two ends survive keeps its text
//! (costs painted on it included). Regenerating an unchanged file changes
//! nothing.

use std::collections::BTreeMap;

pub(crate) mod coverage;

use kiai_core::glam::Vec2;
use kiai_nav::navgen::{GenWall, GeneratedNet, NavGenInput};

use crate::format::def::{ContentDef, LinkDef, NavGenDef, OrderedMap, WaypointDef};

/// The tag that marks a generated waypoint.
pub const GENERATED_TAG: &str = "generated";

/// Body radius when no archetype names one, world units (the format's
/// default body radius).
pub const DEFAULT_RADIUS: f32 = 0.5;

/// Generated waypoints match old ones within this distance, world units.
const MATCH: f32 = 1e-3;

/// Why content cannot be generated from.
#[derive(Clone, Debug, PartialEq)]
pub enum NavGenContentError {
    /// The content has no `bounds`.
    NoBounds,
}

impl std::fmt::Display for NavGenContentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoBounds => f.write_str(
                "the content has no `bounds`; add `bounds: (min: (x, y, z), max: (x, y, z))` \
                 around the walkable area",
            ),
        }
    }
}

impl std::error::Error for NavGenContentError {}

/// Whether a waypoint was generated.
pub fn is_generated(w: &WaypointDef) -> bool {
    w.tags.iter().any(|t| t == GENERATED_TAG)
}

/// Whether `def` has generated waypoints (its net is, at least in part,
/// the generator's).
pub fn has_generated(def: &ContentDef) -> bool {
    def.waypoints.iter().any(is_generated)
}

/// The largest body radius of the content's archetypes (world units), or
/// [`DEFAULT_RADIUS`] when there are none.
pub fn default_radius(def: &ContentDef) -> f32 {
    def.archetypes
        .iter()
        .map(|(_, a)| a.radius.unwrap_or(DEFAULT_RADIUS))
        .filter(|r| r.is_finite())
        .fold(None, |best: Option<f32>, r| {
            Some(best.map_or(r, |b| b.max(r)))
        })
        .unwrap_or(DEFAULT_RADIUS)
}

/// The default spacing for `radius`: 8 radii, at least 2 world units.
pub fn default_spacing(radius: f32) -> f32 {
    (radius * 8.0).max(2.0)
}

/// The body radius and spacing (world units) `def`'s waypoints were
/// generated with: those its `navgen` records, or the defaults
/// ([`default_radius`], [`default_spacing`]) for a file that records none.
pub fn params(def: &ContentDef) -> (f32, f32) {
    params_for(def, None, None)
}

/// The body radius and spacing (world units) to generate `def`'s
/// waypoints with when `radius` and `spacing` are asked for (`None`: not
/// given): each given one; else what `def` records ([`params`]). A
/// recorded spacing that was the default for the recorded radius follows
/// a newly given radius, as the default does.
pub fn params_for(def: &ContentDef, radius: Option<f32>, spacing: Option<f32>) -> (f32, f32) {
    let (was_radius, was_spacing) = match def.navgen {
        Some(NavGenDef { radius, spacing }) => (radius, spacing),
        None => {
            let radius = default_radius(def);
            (radius, default_spacing(radius))
        }
    };
    let radius = radius.unwrap_or(was_radius);
    let spacing = spacing.unwrap_or(if was_spacing == default_spacing(was_radius) {
        default_spacing(radius)
    } else {
        was_spacing
    });
    (radius, spacing)
}

/// Records in `def` (merged with a generated net) that its waypoints were
/// generated with `radius` and `spacing`; a map left without generated
/// waypoints records nothing.
fn record(def: &mut ContentDef, radius: f32, spacing: f32) {
    def.navgen = has_generated(def).then_some(NavGenDef { radius, spacing });
}

/// The generator's input: the bounds on X-Z, every wall (doors and walls
/// that start open count as doors: they may close), and the hand-placed
/// waypoints (every waypoint without [`GENERATED_TAG`], in file order) as
/// fixed points.
pub fn gen_input(
    def: &ContentDef,
    radius: f32,
    spacing: f32,
) -> Result<NavGenInput, NavGenContentError> {
    let bounds = def.bounds.as_ref().ok_or(NavGenContentError::NoBounds)?;
    Ok(NavGenInput {
        min: Vec2::new(bounds.min.0, bounds.min.2),
        max: Vec2::new(bounds.max.0, bounds.max.2),
        walls: def
            .walls
            .iter()
            .map(|w| GenWall {
                from: Vec2::new(w.from.0, w.from.1),
                to: Vec2::new(w.to.0, w.to.1),
                height: w.height,
                door: w.door || w.open,
            })
            .collect(),
        fixed: def
            .waypoints
            .iter()
            .filter(|w| !is_generated(w))
            .map(|w| Vec2::new(w.pos.0, w.pos.2))
            .collect(),
        radius,
        spacing,
    })
}

/// The height generated waypoints stand at: 0 within the bounds' height.
fn ground(def: &ContentDef) -> f32 {
    def.bounds
        .as_ref()
        .map_or(0.0, |b| 0.0f32.clamp(b.min.1, b.max.1.max(b.min.1)))
}

/// Key of a position for matching (snapped to [`MATCH`]).
fn key(p: Vec2) -> (i64, i64) {
    ((p.x / MATCH).round() as i64, (p.y / MATCH).round() as i64)
}

/// `def` with its generated waypoints and links replaced by `net`
/// (generated from [`gen_input`] of `def` at `(radius, spacing)`, which
/// `navgen` records): hand-placed waypoints and their links kept as they
/// are; surviving generated waypoints and links keep their ids and text;
/// new ones appended, ids above every old id.
pub fn merge(def: &ContentDef, net: &GeneratedNet, (radius, spacing): (f32, f32)) -> ContentDef {
    let hand: Vec<u32> = def
        .waypoints
        .iter()
        .filter(|w| !is_generated(w))
        .map(|w| w.id)
        .collect();
    let mut old: BTreeMap<(i64, i64), u32> = BTreeMap::new();
    for w in def.waypoints.iter().filter(|w| is_generated(w)) {
        old.entry(key(Vec2::new(w.pos.0, w.pos.2))).or_insert(w.id);
    }
    let mut next = def.waypoints.iter().map(|w| w.id + 1).max().unwrap_or(0);
    let mut ids = Vec::with_capacity(net.points.len());
    let mut fresh = Vec::new();
    for (i, &p) in net.points.iter().enumerate() {
        if let Some(&id) = hand.get(i).filter(|_| i < net.fixed) {
            ids.push(id);
        } else if let Some(id) = old.remove(&key(p)) {
            ids.push(id);
        } else {
            ids.push(next);
            fresh.push((next, p));
            next += 1;
        }
    }
    let mut out = def.clone();
    let kept: std::collections::BTreeSet<u32> = ids.iter().copied().collect();
    out.waypoints
        .retain(|w| !is_generated(w) || kept.contains(&w.id));
    let y = ground(def);
    out.waypoints
        .extend(fresh.into_iter().map(|(id, p)| WaypointDef {
            id,
            pos: (p.x, y, p.y),
            active: true,
            name: None,
            tags: vec![GENERATED_TAG.to_owned()],
        }));
    merge_links(def, &mut out, &ids, net);
    record(&mut out, radius, spacing);
    out
}

/// Replaces the generator's links of `out` (from `def`) by `net`'s,
/// keeping the text of those whose ends survive.
fn merge_links(def: &ContentDef, out: &mut ContentDef, ids: &[u32], net: &GeneratedNet) {
    let generated: std::collections::BTreeSet<u32> = def
        .waypoints
        .iter()
        .filter(|w| is_generated(w))
        .map(|w| w.id)
        .collect();
    let pair = |a: u32, b: u32| (a.min(b), a.max(b));
    let wanted: std::collections::BTreeSet<(u32, u32)> = net
        .links
        .iter()
        .map(|l| pair(ids[l.a as usize], ids[l.b as usize]))
        .collect();
    let mut present = std::collections::BTreeSet::new();
    out.links.retain(|l| {
        let mine = generated.contains(&l.from) || generated.contains(&l.to);
        let keep = !mine || wanted.contains(&pair(l.from, l.to));
        if keep && mine {
            present.insert(pair(l.from, l.to));
        }
        keep
    });
    for l in &net.links {
        let (a, b) = pair(ids[l.a as usize], ids[l.b as usize]);
        if present.insert((a, b)) {
            out.links.push(LinkDef {
                from: a,
                to: b,
                costs: OrderedMap::default(),
                two_way: true,
            });
        }
    }
}
