//! The grid broadphase finds exactly what testing every pair finds, for every
//! shape and filter, on random worlds (including huge ranges, stacked agents
//! and spread-out ones), at 1 and 2 threads.

use kiai_core::glam::Vec3;
use kiai_core::perception::CompiledShape;
use kiai_core::{
    AgentId, AgentSpawn, Archetype, Movement, Pipeline, Sense, SenseFilter, Shape, World,
    WorldConfig, state_hash,
};
use proptest::prelude::*;

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.01f32..60.0).prop_map(|radius| Shape::Sphere { radius }),
        (0.01f32..60.0, 0.1f32..=360.0).prop_map(|(range, fov_deg)| Shape::Cone { range, fov_deg }),
        (0.01f32..60.0, 0.1f32..=360.0, 0.0f32..5.0).prop_map(
            |(range, fov_deg, max_height_diff)| Shape::Sector {
                range,
                fov_deg,
                max_height_diff
            }
        ),
        (0.01f32..40.0, 0.01f32..1.0, -20.0f32..20.0).prop_map(|(a, k, center_ahead)| {
            Shape::Ellipse {
                a,
                b: a * k,
                center_ahead,
            }
        }),
    ]
}

fn filter() -> impl Strategy<Value = SenseFilter> {
    prop_oneof![
        Just(SenseFilter::All),
        Just(SenseFilter::Hostile),
        Just(SenseFilter::Friendly)
    ]
}

type Spec = (
    Vec<Vec<(Shape, SenseFilter)>>,
    Vec<(usize, usize, [f32; 3], [f32; 3])>,
    f32,
);

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..4, 0.5f32..500.0, 1usize..400).prop_flat_map(|(na, side, n)| {
        (
            prop::collection::vec(prop::collection::vec((shape(), filter()), 0..4), na),
            prop::collection::vec(
                (
                    0..na,
                    0usize..3,
                    [-side..side, -3.0f32..3.0, -side..side],
                    [-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0],
                ),
                n,
            ),
            Just(side),
        )
    })
}

fn build(spec: &Spec) -> World {
    let (archetypes, agents, _) = spec;
    let mut world = World::new(WorldConfig::default());
    let f: Vec<_> = (0..3)
        .filter_map(|i| world.factions_mut().add(format!("f{i}")).ok())
        .collect();
    world.factions_mut().set_hostile(f[0], f[1]);
    world.factions_mut().set_hostile(f[1], f[0]);
    world.factions_mut().set_hostile(f[2], f[0]);
    let ids: Vec<_> = archetypes
        .iter()
        .enumerate()
        .filter_map(|(i, senses)| {
            world
                .add_archetype(Archetype {
                    name: format!("a{i}"),
                    senses: senses
                        .iter()
                        .enumerate()
                        .map(|(k, (shape, filter))| Sense {
                            name: format!("s{k}"),
                            shape: *shape,
                            filter: *filter,
                            occluded: false,
                            lose_range: None,
                            memory_ticks: 0,
                        })
                        .collect(),
                    movement: Movement::Static,
                    ..Archetype::default()
                })
                .ok()
        })
        .collect();
    for (i, (a, fa, p, d)) in agents.iter().enumerate() {
        let _ = world.spawn(AgentSpawn {
            name: format!("n{i}"),
            archetype: ids[*a],
            faction: f[*fa],
            position: Vec3::from_array(*p),
            facing: Vec3::from_array(*d),
        });
    }
    world
}

fn all_pairs(world: &World, agent: usize, sense: usize) -> Vec<AgentId> {
    let a = world.agents();
    let arch = &world.archetypes()[a.archetypes()[agent].index()];
    let s = &arch.senses[sense];
    let shape: CompiledShape = s.shape.compile();
    (0..a.len())
        .filter(|&j| j != agent)
        .filter(|&j| {
            s.filter
                .passes(world.factions(), a.factions()[agent], a.factions()[j])
        })
        .filter(|&j| shape.contains(a.positions()[agent], a.facings()[agent], a.positions()[j]))
        .map(AgentId::from_index)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn grid_equals_all_pairs(spec in spec()) {
        let mut world = build(&spec);
        Pipeline::new().sense(&mut world);
        for i in 0..world.agents().len() {
            let arch = world.agents().archetypes()[i];
            for s in 0..world.archetypes()[arch.index()].senses.len() {
                prop_assert_eq!(world.percepts().sensed(AgentId::from_index(i), s), &all_pairs(&world, i, s)[..]);
            }
        }
    }

    #[test]
    fn same_state_at_one_and_two_threads(spec in spec()) {
        let run = |threads: usize| {
            let mut world = build(&spec);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| panic!("{e}"));
            pool.install(|| {
                let mut p = Pipeline::new();
                for _ in 0..5 {
                    p.tick(&mut world, &mut kiai_core::DefaultDecider::default());
                }
            });
            state_hash(&world)
        };
        prop_assert_eq!(run(1), run(2));
    }
}
