//! The reader's contract: whatever it accepts, `ron` accepts with the
//! same value. Checked on every RON file in the repository, on random
//! mutations of them, and on number tokens of every shape (and, in the
//! writer's tests, on their saved forms).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;

use crate::format::def::{ContentDef, WaypointDef};
use crate::read::migrate::v1::ContentDefV1;

pub(crate) fn by_ron<T: DeserializeOwned>(text: &str) -> Option<T> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .ok()
}

/// Whether the fast reader accepted `text` as `T`; panics when it
/// accepted something `ron` rejects or reads differently. Values are
/// compared by their `Debug` text so that NaN and -0.0 count too.
pub(crate) fn agrees<T: DeserializeOwned + std::fmt::Debug>(text: &str) -> bool {
    let Some(super::Read { value: fast, .. }) = super::from_str::<T>(text) else {
        return false;
    };
    match by_ron::<T>(text) {
        Some(slow) => assert_eq!(
            format!("{fast:?}"),
            format!("{slow:?}"),
            "different values for:\n{text}"
        ),
        None => panic!("the fast reader accepted text ron rejects:\n{text}"),
    }
    true
}

fn both(text: &str) -> bool {
    let a = agrees::<ContentDef>(text);
    let b = agrees::<ContentDefV1>(text);
    a || b
}

fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            ron_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ron")
            && !p.to_string_lossy().ends_with(".events.ron")
        {
            // Events files (`*.events.ron`) are RON but not content.
            out.push(p);
        }
    }
}

pub(crate) fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["content", "tests"] {
        ron_files(&root.join(dir), &mut files);
    }
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect();
    assert!(texts.len() >= 50, "{} files", texts.len());
    texts
}

#[test]
fn repository_files_agree() {
    let mut accepted = 0;
    for text in corpus() {
        accepted += usize::from(both(&text));
    }
    assert!(accepted >= 5, "only {accepted} files took the fast path");
}

/// Fragments that stress the subset's edges: everything `ron` reads
/// differently from a plain token, or that ends a token.
const TOKENS: &[&str] = &[
    ",",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    "\"",
    "\\",
    "\\n",
    "//",
    "/*",
    "*/",
    "\n",
    " ",
    "\t",
    "\r",
    "\u{b}",
    "\u{85}",
    "\u{2028}",
    "#",
    "#![enable(implicit_some)]",
    "r#",
    "r\"",
    "b\"",
    "'a'",
    "_",
    ".",
    "..",
    "..=",
    "-",
    "+",
    "e",
    "E",
    "1e5",
    "1.",
    ".5",
    "0x1F",
    "0b1",
    "0o7",
    "1_000",
    "1u32",
    "1i64",
    "1f32",
    "1.0f64",
    "inf",
    "-inf",
    "NaN",
    "None",
    "Some(",
    "Some",
    "true",
    "false",
    "()",
    "0",
    "-0",
    "4294967296",
    "18446744073709551616",
    "-1",
    "é",
    "ContentDef",
    "WaypointDef",
    "Sphere",
    "Cone(range: 1.0, fov_deg: 2.0)",
    "id",
    "pos",
    "name",
    "format",
    "active",
    "tags",
    "costs",
    "two_way",
    "Range",
];

fn mutate(rng: &mut ChaCha8Rng, text: &str) -> String {
    let mut s = text.to_owned();
    for _ in 0..rng.random_range(1..4) {
        let mut at = rng.random_range(0..=s.len());
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        match rng.random_range(0..4) {
            0 => s.insert_str(at, TOKENS[rng.random_range(0..TOKENS.len())]),
            1 => {
                let mut end = (at + rng.random_range(1..8)).min(s.len());
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                s.replace_range(at..end, "");
            }
            2 => {
                let mut end = (at + rng.random_range(1..40)).min(s.len());
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                let copy = s[at..end].to_owned();
                s.insert_str(end, &copy);
            }
            _ => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())];
                let mut end = (at + t.len()).min(s.len());
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                s.replace_range(at..end, t);
            }
        }
    }
    s
}

#[test]
fn mutated_files_agree() {
    let texts: Vec<String> = corpus()
        .into_iter()
        .filter(|t| by_ron::<ContentDef>(t).is_some() || by_ron::<ContentDefV1>(t).is_some())
        .filter(|t| t.len() < 20_000)
        .collect();
    assert!(!texts.is_empty());
    let mut rng = ChaCha8Rng::seed_from_u64(0x6b69_6169);
    let mut accepted = 0;
    // `KIAI_MUTATIONS=1000000` runs a longer search.
    let iterations = std::env::var("KIAI_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6000);
    for i in 0..iterations {
        let text = mutate(&mut rng, &texts[i % texts.len()]);
        accepted += usize::from(both(&text));
    }
    // Many mutations stay valid (white space, duplicated list items):
    // the comparison must have had something to compare.
    assert!(accepted > iterations / 20, "only {accepted} accepted");
}

/// The shape of `kiai bench`'s generated project (one struct per line,
/// named costs, inactive waypoints) takes the fast path.
#[test]
fn generated_project_shape_is_read_fast() {
    let text = r#"(
format: 2,
name: "generated",
seed: 1,
bounds: (min: (-10.0, 0.0, -10.0), max: (18.0, 10.0, 18.0)),
factions: [(name: "red", hostile: ["blue"]), (name: "blue", hostile: ["red"])],
cost_lists: ["infantry", "vehicle"],
waypoints: [
    (id: 0, pos: (0.0, 0.0, 0.0), active: false),
    (id: 1, pos: (4.0, 0.0, 0.0)),
],
links: [
    (from: 0, to: 1, costs: {"vehicle": 2.5}, two_way: true),
],
archetypes: {
    "guard": (senses: [(name: "eyes", shape: Cone(range: 30.0, fov_deg: 120.0), filter: Hostile)], movement: Walker(min_speed: 0.5, max_speed: 1.5, direction_change_factor: 20, planar: true)),
},
agents: [
    (name: "a0", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0)),
],
)
"#;
    assert!(agrees::<ContentDef>(text));
}

#[test]
fn brackets_in_comments_still_meet_the_nesting_check() -> Result<(), &'static str> {
    let text = format!("(\n    format: 2, // {}\n)", "(".repeat(70));
    let read = super::from_str::<ContentDef>(&text).ok_or("not read")?;
    assert!(read.brackets_in_comments);
    let Err(err) = crate::read::parse::parse(&text, "f.ron") else {
        return Err("nesting not reported");
    };
    let err = err.to_string();
    assert!(err.contains("nesting deeper than 64 levels"), "{err}");
    let plain = "(\n    format: 2, // no brackets\n)";
    let read = super::from_str::<ContentDef>(plain).ok_or("not read")?;
    assert!(!read.brackets_in_comments);
    Ok(())
}

fn waypoint(id: &str, x: &str) -> String {
    format!("(id: {id}, pos: ({x}, 0.0, 0.0))")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn float_tokens_agree(t in "[-+]?[0-9_]{0,4}(\\.[0-9_]{0,4})?([eE][-+]?[0-9]{0,3})?[a-z_.]{0,2}") {
        agrees::<WaypointDef>(&waypoint("1", &t));
    }

    #[test]
    fn integer_tokens_agree(t in "[-+]?(0[xbo])?[0-9a-f_]{0,22}[iu.]?[0-9]{0,2}") {
        agrees::<WaypointDef>(&waypoint(&t, "1.0"));
    }

    #[test]
    fn float_values_round_trip(x in any::<f32>().prop_filter("finite", |x| x.is_finite())) {
        for t in [format!("{x}"), format!("{x:?}"), format!("{x:e}"), format!("{:.3}", x)] {
            let text = waypoint("7", &t);
            prop_assert!(agrees::<WaypointDef>(&text), "{}", text);
        }
    }

    #[test]
    fn integer_values_agree(v in any::<u64>(), neg in any::<bool>()) {
        let t = if neg { format!("-{v}") } else { v.to_string() };
        let accepted = agrees::<WaypointDef>(&waypoint(&t, "1.0"));
        prop_assert_eq!(accepted, !neg && v <= u64::from(u32::MAX) || neg && v == 0);
    }
}
