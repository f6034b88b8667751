//! The plugin in headless apps (`MinimalPlugins`, no window): entities
//! become agents and leave with their entity, bodies go in and out,
//! percepts come back as messages carrying entities, doors and links
//! change from Bevy, and the same app gives the same state twice.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use common::{app_with, events, named, step};
use kiai_bevy::kiai::core::BodyMode;
use kiai_bevy::{
    DesiredVelocity, Kiai, KiaiAgent, KiaiCommandsExt, KiaiEvent, KiaiEventKind, KiaiEventKinds,
    KiaiId, KiaiPercept, KiaiSet, KiaiWall, Senses,
};

/// A yard with a wall and a door between a guard (west, facing east) and
/// the thief's start (east); a route around the wall's north end.
const YARD: &str = r#"(
    format: 2,
    name: "yard",
    seed: 5,
    tick_seconds: 0.1,
    bounds: (min: (-30.0, 0.0, -30.0), max: (30.0, 10.0, 30.0)),
    factions: [(name: "guards", hostile: ["thieves"]), (name: "thieves", hostile: ["guards"])],
    waypoints: [
        (id: 0, pos: (-10.0, 0.0, 0.0)), (id: 1, pos: (-10.0, 0.0, 20.0)),
        (id: 2, pos: (10.0, 0.0, 20.0)), (id: 3, pos: (10.0, 0.0, 0.0)),
    ],
    links: [
        (from: 0, to: 1, two_way: true), (from: 1, to: 2, two_way: true),
        (from: 2, to: 3, two_way: true), (from: 0, to: 3, two_way: true),
    ],
    walls: [
        (from: (0.0, -30.0), to: (0.0, -3.0), height: 3.0),
        (from: (0.0, -3.0), to: (0.0, 3.0), height: 3.0, name: "door", door: true),
        (from: (0.0, 3.0), to: (0.0, 15.0), height: 3.0),
    ],
    archetypes: {
        "guard": (
            senses: [(name: "eyes", shape: Cone(range: 25.0, fov_deg: 90.0), filter: Hostile,
                      occluded: true)],
            movement: Walker(min_speed: 0.0, max_speed: 0.0, direction_change_factor: 30, planar: true),
        ),
        "driven": (
            body: Driven,
            movement: WaypointWalker(speed: 2.0, route: AStar),
        ),
        "thief": (body: Kinematic),
    },
    agents: [
        (name: "guard", archetype: "guard", faction: "guards", pos: (-5.0, 0.0, 0.0),
         facing: (1.0, 0.0, 0.0)),
    ],
)"#;

/// Spawns an entity with `KiaiAgent` at X-Z `(x, z)`.
fn spawn_agent(app: &mut App, archetype: &str, faction: &str, x: f32, z: f32) -> Entity {
    app.world_mut()
        .spawn((
            KiaiAgent::new(archetype, faction),
            Transform::from_xyz(x, 0.0, z),
        ))
        .id()
}

fn kiai(app: &App) -> &Kiai {
    app.world().resource::<Kiai>()
}

#[test]
fn an_entity_with_kiai_agent_becomes_an_agent_and_its_despawn_removes_it() {
    let mut app = app_with(YARD);
    step(&mut app, 1);
    assert_eq!(
        kiai(&app).world().unwrap().agents().live_count(),
        1,
        "the content's guard"
    );
    let thief = spawn_agent(&mut app, "thief", "thieves", 20.0, 0.0);
    step(&mut app, 1);
    let id = app
        .world()
        .get::<KiaiId>(thief)
        .expect("the plugin gave it an agent")
        .0;
    let world = kiai(&app).world().unwrap();
    assert!(world.is_alive(id));
    assert_eq!(world.agents().live_count(), 2);
    assert_eq!(
        world.agents().body_modes()[id.index()],
        BodyMode::Kinematic,
        "the archetype's body"
    );
    assert_eq!(kiai(&app).entity(id), Some(thief));

    app.world_mut().despawn(thief);
    let world = kiai(&app).world().unwrap();
    assert!(
        !world.is_alive(id),
        "despawning the entity despawns the agent at once"
    );
    assert_eq!(world.agents().live_count(), 1);
    let mut cursor = MessageCursor::<KiaiEvent>::default();
    step(&mut app, 1);
    let gone: Vec<_> = events(&app, &mut cursor)
        .into_iter()
        .filter(|e| matches!(e.kind, KiaiEventKind::Despawned { .. }))
        .collect();
    assert_eq!(gone.len(), 1, "{gone:?}");
    assert_eq!(gone[0].kind, KiaiEventKind::Despawned { entity: thief });
    assert_eq!(
        kiai(&app).agent(thief),
        None,
        "forgotten after its last event"
    );
}

#[test]
fn an_unknown_archetype_is_refused_with_a_message_and_no_panic() {
    let mut app = app_with(YARD);
    let e = app
        .world_mut()
        .spawn((KiaiAgent::new("thef", "thieves"), Transform::default()))
        .id();
    step(&mut app, 2);
    let refused = app
        .world()
        .get::<kiai_bevy::KiaiRefused>(e)
        .expect("refused")
        .0
        .clone();
    assert!(
        refused.contains("no archetype `thef` (the content has guard, driven, thief)"),
        "{refused}"
    );
    assert!(kiai(&app).problems().iter().any(|p| p == &refused));
    assert_eq!(kiai(&app).world().unwrap().agents().live_count(), 1);
}

/// Moves the thief north to south along its x, one unit per tick from
/// z = 12 to z = -12, again every 30 ticks.
fn walk_thief(mut q: Query<(&KiaiAgent, &mut Transform)>, kiai: Res<Kiai>) {
    for (agent, mut t) in &mut q {
        if agent.archetype == "thief" {
            t.translation.z = (12.0 - (kiai.tick() % 30) as f32).max(-12.0);
        }
    }
}

/// The percepts gained (seen) sent since `cursor` last read.
fn seen(app: &App, cursor: &mut MessageCursor<KiaiPercept>) -> Vec<KiaiPercept> {
    events(app, cursor).into_iter().filter(|p| p.seen).collect()
}

#[test]
fn a_kinematic_thief_moved_by_the_game_is_seen_and_the_event_carries_entities() {
    let mut app = app_with(YARD);
    app.add_systems(FixedUpdate, walk_thief.before(KiaiSet::SyncIn));
    // East of the wall, walking past the closed door.
    let thief = spawn_agent(&mut app, "thief", "thieves", 10.0, 12.0);
    let door = app
        .world_mut()
        .spawn(KiaiWall {
            name: "door".into(),
            enabled: true,
        })
        .id();
    let mut cursor = MessageCursor::<KiaiPercept>::default();
    step(&mut app, 1);
    let guard = named(&mut app, "guard");
    app.world_mut().entity_mut(guard).insert(Senses::default());
    step(&mut app, 29);
    let id = app.world().get::<KiaiId>(thief).unwrap().0;
    let z = kiai(&app).world().unwrap().agents().positions()[id.index()].z;
    assert_eq!(z, -12.0, "the game's transform is copied in");
    assert_eq!(
        seen(&app, &mut cursor),
        [],
        "the wall and the closed door hide the thief"
    );

    // Open the door: the thief is seen through it on its next walk past.
    app.world_mut().get_mut::<KiaiWall>(door).unwrap().enabled = false;
    let start = kiai(&app).tick();
    let mut found = Vec::new();
    for _ in 0..30 {
        step(&mut app, 1);
        found = seen(&app, &mut cursor);
        if !found.is_empty() {
            break;
        }
    }
    assert_eq!(found.len(), 1, "seen through the open door: {found:?}");
    assert_eq!(
        (found[0].entity, found[0].sense, found[0].target),
        (guard, 0, thief)
    );
    assert!(found[0].tick > start);
    assert_eq!(kiai(&app).sense_name(guard, 0), Some("eyes"));
    let senses = app.world().get::<Senses>(guard).unwrap();
    assert_eq!(
        senses.get("eyes"),
        &[thief],
        "the Senses component names the entity"
    );
    assert_eq!(kiai(&app).sensed(guard, "eyes"), vec![thief]);
}

#[test]
fn a_driven_body_gets_a_desired_velocity_along_its_route_and_is_not_moved() {
    let mut app = app_with(YARD);
    let walker = app
        .world_mut()
        .spawn((
            KiaiAgent::new("driven", "guards"),
            Transform::from_xyz(-10.0, 0.0, 0.5),
            DesiredVelocity::default(),
        ))
        .id();
    step(&mut app, 3);
    let kiai_ = kiai(&app);
    let world = kiai_.world().unwrap();
    let id = app.world().get::<KiaiId>(walker).unwrap().0;
    let nav = world.nav().unwrap();
    let heading = world.nav_states()[id.index()]
        .heading_point(nav)
        .expect("walking somewhere");
    let desired = app.world().get::<DesiredVelocity>(walker).unwrap().0;
    let to = Vec3::new(heading.x + 10.0, heading.y, heading.z - 0.5);
    assert!(desired.length() > 1.0, "{desired}");
    assert!(
        desired.normalize().dot(to.normalize()) > 0.95,
        "desired {desired} vs toward {to}"
    );
    assert_eq!(
        app.world().get::<Transform>(walker).unwrap().translation,
        Vec3::new(-10.0, 0.0, 0.5),
        "kiai never moves a Driven body"
    );
    // A slow controller: half the desired velocity; kiai keeps steering.
    for _ in 0..200 {
        let d = app.world().get::<DesiredVelocity>(walker).unwrap().0;
        app.world_mut()
            .get_mut::<Transform>(walker)
            .unwrap()
            .translation += d * 0.5 * 0.1;
        step(&mut app, 1);
    }
    let p = app.world().get::<Transform>(walker).unwrap().translation;
    assert!(
        Vec3::new(-10.0, 0.0, 0.5).distance(p) > 5.0,
        "it went somewhere: {p}"
    );
}

#[test]
fn link_and_wall_commands_change_the_world_and_bad_ones_are_problems() {
    let mut app = app_with(YARD);
    step(&mut app, 1);
    app.world_mut()
        .run_system_cached(|mut c: Commands| {
            c.kiai_block_link(0, 1, true);
            c.kiai_set_wall_enabled("door", false);
            c.kiai_block_link(0, 2, true); // no such link
        })
        .unwrap();
    let world = kiai(&app).world().unwrap();
    use kiai_bevy::kiai::core::nav::WaypointId;
    assert_eq!(
        world.is_link_blocked(WaypointId(0), WaypointId(1)),
        Some(true)
    );
    let door = world.wall_index("door").unwrap();
    assert_eq!(
        world.occluders().unwrap().walls.is_enabled(door),
        Some(false)
    );
    let problems = kiai(&app).problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("kiai edit refused"), "{problems:?}");
}

/// The whole game of the determinism test: a thief walking a fixed path,
/// a second guard joining at tick 100 and leaving at tick 300.
fn run_game() -> (u64, Vec<(u64, String)>) {
    let mut app = app_with(YARD);
    app.add_systems(FixedUpdate, walk_thief.before(KiaiSet::SyncIn));
    app.world_mut().spawn((
        KiaiAgent::new("thief", "thieves"),
        Transform::from_xyz(-5.0, 0.0, 12.0),
    ));
    let mut cursor = MessageCursor::<KiaiEvent>::default();
    let mut percepts = MessageCursor::<KiaiPercept>::default();
    let mut log = Vec::new();
    let mut extra = None;
    for tick in 0..600 {
        if tick == 100 {
            extra = Some(
                app.world_mut()
                    .spawn((
                        KiaiAgent::new("guard", "guards"),
                        Transform::from_xyz(-20.0, 0.0, 5.0),
                    ))
                    .id(),
            );
        }
        if tick == 300
            && let Some(e) = extra.take()
        {
            app.world_mut().despawn(e);
        }
        step(&mut app, 1);
        log.extend(
            events(&app, &mut cursor)
                .into_iter()
                .map(|e| (e.tick, format!("{:?}", e.kind))),
        );
        log.extend(
            events(&app, &mut percepts)
                .into_iter()
                .map(|p| (p.tick, format!("{p:?}"))),
        );
    }
    assert_eq!(kiai(&app).tick(), 600);
    (kiai(&app).state_hash().unwrap(), log)
}

#[test]
fn the_same_app_inputs_and_seed_give_the_same_state_hash_after_600_ticks() {
    let (a, log_a) = run_game();
    let (b, log_b) = run_game();
    assert_eq!(a, b, "state hash {a:016x} vs {b:016x}");
    assert_eq!(log_a, log_b);
    assert!(
        log_a.iter().any(|(_, e)| e.contains("seen: true")),
        "something happened: {log_a:?}"
    );
}

/// Runs the yard with the thief walking past the open door for `ticks`
/// ticks, sending `kinds`; returns the percept messages and the other
/// events sent.
fn yard_messages(kinds: KiaiEventKinds, ticks: usize) -> (Vec<KiaiPercept>, Vec<KiaiEvent>) {
    let mut app = app_with(YARD);
    app.insert_resource(kinds);
    app.add_systems(FixedUpdate, walk_thief.before(KiaiSet::SyncIn));
    spawn_agent(&mut app, "thief", "thieves", 10.0, 12.0);
    app.world_mut().spawn(KiaiWall {
        name: "door".into(),
        enabled: false,
    });
    let (mut percepts, mut events_sent) = (Vec::new(), Vec::new());
    let mut cursors = (
        MessageCursor::<KiaiPercept>::default(),
        MessageCursor::<KiaiEvent>::default(),
    );
    for _ in 0..ticks {
        step(&mut app, 1);
        percepts.extend(events(&app, &mut cursors.0));
        events_sent.extend(events(&app, &mut cursors.1));
    }
    (percepts, events_sent)
}

#[test]
fn percept_messages_can_be_switched_off_and_the_other_events_still_go_out() {
    let (percepts, events_sent) = yard_messages(KiaiEventKinds::default(), 40);
    assert!(percepts.iter().any(|p| p.seen), "{percepts:?}");
    assert!(!events_sent.is_empty());
    let quiet = KiaiEventKinds {
        percepts: false,
        ..KiaiEventKinds::default()
    };
    let (none, still) = yard_messages(quiet, 40);
    assert_eq!(none, [], "percepts off");
    assert_eq!(still, events_sent, "every other event as before");
}

/// The player, to a game.
#[derive(Component)]
struct Player;

/// Who saw the player, as a game's system heard it.
#[derive(Resource, Default)]
struct Alarms(Vec<(Entity, Entity)>);

/// docs/bevy.md's example system, recording instead of logging.
fn alarm(
    mut percepts: MessageReader<KiaiPercept>,
    player: Single<Entity, With<Player>>,
    mut alarms: ResMut<Alarms>,
) {
    for p in percepts.read() {
        if p.seen && p.target == *player {
            alarms.0.push((p.entity, p.target));
        }
    }
}

#[test]
fn a_games_system_reading_percepts_hears_that_the_guard_sees_the_player() {
    let mut app = app_with(YARD);
    app.init_resource::<Alarms>();
    app.add_systems(FixedUpdate, walk_thief.before(KiaiSet::SyncIn));
    app.add_systems(FixedUpdate, alarm.after(KiaiSet::SyncOut));
    let thief = spawn_agent(&mut app, "thief", "thieves", 10.0, 12.0);
    app.world_mut().entity_mut(thief).insert(Player);
    app.world_mut().spawn(KiaiWall {
        name: "door".into(),
        enabled: false,
    });
    step(&mut app, 1);
    let guard = named(&mut app, "guard");
    step(&mut app, 40);
    let alarms = &app.world().resource::<Alarms>().0;
    assert!(
        !alarms.is_empty(),
        "the guard sees the player through the open door"
    );
    assert!(
        alarms.iter().all(|&seen| seen == (guard, thief)),
        "{alarms:?}"
    );
}

#[test]
fn a_despawned_entitys_events_go_out_even_when_a_new_agent_takes_its_slot() {
    let mut app = app_with(YARD);
    step(&mut app, 1);
    let a = spawn_agent(&mut app, "thief", "thieves", 20.0, 0.0);
    step(&mut app, 1);
    let mut cursor = MessageCursor::<KiaiEvent>::default();
    events(&app, &mut cursor);
    // Between two ticks: one entity goes, another comes (and takes the
    // freed slot).
    app.world_mut().despawn(a);
    let b = spawn_agent(&mut app, "thief", "thieves", -20.0, 0.0);
    step(&mut app, 1);
    let kinds: Vec<_> = events(&app, &mut cursor)
        .into_iter()
        .filter(|e| {
            matches!(
                e.kind,
                KiaiEventKind::Spawned { .. } | KiaiEventKind::Despawned { .. }
            )
        })
        .map(|e| e.kind)
        .collect();
    assert!(
        kinds.contains(&KiaiEventKind::Despawned { entity: a }),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&KiaiEventKind::Spawned { entity: b }),
        "{kinds:?}"
    );
    let id = app.world().get::<KiaiId>(b).unwrap().0;
    assert_eq!(kiai(&app).entity(id), Some(b));
    assert_eq!(kiai(&app).agent(a), None);
}

#[test]
fn an_entity_given_a_new_kiai_agent_becomes_a_new_agent() {
    let mut app = app_with(YARD);
    let e = spawn_agent(&mut app, "thief", "thieves", 20.0, 0.0);
    step(&mut app, 2);
    let first = app.world().get::<KiaiId>(e).unwrap().0;
    app.world_mut().entity_mut(e).remove::<KiaiAgent>();
    app.world_mut()
        .entity_mut(e)
        .insert(KiaiAgent::new("guard", "guards"));
    step(&mut app, 2);
    let second = app.world().get::<KiaiId>(e).expect("a new agent").0;
    assert_ne!(first, second);
    let world = kiai(&app).world().unwrap();
    assert!(!world.is_alive(first) && world.is_alive(second));
    assert_eq!(
        app.world().get::<KiaiAgent>(e),
        Some(&KiaiAgent::new("guard", "guards"))
    );
}

#[test]
fn an_open_door_stays_open_when_the_content_is_rebuilt() {
    let mut app = app_with(YARD);
    step(&mut app, 1);
    app.world_mut().spawn(KiaiWall {
        name: "door".into(),
        enabled: false,
    });
    step(&mut app, 2);
    let door_open = |app: &App| {
        let world = kiai(app).world().unwrap();
        let door = world.wall_index("door").unwrap();
        world.occluders().unwrap().walls.is_enabled(door) == Some(false)
    };
    assert!(door_open(&app));
    // The level changes (as a hot reload does): a new world, the door as
    // the content has it, then the game's `KiaiWall` again.
    let level = app.world().resource::<kiai_bevy::KiaiLevel>().0.clone();
    app.world_mut()
        .resource_mut::<Assets<kiai_bevy::KiaiContent>>()
        .get_mut(&level)
        .unwrap()
        .into_inner();
    step(&mut app, 3);
    assert!(kiai(&app).tick() < 3, "rebuilt");
    assert!(
        door_open(&app),
        "the game's open door applies to the new world"
    );
}

/// Entities whose `Transform` changed since this system last ran.
#[derive(Resource, Default)]
struct Moved(Vec<Entity>);

fn record_moved(q: Query<Entity, Changed<Transform>>, mut moved: ResMut<Moved>) {
    moved.0.extend(q.iter());
}

#[test]
fn bodies_that_do_not_move_are_not_marked_changed() {
    // The yard's guard walks at speed 0: kiai finds the same transform
    // every tick.
    let mut app = app_with(YARD);
    app.init_resource::<Moved>()
        .add_systems(FixedUpdate, record_moved.after(KiaiSet::SyncOut));
    step(&mut app, 3);
    let guard = named(&mut app, "guard");
    let before = *app.world().get::<Transform>(guard).unwrap();
    app.world_mut().resource_mut::<Moved>().0.clear();
    step(&mut app, 3);
    assert_eq!(*app.world().get::<Transform>(guard).unwrap(), before);
    let moved = &app.world().resource::<Moved>().0;
    assert!(!moved.contains(&guard), "{moved:?}");
}
