//! Content and scripts loaded as assets from real files: levels with
//! scripts, packs, hot reload of a script through Bevy's file watcher, and
//! a malformed file that is logged as `file:line:col` while the app runs on.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;

use bevy::prelude::*;
use common::{app, named, until};
use kiai_bevy::kiai::content::Content;
use kiai_bevy::kiai::core::BehaviourState;
use kiai_bevy::{Kiai, KiaiAgent, KiaiPlugin};

/// A level whose guard is scripted (`guard.lua`) and a thief it can see.
const LEVEL: &str = r#"(
    format: 2,
    name: "scripted",
    seed: 1,
    bounds: (min: (-20.0, 0.0, -20.0), max: (20.0, 10.0, 20.0)),
    factions: [(name: "guards", hostile: ["thieves"]), (name: "thieves", hostile: ["guards"])],
    archetypes: {
        "guard": (
            senses: [(name: "eyes", shape: Sphere(radius: 30.0), filter: Hostile)],
            movement: Walker(min_speed: 0.5, max_speed: 1.0, direction_change_factor: 30, planar: true),
            script: "scripts/guard.lua",
        ),
        "thief": (body: Kinematic),
    },
    agents: [
        (name: "guard", archetype: "guard", faction: "guards", pos: (0.0, 0.0, 0.0)),
        (name: "thief", archetype: "thief", faction: "thieves", pos: (10.0, 0.0, 0.0)),
    ],
)"#;

/// The guard's script: patrol (the default), then, edited, chase.
const PATROL: &str = "function decide(agent, ctx) return nil end\n";
const CHASE: &str =
    "function decide(agent, ctx) local t = agent:nearest(\"eyes\") return \"chase\", t end\n";

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// An app running `level` (with `script` as `scripts/guard.lua`) from a
/// new directory, files watched when `watch`, once it ran `ticks` ticks.
fn running(level: &str, script: &str, watch: bool, ticks: u64) -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "level.ron", level);
    write(dir.path(), "scripts/guard.lua", script);
    let mut app = app(dir.path(), KiaiPlugin::new("level.ron"), watch);
    ticked(&mut app, ticks);
    (dir, app)
}

/// Updates until the world ran more than `ticks` ticks (20 s at most),
/// failing with the problems reported otherwise.
fn ticked(app: &mut App, ticks: u64) {
    assert!(
        until(app, 20, |a| a.world().resource::<Kiai>().tick() > ticks),
        "{:?}",
        problems(app)
    );
}

fn guard_state(app: &mut App) -> Option<BehaviourState> {
    let kiai = app.world().resource::<Kiai>();
    let world = kiai.world()?;
    world.agents().state(world.agents().find("guard")?)
}

fn problems(app: &App) -> Vec<String> {
    app.world().resource::<Kiai>().problems().to_vec()
}

#[test]
fn a_level_with_a_script_loads_from_files_and_its_agents_become_entities() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "levels/level.ron",
        &LEVEL.replace("scripts/", "../scripts/"),
    );
    write(dir.path(), "scripts/guard.lua", CHASE);
    let mut app = app(dir.path(), KiaiPlugin::new("levels/level.ron"), false);
    ticked(&mut app, 2);
    assert_eq!(
        guard_state(&mut app),
        Some(BehaviourState::Chase),
        "the script decides"
    );
    let guard = named(&mut app, "guard");
    let agent = app.world().get::<KiaiAgent>(guard).unwrap();
    assert_eq!(agent, &KiaiAgent::new("guard", "guards"));
    assert!(problems(&app).is_empty(), "{:?}", problems(&app));
}

#[test]
fn a_pack_loads_with_its_bundled_script() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "level.ron", LEVEL);
    write(dir.path(), "scripts/guard.lua", CHASE);
    let content = Content::load(&dir.path().join("level.ron")).expect("valid");
    let pack = content
        .to_pack()
        .expect("exports")
        .encode()
        .expect("encodes");
    std::fs::write(dir.path().join("level.kiaipack"), pack).unwrap();
    std::fs::remove_file(dir.path().join("scripts/guard.lua")).unwrap();
    let mut app = app(dir.path(), KiaiPlugin::new("level.kiaipack"), false);
    ticked(&mut app, 2);
    assert_eq!(
        guard_state(&mut app),
        Some(BehaviourState::Chase),
        "the bundled script decides"
    );
}

#[test]
fn a_malformed_content_file_is_logged_with_file_line_col_and_the_app_runs_on() {
    let dir = tempfile::tempdir().unwrap();
    let bad = LEVEL.replace("seed: 1,", "seed: \"one\",");
    write(dir.path(), "bad.ron", &bad);
    let mut app = app(dir.path(), KiaiPlugin::new("bad.ron"), false);
    assert!(
        until(&mut app, 20, |a| !problems(a).is_empty()),
        "a problem is reported"
    );
    let lines = problems(&app);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("bad.ron:4:11: error:"),
        "file:line:col of `seed`: {lines:?}"
    );
    for _ in 0..10 {
        app.update();
    }
    assert!(!app.world().resource::<Kiai>().is_ready());
    assert_eq!(problems(&app).len(), 1, "logged once");
}

#[test]
fn an_edited_script_changes_the_next_decision_and_a_broken_edit_keeps_the_last_good() {
    let (dir, mut app) = running(LEVEL, PATROL, true, 2);
    assert_eq!(guard_state(&mut app), Some(BehaviourState::RandomWalk));

    write(dir.path(), "scripts/guard.lua", CHASE);
    assert!(
        until(&mut app, 20, |a| guard_state(a)
            == Some(BehaviourState::Chase)),
        "the edit takes effect: {:?}",
        problems(&app)
    );
    let tick = app.world().resource::<Kiai>().tick();
    assert!(tick > 3, "the world kept running, not rebuilt: tick {tick}");

    write(
        dir.path(),
        "scripts/guard.lua",
        "function decide(agent, ctx\n",
    );
    assert!(
        until(&mut app, 20, |a| !problems(a).is_empty()),
        "the syntax error is reported"
    );
    for _ in 0..30 {
        app.update();
    }
    let lines = problems(&app);
    assert_eq!(lines.len(), 1, "reported once: {lines:?}");
    assert!(lines[0].contains("guard.lua:"), "{lines:?}");
    assert!(lines[0].contains("the last good version runs"), "{lines:?}");
    assert_eq!(
        guard_state(&mut app),
        Some(BehaviourState::Chase),
        "the last good version decides"
    );
    assert!(
        app.world().resource::<Kiai>().tick() > tick,
        "still ticking"
    );
}

#[test]
fn edited_content_rebuilds_the_world_and_a_broken_edit_keeps_it_running() {
    let (dir, mut app) = running(LEVEL, PATROL, true, 20);
    let extra = app
        .world_mut()
        .spawn((
            KiaiAgent::new("thief", "thieves"),
            Transform::from_xyz(-5.0, 0.0, 5.0),
        ))
        .id();
    app.update();
    let old_guard = named(&mut app, "guard");

    write(
        dir.path(),
        "level.ron",
        &LEVEL.replace("(10.0, 0.0, 0.0)", "(12.0, 0.0, 3.0)"),
    );
    assert!(
        until(&mut app, 20, |a| a.world().resource::<Kiai>().tick() < 5),
        "the world is rebuilt: {:?}",
        problems(&app)
    );
    app.update();
    let kiai = app.world().resource::<Kiai>();
    let world = kiai.world().unwrap();
    let thief = world.agents().find("thief").unwrap();
    assert_eq!(
        world.agents().positions()[thief.index()].x,
        12.0,
        "the edited content runs"
    );
    assert!(
        kiai.agent(extra).is_some(),
        "the game's entity joined the new world"
    );
    assert_eq!(world.agents().live_count(), 3);
    assert!(
        app.world().get_entity(old_guard).is_err(),
        "the old content's entities are gone"
    );

    write(
        dir.path(),
        "level.ron",
        &LEVEL.replace("seed: 1,", "seed: -,"),
    );
    assert!(
        until(&mut app, 20, |a| !problems(a).is_empty()),
        "the broken edit is reported"
    );
    let before = app.world().resource::<Kiai>().tick();
    for _ in 0..10 {
        app.update();
    }
    assert!(
        app.world().resource::<Kiai>().tick() >= before + 10,
        "the last good world runs on"
    );
    assert!(
        problems(&app)[0].contains("level.ron:4:"),
        "{:?}",
        problems(&app)
    );
}

#[test]
fn a_missing_script_is_reported_and_its_archetype_decides_with_the_default() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "level.ron", LEVEL);
    let mut app = app(dir.path(), KiaiPlugin::new("level.ron"), false);
    // The world runs without the script.
    ticked(&mut app, 2);
    let lines = problems(&app);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("scripts/guard.lua:1:1: error:")),
        "{lines:?}"
    );
    assert_eq!(guard_state(&mut app), Some(BehaviourState::RandomWalk));
}

#[test]
fn agents_a_script_spawns_get_entities_and_ones_it_despawns_lose_their_components() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "level.ron", LEVEL);
    let script = "function decide(agent, ctx)\n\
        if ctx.tick == 5 then\n\
          agent:despawn()\n\
          kiai.spawn(\"thief\", \"thieves\", 5, 0, 5, \"newcomer\")\n\
        end\n\
        return nil\nend\n";
    write(dir.path(), "scripts/guard.lua", script);
    let mut app = app(dir.path(), KiaiPlugin::new("level.ron"), false);
    let mut cursor = bevy::ecs::message::MessageCursor::<kiai_bevy::KiaiEvent>::default();
    let mut spawned = Vec::new();
    assert!(until(&mut app, 20, |a| {
        let messages = a
            .world()
            .resource::<bevy::ecs::message::Messages<kiai_bevy::KiaiEvent>>();
        spawned.extend(cursor.read(messages).filter_map(|e| match e.kind {
            kiai_bevy::KiaiEventKind::Spawned { entity } => Some(entity),
            _ => None,
        }));
        a.world().resource::<Kiai>().tick() > 8
    }));
    let (guard, thief, newcomer) = (
        named(&mut app, "guard"),
        named(&mut app, "thief"),
        named(&mut app, "newcomer"),
    );
    assert_eq!(
        spawned,
        vec![guard, thief, newcomer],
        "the content's agents, then the script's"
    );
    let agent = app
        .world()
        .get::<kiai_bevy::KiaiId>(newcomer)
        .expect("an agent")
        .0;
    assert_eq!(app.world().resource::<Kiai>().entity(agent), Some(newcomer));
    assert_eq!(
        app.world().get::<KiaiAgent>(newcomer),
        Some(&KiaiAgent::new("thief", "thieves"))
    );
    assert!(
        app.world().get::<KiaiAgent>(guard).is_none(),
        "the guard left kiai"
    );
    assert!(app.world().get::<kiai_bevy::KiaiId>(guard).is_none());
    assert_eq!(app.world().resource::<Kiai>().agent(guard), None);
    assert_eq!(
        agent.index(),
        0,
        "the newcomer took the guard's slot in the same tick"
    );
}

#[test]
fn a_script_that_was_missing_is_picked_up_when_it_appears() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "level.ron", LEVEL);
    write(
        dir.path(),
        "scripts/readme.txt",
        "the guard's script goes here",
    );
    let mut app = app(dir.path(), KiaiPlugin::new("level.ron"), true);
    ticked(&mut app, 2);
    assert_eq!(guard_state(&mut app), Some(BehaviourState::RandomWalk));
    write(dir.path(), "scripts/guard.lua", CHASE);
    assert!(
        until(&mut app, 20, |a| guard_state(a)
            == Some(BehaviourState::Chase)),
        "the script decides once its file exists: {:?}",
        problems(&app)
    );
}
