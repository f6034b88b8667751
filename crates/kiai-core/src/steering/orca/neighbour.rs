//! Another agent (or a moving body) to avoid, and its ORCA half-plane
//! (van den Berg et al. 2011, section 4; RVO2's `Agent::computeNewVelocity`,
//! agent part).

use glam::Vec2;

use super::agent::{Agent, non_negative};
use super::half_plane::HalfPlane;

/// A disc the agent avoids: another agent, or a body the game moves.
/// Vectors are on the X-Z plane (`x` = world x, `y` = world z).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaNeighbour {
    /// Centre, world units.
    pub position: Vec2,
    /// Current velocity, world units per second.
    pub velocity: Vec2,
    /// Radius, world units, >= 0.
    pub radius: f32,
    /// Share of the avoidance this agent takes on, in [0, 1]: 0.5 is ORCA's
    /// reciprocal share (the neighbour runs ORCA too and takes the other
    /// half); 1.0 takes all of it (the neighbour does not avoid: a
    /// higher-priority agent, a body the game moves); 0.0 ignores the
    /// neighbour. Values above 1 count as 1; NaN and values <= 0 ignore it.
    pub responsibility: f32,
}

/// Neighbours whose half-planes are computed together: four `f32` lanes,
/// the width of the SSE2 registers every x86-64 processor has (the compiler
/// turns the loops over lanes into packed instructions; each lane computes
/// exactly what it would alone).
pub(crate) const LANES: usize = 4;

/// Where one call's neighbours come from: records, or [`LaneBlocks`]
/// (the avoid stage writes them so, saving a copy per neighbour). A
/// trait, not an enum, so that each kind compiles to its own loop.
pub(crate) trait Neighbours {
    /// Appends their half-planes to `lines`, in order (see
    /// [`push_neighbour_half_planes`]).
    fn push_half_planes(&self, agent: &Agent, lines: &mut Vec<HalfPlane>);
}

impl Neighbours for [OrcaNeighbour] {
    #[inline(always)]
    fn push_half_planes(&self, agent: &Agent, lines: &mut Vec<HalfPlane>) {
        push_neighbour_half_planes(agent, self, lines);
    }
}

/// `count` neighbours already in lanes, [`LANES`] a block; lanes past
/// `count` have a zero responsibility.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneBlocks<'a> {
    pub(crate) blocks: &'a [Lanes],
    pub(crate) count: usize,
}

impl Neighbours for LaneBlocks<'_> {
    #[inline(always)]
    fn push_half_planes(&self, agent: &Agent, lines: &mut Vec<HalfPlane>) {
        lines.reserve(self.count);
        for (b, lanes) in self.blocks.iter().enumerate() {
            let n = self.count.saturating_sub(b * LANES).min(LANES);
            push_lanes(agent, lanes, n, lines);
        }
    }
}

/// Appends to `lines` the half-plane of each neighbour, in order: the
/// velocities that avoid it for `1 / inv_horizon` seconds, moved its
/// responsibility share of the way out of the velocity obstacle (RVO2
/// moves half-way: `velocity + 0.5 u`). A neighbour that is ignored, or one
/// of whose values is not finite, adds none.
///
/// When the discs already overlap, the velocity obstacle is cut off at one
/// time step instead (RVO2's collision case), so the half-plane asks them to
/// separate within the step. When the relative velocity would put the agent
/// exactly on the neighbour's centre at the end of the step, that cut-off has
/// no direction; the agent is then pushed away from the neighbour's centre,
/// or, the centres coinciding too, along its preferred velocity, or `+x`.
#[inline(always)]
fn push_neighbour_half_planes(
    agent: &Agent,
    neighbours: &[OrcaNeighbour],
    lines: &mut Vec<HalfPlane>,
) {
    lines.reserve(neighbours.len());
    for chunk in neighbours.chunks(LANES) {
        let planes = Lanes::load(chunk).half_planes(agent);
        push_planes(agent, &planes, chunk.len(), lines, |k| chunk[k]);
    }
}

/// Appends the half-planes of the first `n` lanes of `lanes`.
#[inline(always)]
fn push_lanes(agent: &Agent, lanes: &Lanes, n: usize, lines: &mut Vec<HalfPlane>) {
    let planes = lanes.half_planes(agent);
    push_planes(agent, &planes, n, lines, |k| lanes.get(k));
}

/// Appends the half-planes of the first `n` lanes of `planes`;
/// `neighbour(k)` is lane `k`'s neighbour, read only when its half-plane
/// came out without a direction.
#[inline(always)]
fn push_planes(
    agent: &Agent,
    planes: &Planes,
    n: usize,
    lines: &mut Vec<HalfPlane>,
    neighbour: impl Fn(usize) -> OrcaNeighbour,
) {
    for k in 0..n.min(LANES) {
        if !planes.taken[k] {
            continue;
        }
        let plane = HalfPlane {
            point: Vec2::new(planes.point_x[k], planes.point_y[k]),
            direction: Vec2::new(planes.direction_x[k], planes.direction_y[k]),
        };
        if plane.is_finite() {
            lines.push(plane);
        } else if let Some(plane) = without_direction(agent, &neighbour(k)) {
            lines.push(plane);
        }
    }
}

/// Up to [`LANES`] neighbours, one array per field; unused lanes have a
/// zero responsibility.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Lanes {
    position_x: [f32; LANES],
    position_y: [f32; LANES],
    velocity_x: [f32; LANES],
    velocity_y: [f32; LANES],
    radius: [f32; LANES],
    responsibility: [f32; LANES],
}

/// The half-planes of one [`Lanes`], and which lanes count.
#[derive(Clone, Copy, Debug, Default)]
struct Planes {
    point_x: [f32; LANES],
    point_y: [f32; LANES],
    direction_x: [f32; LANES],
    direction_y: [f32; LANES],
    /// The neighbour is not ignored (responsibility above 0).
    taken: [bool; LANES],
}

impl Lanes {
    /// Lane `k` as a record.
    #[inline(always)]
    fn get(&self, k: usize) -> OrcaNeighbour {
        OrcaNeighbour {
            position: Vec2::new(self.position_x[k], self.position_y[k]),
            velocity: Vec2::new(self.velocity_x[k], self.velocity_y[k]),
            radius: self.radius[k],
            responsibility: self.responsibility[k],
        }
    }

    /// Sets lane `k` to `n`.
    #[inline(always)]
    pub(crate) fn set(&mut self, k: usize, n: &OrcaNeighbour) {
        self.position_x[k] = n.position.x;
        self.position_y[k] = n.position.y;
        self.velocity_x[k] = n.velocity.x;
        self.velocity_y[k] = n.velocity.y;
        self.radius[k] = n.radius;
        self.responsibility[k] = n.responsibility;
    }

    #[inline(always)]
    fn load(chunk: &[OrcaNeighbour]) -> Lanes {
        let mut lanes = Lanes::default();
        for (k, n) in chunk.iter().enumerate().take(LANES) {
            lanes.set(k, n);
        }
        lanes
    }

    /// RVO2's agent half-plane for every lane, without branches: the
    /// collision case is the cut-off circle with the time step for horizon,
    /// and the cut-off circle and the nearer leg are both computed (with
    /// one square root and one division between them) and one is selected.
    /// A lane whose cut-off circle has no direction comes out NaN.
    #[inline(always)]
    fn half_planes(&self, agent: &Agent) -> Planes {
        let mut out = Planes::default();
        let (ax, ay) = (agent.position.x, agent.position.y);
        let (avx, avy) = (agent.velocity.x, agent.velocity.y);
        for k in 0..LANES {
            let share = self.responsibility[k];
            out.taken[k] = share > 0.0;
            let share = share.min(1.0);
            let (rx, ry) = (self.position_x[k] - ax, self.position_y[k] - ay);
            let (vx, vy) = (avx - self.velocity_x[k], avy - self.velocity_y[k]);
            let dist_sq = rx * rx + ry * ry;
            let combined = agent.radius + non_negative(self.radius[k]);
            let combined_sq = combined * combined;
            // RVO2's test: apart when farther than the sum of the radii,
            // else (NaN included) overlapping.
            let apart = dist_sq > combined_sq;
            let overlapping = !apart;
            let inv_t = select(overlapping, agent.inv_time_step, agent.inv_horizon);
            // From the cut-off centre to the relative velocity.
            let (wx, wy) = (vx - inv_t * rx, vy - inv_t * ry);
            let w_len_sq = wx * wx + wy * wy;
            let dot = wx * rx + wy * ry;
            let on_circle = overlapping | ((dot < 0.0) & (dot * dot > combined_sq * w_len_sq));
            // The circle needs |w| and 1 / |w|; a leg its length and 1 / dist².
            let root = select(on_circle, w_len_sq, dist_sq - combined_sq).sqrt();
            let inv = 1.0 / select(on_circle, root, dist_sq);
            // Cut-off circle: u = (r / t - |w|) w / |w|, boundary across w.
            let (ux_c, uy_c) = (wx * inv, wy * inv);
            let scale = combined * inv_t - root;
            // The nearer leg: the left one (RVO2's `(x leg - y r, x r + y
            // leg) / dist²`) or the right one (its mirror, `-(x leg + y r,
            // -x r + y leg) / dist²`), in one expression; u projects the
            // relative velocity on it.
            let leg = select(rx * wy - ry * wx > 0.0, root, -root);
            let (dx_l, dy_l) = (
                (rx * leg - ry * combined) * inv,
                (rx * combined + ry * leg) * inv,
            );
            let along = vx * dx_l + vy * dy_l;
            let (dx, dy) = (
                select(on_circle, uy_c, dx_l),
                select(on_circle, -ux_c, dy_l),
            );
            let ux = select(on_circle, scale * ux_c, along * dx_l - vx);
            let uy = select(on_circle, scale * uy_c, along * dy_l - vy);
            out.point_x[k] = avx + share * ux;
            out.point_y[k] = avy + share * uy;
            out.direction_x[k] = dx;
            out.direction_y[k] = dy;
        }
        out
    }
}

/// `a` when `condition`, else `b` (a select, not a branch).
#[inline(always)]
fn select(condition: bool, a: f32, b: f32) -> f32 {
    if condition { a } else { b }
}

/// The half-plane of an overlapping neighbour whose cut-off circle has no
/// direction (the relative velocity ends the step on its centre: `w` is
/// zero): pushed away from its centre, or along the preferred velocity, or
/// `+x`. `None` for any other lane that came out non-finite (a non-finite
/// input).
#[cold]
fn without_direction(agent: &Agent, n: &OrcaNeighbour) -> Option<HalfPlane> {
    let share = n.responsibility.min(1.0);
    let rel_pos = n.position - agent.position;
    let rel_vel = agent.velocity - n.velocity;
    let combined = agent.radius + non_negative(n.radius);
    let inv_dt = agent.inv_time_step;
    let w = rel_vel - inv_dt * rel_pos;
    if !(w == Vec2::ZERO && rel_pos.length_squared() <= combined * combined) {
        return None;
    }
    let unit_w = (-rel_pos)
        .try_normalize()
        .or_else(|| agent.preferred_velocity.try_normalize())
        .unwrap_or(Vec2::X);
    let plane = HalfPlane {
        point: agent.velocity + share * (combined * inv_dt) * unit_w,
        direction: Vec2::new(unit_w.y, -unit_w.x),
    };
    plane.is_finite().then_some(plane)
}
