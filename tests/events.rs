//! `--events FILE` as pipelines use it: a door opens, an agent leaves and
//! another arrives, and a bad events file is refused with `file:line:col`.

mod common;

use common::{json, kiai};
use serde_json::Value;

/// A guard, an intruder behind a closed door, and a waypoint walker whose
/// way to the intruder goes round the wall while the door is closed.
const DOOR_SCENE: &str = r#"(
    format: 2,
    factions: [(name: "red", hostile: ["blue"]), (name: "blue", hostile: ["red"])],
    cost_lists: ["foot"],
    waypoints: [
        (id: 0, pos: (-10.0, 0.0, 0.0)), (id: 1, pos: (10.0, 0.0, 0.0)),
        (id: 2, pos: (-10.0, 0.0, 40.0)), (id: 3, pos: (10.0, 0.0, 40.0)),
    ],
    links: [
        (from: 0, to: 1, two_way: true), (from: 0, to: 2, two_way: true),
        (from: 2, to: 3, two_way: true), (from: 3, to: 1, two_way: true),
    ],
    walls: [
        (from: (0.0, -5.0), to: (0.0, 5.0), height: 3.0, name: "door_1", door: true),
        (from: (0.0, 5.0), to: (0.0, 30.0), height: 3.0),
        (from: (0.0, -5.0), to: (0.0, -30.0), height: 3.0),
    ],
    archetypes: {
        "guard": (senses: [(name: "eyes", shape: Cone(range: 40.0, fov_deg: 360.0),
                            filter: Hostile, occluded: true)]),
        "walker": (senses: [(name: "eyes", shape: Cone(range: 40.0, fov_deg: 360.0),
                             filter: Hostile)],
                   movement: WaypointWalker(speed: 4.0, route: AStar, arrive_radius: 0.3)),
        "still": (),
    },
    agents: [
        (name: "guard", archetype: "guard", faction: "red", pos: (-3.0, 0.0, 0.0)),
        (name: "walker", archetype: "walker", faction: "red", pos: (-10.0, 0.0, 0.0)),
        (name: "intruder", archetype: "still", faction: "blue", pos: (10.0, 0.0, 0.0)),
    ],
)"#;

const EVENTS: &str = r#"(events: [
    (tick: 3, do: Door(wall: "door_1", open: true)),
    (tick: 5, do: Despawn(agent: "intruder")),
    (tick: 5, do: Spawn(name: "second", archetype: "still", faction: "blue",
                        pos: (8.0, 0.0, 1.0))),
])"#;

fn scene() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let content = dir.path().join("door.ron");
    let events = dir.path().join("events.ron");
    std::fs::write(&content, DOOR_SCENE).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&events, EVENTS).unwrap_or_else(|e| panic!("{e}"));
    let s = |p: std::path::PathBuf| p.display().to_string();
    (dir, s(content), s(events))
}

/// What `name`'s `eyes` report after `tick` ticks with the events.
fn sees(content: &str, events: &str, tick: u32, name: &str) -> Option<Vec<String>> {
    let tick = tick.to_string();
    let j = json(&[
        "perceive", content, "--tick", &tick, "--events", events, "--json",
    ]);
    let agent = j["agents"].as_array()?.iter().find(|a| a["name"] == name)?;
    let eyes = agent["senses"]["eyes"].as_array()?;
    Some(
        eyes.iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
    )
}

#[test]
fn the_door_opens_on_its_tick_and_the_guard_sees_through_it() {
    let (_dir, content, events) = scene();
    assert_eq!(sees(&content, &events, 2, "guard"), Some(vec![]));
    assert_eq!(
        sees(&content, &events, 3, "guard"),
        Some(vec!["intruder".to_owned()])
    );
    let path = |events: &str| {
        let mut args = vec!["run", content.as_str(), "--ticks", "3", "--json"];
        if !events.is_empty() {
            args.extend(["--events", events]);
        }
        json(&args)["state_hash"].clone()
    };
    assert_ne!(path(&events), path(""), "the events change the run");
}

#[test]
fn a_despawned_agent_leaves_every_list_and_a_spawned_one_joins() {
    let (_dir, content, events) = scene();
    let j = json(&[
        "perceive", &content, "--tick", "5", "--events", &events, "--json",
    ]);
    let names: Vec<&str> = j["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert_eq!(names, ["guard", "walker", "second"], "the slot was reused");
    assert_eq!(
        sees(&content, &events, 5, "guard"),
        Some(vec!["second".to_owned()])
    );
    let run = json(&[
        "run", &content, "--ticks", "8", "--events", &events, "--json",
    ]);
    assert_eq!(run["agents"], 3);
}

#[test]
fn a_bad_events_file_is_refused_with_its_places() {
    let (dir, content, _) = scene();
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "(events: [\n    (tick: 1, do: Despawn(agent: \"gaurd\")),\n    (tick: 2, do: Door(wall: \"door_2\", open: true)),\n    (tick: 2, do: BlockLink(from: 0, to: 3)),\n])\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let bad = bad.display().to_string();
    let out = kiai(&["run", &content, "--ticks", "3", "--events", &bad]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "{bad}:2:34: error: no agent `gaurd` is in the world at tick 1; did you mean `guard`?"
            ),
            format!("{bad}:3:30: error: unknown wall `door_2`; did you mean `door_1`?"),
            format!("{bad}:4:35: error: there is no link from waypoint 0 to 3"),
        ]
    );
    assert!(out.stdout.is_empty());
}
