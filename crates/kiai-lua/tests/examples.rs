//! The example scripts in `scripts/`, each in a small scene that shows what
//! it changes against the Rust default.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;

use kiai_content::Content;
use kiai_core::{AgentId, ArchetypeId, BehaviourState, Pipeline, World};
use kiai_lua::LuaDecider;

fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts")
        .join(name)
        .display()
        .to_string()
}

/// A world from `ron` and a decider running `scripts` as (archetype, file).
fn scene(ron: &str, scripts: &[(usize, &str)]) -> (World, LuaDecider) {
    let world = Content::from_str(ron, "scene.ron")
        .unwrap()
        .world(None)
        .unwrap();
    let mut d = LuaDecider::default();
    for &(arch, file) in scripts {
        let (id, r) = d.load_file(Path::new(&script(file)));
        r.unwrap();
        d.assign(ArchetypeId::from_index(arch), id);
    }
    (world, d)
}

fn ticks(world: &mut World, d: &mut LuaDecider, n: u32) {
    let mut p = Pipeline::new();
    for _ in 0..n {
        p.tick(world, d);
    }
    let reports = d.take_reports();
    assert!(reports.is_empty(), "{reports:?}");
}

const HEARING: &str = r#"(
    format: 2,
    factions: [(name: "garrison", hostile: ["thieves"]), (name: "thieves", hostile: ["garrison"])],
    sounds: [(tick: 1, pos: (0.0, 0.0, 20.0), volume: 100.0)],
    archetypes: {
        "guard": (
            senses: [
                (name: "eyes", shape: Cone(range: 5.0, fov_deg: 60.0), filter: Hostile),
                (name: "ears", shape: Hearing(threshold: 0.1)),
            ],
            movement: Walker(min_speed: 0.0, max_speed: 1.0, direction_change_factor: 1000, planar: true),
        ),
        "thief": (movement: Walker(min_speed: 0.0, max_speed: 1.0, direction_change_factor: 1000, planar: true), noise: Some(400.0)),
    },
    agents: [
        (name: "guard", archetype: "guard", faction: "garrison", pos: (0.0, 0.0, 0.0), facing: (1.0, 0.0, 0.0)),
        (name: "thief", archetype: "thief", faction: "thieves", pos: (-6.0, 0.0, 0.0), facing: (0.0, 0.0, 1.0)),
    ],
)"#;

#[test]
fn guard_investigates_a_quiet_sound() {
    // The thief stands still (silent); the pebble at tick 1 is quiet at 20 units.
    let (mut world, mut d) = scene(HEARING, &[(0, "guard.lua")]);
    ticks(&mut world, &mut d, 3);
    assert_eq!(d.label(AgentId::from_index(0)), Some("investigate"));
    let dec = world.agents().decisions()[0];
    assert_eq!(dec.goal, Some(kiai_core::glam::Vec3::new(0.0, 0.0, 20.0)));
    // Without the script the guard has nothing to chase or evade.
    let (mut world, mut d) = scene(HEARING, &[]);
    ticks(&mut world, &mut d, 3);
    assert_eq!(
        world.agents().decisions()[0].state,
        BehaviourState::RandomWalk
    );
}

#[test]
fn guard_chases_a_loud_hostile_sound() {
    // The thief walks (noise 400 at 6 units: loud) behind the guard's back.
    let ron = HEARING.replace(
        "min_speed: 0.0, max_speed: 1.0, direction_change_factor: 1000, planar: true), noise",
        "min_speed: 1.0, max_speed: 1.0, direction_change_factor: 5, planar: true), noise",
    );
    let (mut world, mut d) = scene(&ron, &[(0, "guard.lua")]);
    ticks(&mut world, &mut d, 4);
    let dec = world.agents().decisions()[0];
    assert_eq!(
        (dec.state, dec.target),
        (BehaviourState::Chase, Some(AgentId::from_index(1)))
    );
}

const FACE_OFF: &str = r#"(
    format: 2,
    factions: [(name: "garrison", hostile: ["thieves"]), (name: "thieves", hostile: ["garrison"])],
    archetypes: {
        "guard": (movement: Walker(min_speed: 0.0, max_speed: 0.5, direction_change_factor: 1000, planar: true)),
        "thief": (
            senses: [(name: "eyes", shape: Cone(range: 20.0, fov_deg: 120.0), filter: Hostile),
                     (name: "radar", shape: Sphere(radius: 3.0), filter: Hostile)],
            movement: Walker(min_speed: 0.0, max_speed: 1.0, direction_change_factor: 1000, planar: true),
        ),
    },
    agents: [
        (name: "guard", archetype: "guard", faction: "garrison", pos: (10.0, 0.0, 0.0), facing: (1.0, 0.0, 0.0)),
        (name: "thief", archetype: "thief", faction: "thieves", pos: (0.0, 0.0, 0.0), facing: (1.0, 0.0, 0.0)),
    ],
)"#;

#[test]
fn coward_evades_what_the_default_would_chase() {
    let (mut world, mut d) = scene(FACE_OFF, &[]);
    ticks(&mut world, &mut d, 1);
    assert_eq!(world.agents().decisions()[1].state, BehaviourState::Chase);
    let (mut world, mut d) = scene(FACE_OFF, &[(1, "coward.lua")]);
    ticks(&mut world, &mut d, 1);
    let dec = world.agents().decisions()[1];
    assert_eq!(
        (dec.state, dec.target),
        (BehaviourState::Evade, Some(AgentId::from_index(0)))
    );
    // And it runs: farther from the guard after a while.
    let before = world.agents().positions()[0].distance(world.agents().positions()[1]);
    ticks(&mut world, &mut d, 20);
    let after = world.agents().positions()[0].distance(world.agents().positions()[1]);
    assert!(after > before, "{before} -> {after}");
}

const RADIO: &str = r#"(
    format: 2,
    factions: [(name: "garrison", hostile: ["thieves"]), (name: "thieves", hostile: ["garrison"])],
    archetypes: {
        "captain": (senses: [(name: "eyes", shape: Cone(range: 20.0, fov_deg: 120.0), filter: Hostile)]),
        "guard": (
            senses: [(name: "eyes", shape: Cone(range: 5.0, fov_deg: 60.0), filter: Hostile),
                     (name: "ears", shape: Hearing(threshold: 0.1))],
            movement: Walker(min_speed: 0.0, max_speed: 2.0, direction_change_factor: 1000, planar: true),
        ),
        "thief": (),
    },
    agents: [
        (name: "captain", archetype: "captain", faction: "garrison", pos: (0.0, 0.0, 0.0), facing: (1.0, 0.0, 0.0)),
        (name: "guard", archetype: "guard", faction: "garrison", pos: (0.0, 0.0, 30.0), facing: (0.0, 0.0, 1.0)),
        (name: "thief", archetype: "thief", faction: "thieves", pos: (10.0, 0.0, 0.0), facing: (1.0, 0.0, 0.0)),
    ],
)"#;

#[test]
fn captain_radios_guards_to_its_position() {
    let (mut world, mut d) = scene(RADIO, &[(0, "captain.lua"), (1, "guard.lua")]);
    ticks(&mut world, &mut d, 3);
    assert_eq!(d.label(AgentId::from_index(0)), Some("command"));
    assert_eq!(d.label(AgentId::from_index(1)), Some("investigate"));
    assert_eq!(
        world.agents().decisions()[1].goal,
        Some(kiai_core::glam::Vec3::ZERO)
    );
    let start = world.agents().positions()[1].length();
    ticks(&mut world, &mut d, 60);
    assert!(world.agents().positions()[1].length() < start - 5.0);
}

#[test]
fn patrol_walks_its_loop_and_chases_on_sight() {
    let ron = r#"(
        format: 2,
        factions: [(name: "garrison", hostile: ["thieves"]), (name: "thieves", hostile: ["garrison"])],
        archetypes: {
            "patrol": (senses: [(name: "eyes", shape: Cone(range: 15.0, fov_deg: 100.0), filter: Hostile)],
                       movement: Walker(min_speed: 10.0, max_speed: 10.0, direction_change_factor: 1000, planar: true)),
            "thief": (),
        },
        agents: [
            (name: "p", archetype: "patrol", faction: "garrison", pos: (-30.0, 0.0, -30.0), facing: (1.0, 0.0, 0.0)),
            (name: "t", archetype: "thief", faction: "thieves", pos: (30.0, 0.0, 30.0), facing: (1.0, 0.0, 0.0)),
        ],
    )"#;
    let (mut world, mut d) = scene(ron, &[(0, "patrol.lua")]);
    ticks(&mut world, &mut d, 2);
    assert_eq!(d.label(AgentId::from_index(0)), Some("patrol"));
    // Heads for the second waypoint (30, 0, -30) along the south edge.
    ticks(&mut world, &mut d, 20);
    let p = world.agents().positions()[0];
    assert!(p.x > -30.0 + 20.0 && (p.z + 30.0).abs() < 1.0, "{p}");
    // Eventually the loop brings the thief into view: chase.
    let mut chased = false;
    for _ in 0..40 {
        ticks(&mut world, &mut d, 5);
        chased |= world.agents().decisions()[0].state == BehaviourState::Chase
            && d.label(AgentId::from_index(0)).is_none();
    }
    assert!(chased);
}
