//! RVO2's linear programs.

use super::{Line, ROUNDING, RVO_EPSILON, V, abs_sq, det, dot, normalize};

/// RVO2's `linearProgram1`; kiai relaxes the first `num_obst_lines`
/// (walls) by `ROUNDING` per unit of speed.
fn linear_program1(
    lines: &[Line],
    num_obst_lines: usize,
    line_no: usize,
    radius: f64,
    opt_velocity: V,
    direction_opt: bool,
    result: &mut V,
) -> bool {
    let dot_product = dot(lines[line_no].point, lines[line_no].direction);
    let discriminant = dot_product * dot_product + radius * radius - abs_sq(lines[line_no].point);
    if discriminant < 0.0 {
        return false;
    }
    let sqrt_discriminant = discriminant.sqrt();
    let mut t_left = -dot_product - sqrt_discriminant;
    let mut t_right = -dot_product + sqrt_discriminant;
    for i in 0..line_no {
        let slack = if i < num_obst_lines {
            ROUNDING * radius.max(1.0)
        } else {
            0.0
        };
        let denominator = det(lines[line_no].direction, lines[i].direction);
        let numerator = det(lines[i].direction, lines[line_no].point - lines[i].point) + slack;
        if denominator.abs() <= RVO_EPSILON {
            if numerator < 0.0 {
                return false;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = t_right.min(t);
        } else {
            t_left = t_left.max(t);
        }
        if t_left > t_right {
            return false;
        }
    }
    let line = lines[line_no];
    if direction_opt {
        if dot(opt_velocity, line.direction) > 0.0 {
            *result = line.point + t_right * line.direction;
        } else {
            *result = line.point + t_left * line.direction;
        }
    } else {
        let t = dot(line.direction, opt_velocity - line.point);
        if t < t_left {
            *result = line.point + t_left * line.direction;
        } else if t > t_right {
            *result = line.point + t_right * line.direction;
        } else {
            *result = line.point + t * line.direction;
        }
    }
    true
}

/// RVO2's `linearProgram2`.
pub(super) fn linear_program2(
    lines: &[Line],
    num_obst_lines: usize,
    radius: f64,
    opt_velocity: V,
    direction_opt: bool,
    result: &mut V,
) -> usize {
    if direction_opt {
        *result = radius * opt_velocity;
    } else if abs_sq(opt_velocity) > radius * radius {
        *result = radius * normalize(opt_velocity);
    } else {
        *result = opt_velocity;
    }
    for i in 0..lines.len() {
        if det(lines[i].direction, lines[i].point - *result) > 0.0 {
            let temp_result = *result;
            if !linear_program1(
                lines,
                num_obst_lines,
                i,
                radius,
                opt_velocity,
                direction_opt,
                result,
            ) {
                *result = temp_result;
                return i;
            }
        }
    }
    lines.len()
}

/// RVO2's `linearProgram3`.
pub(super) fn linear_program3(
    lines: &[Line],
    num_obst_lines: usize,
    begin_line: usize,
    radius: f64,
    result: &mut V,
) {
    let mut distance = 0.0;
    for i in begin_line..lines.len() {
        if det(lines[i].direction, lines[i].point - *result) > distance {
            let mut proj_lines: Vec<Line> = lines[..num_obst_lines].to_vec();
            for j in num_obst_lines..i {
                let determinant = det(lines[i].direction, lines[j].direction);
                let point = if determinant.abs() <= RVO_EPSILON {
                    if dot(lines[i].direction, lines[j].direction) > 0.0 {
                        continue;
                    }
                    0.5 * (lines[i].point + lines[j].point)
                } else {
                    lines[i].point
                        + (det(lines[j].direction, lines[i].point - lines[j].point) / determinant)
                            * lines[i].direction
                };
                proj_lines.push(Line {
                    point,
                    direction: normalize(lines[j].direction - lines[i].direction),
                });
            }
            let temp_result = *result;
            let opt = V::new(-lines[i].direction.y, lines[i].direction.x);
            if linear_program2(&proj_lines, num_obst_lines, radius, opt, true, result)
                < proj_lines.len()
            {
                *result = temp_result;
            }
            distance = det(lines[i].direction, lines[i].point - *result);
        }
    }
}
