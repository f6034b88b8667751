//! Occlusion, potentially visible sets, hysteresis, memory, hearing,
//! messages and events, on the real sense stage, against brute force where
//! one exists.

use kiai_core::glam::{Vec2, Vec3};
use kiai_core::perception::hearing::{Falloff, Sound};
use kiai_core::perception::occlusion::{Wall, Walls, blocks_brute};
use kiai_core::perception::pvs::{Pvs, Region};
use kiai_core::{
    AgentId, AgentSpawn, Archetype, DefaultDecider, EventKind, Message, Movement, Occluders,
    Pipeline, Recipient, Sense, SenseFilter, Shape, World, WorldConfig,
};
use proptest::prelude::*;

fn archetype(senses: Vec<Sense>) -> Archetype {
    Archetype {
        name: "a".into(),
        senses,
        movement: Movement::Static,
        ..Archetype::default()
    }
}

fn world_with(senses: Vec<Sense>, agents: &[(Vec3, Vec3)]) -> World {
    let mut world = World::new(WorldConfig::default());
    let f = world
        .factions_mut()
        .add("f")
        .unwrap_or_else(|e| panic!("{e}"));
    let a = world
        .add_archetype(archetype(senses))
        .unwrap_or_else(|e| panic!("{e}"));
    for (i, &(position, facing)) in agents.iter().enumerate() {
        world
            .spawn(AgentSpawn {
                name: format!("n{i}"),
                archetype: a,
                faction: f,
                position,
                facing,
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    world
}

fn occluded(name: &str, shape: Shape) -> Sense {
    Sense {
        occluded: true,
        ..Sense::new(name, shape, SenseFilter::All)
    }
}

prop_compose! {
    fn wall()(x in -30.0f32..30.0, z in -30.0f32..30.0, dx in -15.0f32..15.0, dz in -15.0f32..15.0, h in 0.5f32..4.0) -> Wall {
        Wall::new(Vec2::new(x, z), Vec2::new(x + dx, z + dz), h)
    }
}

prop_compose! {
    fn agent()(x in -30.0f32..30.0, y in 0.0f32..3.0, z in -30.0f32..30.0, fx in -1.0f32..1.0, fz in -1.0f32..1.0) -> (Vec3, Vec3) {
        (Vec3::new(x, y, z), Vec3::new(fx, 0.0, fz))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Occluded senses equal "shape contains it and no wall blocks the
    /// segment", tested over every pair, with and without a PVS that lets
    /// everything through (a conservative PVS must change nothing).
    #[test]
    fn occluded_senses_equal_brute_force(walls in prop::collection::vec(wall(), 0..30), agents in prop::collection::vec(agent(), 2..60), with_pvs in any::<bool>()) {
        let shapes = [
            Shape::Sphere { radius: 25.0 },
            Shape::Cone { range: 40.0, fov_deg: 100.0 },
            Shape::Sector { range: 35.0, fov_deg: 200.0, max_height_diff: 2.0 },
            Shape::Ellipse { a: 20.0, b: 8.0, center_ahead: 12.0 },
        ];
        let senses = shapes.iter().enumerate().map(|(k, shape)| occluded(&format!("s{k}"), *shape)).collect();
        let mut world = world_with(senses, &agents);
        let quads = [(-40.0, -40.0), (0.0, -40.0), (-40.0, 0.0), (0.0, 0.0)];
        let regions: Vec<Region> = quads.iter().map(|&(x, z)| Region { polygon: vec![Vec2::new(x, z), Vec2::new(x + 40.0, z), Vec2::new(x + 40.0, z + 40.0), Vec2::new(x, z + 40.0)] }).collect();
        world.set_occluders(Occluders {
            walls: Walls::build(walls.clone(), None),
            pvs: with_pvs.then(|| Pvs::all_visible(regions)),
        });
        Pipeline::new().sense(&mut world);
        let a = world.agents();
        for i in 0..a.len() {
            for (s, shape) in shapes.iter().enumerate() {
                let compiled = shape.compile();
                let expected: Vec<AgentId> = (0..a.len())
                    .filter(|&j| j != i)
                    .filter(|&j| compiled.contains(a.positions()[i], a.facings()[i], a.positions()[j]))
                    .filter(|&j| !blocks_brute(&walls, a.positions()[i], a.positions()[j]))
                    .map(AgentId::from_index)
                    .collect();
                prop_assert_eq!(world.percepts().sensed(AgentId::from_index(i), s), &expected[..]);
            }
        }
    }
}

/// Two rooms split by a solid wall: a PVS that says the rooms cannot see
/// each other culls exactly what the wall would block.
#[test]
fn a_conservative_pvs_changes_nothing() {
    let wall = vec![Wall::new(Vec2::new(0.0, -50.0), Vec2::new(0.0, 50.0), 10.0)];
    let rooms = vec![
        Region {
            polygon: vec![
                Vec2::new(-50.0, -50.0),
                Vec2::new(0.0, -50.0),
                Vec2::new(0.0, 50.0),
                Vec2::new(-50.0, 50.0),
            ],
        },
        Region {
            polygon: vec![
                Vec2::new(0.0, -50.0),
                Vec2::new(50.0, -50.0),
                Vec2::new(50.0, 50.0),
                Vec2::new(0.0, 50.0),
            ],
        },
    ];
    let agents: Vec<(Vec3, Vec3)> = (0..40)
        .map(|i| {
            let t = i as f32;
            (
                Vec3::new((t * 7.3) % 90.0 - 45.0 + 0.1, 1.0, (t * 13.7) % 90.0 - 45.0),
                Vec3::new(t.sin(), 0.0, t.cos()),
            )
        })
        .collect();
    let sense = || {
        vec![occluded(
            "eyes",
            Shape::Cone {
                range: 80.0,
                fov_deg: 200.0,
            },
        )]
    };
    let run = |pvs: Option<Pvs>| {
        let mut world = world_with(sense(), &agents);
        world.set_occluders(Occluders {
            walls: Walls::build(wall.clone(), None),
            pvs,
        });
        Pipeline::new().sense(&mut world);
        let rays = world.percepts().rays();
        (
            world
                .percepts()
                .iter()
                .map(|(a, s, ids)| (a, s, ids.to_vec()))
                .collect::<Vec<_>>(),
            rays,
        )
    };
    let (without, rays_without) = run(None);
    let split = Pvs::from_lists(rooms, &[vec![0], vec![1]]).unwrap_or_else(|e| panic!("{e}"));
    let (with, rays_with) = run(Some(split));
    assert_eq!(without, with);
    assert!(
        rays_with < rays_without,
        "the PVS saves rays: {rays_with} vs {rays_without}"
    );
}

/// Article 003's guard (sees with a cone, remembers 20 ticks, hears) and an
/// intruder behind a wall.
fn guard_behind_a_wall() -> World {
    let guard_senses = vec![
        Sense {
            memory_ticks: 20,
            ..occluded(
                "eyes",
                Shape::Cone {
                    range: 30.0,
                    fov_deg: 120.0,
                },
            )
        },
        Sense::new(
            "ears",
            Shape::Hearing {
                threshold: 0.5,
                falloff: Falloff::InverseSquare,
            },
            SenseFilter::All,
        ),
    ];
    let mut world = world_with(
        guard_senses,
        &[
            (Vec3::ZERO, Vec3::X),
            (Vec3::new(10.0, 0.0, 0.0), Vec3::NEG_X),
        ],
    );
    world.set_occluders(Occluders {
        walls: Walls::build(
            vec![Wall::new(Vec2::new(5.0, -5.0), Vec2::new(5.0, 5.0), 3.0)],
            None,
        ),
        pvs: None,
    });
    world
}

/// Article 003's guard: behind a wall it does not see the intruder, it hears a
/// loud sound and not a quiet one, and it remembers where it last saw the
/// intruder until the memory's max age.
#[test]
fn the_guard_behind_the_wall() {
    let mut world = guard_behind_a_wall();
    let (guard, intruder) = (AgentId::from_index(0), AgentId::from_index(1));
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();

    // Behind the wall: not seen. A loud sound at 10 units (100/100 = 1 >= 0.5) is heard,
    // a quiet one (20/100 = 0.2) is not.
    world.emit_sound(Sound {
        position: Vec3::new(10.0, 0.0, 0.0),
        volume: 100.0,
        source: 1,
        tag: 7,
    });
    world.emit_sound(Sound {
        position: Vec3::new(10.0, 0.0, 1.0),
        volume: 20.0,
        source: 1,
        tag: 8,
    });
    pipeline.sense(&mut world);
    assert!(
        world.percepts().sensed(guard, 0).is_empty(),
        "the wall hides the intruder"
    );
    let heard = world.percepts().heard(guard, 1);
    assert_eq!(heard.len(), 1);
    assert_eq!(world.percepts().sounds()[heard[0].sound].tag, 7);
    assert!((heard[0].loudness - 1.0).abs() < 1e-5);
    assert_eq!(world.percepts().sensed(guard, 1), &[intruder]);
    assert!(
        world
            .percept_events()
            .any(|e| matches!(e, EventKind::Heard { agent, .. } if agent == guard))
    );

    // The intruder steps around the wall's end: seen, remembered.
    world.set_position(intruder, Vec3::new(10.0, 0.0, 12.0));
    pipeline.tick(&mut world, &mut decider);
    assert_eq!(world.percepts().sensed(guard, 0), &[intruder]);
    assert!(world.percept_events().any(|e| e
        == EventKind::Gained {
            agent: guard,
            sense: 0,
            target: intruder
        }));
    let seen_at = world.tick() - 1;

    // It leaves the view: lost, but remembered where it was for 20 ticks.
    world.set_position(intruder, Vec3::new(-20.0, 0.0, 0.0));
    pipeline.tick(&mut world, &mut decider);
    assert!(world.percepts().sensed(guard, 0).is_empty());
    assert!(world.percept_events().any(|e| e
        == EventKind::Lost {
            agent: guard,
            sense: 0,
            target: intruder
        }));
    for _ in 0..19 {
        let m = world.memory(guard);
        assert_eq!(m.len(), 1, "still remembered at tick {}", world.tick());
        assert_eq!(
            (m[0].target, m[0].position, m[0].tick),
            (intruder, Vec3::new(10.0, 0.0, 12.0), seen_at)
        );
        pipeline.tick(&mut world, &mut decider);
    }
    pipeline.tick(&mut world, &mut decider);
    assert!(world.memory(guard).is_empty(), "forgotten after max age");
}

#[test]
fn lose_range_keeps_a_target_a_little_longer() {
    let sense = Sense {
        lose_range: Some(15.0),
        ..Sense::new("eyes", Shape::Sphere { radius: 10.0 }, SenseFilter::All)
    };
    let mut world = world_with(
        vec![sense],
        &[(Vec3::ZERO, Vec3::X), (Vec3::new(12.0, 0.0, 0.0), Vec3::X)],
    );
    let mut p = Pipeline::new();
    p.sense(&mut world);
    assert!(
        world
            .percepts()
            .sensed(AgentId::from_index(0), 0)
            .is_empty(),
        "12 > 10: never seen, not kept"
    );
    world.set_position(AgentId::from_index(1), Vec3::new(8.0, 0.0, 0.0));
    p.sense(&mut world);
    assert_eq!(
        world.percepts().sensed(AgentId::from_index(0), 0),
        &[AgentId::from_index(1)]
    );
    world.set_position(AgentId::from_index(1), Vec3::new(14.0, 0.0, 0.0));
    p.sense(&mut world);
    assert_eq!(
        world.percepts().sensed(AgentId::from_index(0), 0),
        &[AgentId::from_index(1)],
        "kept inside the lose range"
    );
    world.set_position(AgentId::from_index(1), Vec3::new(16.0, 0.0, 0.0));
    p.sense(&mut world);
    assert!(
        world
            .percepts()
            .sensed(AgentId::from_index(0), 0)
            .is_empty(),
        "lost beyond it"
    );
}

#[test]
fn messages_reach_their_recipients_next_sense_in_order() {
    let mut world = World::new(WorldConfig::default());
    let red = world
        .factions_mut()
        .add("red")
        .unwrap_or_else(|e| panic!("{e}"));
    let blue = world
        .factions_mut()
        .add("blue")
        .unwrap_or_else(|e| panic!("{e}"));
    let a = world
        .add_archetype(archetype(vec![]))
        .unwrap_or_else(|e| panic!("{e}"));
    for (i, (f, x)) in [(red, 0.0), (red, 5.0), (blue, 50.0), (red, 100.0)]
        .into_iter()
        .enumerate()
    {
        world
            .spawn(AgentSpawn {
                name: format!("n{i}"),
                archetype: a,
                faction: f,
                position: Vec3::new(x, 0.0, 0.0),
                facing: Vec3::X,
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let captain = AgentId::from_index(0);
    world.send_message(Message {
        from: Some(captain),
        to: Recipient::Faction(red),
        tag: 1,
        position: Vec3::ONE,
    });
    world.send_message(Message {
        from: Some(captain),
        to: Recipient::Radius {
            center: Vec3::ZERO,
            radius: 60.0,
        },
        tag: 2,
        position: Vec3::ONE,
    });
    world.send_message(Message {
        from: None,
        to: Recipient::Agent(AgentId::from_index(3)),
        tag: 3,
        position: Vec3::ONE,
    });
    let mut p = Pipeline::new();
    p.sense(&mut world);
    let inbox = |i: u32| -> Vec<u32> {
        world
            .percepts()
            .inbox(AgentId::new(i, 0))
            .iter()
            .map(|&m| world.percepts().messages()[m as usize].tag)
            .collect()
    };
    assert_eq!(inbox(0), Vec::<u32>::new(), "no message to oneself");
    assert_eq!(inbox(1), [1, 2]);
    assert_eq!(inbox(2), [2]);
    assert_eq!(inbox(3), [1, 3]);
    p.sense(&mut world);
    assert!(world.percepts().messages().is_empty(), "delivered once");
}

/// Walkers never cross a wall: a box of walls keeps a random walker inside
/// for thousands of ticks.
#[test]
fn walkers_do_not_walk_through_walls() {
    let mut world = World::new(WorldConfig {
        seed: 9,
        tick_seconds: 0.1,
        bounds: None,
    });
    let f = world
        .factions_mut()
        .add("f")
        .unwrap_or_else(|e| panic!("{e}"));
    let walker = Movement::Walker {
        min_speed: 2.0,
        max_speed: 6.0,
        direction_change_factor: 5,
        planar: true,
    };
    let a = world
        .add_archetype(Archetype {
            movement: walker,
            ..archetype(vec![])
        })
        .unwrap_or_else(|e| panic!("{e}"));
    for i in 0..20 {
        let x = (i % 5) as f32 * 3.0 - 6.0;
        let z = (i / 5) as f32 * 3.0 - 6.0;
        world
            .spawn(AgentSpawn {
                name: format!("w{i}"),
                archetype: a,
                faction: f,
                position: Vec3::new(x, 0.0, z),
                facing: Vec3::X,
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let corners = [
        Vec2::new(-10.0, -10.0),
        Vec2::new(10.0, -10.0),
        Vec2::new(10.0, 10.0),
        Vec2::new(-10.0, 10.0),
    ];
    world.set_occluders(Occluders {
        walls: Walls::build(Wall::polygon(&corners, 2.0), None),
        pvs: None,
    });
    let mut p = Pipeline::new();
    let mut d = DefaultDecider::default();
    let mut moved = 0.0;
    for _ in 0..3000 {
        let before = world.agents().positions()[0];
        p.tick(&mut world, &mut d);
        moved += before.distance(world.agents().positions()[0]);
        for q in world.agents().positions() {
            assert!(q.x.abs() < 10.0 && q.z.abs() < 10.0, "escaped to {q}");
        }
    }
    assert!(moved > 100.0, "the walker did walk ({moved})");
}

/// Separation spreads a crowd that starts packed together.
#[test]
fn separation_spreads_a_crowd() {
    let run = |separation: Option<f32>| {
        let mut world = World::new(WorldConfig {
            seed: 2,
            tick_seconds: 0.1,
            bounds: None,
        });
        let f = world
            .factions_mut()
            .add("f")
            .unwrap_or_else(|e| panic!("{e}"));
        let radar = Sense::new("radar", Shape::Sphere { radius: 6.0 }, SenseFilter::All);
        let a = world
            .add_archetype(Archetype {
                movement: Movement::Wander {
                    speed: 1.0,
                    turn_deg: 20.0,
                },
                separation,
                ..archetype(vec![radar])
            })
            .unwrap_or_else(|e| panic!("{e}"));
        for i in 0..12 {
            let t = i as f32;
            world
                .spawn(AgentSpawn {
                    name: format!("c{i}"),
                    archetype: a,
                    faction: f,
                    position: Vec3::new(t.sin(), 0.0, t.cos()) * 0.5,
                    facing: Vec3::X,
                })
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let mut p = Pipeline::new();
        let mut d = DefaultDecider::default();
        for _ in 0..100 {
            p.tick(&mut world, &mut d);
        }
        let ps = world.agents().positions();
        let mut closest = f32::INFINITY;
        for i in 0..ps.len() {
            for j in i + 1..ps.len() {
                closest = closest.min(ps[i].distance(ps[j]));
            }
        }
        closest
    };
    let (without, with) = (run(None), run(Some(4.0)));
    assert!(
        with > 2.0 * without && with > 1.0,
        "closest pair: {without} without, {with} with separation"
    );
}
