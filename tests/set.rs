//! `kiai set FILE PATH=VALUE...` as a user runs it: each kind of path
//! changes only its value's text; refused edits leave the file's bytes as
//! they were, exit 1 and say which path and what would fit.

mod common;

use std::path::{Path, PathBuf};

use common::{kiai, path_str, read_text, root};

/// A level with one of everything the examples name, and comments.
const LEVEL: &str = r#"// A level for `kiai set`.
(
    format: 2,
    name: "set",
    seed: 3, // the seed
    factions: [(name: "red", hostile: ["blue"]), (name: "blue")],
    waypoints: [
        (id: 1, pos: (0.0, 0.0, 0.0)),
        (id: 3, pos: (10.0, 0.0, 0.0)), // the bridge
    ],
    links: [(from: 1, to: 3, two_way: true)],
    profiles: {
        "coward": (chase: 2, evade: 8),
    },
    archetypes: {
        // Guards look ahead.
        "guard": (
            senses: [(name: "eyes", shape: Cone(range: 18.0, fov_deg: 110.0), filter: Hostile)],
            profile: "coward",
        ),
    },
    agents: [
        (name: "g1", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0)),   // at the gate
        (name: "b1", archetype: "guard", faction: "blue", pos: (5.0, 0.0, 5.0)),
    ],
)
"#;

fn level(dir: &Path) -> PathBuf {
    let file = dir.join("level.ron");
    std::fs::write(&file, LEVEL).unwrap_or_else(|e| panic!("{e}"));
    file
}

#[test]
fn each_kind_of_path_changes_only_its_value() {
    // (assignment, text before, text after): the one change expected.
    let cases = [
        (
            "archetypes.guard.senses.eyes.shape.range=40",
            "Cone(range: 18.0,",
            "Cone(range: 40.0,",
        ),
        (
            "agents.g1.pos=(1.0, 0.0, 2.0)",
            "pos: (0.0, 0.0, 0.0)),   // at the gate",
            "pos: (1.0, 0.0, 2.0)),   // at the gate",
        ),
        (
            "waypoints.3.active=false",
            "(id: 3, pos: (10.0, 0.0, 0.0)), // the bridge",
            "(id: 3, pos: (10.0, 0.0, 0.0), active: false), // the bridge",
        ),
        ("profiles.coward.evade=9", "evade: 8)", "evade: 9.0)"),
        ("seed=7", "seed: 3, // the seed", "seed: 7, // the seed"),
    ];
    for (assignment, before, after) in cases {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = level(dir.path());
        let out = kiai(&["set", path_str(&file), assignment, "--json"]);
        assert!(
            out.status.success(),
            "{assignment}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{assignment}: {e}"));
        let path = assignment.split('=').next().unwrap_or_default();
        assert_eq!(json["ok"], true, "{assignment}");
        assert_eq!(json["changed"], serde_json::json!([path]), "{assignment}");
        assert_eq!(json["written"], true, "{assignment}");
        assert_eq!(
            read_text(&file),
            LEVEL.replacen(before, after, 1),
            "{assignment}"
        );
        assert_eq!(
            read_text(&dir.path().join("level.ron.bak")),
            LEVEL,
            "{assignment}"
        );
        // The result is valid content that the commands read.
        let check = kiai(&["validate", path_str(&file)]);
        assert!(check.status.success(), "{assignment}");
    }
}

#[test]
fn several_values_at_once_and_a_value_already_set() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = level(dir.path());
    let f = path_str(&file);
    let out = kiai(&["set", f, "seed=7", "agents.b1.pos.1=2.5", "name=\"set\""]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            format!("{f}: 2 values set"),
            "  seed: 3 -> 7".to_owned(),
            "  agents.b1.pos.1: 0.0 -> 2.5".to_owned(),
            format!("  previous version kept as {f}.bak"),
        ]
    );
    let expected = LEVEL.replacen("seed: 3,", "seed: 7,", 1).replacen(
        "pos: (5.0, 0.0, 5.0)",
        "pos: (5.0, 2.5, 5.0)",
        1,
    );
    assert_eq!(read_text(&file), expected);
    // Nothing to change: nothing written, not even a backup.
    std::fs::remove_file(dir.path().join("level.ron.bak")).unwrap_or_else(|e| panic!("{e}"));
    let again = kiai(&["set", f, "seed=7", "--json"]);
    assert!(again.status.success());
    let json: serde_json::Value =
        serde_json::from_slice(&again.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["changed"], serde_json::json!([]));
    assert_eq!(json["written"], false);
    assert!(!dir.path().join("level.ron.bak").exists());
}

#[test]
fn a_dry_run_shows_the_lines_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = level(dir.path());
    let f = path_str(&file);
    let out = kiai(&["set", f, "waypoints.3.active=false", "--dry-run"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            format!("{f}: 1 value would change (dry run: nothing written)"),
            "  waypoints.3.active: (default) -> false".to_owned(),
            "      9 -         (id: 3, pos: (10.0, 0.0, 0.0)), // the bridge".to_owned(),
            "        +         (id: 3, pos: (10.0, 0.0, 0.0), active: false), // the bridge"
                .to_owned(),
        ]
    );
    assert_eq!(read_text(&file), LEVEL);
    assert!(!dir.path().join("level.ron.bak").exists());
}

#[test]
fn refused_edits_leave_the_file_byte_identical() {
    // (assignment, what stderr must say: the path and a hint)
    let cases = [
        (
            "archetypes.gaurd.noise=3",
            "`archetypes.gaurd.noise`: `archetypes` has no entry `gaurd`; did you mean `guard`?",
        ),
        (
            "archetypes.guard.senses.eyes.shape.rnage=40",
            "(`Cone`) has no field `rnage`; did you mean `range`? Valid here: range, fov_deg",
        ),
        (
            "no_such_field.x=1",
            "`no_such_field.x`: the content file has no field `no_such_field`; valid here: format",
        ),
        (
            "waypoints.4.active=false",
            "no item with id `4`; did you mean `1`?",
        ),
        (
            "agents.g1.pos=\"far\"",
            "`agents.g1.pos`: `\"far\"` is not a value of this kind",
        ),
        (
            "agents.g1.pos=\"far\"",
            "expected a value like the current one, `(0.0, 0.0, 0.0)`",
        ),
        (
            "archetypes.guard.senses.eyes.shape.range=-5",
            "`archetypes.guard.senses.eyes.shape.range=-5` would make",
        ),
        (
            "archetypes.guard.senses.eyes.shape.range=-5",
            "range must be greater than 0, not -5",
        ),
        (
            "agents.g1.archetype=\"gaurd\"",
            "unknown archetype `gaurd`; did you mean `guard`?",
        ),
        ("seed", "expected PATH=VALUE"),
    ];
    for (assignment, says) in cases {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = level(dir.path());
        // A valid edit first in the same call: refused as a whole.
        let out = kiai(&["set", path_str(&file), "seed=9", assignment]);
        assert_eq!(out.status.code(), Some(1), "{assignment}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{assignment}: {stderr}");
        assert!(
            stderr.contains("nothing was written"),
            "{assignment}: {stderr}"
        );
        assert_eq!(std::fs::read(&file).unwrap_or_default(), LEVEL.as_bytes());
        assert!(!dir.path().join("level.ron.bak").exists(), "{assignment}");
        let json = kiai(&["set", path_str(&file), assignment, "--json"]);
        assert_eq!(json.status.code(), Some(1));
        let v: serde_json::Value =
            serde_json::from_slice(&json.stdout).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v["ok"], false);
        assert_eq!(v["changed"], serde_json::json!([]));
    }
}

#[test]
fn files_it_cannot_edit_are_refused() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let v1 = dir.path().join("v1.ron");
    std::fs::copy(root().join("tests/data/village_v1.ron"), &v1).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["set", path_str(&v1), "seed=1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("kiai migrate"));
    let missing = dir.path().join("missing.ron");
    let out = kiai(&["set", path_str(&missing), "seed=1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let help = kiai(&["set", "--help"]);
    assert!(help.status.success());
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("Examples:") && help.contains("PATH=VALUE"),
        "{help}"
    );
}
