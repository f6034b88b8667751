//! `kiai test` as CI uses it: the example suite passes; a demo broken on
//! purpose (the fortress guards' cone shrunk) fails exactly the scenarios
//! that document it, each with its tick and a why-trace; the JUnit report
//! has the shape CI systems read; decision coverage lists every branch;
//! partitions split a suite without overlap.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{json, root};
use serde_json::Value;

/// Runs `kiai ARGS` in `dir`.
fn kiai_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kiai"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run kiai: {e}"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{e}"));
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// A copy of the demos, scripts and example scenarios.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for d in ["content", "scripts", "tests/scenarios"] {
        copy_dir(&root().join(d), &dir.path().join(d));
    }
    dir
}

/// The project with the fortress guards' eyes shrunk from 40 to 5 units.
fn broken_project() -> tempfile::TempDir {
    let dir = project();
    let out = kiai_in(
        dir.path(),
        &[
            "set",
            "content/demo/fortress.ron",
            "archetypes.guard.senses.eyes.shape.range=5",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_example_suite_passes_with_a_line_per_scenario() {
    let v = json(&["test", "tests/scenarios", "--json"]);
    let scenarios = v["scenarios"].as_array().cloned().unwrap_or_default();
    assert!(scenarios.len() >= 12, "{v}");
    assert_eq!(v["failed"], 0, "{v}");
    assert_eq!(v["passed"].as_u64(), Some(scenarios.len() as u64));
    for s in &scenarios {
        assert_eq!(s["ok"], true, "{s}");
        assert!(s["ticks"].as_u64().is_some_and(|t| t >= 1), "{s}");
        assert!(s["failure"].is_null(), "{s}");
    }
    let out = common::kiai(&["test", "tests/scenarios"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("PASS  ")).count(),
        scenarios.len()
    );
    assert_eq!(
        lines
            .last()
            .map(|l| l.split(" (").next().unwrap_or_default()),
        Some(format!("{} passed, 0 failed", scenarios.len()).as_str())
    );
}

#[test]
fn a_shrunk_cone_fails_exactly_the_scenarios_that_need_it_with_tick_and_why() {
    let dir = broken_project();
    let out = kiai_in(dir.path(), &["test", "tests/scenarios"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let failed: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("FAIL  "))
        .map(|l| l.split_whitespace().next().unwrap_or_default())
        .collect();
    assert_eq!(
        failed,
        ["fortress_gate", "fortress_player_walks_in"],
        "{stdout}"
    );
    // The first failing expectation, where it is written, and its tick.
    assert!(stdout.contains(
        "      tests/scenarios/fortress_gate.scenario.ron:8:9: `sees(gate_guard, thief_at_gate, eyes) within 5 ticks` did not hold at any tick from 1 to 5\n"
    ), "{stdout}");
    // The why-trace of both agents it names, at that tick.
    let why: Vec<&str> = stdout
        .lines()
        .filter(|l| {
            l.starts_with("      why gate_guard at tick 5: ")
                || l.starts_with("      why thief_at_gate at tick 5: ")
        })
        .collect();
    assert_eq!(why.len(), 2, "{stdout}");
    assert!(
        why[0].contains("random_walk by no_option") && why[0].contains("; eyes []"),
        "{}",
        why[0]
    );
    assert!(why[1].contains("; eyes [gate_guard]"), "{}", why[1]);
    assert!(
        stdout.ends_with(" passed, 2 failed (13 scenarios, ")
            || stdout.contains(" passed, 2 failed (")
    );

    let v: Value =
        serde_json::from_slice(&kiai_in(dir.path(), &["test", "tests/scenarios", "--json"]).stdout)
            .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["failed"], 2, "{v}");
    let gate = v["scenarios"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["name"] == "fortress_gate"))
        .cloned()
        .unwrap_or_default();
    let f = &gate["failure"];
    assert_eq!(
        (f["tick"].as_u64(), f["line"].as_u64(), f["column"].as_u64()),
        (Some(5), Some(8), Some(9))
    );
    assert_eq!(f["why"][0]["agent"], "gate_guard");
    assert_eq!(f["why"][0]["senses"]["eyes"], serde_json::json!([]));
    assert_eq!(f["why"][0]["decided_by"], "no_option");
}

#[test]
fn junit_output_has_the_testsuite_testcase_failure_shape() {
    let dir = broken_project();
    let out = kiai_in(
        dir.path(),
        &["test", "tests/scenarios", "--junit", "report.xml"],
    );
    assert_eq!(out.status.code(), Some(1));
    let xml =
        std::fs::read_to_string(dir.path().join("report.xml")).unwrap_or_else(|e| panic!("{e}"));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("not XML: {e}\n{xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    assert_eq!(suites.len(), 1);
    let suite = suites[0];
    assert_eq!(suite.tag_name().name(), "testsuite");
    let cases: Vec<_> = suite.children().filter(|n| n.is_element()).collect();
    assert_eq!(
        suite.attribute("tests"),
        Some(cases.len().to_string().as_str())
    );
    assert_eq!(suite.attribute("failures"), Some("2"));
    assert_eq!(suite.attribute("errors"), Some("0"));
    assert!(
        suite
            .attribute("time")
            .is_some_and(|t| t.parse::<f64>().is_ok())
    );
    let mut failed = Vec::new();
    for case in &cases {
        assert_eq!(case.tag_name().name(), "testcase");
        assert!(case.attribute("name").is_some() && case.attribute("classname").is_some());
        assert!(
            case.attribute("time")
                .is_some_and(|t| t.parse::<f64>().is_ok())
        );
        let children: Vec<_> = case.children().filter(|n| n.is_element()).collect();
        if let Some(f) = children.first() {
            assert_eq!(f.tag_name().name(), "failure");
            assert!(
                f.attribute("message")
                    .is_some_and(|m| m.contains("did not hold"))
            );
            assert!(
                f.text().is_some_and(|t| t.contains("\nwhy ")),
                "{:?}",
                f.text()
            );
            failed.push(case.attribute("name").unwrap_or_default());
        }
    }
    assert_eq!(failed, ["fortress_gate", "fortress_player_walks_in"]);
}

/// A scenario on the door content that runs 30 ticks: closed for 20 (the
/// guard has no option), then open (it chases by the fixed rule: no profile).
const DOOR_SCENARIO: &str = r#"(
    content: "content/door.ron",
    ticks: 30,
    events: [(tick: 20, do: Door(wall: "door", open: true))],
    expect: ["state(guard) == chase at end"],
)"#;

#[test]
fn coverage_lists_every_branch_and_the_ones_never_taken() {
    let dir = project();
    let scenarios = dir.path().join("tests/scenarios");
    std::fs::write(scenarios.join("cover.scenario.ron"), DOOR_SCENARIO)
        .unwrap_or_else(|e| panic!("{e}"));
    let file = PathBuf::from("tests/scenarios/cover.scenario.ron");
    let out = kiai_in(dir.path(), &["test", &file.display().to_string(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let guard = &v["coverage"]["tests/scenarios/content/door.ron: guard"];
    assert_eq!(
        guard["branches"],
        serde_json::json!({"no_option": 20, "single_option": 0, "fixed_rule": 10, "weights": 0, "kept": 0}),
        "{v}"
    );
    assert_eq!(
        guard["never"],
        serde_json::json!(["single_option", "weights", "kept"])
    );
    let human = text(
        &kiai_in(
            dir.path(),
            &["test", &file.display().to_string(), "--coverage"],
        )
        .stdout,
    );
    assert!(human.contains(
        "  tests/scenarios/content/door.ron: guard: no_option 20, single_option 0, fixed_rule 10, weights 0, kept 0\n    never exercised: single_option, weights, kept\n"
    ), "{human}");
    // Scripts: the captain only ever decides in Lua, in its own state.
    let v: Value = serde_json::from_slice(
        &kiai_in(
            dir.path(),
            &[
                "test",
                "tests/scenarios/guards_captain_radio.scenario.ron",
                "--json",
            ],
        )
        .stdout,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let captain = &v["coverage"]["content/demo/guards.ron: captain"];
    let ticks = v["scenarios"][0]["ticks"].as_u64().unwrap_or(0);
    assert_eq!(captain["branches"]["script"].as_u64(), Some(ticks), "{v}");
    assert_eq!(captain["states"]["command"].as_u64(), Some(ticks), "{v}");
    assert_eq!(captain["branches"]["no_option"], 0);
}

#[test]
fn partitions_split_the_suite_and_filters_pick_by_name() {
    let names = |args: &[&str]| -> Vec<String> {
        json(args)["scenarios"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let all = names(&["test", "tests/scenarios", "--json"]);
    let mut parts = Vec::new();
    for k in 1..=3 {
        let p = format!("{k}/3");
        parts.extend(names(&[
            "test",
            "tests/scenarios",
            "--partition",
            &p,
            "--json",
        ]));
    }
    parts.sort();
    assert_eq!(parts, all);
    assert_eq!(names(&["test", "--filter", "door", "--json"]), ["door"]);
    let bad = common::kiai(&["test", "--partition", "4/3"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_broken_scenario_file_is_reported_where_the_mistake_is() {
    let dir = project();
    let file = dir.path().join("tests/scenarios/typo.scenario.ron");
    std::fs::write(
        &file,
        "(\n    content: \"content/door.ron\",\n    ticks: 10,\n    expect: [\"sees(guard, thief) whithin 5\"],\n)",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = kiai_in(dir.path(), &["test", "tests/scenarios/typo.scenario.ron"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("FAIL  typo  does not load\n"), "{stdout}");
    assert!(stdout.contains(
        "tests/scenarios/typo.scenario.ron:4:34: error: `sees(guard, thief) whithin 5`: unexpected `whithin`"
    ), "{stdout}");
}
