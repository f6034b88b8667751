//! `kiai navgen FILE` as a user runs it: the four lines it prints, the
//! `--json` figures (the uniform grid compared at the same coverage),
//! `--write` editing in place with comments kept and a second run
//! changing no byte, a net made at another spacing remade and judged at
//! it (the file records it), and a map without bounds refused with what
//! to add.

mod common;

use common::{json, kiai, path_str, read_text, stdout};

const FORTRESS: &str = "content/demo/fortress.ron";
const GENERATED: &str = "content/examples/fortress_generated.ron";
const VILLAGE: &str = "content/examples/village_generated.ron";

#[test]
fn the_shipped_generated_maps_are_what_navgen_makes() {
    for file in [GENERATED, VILLAGE] {
        let out = stdout(&["navgen", file]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(lines[0].starts_with(&format!("{file}: ")), "{out}");
        assert!(lines[1].starts_with("  coverage 100.0% of 2000"), "{out}");
        assert!(
            lines[2].starts_with("  uniform grid of the same coverage: spacing "),
            "{out}"
        );
        assert_eq!(lines[3], "  the file already holds this net", "{out}");
    }
}

#[test]
fn the_generated_village_validates_clean_and_its_people_walk_the_net() {
    let check = kiai(&["validate", VILLAGE]);
    let said = String::from_utf8_lossy(&check.stderr);
    assert!(said.contains("0 errors, 0 warnings"), "{said}");
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let positions = dir.path().join("positions.jsonl");
    stdout(&[
        "run",
        VILLAGE,
        "--ticks",
        "300",
        "--positions",
        path_str(&positions),
    ]);
    let mut walked: std::collections::BTreeMap<String, (f64, [f64; 2])> = Default::default();
    for line in read_text(&positions).lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}"));
        let name = r["agent"].as_str().unwrap_or("?").to_owned();
        let at = [
            r["pos"][0].as_f64().unwrap_or(0.0),
            r["pos"][2].as_f64().unwrap_or(0.0),
        ];
        let e = walked.entry(name).or_insert((0.0, at));
        e.0 += ((at[0] - e.1[0]).powi(2) + (at[1] - e.1[1]).powi(2)).sqrt();
        e.1 = at;
    }
    let far = walked.values().filter(|(d, _)| *d > 20.0).count();
    assert!(far >= 4, "{walked:?}");
}

#[test]
fn json_compares_with_a_uniform_grid_of_the_same_coverage() {
    let j = json(&["navgen", FORTRESS, "--json"]);
    let coverage = j["coverage"].as_f64().unwrap_or(0.0);
    assert!(coverage >= 0.999, "{j}");
    let grid = &j["grid"];
    assert!(grid["coverage"].as_f64().unwrap_or(0.0) >= coverage, "{j}");
    let spacing = grid["spacing"].as_f64().unwrap_or(0.0);
    assert!(spacing > 0.0 && spacing <= j["spacing"].as_f64().unwrap_or(0.0));
    // Every coarser spacing tried covered less.
    for tried in grid["coarser"].as_array().into_iter().flatten() {
        assert!(tried["spacing"].as_f64().unwrap_or(0.0) > spacing, "{j}");
        assert!(tried["coverage"].as_f64().unwrap_or(1.0) < coverage, "{j}");
    }
    assert!(grid["waypoints"].as_u64().unwrap_or(0) > 0, "{j}");
    assert_eq!(
        j["changed"], true,
        "the demo has hand-placed waypoints only"
    );
    assert_eq!(j["written"], false);
}

#[test]
fn write_edits_in_place_keeps_comments_and_a_second_run_changes_nothing() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("fortress.ron");
    let before = read_text(&common::root().join(FORTRESS));
    std::fs::write(&file, &before).unwrap_or_else(|e| panic!("{e}"));
    let out = stdout(&["navgen", path_str(&file), "--write"]);
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("  wrote ")),
        "{out}"
    );
    let once = read_text(&file);
    assert_eq!(read_text(&dir.path().join("fortress.ron.bak")), before);
    for comment in before.lines().filter(|l| l.trim_start().starts_with("//")) {
        assert!(once.contains(comment), "lost the comment {comment:?}");
    }
    assert!(once.contains(r#"tags: ["generated"]"#));
    let again = stdout(&["navgen", path_str(&file), "--write"]);
    assert_eq!(
        again.lines().last(),
        Some("  the file already holds this net"),
        "{again}"
    );
    assert_eq!(read_text(&file), once, "regenerating changed bytes");
    let check = kiai(&["validate", path_str(&file)]);
    let said = String::from_utf8_lossy(&check.stderr);
    assert!(
        check.status.success() && said.contains("0 errors"),
        "{said}"
    );
}

#[test]
fn a_map_without_bounds_is_refused_with_what_to_add() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("open.ron");
    let level =
        "(format: 2, name: \"open\", walls: [(from: (0.0, 0.0), to: (5.0, 0.0), height: 3.0)])\n";
    std::fs::write(&file, level).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["navgen", path_str(&file), "--write"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("add `bounds"), "{err}");
    assert_eq!(read_text(&file), level, "the file was touched");
}

#[test]
fn validate_warns_where_a_generated_net_leaves_walkable_ground_uncovered() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("village.ron");
    let text = read_text(&common::root().join(VILLAGE));
    // A hole: the generated waypoints of the north-east corner deleted,
    // with their links.
    let field = |l: &str, name: &str| -> Option<f32> {
        let rest = l.split(name).nth(1)?;
        rest.split([',', ')']).next()?.trim().parse().ok()
    };
    let gone: Vec<u32> = text
        .lines()
        .filter(|l| l.contains("tags: [\"generated\"]"))
        .filter(|l| {
            let x = field(l, "pos: (").unwrap_or(0.0);
            let z = l
                .split("pos: (")
                .nth(1)
                .and_then(|p| p.split(',').nth(2))
                .and_then(|v| v.trim_end_matches(')').trim().parse::<f32>().ok())
                .unwrap_or(0.0);
            x > 80.0 && z > 50.0
        })
        .filter_map(|l| field(l, "(id: ").map(|id| id as u32))
        .collect();
    assert!(gone.len() >= 5, "the corner had generated waypoints");
    let names = |l: &str| -> bool {
        let id = |name| field(l, name).map(|v| v as u32);
        [id("(id: "), id("(from: "), id("to: ")]
            .iter()
            .flatten()
            .any(|i| gone.contains(i))
            && !l.contains("walls")
    };
    let holed: String = text
        .lines()
        .filter(|l| !(l.trim_start().starts_with('(') && names(l)))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, &holed).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["validate", path_str(&file)]);
    let said = String::from_utf8_lossy(&out.stdout);
    let warning = said
        .lines()
        .find(|l| l.contains("no waypoint within 4 units covers the walkable ground at ("))
        .unwrap_or_else(|| panic!("no coverage warning:\n{said}"));
    assert!(warning.contains(": warning: "), "{warning}");
    assert!(
        warning.contains("kiai navgen"),
        "says what to run: {warning}"
    );
    // Regenerated, the hole is filled and the warning gone.
    stdout(&["navgen", path_str(&file), "--write"]);
    let again = kiai(&["validate", path_str(&file)]);
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(!said.contains("covers the walkable ground"), "{said}");
}

#[test]
fn a_net_written_at_another_spacing_is_remade_and_judged_at_that_spacing() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("fortress.ron");
    let before = read_text(&common::root().join(FORTRESS));
    std::fs::write(&file, &before).unwrap_or_else(|e| panic!("{e}"));
    stdout(&["navgen", path_str(&file), "--spacing", "12", "--write"]);
    let once = read_text(&file);
    let recorded: Vec<&str> = once.lines().filter(|l| l.contains("navgen:")).collect();
    assert_eq!(
        recorded,
        ["    navgen: (radius: 0.5, spacing: 12.0),"],
        "the file names what it was generated with"
    );
    // Judged at 12 units, the coarse net covers the ground: no warning
    // that would send the designer back to the default spacing.
    let check = kiai(&["validate", path_str(&file)]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(!said.contains("covers the walkable ground"), "{said}");
    // Run again without flags, it generates at 12 and finds the same net.
    let again = stdout(&["navgen", path_str(&file), "--write"]);
    let lines: Vec<&str> = again.lines().collect();
    assert!(lines[0].ends_with("(radius 0.5, spacing 12)"), "{again}");
    assert_eq!(lines[3], "  the file already holds this net", "{again}");
    assert_eq!(read_text(&file), once, "regenerating changed bytes");
    // The first line of `kiai navgen FILE --radius R` ends with `ends`.
    let at_radius = |radius: &str, ends: &str| {
        let out = stdout(&["navgen", path_str(&file), "--radius", radius]);
        assert!(
            out.lines().next().is_some_and(|l| l.ends_with(ends)),
            "{out}"
        );
    };
    // At another radius, the spacing stays 12 (it was chosen, not the
    // radius's default).
    at_radius("0.6", "(radius 0.6, spacing 12)");
    // Back at 4 units, the record says so and the net is finer.
    stdout(&["navgen", path_str(&file), "--spacing", "4", "--write"]);
    let fine = read_text(&file);
    assert!(fine.contains("    navgen: (radius: 0.5, spacing: 4.0),\n"));
    let count = |t: &str| t.matches(r#"tags: ["generated"]"#).count();
    assert!(count(&fine) > count(&once), "a finer net");
    // A spacing that is the default for its radius follows a new radius.
    at_radius("1", "(radius 1, spacing 8)");
}

#[test]
fn a_file_generated_before_the_record_learns_it_on_the_next_write() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("village.ron");
    let text = read_text(&common::root().join(VILLAGE));
    let old: String = text
        .lines()
        .filter(|l| !l.contains("navgen:"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, &old).unwrap_or_else(|e| panic!("{e}"));
    let out = stdout(&["navgen", path_str(&file)]);
    assert_eq!(
        out.lines().last(),
        Some(
            "  the file holds this net; --write records the radius and spacing it was generated with (navgen)"
        ),
        "{out}"
    );
    stdout(&["navgen", path_str(&file), "--write"]);
    assert_eq!(read_text(&file), text, "the shipped file, record and all");
}

#[test]
fn a_recorded_spacing_wider_than_the_map_is_a_warning_at_its_line() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("map.ron");
    let level = "(\n    format: 2,\n    bounds: (min: (0.0, 0.0, 0.0), max: (30.0, 1.0, 20.0)),\n    navgen: (radius: 0.5, spacing: 1e9),\n)\n";
    std::fs::write(&file, level).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["validate", path_str(&file)]);
    assert_eq!(out.status.code(), Some(0), "a warning, not an error");
    let said = String::from_utf8_lossy(&out.stdout);
    let warned: Vec<&str> = said.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(
        warned,
        [format!(
            "{path}:4:36: warning: navgen.spacing 1000000000 is wider than the map (30 x 20 \
             world units): coverage is checked at a handful of points and the net is sparse; \
             regenerate with `kiai navgen {path} --spacing S --write`, S at most 30",
            path = path_str(&file)
        )],
        "{said}"
    );
    // A spacing within the map says nothing.
    std::fs::write(&file, level.replace("1e9", "8.0")).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["validate", path_str(&file)]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!said.contains("warning:"), "{said}");
}

#[test]
fn a_recorded_spacing_out_of_range_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("map.ron");
    let level = "(\n    format: 2,\n    bounds: (min: (0.0, 0.0, 0.0), max: (10.0, 1.0, 10.0)),\n    navgen: (radius: 0.5, spacing: 0.0),\n)\n";
    std::fs::write(&file, level).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["validate", path_str(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout);
    let line = said
        .lines()
        .find(|l| l.contains("navgen.spacing must be finite and > 0.01"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        line.starts_with(&format!("{}:4:", path_str(&file))),
        "{line}"
    );
    // `kiai navgen` says where the value came from and what to do.
    let bad = level.replace("spacing: 0.0", "spacing: inf");
    std::fs::write(&file, &bad).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["navgen", path_str(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "navgen.spacing is inf in the file, not a finite number: fix it, or pass --spacing"
        ),
        "{err}"
    );
}
