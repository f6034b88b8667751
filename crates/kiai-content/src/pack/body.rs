//! The pack body's binary layout: [`Pack`]'s fields in declaration order
//! in [postcard](https://docs.rs/postcard), except that the big sections
//! are columns of little-endian numbers, which decode in one pass over
//! borrowed bytes instead of one serde call per field:
//!
//! | field of [`Pack`] | in the body |
//! |---|---|
//! | `waypoints` | four fields: bytes of ids (`u32`), bytes of positions (`3 x f32`), bytes of `active` (one byte, 0 or 1), then `(index, name, tags)` for the waypoints that have a name or tags, indices ascending |
//! | `links` | bytes: `from`, `to` as `u32` per link |
//! | `link_costs` | bytes: one `f32` per cost |
//!
//! Everything else is encoded as serde derives it. The readable encodings of
//! a pack (RON, JSON) use [`Pack`]'s own serde form, with plain lists.
//! Decoding never panics: columns whose lengths do not divide into whole
//! values or do not agree, an `active` byte other than 0 or 1 and names out
//! of order are errors that say so.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{
    Pack, PackAgent, PackArchetype, PackError, PackFaction, PackLink, PackLod, PackProfile,
    PackRegion, PackScript, PackSound, PackWaypoint,
};
use crate::format::def::{BoundsDef, FogDef, NavDef, PerceptionBudgetDef, WallDef};

/// A byte string, borrowed from the input when decoding.
struct Bytes<'a>(Cow<'a, [u8]>);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Bytes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Cow<'de, [u8]>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
                Ok(Cow::Borrowed(v))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
                Ok(Cow::Owned(v.to_vec()))
            }
        }
        d.deserialize_bytes(V).map(Bytes)
    }
}

/// A waypoint's name and tags, for the waypoints that have any.
type Extra<S, T> = (u32, Option<S>, T);

/// The body as written: the pack's own sections borrowed, the columns built.
#[derive(Serialize)]
struct BodyOut<'a> {
    name: &'a str,
    seed: u64,
    tick_seconds: f32,
    bounds: Option<BoundsDef>,
    factions: &'a [PackFaction],
    cost_lists: &'a [String],
    waypoint_ids: Bytes<'a>,
    waypoint_positions: Bytes<'a>,
    waypoint_active: Bytes<'a>,
    waypoint_names: Vec<Extra<&'a str, &'a [String]>>,
    links: Bytes<'a>,
    link_costs: Bytes<'a>,
    fog: &'a Option<FogDef>,
    profiles: &'a [PackProfile],
    archetypes: &'a [PackArchetype],
    agents: &'a [PackAgent],
    walls: &'a [WallDef],
    regions: &'a [PackRegion],
    sounds: &'a [PackSound],
    perception_budget: Option<PerceptionBudgetDef>,
    /// `nav.budget` as a plain option: the body's format is not
    /// self-describing, so no field may be skipped.
    route_budget: Option<u32>,
    scripts: &'a [PackScript],
    /// Version 7 on: read by [`decode`] after the rest.
    lod: &'a PackLod,
}

/// The body as read: the same fields, the columns borrowed from the input.
#[derive(Deserialize)]
struct BodyIn<'a> {
    name: String,
    seed: u64,
    tick_seconds: f32,
    bounds: Option<BoundsDef>,
    factions: Vec<PackFaction>,
    cost_lists: Vec<String>,
    #[serde(borrow)]
    waypoint_ids: Bytes<'a>,
    #[serde(borrow)]
    waypoint_positions: Bytes<'a>,
    #[serde(borrow)]
    waypoint_active: Bytes<'a>,
    waypoint_names: Vec<Extra<String, Vec<String>>>,
    #[serde(borrow)]
    links: Bytes<'a>,
    #[serde(borrow)]
    link_costs: Bytes<'a>,
    fog: Option<FogDef>,
    profiles: Vec<PackProfile>,
    archetypes: Vec<PackArchetype>,
    agents: Vec<PackAgent>,
    walls: Vec<WallDef>,
    regions: Vec<PackRegion>,
    sounds: Vec<PackSound>,
    perception_budget: Option<PerceptionBudgetDef>,
    route_budget: Option<u32>,
    scripts: Vec<PackScript>,
}

/// The postcard body of `pack`.
pub(crate) fn encode(pack: &Pack) -> Result<Vec<u8>, PackError> {
    let n = pack.waypoints.len();
    let (mut ids, mut pos, mut active) = (
        Vec::with_capacity(4 * n),
        Vec::with_capacity(12 * n),
        Vec::with_capacity(n),
    );
    let mut names = Vec::new();
    for (i, w) in pack.waypoints.iter().enumerate() {
        ids.extend_from_slice(&w.id.to_le_bytes());
        for c in [w.pos.0, w.pos.1, w.pos.2] {
            pos.extend_from_slice(&c.to_le_bytes());
        }
        active.push(u8::from(w.active));
        if w.name.is_some() || !w.tags.is_empty() {
            names.push((i as u32, w.name.as_deref(), w.tags.as_slice()));
        }
    }
    let mut links = Vec::with_capacity(8 * pack.links.len());
    for l in &pack.links {
        links.extend_from_slice(&l.from.to_le_bytes());
        links.extend_from_slice(&l.to.to_le_bytes());
    }
    let costs: Vec<u8> = pack
        .link_costs
        .iter()
        .flat_map(|c| c.to_le_bytes())
        .collect();
    let body = BodyOut {
        name: &pack.name,
        seed: pack.seed,
        tick_seconds: pack.tick_seconds,
        bounds: pack.bounds,
        factions: &pack.factions,
        cost_lists: &pack.cost_lists,
        waypoint_ids: Bytes(Cow::Owned(ids)),
        waypoint_positions: Bytes(Cow::Owned(pos)),
        waypoint_active: Bytes(Cow::Owned(active)),
        waypoint_names: names,
        links: Bytes(Cow::Owned(links)),
        link_costs: Bytes(Cow::Owned(costs)),
        fog: &pack.fog,
        profiles: &pack.profiles,
        archetypes: &pack.archetypes,
        agents: &pack.agents,
        walls: &pack.walls,
        regions: &pack.regions,
        sounds: &pack.sounds,
        perception_budget: pack.perception_budget,
        route_budget: pack.nav.budget,
        scripts: &pack.scripts,
        lod: &pack.lod,
    };
    postcard::to_allocvec(&body).map_err(|e| PackError::Decode(e.to_string()))
}

/// The pack in `body` of pack version `version`, which must be nothing
/// else. Version 6 bodies end before the level of detail section.
pub(crate) fn decode(body: &[u8], version: u32) -> Result<Pack, PackError> {
    let decode_error = |e: postcard::Error| PackError::Decode(e.to_string());
    let (b, rest) = postcard::take_from_bytes::<BodyIn<'_>>(body).map_err(decode_error)?;
    let (lod, rest) = if version >= 7 {
        postcard::take_from_bytes::<PackLod>(rest).map_err(decode_error)?
    } else {
        (PackLod::default(), rest)
    };
    if !rest.is_empty() {
        return Err(PackError::Decode(format!(
            "{} bytes left over after the pack",
            rest.len()
        )));
    }
    let waypoints = waypoints(
        &b.waypoint_ids.0,
        &b.waypoint_positions.0,
        &b.waypoint_active.0,
        b.waypoint_names,
    )?;
    let links = words::<8>(&b.links.0, "links")?
        .map(|w| PackLink {
            from: u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
            to: u32::from_le_bytes([w[4], w[5], w[6], w[7]]),
        })
        .collect();
    let link_costs = words::<4>(&b.link_costs.0, "link costs")?
        .map(f32::from_le_bytes)
        .collect();
    Ok(Pack {
        name: b.name,
        seed: b.seed,
        tick_seconds: b.tick_seconds,
        bounds: b.bounds,
        factions: b.factions,
        cost_lists: b.cost_lists,
        waypoints,
        links,
        link_costs,
        fog: b.fog,
        profiles: b.profiles,
        archetypes: b.archetypes,
        agents: b.agents,
        walls: b.walls,
        regions: b.regions,
        sounds: b.sounds,
        perception_budget: b.perception_budget,
        nav: NavDef {
            budget: b.route_budget,
        },
        scripts: b.scripts,
        lod,
    })
}

/// `bytes` as `N`-byte words, or an error naming `what` when its length is
/// not a whole number of words.
fn words<'a, const N: usize>(
    bytes: &'a [u8],
    what: &str,
) -> Result<impl ExactSizeIterator<Item = [u8; N]> + 'a, PackError> {
    if !bytes.len().is_multiple_of(N) {
        return Err(PackError::Decode(format!(
            "{what}: {} bytes is not a whole number of {N}-byte values",
            bytes.len()
        )));
    }
    Ok(bytes.chunks_exact(N).map(|c| {
        let mut w = [0u8; N];
        w.copy_from_slice(c);
        w
    }))
}

/// The waypoints of the four columns; an error when they disagree.
fn waypoints(
    ids: &[u8],
    pos: &[u8],
    active: &[u8],
    names: Vec<Extra<String, Vec<String>>>,
) -> Result<Vec<PackWaypoint>, PackError> {
    let ids = words::<4>(ids, "waypoint ids")?;
    let n = ids.len();
    if pos.len() != n.saturating_mul(12) || active.len() != n {
        return Err(PackError::Decode(format!(
            "waypoint columns disagree: {n} ids, {} position bytes, {} active flags",
            pos.len(),
            active.len()
        )));
    }
    let f32_at = |w: &[u8], at: usize| f32::from_le_bytes([w[at], w[at + 1], w[at + 2], w[at + 3]]);
    let mut out = Vec::with_capacity(n);
    for ((id, p), &a) in ids.zip(pos.chunks_exact(12)).zip(active) {
        if a > 1 {
            return Err(PackError::Decode(format!(
                "waypoint active flag {a} is not 0 or 1"
            )));
        }
        out.push(PackWaypoint {
            id: u32::from_le_bytes(id),
            pos: (f32_at(p, 0), f32_at(p, 4), f32_at(p, 8)),
            active: a == 1,
            name: None,
            tags: Vec::new(),
        });
    }
    let mut last = None;
    for (i, name, tags) in names {
        if last.is_some_and(|l| i <= l) {
            return Err(PackError::Decode(
                "waypoint names are not in waypoint order".to_owned(),
            ));
        }
        last = Some(i);
        let w = out.get_mut(i as usize).ok_or_else(|| {
            PackError::Decode(format!("waypoint index {i} out of range (0..{n})"))
        })?;
        w.name = name;
        w.tags = tags;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waypoint(id: u32, name: Option<&str>, tags: &[&str], active: bool) -> PackWaypoint {
        PackWaypoint {
            id,
            pos: (id as f32, -0.5, 1e9),
            active,
            name: name.map(str::to_owned),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        }
    }

    fn pack() -> Pack {
        Pack {
            name: "columns".to_owned(),
            seed: 7,
            tick_seconds: 0.1,
            bounds: None,
            factions: Vec::new(),
            cost_lists: vec!["a".to_owned(), "b".to_owned()],
            waypoints: vec![
                waypoint(7, None, &[], true),
                waypoint(3, Some("bridge"), &[], false),
                waypoint(9, None, &["cover", "door"], true),
                waypoint(12, Some(""), &["x"], true),
            ],
            links: vec![PackLink { from: 0, to: 1 }, PackLink { from: 3, to: 2 }],
            link_costs: vec![1.0, 2.5, 0.0, f32::MAX],
            fog: None,
            profiles: Vec::new(),
            archetypes: Vec::new(),
            agents: Vec::new(),
            walls: Vec::new(),
            regions: Vec::new(),
            sounds: Vec::new(),
            perception_budget: None,
            nav: NavDef { budget: None },
            scripts: Vec::new(),
            lod: PackLod::default(),
        }
    }

    /// A body with the given columns and nothing else.
    fn body(ids: &[u8], pos: &[u8], active: &[u8], names: Vec<Extra<&str, &[String]>>) -> Vec<u8> {
        let empty = Pack {
            waypoints: Vec::new(),
            links: Vec::new(),
            link_costs: Vec::new(),
            ..pack()
        };
        let out = BodyOut {
            name: "",
            seed: 0,
            tick_seconds: 0.1,
            bounds: None,
            factions: &[],
            cost_lists: &empty.cost_lists,
            waypoint_ids: Bytes(Cow::Borrowed(ids)),
            waypoint_positions: Bytes(Cow::Borrowed(pos)),
            waypoint_active: Bytes(Cow::Borrowed(active)),
            waypoint_names: names,
            links: Bytes(Cow::Borrowed(&[])),
            link_costs: Bytes(Cow::Borrowed(&[])),
            fog: &None,
            profiles: &[],
            archetypes: &[],
            agents: &[],
            walls: &[],
            regions: &[],
            sounds: &[],
            perception_budget: None,
            route_budget: NavDef::default().budget,
            scripts: &[],
            lod: &PackLod::default(),
        };
        postcard::to_allocvec(&out).unwrap_or_default()
    }

    fn error(body: &[u8]) -> String {
        decode(body, super::super::PACK_VERSION)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn the_body_round_trips_with_names_tags_and_inactive_waypoints() {
        let p = pack();
        let bytes = encode(&p).unwrap_or_default();
        assert_eq!(decode(&bytes, super::super::PACK_VERSION), Ok(p.clone()));
        // Name, seed, tick, bounds, factions, cost lists, then the id column:
        // a length (16) and four little-endian u32.
        let head = b"\x07columns\x07\xcd\xcc\xcc\x3d\x00\x00\x02\x01a\x01b\x10\x07\x00\x00\x00";
        assert!(bytes.starts_with(head), "{bytes:?}");
        let mut more = bytes.clone();
        more.push(0);
        assert_eq!(
            error(&more),
            "pack does not decode: 1 bytes left over after the pack"
        );
    }

    #[test]
    fn columns_that_do_not_fit_are_errors_that_say_so() {
        let one = [1, 0, 0, 0];
        let pos = [0u8; 12];
        let cases: [(Vec<u8>, &str); 5] = [
            (
                body(&[1, 0, 0, 0, 0], &[], &[], Vec::new()),
                "waypoint ids: 5 bytes is not a whole number of 4-byte values",
            ),
            (
                body(&one, &[], &[1], Vec::new()),
                "waypoint columns disagree: 1 ids, 0 position bytes, 1 active flags",
            ),
            (
                body(&one, &pos, &[2], Vec::new()),
                "waypoint active flag 2 is not 0 or 1",
            ),
            (
                body(&one, &pos, &[1], vec![(0, Some("a"), &[]), (0, None, &[])]),
                "waypoint names are not in waypoint order",
            ),
            (
                body(&one, &pos, &[1], vec![(5, Some("a"), &[])]),
                "waypoint index 5 out of range (0..1)",
            ),
        ];
        for (bytes, message) in cases {
            assert_eq!(error(&bytes), format!("pack does not decode: {message}"));
        }
        let mut p = pack();
        p.links.clear();
        p.link_costs.clear();
        let bytes = encode(&p).unwrap_or_default();
        // The last ten fields are empty or `None` (one byte each), then the
        // level of detail's three empty lists; before them come the empty
        // link and link-cost columns (one length byte each).
        let at = bytes.len() - 15;
        assert_eq!(&bytes[at..at + 2], &[0, 0], "{bytes:?}");
        let mut links = bytes[..at].to_vec();
        links.extend([7, 1, 2, 3, 4, 5, 6, 7]);
        links.extend(&bytes[at + 1..]);
        assert_eq!(
            error(&links),
            "pack does not decode: links: 7 bytes is not a whole number of 8-byte values"
        );
        let mut costs = bytes[..at + 1].to_vec();
        costs.extend([3, 1, 2, 3]);
        costs.extend(&bytes[at + 2..]);
        assert_eq!(
            error(&costs),
            "pack does not decode: link costs: 3 bytes is not a whole number of 4-byte values"
        );
    }
}
