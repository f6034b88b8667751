//! Warnings for suspicious but legal content, one scenario each.

use kiai_content::Content;

fn warnings(body: &str) -> Vec<String> {
    let text = format!("(\n    format: 2,\n{body}\n)");
    match Content::from_str(&text, "t.ron") {
        Ok(c) => c.warnings.iter().map(ToString::to_string).collect(),
        Err(e) => panic!("errors:\n{e}"),
    }
}

#[test]
fn isolated_cut_off_unreachable_and_dead_end_waypoints() {
    let w = warnings(
        r#"    waypoints: [
        (id: 0, pos: (0.0, 0.0, 0.0)), (id: 1, pos: (1.0, 0.0, 0.0)), (id: 2, pos: (2.0, 0.0, 0.0)),
        (id: 3, pos: (3.0, 0.0, 0.0)), (id: 4, pos: (4.0, 0.0, 0.0)), (id: 5, pos: (5.0, 0.0, 0.0)),
        (id: 6, pos: (6.0, 0.0, 0.0)), (id: 7, pos: (7.0, 0.0, 0.0)),
    ],
    links: [
        (from: 0, to: 1, two_way: true), (from: 1, to: 2, two_way: true),
        (from: 3, to: 0),
        (from: 2, to: 4),
        (from: 6, to: 7, two_way: true),
    ],"#,
    );
    assert_eq!(
        w,
        [
            "t.ron:5:9: warning: waypoint 3 cannot be reached: links leave but none lead in from the rest of the graph",
            "t.ron:5:40: warning: waypoint 4 is a dead end: links lead in but none lead back out to the rest of the graph",
            "t.ron:5:71: warning: waypoint 5 is isolated: no link enters or leaves it",
            "t.ron:6:9: warning: waypoint 6 and 1 other cannot reach or be reached from waypoint 0: no link joins them to the rest of the graph",
        ]
    );
}

#[test]
fn senses_that_can_never_see_anything() {
    let w = warnings(
        r#"    factions: [(name: "red"), (name: "blue", hostile: ["green"]), (name: "green")],
    archetypes: {
        "guard": (senses: [
            (name: "eyes", shape: Sphere(radius: 5.0), filter: Hostile),
            (name: "pals", shape: Sphere(radius: 5.0), filter: Friendly),
            (name: "all", shape: Sphere(radius: 5.0)),
        ]),
    },
    agents: [
        (name: "r", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0)),
        (name: "b", archetype: "guard", faction: "blue", pos: (1.0, 0.0, 0.0)),
    ],"#,
    );
    assert_eq!(
        w,
        [
            "t.ron:6:64: warning: sense `eyes` of archetype `guard` never reports anything for agents of faction `red`: faction `red` is hostile to nobody",
            "t.ron:6:64: warning: sense `eyes` of archetype `guard` never reports anything for agents of faction `blue`: no agent belongs to a faction `blue` is hostile to",
        ]
    );
    let lonely = warnings(
        r#"    factions: [(name: "red", hostile: ["blue"]), (name: "blue", hostile: ["red"])],
    archetypes: { "g": (senses: [(name: "pals", shape: Sphere(radius: 5.0), filter: Friendly)]) },
    agents: [
        (name: "r", archetype: "g", faction: "red", pos: (0.0, 0.0, 0.0)),
        (name: "b", archetype: "g", faction: "blue", pos: (1.0, 0.0, 0.0)),
    ],"#,
    );
    assert_eq!(lonely.len(), 2, "{lonely:?}");
    assert!(lonely[0].ends_with("no other agent belongs to a faction `red` is friendly with"));
}

#[test]
fn unused_profiles_and_archetypes_and_waypoints_outside_bounds() {
    let w = warnings(
        r#"    bounds: (min: (0.0, 0.0, 0.0), max: (10.0, 10.0, 10.0)),
    factions: [(name: "red")],
    waypoints: [(id: 0, pos: (0.0, 0.0, 0.0)), (id: 1, pos: (20.0, 0.0, 0.0))],
    links: [(from: 0, to: 1, two_way: true)],
    profiles: { "brave": (chase: 1, evade: 0), "shy": (chase: 0, evade: 1) },
    archetypes: { "a": (profile: "brave"), "b": () },
    agents: [(name: "x", archetype: "a", faction: "red", pos: (1.0, 0.0, 1.0))],"#,
    );
    assert_eq!(
        w,
        [
            "t.ron:5:61: warning: waypoint 1 lies outside the bounds",
            "t.ron:7:48: warning: profile `shy` is never used: no archetype names it",
            "t.ron:8:44: warning: archetype `b` is never used: no agent has it",
        ]
    );
}
