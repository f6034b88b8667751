//! Content loading: a generated 100k-waypoint project as RON text (parse,
//! validate, lint) and as an exported pack (decode, resolve, check).
//!
//! Peers: for the text, `ron::from_str` of the same file into the same
//! types without any validation (what a loader without diagnostics does;
//! kiai reads this plain text with its own reader and checks that `ron`
//! gives the same definitions);
//! for the pack, `serde_json::from_slice` of the same pack data as JSON.
//! Both must produce the same definitions as kiai.

use kiai_content::def::ContentDef;
use kiai_content::pack::Pack;
use kiai_content::{Content, FORMAT_VERSION};

use crate::{Effort, Scenario, median_ms, once_ms};

/// A project with a `side` x `side` grid of waypoints (two-way links to the
/// right and below, named costs on every third link, a few inactive
/// waypoints), two cost lists, and 1,000 agents of two factions.
pub fn project(side: u32) -> String {
    let mut s = String::with_capacity(side as usize * side as usize * 110);
    s.push_str(&format!(
        "(\n    format: {FORMAT_VERSION},\n    name: \"generated\",\n    seed: 1,\n    bounds: (min: (-10.0, 0.0, -10.0), max: ({m}.0, 10.0, {m}.0)),\n",
        m = side * 4 + 10
    ));
    s.push_str("    factions: [(name: \"red\", hostile: [\"blue\"]), (name: \"blue\", hostile: [\"red\"])],\n");
    s.push_str("    cost_lists: [\"infantry\", \"vehicle\"],\n    waypoints: [\n");
    for z in 0..side {
        for x in 0..side {
            let id = z * side + x;
            s.push_str(&format!(
                "        (id: {id}, pos: ({}.0, 0.0, {}.0)",
                x * 4,
                z * 4
            ));
            if id.is_multiple_of(97) {
                s.push_str(", active: false");
            }
            s.push_str("),\n");
        }
    }
    s.push_str("    ],\n    links: [\n");
    for z in 0..side {
        for x in 0..side {
            let id = z * side + x;
            for (ok, to) in [(x + 1 < side, id + 1), (z + 1 < side, id + side)] {
                if !ok {
                    continue;
                }
                if to.is_multiple_of(3) {
                    s.push_str(&format!(
                        "        (from: {id}, to: {to}, costs: {{\"vehicle\": 2.5}}, two_way: true),\n"
                    ));
                } else {
                    s.push_str(&format!("        (from: {id}, to: {to}, two_way: true),\n"));
                }
            }
        }
    }
    s.push_str("    ],\n    archetypes: {\n        \"guard\": (senses: [(name: \"eyes\", shape: Cone(range: 30.0, fov_deg: 120.0), filter: Hostile)], movement: Walker(min_speed: 0.5, max_speed: 1.5, direction_change_factor: 20, planar: true)),\n    },\n    agents: [\n");
    for i in 0..1000u32 {
        let faction = if i.is_multiple_of(2) { "red" } else { "blue" };
        s.push_str(&format!(
            "        (name: \"a{i}\", archetype: \"guard\", faction: \"{faction}\", pos: ({}.0, 0.0, {}.0)),\n",
            (i * 37) % (side * 4),
            (i * 53) % (side * 4)
        ));
    }
    s.push_str("    ],\n)\n");
    s
}

fn parse_only(text: &str) -> Result<ContentDef, String> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| e.to_string())
}

/// The content scenarios on a `side` x `side` grid (317: 100,489 waypoints).
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let side = if effort.quick { 100 } else { 317 };
    let text = project(side);
    let waypoints = side * side;
    let show = |d: kiai_content::Diagnostics| d.to_string();

    // Text: parse + validate + lints against parse only.
    let ours = Content::from_str(&text, "generated.ron").map_err(show)?;
    if !ours.warnings.is_empty() {
        return Err(format!(
            "generated project has warnings: {:?}",
            ours.warnings[0]
        ));
    }
    let def = ours.def().ok_or("text content without definitions")?;
    let peer = parse_only(&text)?;
    if peer != *def {
        return Err("content: ron::from_str and kiai disagree".to_owned());
    }
    let est = once_ms(|| {
        let _ = Content::from_str(&text, "generated.ron");
    });
    let reps = effort.reps(est).min(if effort.quick { 3 } else { 15 });
    let ours_ms = median_ms(reps, || {
        let _ = std::hint::black_box(Content::from_str(&text, "generated.ron"));
    });
    let peer_ms = median_ms(reps, || {
        let _ = std::hint::black_box(parse_only(&text));
    });
    let mut out = vec![Scenario {
        name: format!("content/load+validate/{}k-waypoints", waypoints / 1000),
        ours_ms,
        peer: "ron::from_str (parse only, no validation)".to_owned(),
        peer_ms,
        note: format!(
            "{:.1} MB of RON, {waypoints} waypoints, {} links, 1000 agents; kiai parses (its reader for plain RON, ron for anything else), checks limits, validates and lints",
            text.len() as f64 / 1e6,
            def.links.len()
        ),
    }];

    // Pack: decode + resolve + validate against JSON of the same data.
    let pack = Pack::from_def(def).map_err(|e| e.to_string())?;
    let bytes = pack.encode().map_err(|e| e.to_string())?;
    let json = serde_json::to_vec(&pack).map_err(|e| e.to_string())?;
    let load_pack = |b: &[u8]| Pack::decode(b).map_err(|e| e.to_string());
    let from_pack = Content::from_pack(load_pack(&bytes)?, "generated.kpack").map_err(show)?;
    let from_json: Pack = serde_json::from_slice(&json).map_err(|e| e.to_string())?;
    if from_json != pack || from_pack.pack() != Some(&pack) {
        return Err("pack: postcard and serde_json disagree".to_owned());
    }
    let est = once_ms(|| {
        let _ = load_pack(&bytes);
    });
    let reps = effort.reps(est).min(if effort.quick { 5 } else { 30 });
    let ours_ms = median_ms(reps, || {
        let _ = std::hint::black_box(load_pack(&bytes));
    });
    let full_ms = median_ms(reps.min(5), || {
        let _ = std::hint::black_box(
            Pack::decode(&bytes).map(|p| Content::from_pack(p, "generated.kpack")),
        );
    });
    let peer_ms = median_ms(reps, || {
        let _ = std::hint::black_box(serde_json::from_slice::<Pack>(&json));
    });
    out.push(Scenario {
        name: format!("content/pack-load/{}k-waypoints", waypoints / 1000),
        ours_ms,
        peer: "serde_json::from_slice (same data, decode only)".to_owned(),
        peer_ms,
        note: format!(
            "pack {:.1} MB (JSON {:.1} MB); kiai checks the header and checksum, decodes and checks every index and limit; with full re-validation (Content::from_pack) {full_ms:.1} ms",
            bytes.len() as f64 / 1e6,
            json.len() as f64 / 1e6
        ),
    });
    Ok(out)
}
