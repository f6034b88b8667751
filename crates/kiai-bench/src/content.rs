//! Content loading: a generated 100k-waypoint project as RON text (parse,
//! validate, lint) and as an exported pack (decode, check), each what
//! `kiai` does before it builds a world.
//!
//! Peers: for the text, `ron::from_str` of the same file into the same
//! types without any validation (what a loader without diagnostics does;
//! kiai reads this plain text with its own reader and checks that `ron`
//! gives the same definitions); for the pack, `serde_json::from_slice` of
//! the same pack data as JSON; and the pack against kiai's own load of the
//! text. Both peers must produce the same data as kiai, and the pack must
//! build the same world as the text.

use kiai_content::def::ContentDef;
use kiai_content::pack::Pack;
use kiai_content::{Content, FORMAT_VERSION};
use kiai_core::state_hash;

use crate::{Effort, Scenario, median_ms, medians_interleaved, once_ms};

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

/// The generated project as text and as a pack, each loaded once and
/// checked against its peer: `ron` must read the same definitions, JSON the
/// same pack, and the pack must load into content that builds the same
/// world as the text.
struct Inputs {
    text: String,
    waypoints: u32,
    links: usize,
    bytes: Vec<u8>,
    json: Vec<u8>,
}

fn inputs(side: u32) -> Result<Inputs, String> {
    let show = |d: kiai_content::Diagnostics| d.to_string();
    let text = project(side);
    let ours = Content::from_str(&text, "generated.ron").map_err(show)?;
    if let Some(w) = ours.warnings.first() {
        return Err(format!("generated project has warnings: {w:?}"));
    }
    let def = ours.def().ok_or("text content without definitions")?;
    if parse_only(&text)? != *def {
        return Err("content: ron::from_str and kiai disagree".to_owned());
    }
    let pack = Pack::from_def(def).map_err(|e| e.to_string())?;
    let bytes = pack.encode().map_err(|e| e.to_string())?;
    let json = serde_json::to_vec(&pack).map_err(|e| e.to_string())?;
    let from_json: Pack = serde_json::from_slice(&json).map_err(|e| e.to_string())?;
    let loaded = Content::from_pack_bytes(&bytes, "generated.kiaipack").map_err(show)?;
    if from_json != pack || loaded.pack() != Some(&pack) {
        return Err("pack: postcard and serde_json disagree".to_owned());
    }
    let hash = |c: &Content| {
        c.world(None)
            .map(|w| state_hash(&w))
            .map_err(|e| e.to_string())
    };
    if hash(&ours)? != hash(&loaded)? {
        return Err("pack: its world differs from the text's".to_owned());
    }
    Ok(Inputs {
        waypoints: side * side,
        links: def.links.len(),
        text,
        bytes,
        json,
    })
}

/// The content scenarios on a `side` x `side` grid (317: 100,489 waypoints).
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let side = if effort.quick { 100 } else { 317 };
    let inp = inputs(side)?;
    let (text, bytes, json) = (&inp.text, &inp.bytes, &inp.json);
    let load_text = || std::hint::black_box(Content::from_str(text, "generated.ron")).is_ok();
    let load_pack =
        || std::hint::black_box(Content::from_pack_bytes(bytes, "generated.kiaipack")).is_ok();

    // Text against `ron` alone.
    let reps = effort
        .reps(once_ms(|| {
            load_text();
        }))
        .min(if effort.quick { 3 } else { 15 });
    let text_ms = median_ms(reps, || {
        load_text();
    });
    let ron_ms = median_ms(reps, || {
        let _ = std::hint::black_box(parse_only(text));
    });
    // The pack against the text of the same project, in turn, so that both
    // see the same machine load.
    let vs = medians_interleaved(reps, 2, |k| {
        let _ = if k == 0 { load_text() } else { load_pack() };
    });
    // The pack against JSON of the same data, and the decode alone.
    let reps = effort
        .reps(once_ms(|| {
            load_pack();
        }))
        .min(if effort.quick { 5 } else { 60 });
    let pack_ms = median_ms(reps, || {
        load_pack();
    });
    let json_ms = median_ms(reps, || {
        let _ = std::hint::black_box(serde_json::from_slice::<Pack>(json));
    });
    let decode_ms = median_ms(reps, || {
        let _ = std::hint::black_box(Pack::decode(bytes));
    });
    let k = inp.waypoints / 1000;
    Ok(vec![
        Scenario {
            name: format!("content/load+validate/{k}k-waypoints"),
            ours_ms: text_ms,
            peer: "ron::from_str (parse only, no validation)".to_owned(),
            peer_ms: ron_ms,
            note: format!(
                "{:.1} MB of RON, {} waypoints, {} links, 1000 agents; kiai parses (its reader for plain RON, ron for anything else), checks limits, validates and lints",
                text.len() as f64 / 1e6,
                inp.waypoints,
                inp.links
            ),
        },
        Scenario {
            name: format!("content/pack-load/{k}k-waypoints"),
            ours_ms: pack_ms,
            peer: "serde_json::from_slice (same data, decode only)".to_owned(),
            peer_ms: json_ms,
            note: format!(
                "pack {:.1} MB (JSON {:.1} MB); kiai's Content::from_pack_bytes, what `kiai` does with a pack file: header, checksum, decode, every index and limit, the value rules of content (no names resolved, nothing converted back to definitions); of which Pack::decode {:.2} ms",
                bytes.len() as f64 / 1e6,
                json.len() as f64 / 1e6,
                decode_ms
            ),
        },
        Scenario {
            name: format!("content/pack-vs-text/{k}k-waypoints"),
            ours_ms: vs[1],
            peer: "kiai's own load + validate of the same project as RON".to_owned(),
            peer_ms: vs[0],
            note: "Content::from_pack_bytes against Content::from_str of the same project, run in turn; both give content that builds the same world (state hash checked); target ratio >= 10".to_owned(),
        },
    ])
}
