//! RVO2's obstacle half-planes, for a wall as a two-vertex obstacle.

use super::{Line, RVO_EPSILON, RefAgent, V, abs_sq, det, dot, left_of, normalize};

/// One vertex of an RVO2 obstacle polygon.
#[derive(Clone, Copy)]
pub(super) struct Vertex {
    point: V,
    direction: V,
    is_convex: bool,
    next: usize,
    previous: usize,
}

/// RVO2's `addObstacle` for a two-vertex polygon, listed so that the agent
/// is on the right of the edge from vertex 0 to vertex 1 (the edge RVO2's
/// obstacle query returns); an agent on the line takes `a -> b`.
pub(super) fn two_vertex_obstacle(a: V, b: V, agent: V) -> [Vertex; 2] {
    let (p0, p1) = if left_of(a, b, agent) <= 0.0 {
        (a, b)
    } else {
        (b, a)
    };
    [
        Vertex {
            point: p0,
            direction: normalize(p1 - p0),
            is_convex: true,
            next: 1,
            previous: 1,
        },
        Vertex {
            point: p1,
            direction: normalize(p0 - p1),
            is_convex: true,
            next: 0,
            previous: 0,
        },
    ]
}

/// RVO2's obstacle loop body for one obstacle edge (vertex 0 to vertex 1
/// of `poly`), from velocity `velocity`.
pub(super) fn obstacle_line(
    agent: &RefAgent,
    velocity: V,
    poly: &[Vertex; 2],
    lines: &mut Vec<Line>,
) {
    let inv_time_horizon_obst = 1.0 / agent.time_horizon_obst;
    let mut obstacle1 = 0usize;
    let mut obstacle2 = poly[obstacle1].next;
    let relative_position1 = poly[obstacle1].point - agent.position;
    let relative_position2 = poly[obstacle2].point - agent.position;

    // Already covered by a previous obstacle line?
    for l in lines.iter() {
        if det(
            inv_time_horizon_obst * relative_position1 - l.point,
            l.direction,
        ) - inv_time_horizon_obst * agent.radius
            >= -RVO_EPSILON
            && det(
                inv_time_horizon_obst * relative_position2 - l.point,
                l.direction,
            ) - inv_time_horizon_obst * agent.radius
                >= -RVO_EPSILON
        {
            return;
        }
    }

    let dist_sq1 = abs_sq(relative_position1);
    let dist_sq2 = abs_sq(relative_position2);
    let radius_sq = agent.radius * agent.radius;
    let obstacle_vector = poly[obstacle2].point - poly[obstacle1].point;
    let s = dot(-relative_position1, obstacle_vector) / abs_sq(obstacle_vector);
    let dist_sq_line = abs_sq(-relative_position1 - s * obstacle_vector);

    if s < 0.0 && dist_sq1 <= radius_sq {
        if poly[obstacle1].is_convex {
            lines.push(Line {
                point: V::new(0.0, 0.0),
                direction: normalize(V::new(-relative_position1.y, relative_position1.x)),
            });
        }
        return;
    }
    if s > 1.0 && dist_sq2 <= radius_sq {
        if poly[obstacle2].is_convex && det(relative_position2, poly[obstacle2].direction) >= 0.0 {
            lines.push(Line {
                point: V::new(0.0, 0.0),
                direction: normalize(V::new(-relative_position2.y, relative_position2.x)),
            });
        }
        return;
    }
    if (0.0..=1.0).contains(&s) && dist_sq_line <= radius_sq {
        lines.push(Line {
            point: V::new(0.0, 0.0),
            direction: -poly[obstacle1].direction,
        });
        return;
    }

    let left_leg_direction;
    let right_leg_direction;
    let r = agent.radius;
    if s < 0.0 && dist_sq_line <= radius_sq {
        // Obliquely viewed: the left vertex defines the obstacle.
        obstacle2 = obstacle1;
        let leg1 = (dist_sq1 - radius_sq).sqrt();
        let p = relative_position1;
        left_leg_direction = V::new(p.x * leg1 - p.y * r, p.x * r + p.y * leg1) / dist_sq1;
        right_leg_direction = V::new(p.x * leg1 + p.y * r, -p.x * r + p.y * leg1) / dist_sq1;
    } else if s > 1.0 && dist_sq_line <= radius_sq {
        // Obliquely viewed: the right vertex defines the obstacle.
        obstacle1 = obstacle2;
        let leg2 = (dist_sq2 - radius_sq).sqrt();
        let p = relative_position2;
        left_leg_direction = V::new(p.x * leg2 - p.y * r, p.x * r + p.y * leg2) / dist_sq2;
        right_leg_direction = V::new(p.x * leg2 + p.y * r, -p.x * r + p.y * leg2) / dist_sq2;
    } else {
        // Both vertices are convex here.
        let leg1 = (dist_sq1 - radius_sq).sqrt();
        let p = relative_position1;
        left_leg_direction = V::new(p.x * leg1 - p.y * r, p.x * r + p.y * leg1) / dist_sq1;
        let leg2 = (dist_sq2 - radius_sq).sqrt();
        let p = relative_position2;
        right_leg_direction = V::new(p.x * leg2 + p.y * r, -p.x * r + p.y * leg2) / dist_sq2;
    }
    finish_obstacle_line(
        agent,
        velocity,
        poly,
        (obstacle1, obstacle2),
        (left_leg_direction, right_leg_direction),
        lines,
    );
}

/// The second half of RVO2's obstacle loop body: foreign legs, cut-offs and
/// the projection.
fn finish_obstacle_line(
    agent: &RefAgent,
    velocity: V,
    poly: &[Vertex; 2],
    (obstacle1, obstacle2): (usize, usize),
    (mut left_leg_direction, mut right_leg_direction): (V, V),
    lines: &mut Vec<Line>,
) {
    let inv_time_horizon_obst = 1.0 / agent.time_horizon_obst;
    let left_neighbor = poly[obstacle1].previous;
    let mut is_left_leg_foreign = false;
    let mut is_right_leg_foreign = false;
    if poly[obstacle1].is_convex && det(left_leg_direction, -poly[left_neighbor].direction) >= 0.0 {
        left_leg_direction = -poly[left_neighbor].direction;
        is_left_leg_foreign = true;
    }
    if poly[obstacle2].is_convex && det(right_leg_direction, poly[obstacle2].direction) <= 0.0 {
        right_leg_direction = poly[obstacle2].direction;
        is_right_leg_foreign = true;
    }
    let left_cutoff = inv_time_horizon_obst * (poly[obstacle1].point - agent.position);
    let right_cutoff = inv_time_horizon_obst * (poly[obstacle2].point - agent.position);
    let cutoff_vector = right_cutoff - left_cutoff;
    let same = obstacle1 == obstacle2;
    let t = if same {
        0.5
    } else {
        dot(velocity - left_cutoff, cutoff_vector) / abs_sq(cutoff_vector)
    };
    let t_left = dot(velocity - left_cutoff, left_leg_direction);
    let t_right = dot(velocity - right_cutoff, right_leg_direction);
    let r = agent.radius;
    if (t < 0.0 && t_left < 0.0) || (same && t_left < 0.0 && t_right < 0.0) {
        let unit_w = normalize(velocity - left_cutoff);
        lines.push(Line {
            direction: V::new(unit_w.y, -unit_w.x),
            point: left_cutoff + r * inv_time_horizon_obst * unit_w,
        });
        return;
    }
    if t > 1.0 && t_right < 0.0 {
        let unit_w = normalize(velocity - right_cutoff);
        lines.push(Line {
            direction: V::new(unit_w.y, -unit_w.x),
            point: right_cutoff + r * inv_time_horizon_obst * unit_w,
        });
        return;
    }
    let dist_sq_cutoff = if !(0.0..=1.0).contains(&t) || same {
        f64::INFINITY
    } else {
        abs_sq(velocity - (left_cutoff + t * cutoff_vector))
    };
    let dist_sq_left = if t_left < 0.0 {
        f64::INFINITY
    } else {
        abs_sq(velocity - (left_cutoff + t_left * left_leg_direction))
    };
    let dist_sq_right = if t_right < 0.0 {
        f64::INFINITY
    } else {
        abs_sq(velocity - (right_cutoff + t_right * right_leg_direction))
    };
    let push = |lines: &mut Vec<Line>, cutoff: V, direction: V| {
        lines.push(Line {
            direction,
            point: cutoff + r * inv_time_horizon_obst * V::new(-direction.y, direction.x),
        });
    };
    if dist_sq_cutoff <= dist_sq_left && dist_sq_cutoff <= dist_sq_right {
        push(lines, left_cutoff, -poly[obstacle1].direction);
        return;
    }
    // kiai: where RVO2 adds nothing for a foreign leg, the cut-off line
    // (or, one vertex alone, the cut-off circle).
    let foreign = |lines: &mut Vec<Line>| {
        if same {
            let unit_w = normalize(velocity - left_cutoff);
            lines.push(Line {
                direction: V::new(unit_w.y, -unit_w.x),
                point: left_cutoff + r * inv_time_horizon_obst * unit_w,
            });
        } else {
            push(lines, left_cutoff, -poly[obstacle1].direction);
        }
    };
    if dist_sq_left <= dist_sq_right {
        if is_left_leg_foreign {
            foreign(lines);
        } else {
            push(lines, left_cutoff, left_leg_direction);
        }
        return;
    }
    if is_right_leg_foreign {
        foreign(lines);
    } else {
        push(lines, right_cutoff, -right_leg_direction);
    }
}
