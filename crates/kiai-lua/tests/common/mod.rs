//! Shared scene and helpers for kiai-lua's tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, unreachable_pub)]

use kiai_content::Content;
use kiai_core::{ArchetypeId, Pipeline, World, state_hash};
use kiai_lua::{Limits, LuaDecider, ScriptId};

/// Four guards (archetype 0) and four thieves (archetype 1) in a yard.
pub const SCENE: &str = r#"(
    format: 2,
    seed: 3,
    bounds: (min: (-40.0, 0.0, -40.0), max: (40.0, 10.0, 40.0)),
    factions: [
        (name: "garrison", hostile: ["thieves"]),
        (name: "thieves", hostile: ["garrison"]),
    ],
    archetypes: {
        "guard": (
            senses: [
                (name: "eyes", shape: Cone(range: 30.0, fov_deg: 120.0), filter: Hostile),
                (name: "radar", shape: Sphere(radius: 6.0)),
                (name: "ears", shape: Hearing(threshold: 0.5)),
            ],
            movement: Walker(min_speed: 0.5, max_speed: 1.5, direction_change_factor: 20, planar: true),
        ),
        "thief": (
            senses: [(name: "eyes", shape: Cone(range: 20.0, fov_deg: 160.0), filter: Hostile)],
            movement: Walker(min_speed: 0.3, max_speed: 1.0, direction_change_factor: 20, planar: true),
            noise: Some(300.0),
        ),
    },
    agents: [
        (name: "g1", archetype: "guard", faction: "garrison", pos: (0.0, 0.0, -10.0), facing: (0.0, 0.0, 1.0)),
        (name: "g2", archetype: "guard", faction: "garrison", pos: (-10.0, 0.0, 0.0), facing: (1.0, 0.0, 0.0)),
        (name: "g3", archetype: "guard", faction: "garrison", pos: (10.0, 0.0, 0.0), facing: (-1.0, 0.0, 0.0)),
        (name: "g4", archetype: "guard", faction: "garrison", pos: (0.0, 0.0, 10.0), facing: (0.0, 0.0, -1.0)),
        (name: "t1", archetype: "thief", faction: "thieves", pos: (2.0, 0.0, 2.0), facing: (1.0, 0.0, 0.0)),
        (name: "t2", archetype: "thief", faction: "thieves", pos: (-3.0, 0.0, 5.0), facing: (0.0, 0.0, 1.0)),
        (name: "t3", archetype: "thief", faction: "thieves", pos: (20.0, 0.0, -20.0), facing: (-1.0, 0.0, 0.0)),
        (name: "t4", archetype: "thief", faction: "thieves", pos: (-25.0, 0.0, 25.0), facing: (1.0, 0.0, -1.0)),
    ],
)"#;

pub fn world() -> World {
    Content::from_str(SCENE, "scene.ron")
        .expect("scene")
        .world(None)
        .expect("world")
}

/// Small limits so that hostile scripts fail fast in debug builds.
pub fn limits() -> Limits {
    Limits {
        memory_bytes: 8 * 1024 * 1024,
        instructions_per_call: 50_000,
        check_interval: 500,
    }
}

pub fn decider(guard: Option<&str>, thief: Option<&str>) -> (LuaDecider, Vec<ScriptId>) {
    let mut d = LuaDecider::new(limits());
    let mut ids = Vec::new();
    for (arch, src) in [(0usize, guard), (1, thief)] {
        if let Some(src) = src {
            let name = if arch == 0 { "guard.lua" } else { "thief.lua" };
            match d.add_script(name, src) {
                Ok(id) => {
                    d.assign(ArchetypeId::from_index(arch), id);
                    ids.push(id);
                }
                Err(e) => eprintln!("load error (expected for some hostile scripts): {e}"),
            }
        }
    }
    (d, ids)
}

/// Runs `ticks` ticks; returns the state hash and the decider.
pub fn run(guard: Option<&str>, thief: Option<&str>, ticks: u32) -> (u64, LuaDecider, World) {
    let mut world = world();
    let (mut d, _) = decider(guard, thief);
    let mut p = Pipeline::new();
    for _ in 0..ticks {
        p.tick(&mut world, &mut d);
    }
    (state_hash(&world), d, world)
}
