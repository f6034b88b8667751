//! `kiai run` with tick level of detail: the agents per tier (a line of
//! the summary, the `lod` key of `--json`), held decisions in `--trace`,
//! the events that move the points of interest, and no change at all for
//! content without tiers.
#![allow(clippy::unwrap_used, reason = "a test: a panic is the failure report")]

mod common;

use common::{json, root, stdout};
use serde_json::Value;

const LOD: &str = "content/examples/lod.ron";

fn lod_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("lod ")).collect()
}

#[test]
fn the_summary_prints_agents_per_tier_only_with_tiers() {
    let out = stdout(&["run", LOD, "--ticks", "64"]);
    assert_eq!(lod_lines(&out), ["lod tiers   0: 5, 1: 3, 2: 2"]);
    let lines: Vec<&str> = out.lines().take(4).collect();
    assert_eq!(lines[3], "lod tiers   0: 5, 1: 3, 2: 2", "{out}");
    let demo = stdout(&["run", "content/demo/arena.ron", "--ticks", "5"]);
    assert_eq!(lod_lines(&demo), Vec::<&str>::new());
}

#[test]
fn json_has_a_lod_key_only_with_tiers() {
    let out = json(&["run", LOD, "--ticks", "64", "--json"]);
    assert_eq!(out["lod"], serde_json::json!({ "tiers": [5, 3, 2] }));
    let demo = json(&["run", "content/demo/arena.ron", "--ticks", "5", "--json"]);
    assert_eq!(demo.get("lod"), None);
}

#[test]
fn events_move_the_points_of_interest() {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("lod.events.ron");
    let events_path = events.to_str().unwrap();
    // Nobody is a point of interest: every agent is in its last tier (the
    // player's archetype has none, so it counts in tier 0).
    std::fs::write(
        &events,
        r#"(events: [
    (tick: 0, do: InterestAgent(agent: "player", on: false)),
    (tick: 0, do: Interest(points: [])),
])"#,
    )
    .unwrap();
    let out = stdout(&["run", LOD, "--ticks", "64", "--events", events_path]);
    assert_eq!(lod_lines(&out), ["lod tiers   0: 1, 1: 3, 2: 6"]);
    // The beacon moves to the shepherd's pasture.
    std::fs::write(
        &events,
        r#"(events: [(tick: 0, do: Interest(points: [(220.0, 0.0, 200.0)]))])"#,
    )
    .unwrap();
    let out = stdout(&["run", LOD, "--ticks", "64", "--events", events_path]);
    assert_eq!(lod_lines(&out), ["lod tiers   0: 6, 1: 3, 2: 1"]);
}

#[test]
fn the_trace_says_which_decisions_are_held() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.jsonl");
    let trace_path = trace.to_str().unwrap();
    stdout(&["run", LOD, "--ticks", "8", "--trace", trace_path]);
    let text = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 80);
    let farmer: Vec<&Value> = lines.iter().filter(|l| l["agent"] == "farmer").collect();
    // The farmer is 98 units from the player: tier 1, thinking one tick in 4.
    let held = farmer.iter().filter(|l| l["lod"]["held"] == true).count();
    assert_eq!(held, 6, "{farmer:#?}");
    for l in &farmer {
        assert_eq!(l["lod"]["tier"], 1);
        assert_eq!(l["lod"]["every"], 4);
        let (tick, at) = (
            l["tick"].as_u64().unwrap(),
            l["lod"]["thought_at"].as_u64().unwrap(),
        );
        assert!(at <= tick, "{l}");
    }
    let baker = lines.iter().filter(|l| l["agent"] == "baker");
    assert!(
        baker
            .clone()
            .all(|l| l["lod"]["held"] == false && l["lod"]["every"] == 1)
    );
    let demo = dir.path().join("demo.jsonl");
    let demo_path = demo.to_str().unwrap();
    let arena = root().join("content/demo/arena.ron");
    stdout(&[
        "run",
        arena.to_str().unwrap(),
        "--ticks",
        "1",
        "--trace",
        demo_path,
    ]);
    let first = std::fs::read_to_string(&demo).unwrap();
    assert!(!first.contains("\"lod\""), "{first}");
}
