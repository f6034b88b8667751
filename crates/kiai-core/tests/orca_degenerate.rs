//! ORCA on degenerate inputs: coincident agents, zero radii, zero-length
//! walls, NaN and infinities anywhere. Nothing panics, the velocity is
//! always finite and within the speed limit, and the documented fallbacks
//! hold.

use kiai_core::glam::Vec2;
use kiai_core::steering::orca::{
    HalfPlane, OrcaAgent, OrcaNeighbour, OrcaScratch, OrcaSegment, compute_velocity,
};
use proptest::prelude::*;

fn agent_at(position: Vec2, preferred_velocity: Vec2) -> OrcaAgent {
    OrcaAgent {
        position,
        velocity: Vec2::ZERO,
        radius: 0.5,
        preferred_velocity,
        max_speed: 2.0,
        time_horizon: 2.0,
        obstacle_time_horizon: 1.0,
    }
}

fn neighbour(agent: &OrcaAgent, responsibility: f32) -> OrcaNeighbour {
    OrcaNeighbour {
        position: agent.position,
        velocity: agent.velocity,
        radius: agent.radius,
        responsibility,
    }
}

fn solve(agent: &OrcaAgent, neighbours: &[OrcaNeighbour], walls: &[OrcaSegment]) -> Vec2 {
    let v = compute_velocity(agent, neighbours, walls, 0.1, &mut OrcaScratch::new());
    assert!(v.is_finite(), "{v}");
    v
}

#[test]
fn coincident_agents_separate_along_their_preferred_velocities() {
    let mut a = agent_at(Vec2::ZERO, Vec2::new(1.0, 0.0));
    let mut b = agent_at(Vec2::ZERO, Vec2::new(0.0, 1.0));
    let dt = 0.1;
    let mut scratch = OrcaScratch::new();
    for _ in 0..50 {
        let va = compute_velocity(&a, &[neighbour(&b, 0.5)], &[], dt, &mut scratch);
        let vb = compute_velocity(&b, &[neighbour(&a, 0.5)], &[], dt, &mut scratch);
        assert!(va.is_finite() && vb.is_finite());
        (a.velocity, b.velocity) = (va, vb);
        a.position += va * dt;
        b.position += vb * dt;
    }
    assert!(
        a.position.distance(b.position) >= 1.0 - 1e-3,
        "apart: {} {}",
        a.position,
        b.position
    );
}

#[test]
fn coincident_identical_agents_get_a_finite_velocity() {
    let a = agent_at(Vec2::new(3.0, 4.0), Vec2::ZERO);
    let v = solve(&a, &[neighbour(&a, 0.5)], &[]);
    // Pushed along +x, the documented last resort.
    assert!(v.x > 0.0 && v.y.abs() < 1e-6, "{v}");
    // A neighbour at the same spot but not moving where the agent will be:
    // the overlap is resolved along the relative velocity.
    let mut moving = a;
    moving.velocity = Vec2::new(0.0, 1.0);
    assert!(solve(&moving, &[neighbour(&a, 0.5)], &[]).is_finite());
}

#[test]
fn zero_radii_are_points() {
    let mut a = agent_at(Vec2::ZERO, Vec2::new(1.0, 0.0));
    a.radius = 0.0;
    let mut n = neighbour(&agent_at(Vec2::new(1.0, 0.0), Vec2::ZERO), 0.5);
    n.radius = 0.0;
    let v = solve(&a, &[n], &[]);
    assert!(v.length() <= 2.0 + 1e-5);
    // On the neighbour, and on a wall's end.
    n.position = a.position;
    let wall = OrcaSegment {
        a: Vec2::ZERO,
        b: Vec2::new(0.0, 2.0),
    };
    solve(&a, &[n], &[wall]);
}

#[test]
fn degenerate_walls_and_neighbours_are_ignored() {
    let a = agent_at(Vec2::ZERO, Vec2::new(1.5, 0.3));
    let alone = solve(&a, &[], &[]);
    assert_eq!(alone, a.preferred_velocity);
    let nan = Vec2::new(f32::NAN, 0.0);
    let walls = [
        OrcaSegment {
            a: Vec2::new(1.0, 0.0),
            b: Vec2::new(1.0, 0.0),
        },
        OrcaSegment {
            a: nan,
            b: Vec2::new(1.0, 1.0),
        },
        OrcaSegment {
            a: Vec2::new(1.0, -1.0),
            b: Vec2::new(f32::INFINITY, 1.0),
        },
    ];
    assert_eq!(solve(&a, &[], &walls), alone);
    let other = agent_at(Vec2::new(1.0, 0.0), Vec2::ZERO);
    let mut broken = Vec::new();
    for r in [0.0, -1.0, f32::NAN] {
        broken.push(neighbour(&other, r));
    }
    for field in 0..3 {
        let mut n = neighbour(&other, 0.5);
        match field {
            0 => n.position = nan,
            1 => n.velocity = nan,
            _ => n.position.y = f32::INFINITY,
        }
        broken.push(n);
    }
    assert_eq!(solve(&a, &broken, &[]), alone);
    // A responsibility above 1 counts as 1.
    assert_eq!(
        solve(&a, &[neighbour(&other, 7.0)], &[]),
        solve(&a, &[neighbour(&other, 1.0)], &[])
    );
}

#[test]
fn a_broken_agent_gets_a_documented_velocity() {
    let good = agent_at(Vec2::ZERO, Vec2::new(1.0, 0.0));
    let near = [neighbour(&agent_at(Vec2::new(0.8, 0.0), Vec2::ZERO), 0.5)];
    let mut a = good;
    a.position = Vec2::new(f32::NAN, 0.0);
    assert_eq!(solve(&a, &near, &[]), Vec2::ZERO, "no position: no move");
    let mut a = good;
    a.preferred_velocity = Vec2::new(f32::INFINITY, 0.0);
    let mut zero_pref = good;
    zero_pref.preferred_velocity = Vec2::ZERO;
    assert_eq!(solve(&a, &near, &[]), solve(&zero_pref, &near, &[]));
    let mut a = good;
    a.max_speed = f32::NAN;
    assert_eq!(solve(&a, &near, &[]), Vec2::ZERO, "no speed: no move");
    for t in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let mut a = good;
        a.time_horizon = t;
        a.obstacle_time_horizon = t;
        solve(&a, &near, &[]);
        let v = compute_velocity(&good, &near, &[], t, &mut OrcaScratch::new());
        assert!(v.is_finite());
    }
}

#[test]
fn the_same_inputs_give_the_same_bits() {
    let a = agent_at(Vec2::new(0.3, -0.2), Vec2::new(1.2, 0.7));
    let ns: Vec<OrcaNeighbour> = (0..8)
        .map(|k| {
            let p = Vec2::from_angle(k as f32) * (0.8 + 0.1 * k as f32);
            let mut n = neighbour(&agent_at(p, Vec2::ZERO), 0.5);
            n.velocity = -p;
            n
        })
        .collect();
    let wall = OrcaSegment {
        a: Vec2::new(-2.0, 1.2),
        b: Vec2::new(2.0, 1.4),
    };
    let mut scratch = OrcaScratch::new();
    let first = compute_velocity(&a, &ns, &[wall], 0.1, &mut scratch);
    // Other work in between does not leak through the scratch.
    compute_velocity(
        &agent_at(Vec2::ONE, Vec2::X),
        &ns[..3],
        &[],
        0.05,
        &mut scratch,
    );
    let again = compute_velocity(&a, &ns, &[wall], 0.1, &mut scratch);
    assert_eq!(
        first.to_array().map(f32::to_bits),
        again.to_array().map(f32::to_bits)
    );
    // A neighbour's half-plane is the same bits whichever place it has in
    // the list (neighbours are computed four at a time).
    let bits =
        |h: &HalfPlane| [h.point.x, h.point.y, h.direction.x, h.direction.y].map(f32::to_bits);
    compute_velocity(&a, &ns, &[], 0.1, &mut scratch);
    let together: Vec<HalfPlane> = scratch.half_planes().to_vec();
    assert_eq!(together.len(), ns.len());
    for (k, n) in ns.iter().enumerate() {
        compute_velocity(&a, std::slice::from_ref(n), &[], 0.1, &mut scratch);
        assert_eq!(
            bits(&scratch.half_planes()[0]),
            bits(&together[k]),
            "neighbour {k}"
        );
    }
}

fn any_vec2() -> impl Strategy<Value = Vec2> {
    let component = prop_oneof![
        4 => -10.0f32..10.0,
        1 => any::<f32>(),
        1 => Just(0.0f32),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
    ];
    (component.clone(), component).prop_map(|(x, y)| Vec2::new(x, y))
}

fn any_scalar() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => 0.0f32..5.0,
        1 => any::<f32>(),
        1 => Just(0.0f32),
        1 => Just(f32::NAN),
        1 => Just(-1.0f32),
        1 => Just(f32::INFINITY),
    ]
}

fn any_agent() -> impl Strategy<Value = OrcaAgent> {
    (
        (any_vec2(), any_vec2(), any_scalar(), any_vec2()),
        (any_scalar(), any_scalar(), any_scalar()),
    )
        .prop_map(
            |((position, velocity, radius, pref), (max_speed, th, tho))| OrcaAgent {
                position,
                velocity,
                radius,
                preferred_velocity: pref,
                max_speed,
                time_horizon: th,
                obstacle_time_horizon: tho,
            },
        )
}

fn any_neighbour() -> impl Strategy<Value = OrcaNeighbour> {
    (any_vec2(), any_vec2(), any_scalar(), any_scalar()).prop_map(
        |(position, velocity, radius, responsibility)| OrcaNeighbour {
            position,
            velocity,
            radius,
            responsibility,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn any_input_gives_a_finite_velocity_within_the_speed_limit(
        agent in any_agent(),
        neighbours in prop::collection::vec(any_neighbour(), 0..8),
        walls in prop::collection::vec((any_vec2(), any_vec2()), 0..4),
        dt in any_scalar(),
    ) {
        let walls: Vec<OrcaSegment> = walls.into_iter().map(|(a, b)| OrcaSegment { a, b }).collect();
        let v = compute_velocity(&agent, &neighbours, &walls, dt, &mut OrcaScratch::new());
        prop_assert!(v.is_finite(), "{v}");
        let limit = if agent.max_speed.is_finite() && agent.max_speed > 0.0 {
            f64::from(agent.max_speed)
        } else {
            0.0
        };
        // In f64: the square of a huge f32 speed overflows f32.
        let speed = f64::from(v.x).hypot(f64::from(v.y));
        prop_assert!(speed <= limit * (1.0 + 1e-4) + 1e-6, "{v} over {limit}");
    }
}
