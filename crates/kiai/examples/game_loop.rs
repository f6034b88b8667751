//! A tiny deterministic "game" around kiai's runtime: the player is a body
//! the game moves (Kinematic), guards see and chase it, a door opens at
//! tick 200, a guard is killed at tick 300 and a reinforcement arrives at
//! 400. The game reacts to kiai's events, which it prints.
//!
//! ```text
//! cargo run -p kiai --example game_loop
//! ```

use kiai::content::Content;
use kiai::prelude::*;

/// The level: a wall with a door between the player's start and the
/// guards, and a waypoint route the patrol walks.
const LEVEL: &str = r#"(
    format: 2,
    name: "game loop",
    seed: 11,
    bounds: (min: (-40.0, 0.0, -40.0), max: (40.0, 10.0, 40.0)),
    factions: [(name: "guards", hostile: ["player"]), (name: "player", hostile: ["guards"])],
    waypoints: [
        (id: 0, pos: (-20.0, 0.0, -10.0)), (id: 1, pos: (-20.0, 0.0, 10.0)),
        (id: 2, pos: (20.0, 0.0, 10.0)), (id: 3, pos: (20.0, 0.0, -10.0)),
    ],
    links: [
        (from: 0, to: 1, two_way: true), (from: 1, to: 2, two_way: true),
        (from: 2, to: 3, two_way: true), (from: 3, to: 0, two_way: true),
    ],
    walls: [
        (from: (0.0, -2.0), to: (0.0, 2.0), height: 3.0, name: "door", door: true),
        (from: (0.0, 2.0), to: (0.0, 40.0), height: 3.0),
        (from: (0.0, -2.0), to: (0.0, -40.0), height: 3.0),
    ],
    archetypes: {
        "guard": (
            senses: [(name: "eyes", shape: Cone(range: 25.0, fov_deg: 140.0),
                      filter: Hostile, occluded: true, memory_ticks: 30)],
            movement: Walker(min_speed: 1.0, max_speed: 3.0, direction_change_factor: 30,
                             planar: true),
        ),
        "player": (body: Kinematic, noise: 50.0),
    },
    agents: [
        (name: "alice", archetype: "guard", faction: "guards", pos: (-10.0, 0.0, 0.0),
         facing: (1.0, 0.0, 0.0)),
        (name: "bob", archetype: "guard", faction: "guards", pos: (-12.0, 0.0, 5.0),
         facing: (1.0, 0.0, 0.0)),
        (name: "player", archetype: "player", faction: "player", pos: (10.0, 0.0, 0.0)),
    ],
)"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let content = Content::from_str(LEVEL, "game_loop.ron")?;
    let mut world = content.world(None)?;
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    let player = world.agents().find("player").ok_or("no player")?;
    let door = world.wall_index("door").ok_or("no door")?;
    let guard = world
        .archetypes()
        .iter()
        .position(|a| a.name == "guard")
        .ok_or("no guard archetype")?;
    let guards = world.factions().find("guards").ok_or("no guards")?;
    for tick in 0..600u64 {
        // The game's own logic, between two ticks.
        move_player(&mut world, player, tick);
        match tick {
            200 => world.set_wall_enabled(door, false)?,
            300 => {
                if let Some(bob) = world.agents().find("bob") {
                    world.despawn(bob)?;
                }
            }
            400 => {
                world.spawn(AgentSpawn {
                    name: "carol".into(),
                    archetype: kiai::core::ArchetypeId::from_index(guard),
                    faction: guards,
                    position: Vec3::new(-30.0, 0.0, 0.0),
                    facing: Vec3::X,
                })?;
            }
            _ => {}
        }
        pipeline.tick(&mut world, &mut decider);
        let events: Vec<_> = world.drain_events().collect();
        for event in events {
            if let Some(line) = describe(&world, &event.kind) {
                println!("tick {:>3}: {line}", event.tick);
            }
        }
    }
    println!("state hash {:016x}", state_hash(&world));
    Ok(())
}

/// The player walks a scripted path: along the wall on its side, then
/// through the door once it is open (the "input" of this game).
fn move_player(world: &mut World, player: AgentId, tick: u64) {
    let t = tick as f32 * 0.1;
    let position = if tick < 220 {
        Vec3::new(10.0, 0.0, 8.0 * (t * 0.3).sin())
    } else {
        Vec3::new(10.0 - (tick - 220) as f32 * 0.1, 0.0, 0.0).max(Vec3::new(-25.0, 0.0, 0.0))
    };
    let i = player.index();
    let old = world.agents().positions()[i];
    let dt = world.config().tick_seconds;
    // A Kinematic body: the game writes where it is and how it moves.
    world.positions_mut()[i] = position;
    world.velocities_mut()[i] = (position - old) / dt;
}

/// The name an agent had (its slot keeps it until another agent takes it).
fn name(world: &World, agent: AgentId) -> &str {
    let a = world.agents();
    match a.id(agent.index()) {
        Some(live) if live != agent => "someone who left",
        _ => a.names().get(agent.index()).map_or("?", String::as_str),
    }
}

/// One event as the game would log it, or `None` for events it ignores.
fn describe(world: &World, kind: &EventKind) -> Option<String> {
    let n = |a| name(world, a);
    Some(match *kind {
        EventKind::Spawned { agent } => format!("{} joins", n(agent)),
        EventKind::Despawned { agent } => format!("{} is gone", n(agent)),
        EventKind::Gained { agent, target, .. } => format!("{} sees {}", n(agent), n(target)),
        EventKind::Lost { agent, target, .. } => {
            format!("{} lost sight of {}", n(agent), n(target))
        }
        EventKind::DecisionChanged { agent, from, to } => {
            format!("{}: {} -> {}", n(agent), from.name(), to.state.name())
        }
        EventKind::DoorChanged { wall, open } => {
            let wall = world.wall_name(wall as usize).unwrap_or("a wall");
            format!("the {wall} {}", if open { "opens" } else { "closes" })
        }
        _ => return None,
    })
}
