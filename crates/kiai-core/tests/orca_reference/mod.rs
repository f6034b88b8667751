//! A plain reference for kiai's ORCA: RVO2's `Agent::computeNewVelocity`,
//! `linearProgram1`, `linearProgram2` and `linearProgram3` transcribed line
//! by line in `f64`, with kiai's documented departures (see
//! `steering::orca`'s module docs): a responsibility share per neighbour;
//! walls as two-vertex obstacles seen from the agent's side, with the
//! cut-off line for a foreign leg; the walls' half-planes built again from
//! the zero velocity when they alone leave no velocity; `linearProgram1`
//! relaxing the walls' half-planes by 1e-5 per unit of speed.

mod obstacle;
mod program;

use kiai_core::glam::Vec2;
use kiai_core::steering::orca::{OrcaAgent, OrcaNeighbour, OrcaSegment};

use obstacle::{obstacle_line, two_vertex_obstacle};
use program::{linear_program2, linear_program3};

/// RVO2's `RVO_EPSILON`.
const RVO_EPSILON: f64 = 0.00001;

/// How far kiai's `linearProgram1` relaxes the earlier half-planes, per
/// unit of the speed limit (RVO2 does not).
const ROUNDING: f64 = 0.00001;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct V {
    pub(crate) x: f64,
    pub(crate) y: f64,
}

impl V {
    fn new(x: f64, y: f64) -> V {
        V { x, y }
    }
    pub(crate) fn from(v: Vec2) -> V {
        V::new(f64::from(v.x), f64::from(v.y))
    }
}

impl std::ops::Add for V {
    type Output = V;
    fn add(self, o: V) -> V {
        V::new(self.x + o.x, self.y + o.y)
    }
}

impl std::ops::Sub for V {
    type Output = V;
    fn sub(self, o: V) -> V {
        V::new(self.x - o.x, self.y - o.y)
    }
}

impl std::ops::Neg for V {
    type Output = V;
    fn neg(self) -> V {
        V::new(-self.x, -self.y)
    }
}

impl std::ops::Mul<V> for f64 {
    type Output = V;
    fn mul(self, v: V) -> V {
        V::new(self * v.x, self * v.y)
    }
}

impl std::ops::Div<f64> for V {
    type Output = V;
    fn div(self, s: f64) -> V {
        V::new(self.x / s, self.y / s)
    }
}

fn dot(a: V, b: V) -> f64 {
    a.x * b.x + a.y * b.y
}

fn det(a: V, b: V) -> f64 {
    a.x * b.y - a.y * b.x
}

fn abs_sq(a: V) -> f64 {
    dot(a, a)
}

pub(crate) fn abs(a: V) -> f64 {
    abs_sq(a).sqrt()
}

fn normalize(a: V) -> V {
    a / abs(a)
}

/// RVO2's `leftOf`: positive when `c` is left of the line `a -> b`.
fn left_of(a: V, b: V, c: V) -> f64 {
    det(a - c, b - a)
}

#[derive(Clone, Copy, Debug)]
struct Line {
    point: V,
    direction: V,
}

struct RefAgent {
    position: V,
    velocity: V,
    radius: f64,
    pref_velocity: V,
    max_speed: f64,
    time_horizon: f64,
    time_horizon_obst: f64,
}

/// RVO2's agent loop body, with `responsibility` in place of 0.5.
fn agent_line(agent: &RefAgent, other: &OrcaNeighbour, time_step: f64) -> Option<Line> {
    let responsibility = f64::from(other.responsibility);
    if responsibility <= 0.0 {
        return None;
    }
    let responsibility = responsibility.min(1.0);
    let inv_time_horizon = 1.0 / agent.time_horizon;
    let relative_position = V::from(other.position) - agent.position;
    let relative_velocity = agent.velocity - V::from(other.velocity);
    let dist_sq = abs_sq(relative_position);
    let combined_radius = agent.radius + f64::from(other.radius);
    let combined_radius_sq = combined_radius * combined_radius;
    let direction;
    let u;
    if dist_sq > combined_radius_sq {
        let w = relative_velocity - inv_time_horizon * relative_position;
        let w_length_sq = abs_sq(w);
        let dot_product = dot(w, relative_position);
        if dot_product < 0.0 && dot_product * dot_product > combined_radius_sq * w_length_sq {
            let w_length = w_length_sq.sqrt();
            let unit_w = w / w_length;
            direction = V::new(unit_w.y, -unit_w.x);
            u = (combined_radius * inv_time_horizon - w_length) * unit_w;
        } else {
            let leg = (dist_sq - combined_radius_sq).sqrt();
            let p = relative_position;
            let c = combined_radius;
            direction = if det(relative_position, w) > 0.0 {
                V::new(p.x * leg - p.y * c, p.x * c + p.y * leg) / dist_sq
            } else {
                -(V::new(p.x * leg + p.y * c, -p.x * c + p.y * leg) / dist_sq)
            };
            u = dot(relative_velocity, direction) * direction - relative_velocity;
        }
    } else {
        let inv_time_step = 1.0 / time_step;
        let w = relative_velocity - inv_time_step * relative_position;
        let w_length = abs(w);
        let unit_w = w / w_length;
        direction = V::new(unit_w.y, -unit_w.x);
        u = (combined_radius * inv_time_step - w_length) * unit_w;
    }
    Some(Line {
        point: agent.velocity + responsibility * u,
        direction,
    })
}

/// Every half-plane: the walls' (projected from `wall_velocity`) then the
/// neighbours'; and how many are the walls'.
fn all_lines(
    agent: &RefAgent,
    wall_velocity: V,
    neighbours: &[OrcaNeighbour],
    walls: &[OrcaSegment],
    time_step: f64,
) -> (Vec<Line>, usize) {
    let mut lines = Vec::new();
    for w in walls {
        let poly = two_vertex_obstacle(V::from(w.a), V::from(w.b), agent.position);
        obstacle_line(agent, wall_velocity, &poly, &mut lines);
    }
    let num_obst_lines = lines.len();
    lines.extend(
        neighbours
            .iter()
            .filter_map(|n| agent_line(agent, n, time_step)),
    );
    (lines, num_obst_lines)
}

/// RVO2's `computeNewVelocity` with kiai's departures.
pub(crate) fn reference(
    agent: &OrcaAgent,
    neighbours: &[OrcaNeighbour],
    walls: &[OrcaSegment],
    time_step: f32,
) -> V {
    let a = RefAgent {
        position: V::from(agent.position),
        velocity: V::from(agent.velocity),
        radius: f64::from(agent.radius),
        pref_velocity: V::from(agent.preferred_velocity),
        max_speed: f64::from(agent.max_speed),
        time_horizon: f64::from(agent.time_horizon),
        time_horizon_obst: f64::from(agent.obstacle_time_horizon),
    };
    let dt = f64::from(time_step);
    let mut result = V::new(0.0, 0.0);
    let (mut lines, mut num_obst) = all_lines(&a, a.velocity, neighbours, walls, dt);
    let mut line_fail = linear_program2(
        &lines,
        num_obst,
        a.max_speed,
        a.pref_velocity,
        false,
        &mut result,
    );
    if line_fail < num_obst {
        (lines, num_obst) = all_lines(&a, V::new(0.0, 0.0), neighbours, walls, dt);
        line_fail = linear_program2(
            &lines,
            num_obst,
            a.max_speed,
            a.pref_velocity,
            false,
            &mut result,
        );
        if line_fail < num_obst {
            return result;
        }
    }
    if line_fail < lines.len() {
        linear_program3(&lines, num_obst, line_fail, a.max_speed, &mut result);
    }
    result
}
