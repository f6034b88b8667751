//! ORCA in motion: agents stepped with `steering::orca` for many ticks.
//! Two agents head-on pass without touching; a ring of 20 swapping sides
//! barely overlaps; walls the agents are told about are never crossed; an
//! agent taking all the responsibility avoids one that ignores it.

use kiai_core::glam::Vec2;
use kiai_core::steering::orca::{
    OrcaAgent, OrcaNeighbour, OrcaScratch, OrcaSegment, compute_velocity,
};

/// Agents stepped with ORCA toward their goals, as a game would: each tick
/// every agent's neighbours (nearest first, then by index) and walls
/// (nearest first), then all new velocities, then all moves.
struct Crowd {
    position: Vec<Vec2>,
    velocity: Vec<Vec2>,
    radius: Vec<f32>,
    goal: Vec<Vec2>,
    max_speed: f32,
    time_horizon: f32,
    obstacle_time_horizon: f32,
    dt: f32,
    walls: Vec<OrcaSegment>,
    /// Neighbours further than this are not considered, world units.
    neighbour_distance: f32,
    max_neighbours: usize,
    /// Share of the avoidance agent `i` takes from agent `j`.
    responsibility: fn(usize, usize) -> f32,
    tick: u32,
    scratch: OrcaScratch,
    neighbours: Vec<OrcaNeighbour>,
    near_walls: Vec<OrcaSegment>,
}

impl Crowd {
    fn new(start: &[Vec2], goal: &[Vec2], radius: f32) -> Crowd {
        Crowd {
            position: start.to_vec(),
            velocity: vec![Vec2::ZERO; start.len()],
            radius: vec![radius; start.len()],
            goal: goal.to_vec(),
            max_speed: 1.5,
            time_horizon: 2.0,
            obstacle_time_horizon: 1.0,
            dt: 0.1,
            walls: Vec::new(),
            neighbour_distance: 6.0,
            max_neighbours: 10,
            responsibility: |_, _| 0.5,
            tick: 0,
            scratch: OrcaScratch::new(),
            neighbours: Vec::new(),
            near_walls: Vec::new(),
        }
    }

    /// Toward the goal at full speed (slower for the last step), turned by
    /// a tiny angle that differs per agent and tick, as RVO2's examples do
    /// to break perfect symmetries.
    fn preferred_velocity(&self, i: usize) -> Vec2 {
        let to_goal = self.goal[i] - self.position[i];
        let dist = to_goal.length();
        if dist < 1e-6 {
            return Vec2::ZERO;
        }
        let speed = self.max_speed.min(dist / self.dt);
        let angle =
            1e-3 * (((i as u32 * 7919 + self.tick * 104_729) % 2001) as f32 - 1000.0) / 1000.0;
        Vec2::from_angle(angle).rotate(to_goal / dist * speed)
    }

    fn gather(&mut self, i: usize) {
        let p = self.position[i];
        let mut near: Vec<(f32, usize)> = (0..self.position.len())
            .filter(|&j| j != i)
            .map(|j| (p.distance_squared(self.position[j]), j))
            .filter(|&(d, _)| d < self.neighbour_distance * self.neighbour_distance)
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        near.truncate(self.max_neighbours);
        self.neighbours.clear();
        self.neighbours
            .extend(near.iter().map(|&(_, j)| OrcaNeighbour {
                position: self.position[j],
                velocity: self.velocity[j],
                radius: self.radius[j],
                responsibility: (self.responsibility)(i, j),
            }));
        let range = self.obstacle_time_horizon * self.max_speed + self.radius[i];
        let mut walls: Vec<(f32, usize)> = (0..self.walls.len())
            .map(|k| (distance_to_segment(p, &self.walls[k]), k))
            .filter(|&(d, _)| d < range)
            .collect();
        walls.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.near_walls.clear();
        self.near_walls
            .extend(walls.iter().map(|&(_, k)| self.walls[k]));
    }

    /// One tick; returns each agent's move as `(from, to)`.
    fn step(&mut self) -> Vec<(Vec2, Vec2)> {
        let n = self.position.len();
        let mut new_velocity = Vec::with_capacity(n);
        for i in 0..n {
            self.gather(i);
            let agent = OrcaAgent {
                position: self.position[i],
                velocity: self.velocity[i],
                radius: self.radius[i],
                preferred_velocity: self.preferred_velocity(i),
                max_speed: self.max_speed,
                time_horizon: self.time_horizon,
                obstacle_time_horizon: self.obstacle_time_horizon,
            };
            let v = compute_velocity(
                &agent,
                &self.neighbours,
                &self.near_walls,
                self.dt,
                &mut self.scratch,
            );
            assert!(v.is_finite(), "agent {i} tick {}", self.tick);
            assert!(v.length() <= self.max_speed * (1.0 + 1e-4), "{v}");
            new_velocity.push(v);
        }
        self.velocity = new_velocity;
        let mut moves = Vec::with_capacity(n);
        for i in 0..n {
            let from = self.position[i];
            self.position[i] += self.velocity[i] * self.dt;
            moves.push((from, self.position[i]));
        }
        self.tick += 1;
        moves
    }

    /// Per agent, the largest overlap with another agent (sum of radii
    /// minus distance; negative when apart), world units.
    fn overlaps(&self) -> Vec<f32> {
        let n = self.position.len();
        (0..n)
            .map(|i| {
                (0..n)
                    .filter(|&j| j != i)
                    .map(|j| {
                        self.radius[i] + self.radius[j]
                            - self.position[i].distance(self.position[j])
                    })
                    .fold(f32::NEG_INFINITY, f32::max)
            })
            .collect()
    }

    fn arrived(&self, within: f32) -> bool {
        self.position
            .iter()
            .zip(&self.goal)
            .all(|(p, g)| p.distance(*g) <= within)
    }
}

fn distance_to_segment(p: Vec2, s: &OrcaSegment) -> f32 {
    let ab = s.b - s.a;
    let t = ((p - s.a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    p.distance(s.a + t * ab)
}

/// Whether the move `from -> to` touches the segment `s` (shares a point
/// with it), tested exactly on the orientations of the end points.
fn crosses(from: Vec2, to: Vec2, s: &OrcaSegment) -> bool {
    let orient = |a: Vec2, b: Vec2, c: Vec2| {
        let d = f64::from(b.x - a.x) * f64::from(c.y - a.y)
            - f64::from(b.y - a.y) * f64::from(c.x - a.x);
        d.partial_cmp(&0.0).map_or(0, |o| o as i32)
    };
    let d1 = orient(s.a, s.b, from);
    let d2 = orient(s.a, s.b, to);
    let d3 = orient(from, to, s.a);
    let d4 = orient(from, to, s.b);
    d1 * d2 < 0 && d3 * d4 < 0
}

#[test]
fn two_agents_head_on_pass_each_other_without_touching() {
    let start = [Vec2::new(-6.0, 0.0), Vec2::new(6.0, 0.0)];
    let goal = [start[1], start[0]];
    let mut crowd = Crowd::new(&start, &goal, 0.5);
    let mut closest = f32::INFINITY;
    for _ in 0..300 {
        crowd.step();
        closest = closest.min(crowd.position[0].distance(crowd.position[1]));
        assert!(
            crowd.overlaps()[0] <= 1e-3,
            "overlap {} at tick {}",
            crowd.overlaps()[0],
            crowd.tick
        );
        if crowd.arrived(0.01) {
            break;
        }
    }
    assert!(
        crowd.arrived(0.01),
        "both reach the other side: {:?}",
        crowd.position
    );
    assert!(closest < 2.0, "they passed close by: {closest}");
}

#[test]
fn a_ring_of_20_swapping_sides_barely_overlaps() {
    let n = 20;
    let radius = 0.5;
    // Evenly spaced but for a few centimetres each way: a perfectly
    // symmetric ring jams in the middle (every agent's way blocked alike),
    // as ORCA's examples note.
    let start: Vec<Vec2> = (0..n)
        .map(|i| {
            let jitter = 0.05 * (((i * 7919) % 11) as f32 / 5.0 - 1.0);
            (8.0 + jitter)
                * Vec2::from_angle((i as f32 + jitter) * std::f32::consts::TAU / n as f32)
        })
        .collect();
    let goal: Vec<Vec2> = start.iter().map(|p| -*p).collect();
    let mut crowd = Crowd::new(&start, &goal, radius);
    let (mut agent_ticks, mut bad, mut worst) = (0usize, 0usize, f32::NEG_INFINITY);
    while crowd.tick < 1000 && !crowd.arrived(0.05) {
        crowd.step();
        for overlap in crowd.overlaps() {
            agent_ticks += 1;
            worst = worst.max(overlap);
            if overlap >= 0.1 * radius {
                bad += 1;
            }
        }
    }
    assert!(crowd.arrived(0.05), "all arrive by tick {}", crowd.tick);
    println!(
        "{} ticks, {agent_ticks} agent-ticks, {bad} overlapping more than 10% of a radius, worst {worst}",
        crowd.tick
    );
    assert!(
        bad * 1000 <= agent_ticks,
        "{bad} of {agent_ticks} agent-ticks overlap more than 10% (worst {worst})"
    );
}

/// Steps `crowd` until everyone arrives or `ticks` pass, checking every
/// move against every wall: never through it, never nearer than the radius
/// (less a rounding tolerance). Returns whether everyone arrived.
fn run_between_walls(crowd: &mut Crowd, ticks: u32) -> bool {
    for _ in 0..ticks {
        let moves = crowd.step();
        for (i, &(from, to)) in moves.iter().enumerate() {
            for (k, wall) in crowd.walls.iter().enumerate() {
                assert!(
                    !crosses(from, to, wall),
                    "agent {i} crossed wall {k} at tick {}: {from} -> {to}",
                    crowd.tick
                );
                let clearance = distance_to_segment(to, wall);
                assert!(
                    clearance >= crowd.radius[i] - 1e-3,
                    "agent {i} {clearance} from wall {k} at tick {}",
                    crowd.tick
                );
            }
        }
        if crowd.arrived(0.05) {
            return true;
        }
    }
    false
}

#[test]
fn an_agent_slides_along_a_wall_and_round_its_end() {
    // The goal is behind the wall, up and to the right: the agent meets
    // the wall at a slant, slides along it (ORCA keeps the velocity's
    // component along the wall) and goes round its end.
    let mut crowd = Crowd::new(&[Vec2::new(0.0, -4.0)], &[Vec2::new(6.0, 4.0)], 0.5);
    crowd.walls = vec![OrcaSegment {
        a: Vec2::new(-3.0, 0.0),
        b: Vec2::new(3.0, 0.0),
    }];
    let mut touched = false;
    for _ in 0..600 {
        run_between_walls(&mut crowd, 1);
        touched |= distance_to_segment(crowd.position[0], &crowd.walls[0]) < 0.55;
        if crowd.arrived(0.05) {
            break;
        }
    }
    assert!(touched, "it came within its radius of the wall");
    assert!(crowd.arrived(0.05), "arrives: {:?}", crowd.position);
}

/// Pressed straight at a wall, an agent stops at its clearance (ORCA is
/// local: going round is the route's job).
#[test]
fn an_agent_sent_straight_at_a_wall_stops_at_its_clearance() {
    let mut crowd = Crowd::new(&[Vec2::new(0.0, -4.0)], &[Vec2::new(0.0, 4.0)], 0.5);
    crowd.walls = vec![OrcaSegment {
        a: Vec2::new(-3.0, 0.0),
        b: Vec2::new(3.0, 0.0),
    }];
    run_between_walls(&mut crowd, 300);
    let gap = distance_to_segment(crowd.position[0], &crowd.walls[0]);
    assert!((gap - 0.5).abs() < 0.01, "stops at its radius: {gap}");
}

#[test]
fn agents_driven_into_walls_never_cross_them() {
    // A corridor 3 wide with a pillar-like box in the middle; two groups of
    // ten walk through it toward each other, so the crowd presses agents
    // against the walls.
    let walls = [
        ((-12.0, 1.5), (12.0, 1.5)),
        ((-12.0, -1.5), (12.0, -1.5)),
        ((-0.5, -0.3), (0.5, -0.3)),
        ((0.5, -0.3), (0.5, 0.3)),
        ((0.5, 0.3), (-0.5, 0.3)),
        ((-0.5, 0.3), (-0.5, -0.3)),
    ];
    let mut start = Vec::new();
    let mut goal = Vec::new();
    for k in 0..10 {
        let (x, z) = (
            8.0 + (k / 2) as f32 * 1.0,
            if k % 2 == 0 { -0.6 } else { 0.6 },
        );
        start.push(Vec2::new(-x, z));
        goal.push(Vec2::new(x + 2.0, z));
        start.push(Vec2::new(x, -z));
        goal.push(Vec2::new(-x - 2.0, -z));
    }
    let mut crowd = Crowd::new(&start, &goal, 0.35);
    crowd.walls = walls
        .iter()
        .map(|&((ax, az), (bx, bz))| OrcaSegment {
            a: Vec2::new(ax, az),
            b: Vec2::new(bx, bz),
        })
        .collect();
    run_between_walls(&mut crowd, 1500);
}

#[test]
fn random_walls_are_never_crossed() {
    // Deterministic pseudo-random scenes: walls anywhere, agents placed
    // clear of them, goals anywhere (often behind a wall).
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    for _scene in 0..200 {
        let mut point = || Vec2::new(next() * 20.0 - 10.0, next() * 20.0 - 10.0);
        let walls: Vec<OrcaSegment> = (0..6)
            .map(|_| {
                let a = point();
                let b = a + (point() * 0.4);
                OrcaSegment { a, b }
            })
            .collect();
        let clear = |p: Vec2| walls.iter().all(|w| distance_to_segment(p, w) > 0.6);
        let mut start = Vec::new();
        while start.len() < 8 {
            let p = point();
            if clear(p) && start.iter().all(|q: &Vec2| q.distance(p) > 1.0) {
                start.push(p);
            }
        }
        let goal: Vec<Vec2> = (0..8).map(|_| point()).collect();
        let mut crowd = Crowd::new(&start, &goal, 0.4);
        crowd.walls = walls;
        run_between_walls(&mut crowd, 300);
    }
}

#[test]
fn an_agent_with_all_the_responsibility_avoids_one_that_ignores_it() {
    // Agent 0 takes all of the avoidance; agent 1 ignores agent 0 and walks
    // straight through where it stands.
    let start = [Vec2::new(-6.0, 0.0), Vec2::new(6.0, 0.1)];
    let goal = [Vec2::new(6.0, 0.0), Vec2::new(-6.0, 0.1)];
    let mut crowd = Crowd::new(&start, &goal, 0.5);
    crowd.responsibility = |i, _| if i == 0 { 1.0 } else { 0.0 };
    let mut closest = f32::INFINITY;
    for _ in 0..300 {
        crowd.step();
        // Agent 1 never deviates from its straight line.
        assert!(
            (crowd.position[1].y - 0.1).abs() < 1e-2,
            "{}",
            crowd.position[1]
        );
        closest = closest.min(crowd.position[0].distance(crowd.position[1]));
        assert!(
            crowd.overlaps()[0] <= 1e-3,
            "overlap at tick {}",
            crowd.tick
        );
        if crowd.arrived(0.01) {
            break;
        }
    }
    assert!(crowd.arrived(0.01), "{:?}", crowd.position);
    assert!(closest < 1.5, "they met: {closest}");
    // With half each instead, agent 1 moves aside too.
    let mut crowd = Crowd::new(&start, &goal, 0.5);
    let mut aside = 0.0f32;
    for _ in 0..300 {
        crowd.step();
        aside = aside.max((crowd.position[1].y - 0.1).abs());
    }
    assert!(aside > 0.1, "reciprocal: both move aside ({aside})");
}
