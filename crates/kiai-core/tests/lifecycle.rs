//! Agents that come and go, walls that open and close, links that block:
//! after every tick the percepts equal a brute-force recomputation over the
//! live agents, no handle of a departed agent is found anywhere, and the
//! state hash is the same at 1 and 2 threads.

use kiai_core::glam::{Vec2, Vec3};
use kiai_core::nav::{WaypointGraph, WaypointId};
use kiai_core::perception::CompiledShape;
use kiai_core::perception::occlusion::{Wall, Walls, blocks_brute};
use kiai_core::{
    AgentId, AgentSpawn, Archetype, ArchetypeId, DefaultDecider, FactionId, Movement, Occluders,
    Pipeline, Sense, SenseFilter, Shape, World, WorldConfig, state_hash,
};
use proptest::prelude::*;

/// One change a game makes between two ticks, or a tick.
#[derive(Clone, Debug)]
enum Op {
    Spawn {
        archetype: usize,
        faction: usize,
        x: f32,
        z: f32,
    },
    Despawn {
        pick: usize,
    },
    Move {
        pick: usize,
        x: f32,
        z: f32,
    },
    Tick,
    ToggleWall {
        wall: usize,
    },
    BlockLink {
        link: usize,
        blocked: bool,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0usize..3, 0usize..3, -30.0f32..30.0, -30.0f32..30.0)
            .prop_map(|(archetype, faction, x, z)| Op::Spawn { archetype, faction, x, z }),
        2 => (0usize..1000).prop_map(|pick| Op::Despawn { pick }),
        1 => (0usize..1000, -30.0f32..30.0, -30.0f32..30.0)
            .prop_map(|(pick, x, z)| Op::Move { pick, x, z }),
        4 => Just(Op::Tick),
        1 => (0usize..4).prop_map(|wall| Op::ToggleWall { wall }),
        1 => (0usize..40, any::<bool>()).prop_map(|(link, blocked)| Op::BlockLink { link, blocked }),
    ]
}

fn sense(name: &str, shape: Shape, filter: SenseFilter, occluded: bool, memory: u32) -> Sense {
    Sense {
        occluded,
        memory_ticks: memory,
        ..Sense::new(name, shape, filter)
    }
}

/// Random walkers with a sphere and an occluded, remembering cone;
/// waypoint walkers on A* routes; still sentries with a sector.
fn archetypes() -> [Archetype; 3] {
    let eyes = || {
        sense(
            "eyes",
            Shape::Cone {
                range: 18.0,
                fov_deg: 140.0,
            },
            SenseFilter::Hostile,
            true,
            6,
        )
    };
    let radar = sense(
        "radar",
        Shape::Sphere { radius: 7.0 },
        SenseFilter::All,
        false,
        0,
    );
    [
        Archetype {
            name: "walker".into(),
            senses: vec![radar, eyes()],
            movement: Movement::Walker {
                min_speed: 1.0,
                max_speed: 4.0,
                direction_change_factor: 6,
                planar: true,
            },
            ..Archetype::default()
        },
        Archetype {
            name: "patrol".into(),
            senses: vec![eyes()],
            movement: Movement::WaypointWalker {
                speed: 3.0,
                route: kiai_core::navigate::RouteMode::AStar,
                arrive_radius: 0.5,
                jitter: 0.0,
                smooth: false,
            },
            ..Archetype::default()
        },
        Archetype {
            name: "sentry".into(),
            senses: vec![sense(
                "side",
                Shape::Sector {
                    range: 12.0,
                    fov_deg: 200.0,
                    max_height_diff: 2.0,
                },
                SenseFilter::All,
                false,
                0,
            )],
            ..Archetype::default()
        },
    ]
}

/// A 5 x 4 grid of waypoints 12 units apart, linked both ways to their
/// neighbours.
fn grid_graph() -> WaypointGraph {
    let mut g = WaypointGraph::new();
    assert!(g.add_cost_list("default", 1.0).is_ok());
    let ids: Vec<WaypointId> = (0..20)
        .filter_map(|k| {
            let p = Vec3::new(
                (k % 5) as f32 * 12.0 - 24.0,
                0.0,
                (k / 5) as f32 * 12.0 - 18.0,
            );
            g.add_waypoint(p).ok()
        })
        .collect();
    for k in 0..20 {
        for d in [1, 5] {
            if (d == 1 && k % 5 == 4) || k + d >= 20 {
                continue;
            }
            let _ = g.add_link(ids[k], ids[k + d]);
            let _ = g.add_link(ids[k + d], ids[k]);
        }
    }
    g
}

/// Three factions, three archetypes (random walkers with a sphere and an
/// occluded, remembering cone; waypoint walkers on A* routes; still
/// sentries with a sector), four walls and a 5 x 4 waypoint grid.
fn world() -> World {
    let mut w = World::new(WorldConfig {
        seed: 11,
        ..WorldConfig::default()
    });
    let f: Vec<FactionId> = (0..3)
        .filter_map(|i| w.factions_mut().add(format!("f{i}")).ok())
        .collect();
    w.factions_mut().set_hostile(f[0], f[1]);
    w.factions_mut().set_hostile(f[1], f[0]);
    w.factions_mut().set_hostile(f[2], f[0]);
    for a in archetypes() {
        let _ = w.add_archetype(a);
    }
    let walls = vec![
        Wall::new(Vec2::new(-10.0, -10.0), Vec2::new(-10.0, 10.0), 3.0),
        Wall::new(Vec2::new(5.0, -20.0), Vec2::new(5.0, 0.0), 3.0),
        Wall::new(Vec2::new(-25.0, 15.0), Vec2::new(25.0, 15.0), 3.0),
        Wall::new(Vec2::new(12.0, 5.0), Vec2::new(20.0, 12.0), 1.0),
    ];
    w.set_occluders(Occluders {
        walls: Walls::build(walls, None),
        pvs: None,
    });
    w.set_nav(grid_graph().freeze());
    assert!(w.set_door(1, true).is_ok());
    w
}

/// The `pick`-th live agent (modulo their number).
fn live(world: &World, pick: usize) -> Option<AgentId> {
    let ids: Vec<AgentId> = world.agents().ids().collect();
    (!ids.is_empty()).then(|| ids[pick % ids.len()])
}

/// Applies `op` (a tick runs on `pool`).
fn apply(world: &mut World, pipeline: &mut Pipeline, pool: &rayon::ThreadPool, op: &Op) {
    match *op {
        Op::Spawn {
            archetype,
            faction,
            x,
            z,
        } => {
            let n = world.agents().len();
            let _ = world.spawn(AgentSpawn {
                name: format!("a{n}"),
                archetype: ArchetypeId(archetype as u16),
                faction: FactionId(faction as u16),
                position: Vec3::new(x, 0.0, z),
                facing: Vec3::new(z.sin(), 0.0, x.cos()),
            });
        }
        Op::Despawn { pick } => {
            if let Some(id) = live(world, pick) {
                assert!(world.despawn(id).is_ok());
                assert!(world.despawn(id).is_err(), "a despawned handle is refused");
            }
        }
        Op::Move { pick, x, z } => {
            if let Some(id) = live(world, pick) {
                assert!(world.set_position(id, Vec3::new(x, 0.0, z)).is_some());
            }
        }
        Op::Tick => pool.install(|| pipeline.tick(world, &mut DefaultDecider::default())),
        Op::ToggleWall { wall } => {
            let on = world.occluders().and_then(|o| o.walls.is_enabled(wall));
            if let Some(on) = on {
                assert!(world.set_wall_enabled(wall, !on).is_ok());
            }
        }
        Op::BlockLink { link, blocked } => {
            let nav = world.nav().map(|n| {
                n.waypoint_ids()
                    .flat_map(|from| n.links_from(from).map(move |(_, to)| (from, to)))
                    .collect::<Vec<_>>()
            });
            if let Some(links) = nav.filter(|l| !l.is_empty()) {
                let (from, to) = links[link % links.len()];
                assert!(world.set_link_blocked(from, to, blocked).is_ok());
            }
        }
    }
}

/// What sense `s` of `agent` should report, by testing every live agent
/// (positions and facings as the sense stage saw them).
fn brute(world: &World, seen: &Snapshot, agent: usize, s: usize) -> Vec<AgentId> {
    let a = world.agents();
    let sense = &world.archetypes()[a.archetypes()[agent].index()].senses[s];
    let shape: CompiledShape = sense.shape.compile();
    let walls: Vec<Wall> = world
        .occluders()
        .map(|o| o.walls.enabled_walls().map(|(_, w)| *w).collect())
        .unwrap_or_default();
    let (p, f) = (seen.positions[agent], seen.facings[agent]);
    a.ids()
        .filter(|t| t.index() != agent && seen.alive[t.index()])
        .filter(|t| {
            sense.filter.passes(
                world.factions(),
                a.factions()[agent],
                a.factions()[t.index()],
            )
        })
        .filter(|t| shape.contains(p, f, seen.positions[t.index()]))
        .filter(|t| !sense.occluded || !blocks_brute(&walls, p, seen.positions[t.index()]))
        .collect()
}

/// The bodies as the next sense stage will see them.
struct Snapshot {
    positions: Vec<Vec3>,
    facings: Vec<Vec3>,
    alive: Vec<bool>,
}

fn snapshot(world: &World) -> Snapshot {
    let a = world.agents();
    Snapshot {
        positions: a.positions().to_vec(),
        facings: a.facings().to_vec(),
        alive: a.alive().to_vec(),
    }
}

/// Every handle the world holds refers to a live agent, and every live
/// agent's percepts equal the brute force.
fn check(world: &World, seen: &Snapshot) -> Result<(), TestCaseError> {
    let a = world.agents();
    for id in a.ids() {
        let i = id.index();
        let senses = world.archetypes()[a.archetypes()[i].index()].senses.len();
        for s in 0..senses {
            let got = world.percepts().sensed(id, s);
            prop_assert!(
                got.iter().all(|t| world.is_alive(*t)),
                "stale id in a sense list"
            );
            prop_assert_eq!(
                got,
                &brute(world, seen, i, s)[..],
                "agent {} sense {}",
                i,
                s
            );
        }
        prop_assert!(
            world.memory(id).iter().all(|m| world.is_alive(m.target)),
            "stale memory"
        );
        let target = a.decisions()[i].target;
        prop_assert!(target.is_none_or(|t| world.is_alive(t)), "stale target");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn churn_matches_brute_force_at_one_and_two_threads(
        initial in prop::collection::vec((0usize..3, 0usize..3, -30.0f32..30.0, -30.0f32..30.0), 0..40),
        ops in prop::collection::vec(op(), 1..60),
    ) {
        let pools: Vec<rayon::ThreadPool> = [1, 2]
            .iter()
            .filter_map(|&n| rayon::ThreadPoolBuilder::new().num_threads(n).build().ok())
            .collect();
        prop_assume!(pools.len() == 2);
        let mut worlds = [world(), world()];
        let mut pipelines = [Pipeline::new(), Pipeline::new()];
        let start = initial.iter().map(|&(archetype, faction, x, z)| Op::Spawn { archetype, faction, x, z });
        for op in start.chain(ops.iter().cloned()) {
            let seen = snapshot(&worlds[0]);
            for k in 0..2 {
                apply(&mut worlds[k], &mut pipelines[k], &pools[k], &op);
            }
            prop_assert_eq!(state_hash(&worlds[0]), state_hash(&worlds[1]));
            if matches!(op, Op::Tick) {
                check(&worlds[0], &seen)?;
            }
        }
    }
}
