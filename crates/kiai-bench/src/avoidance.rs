//! Local avoidance: kiai's ORCA (`steering::orca`) against `dodgy_2d`
//! (an ORCA port of RVO2, the one landmass uses) on the same crowd, the
//! same neighbour sets and no walls, one thread each.
//!
//! The crowd stands on a jittered grid (no two discs overlap), walking in
//! random directions toward random goals; each agent's neighbours are its
//! 10 nearest within 4 units (RVO2's default count), nearest first, then by
//! index, found once before timing. Every neighbour's responsibility is 1.0
//! (each agent avoids as if the others did not): there the two libraries
//! compute the same ORCA, so their velocities can be compared. (With the
//! reciprocal 0.5 they differ by design: outside a velocity obstacle dodgy
//! lets an agent move all the way to its edge, RVO2 and kiai half-way.)
//! kiai's time includes copying each agent's neighbours out of the crowd's
//! arrays, as a caller would; dodgy's lists of borrowed agents are built
//! before timing.

use std::borrow::Cow;

use kiai_core::glam::Vec2;
use kiai_core::steering::orca::{
    HalfPlane, OrcaAgent, OrcaNeighbour, OrcaScratch, compute_velocity,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Effort, Scenario, allocations, medians_interleaved, once_ms};

/// Neighbours per agent at most (RVO2's default `maxNeighbors`).
const MAX_NEIGHBOURS: usize = 10;
/// Neighbours further than this are left out, world units.
const NEIGHBOUR_DISTANCE: f32 = 4.0;
/// Grid spacing of the crowd, world units (discs of radius at most 0.55
/// jittered by at most 0.25 never overlap).
const SPACING: f32 = 1.7;
/// Seconds per tick.
const TIME_STEP: f32 = 0.1;
/// Velocities this close are equal, world units per second.
const TOLERANCE: f32 = 1e-4;

/// A crowd frozen at one tick: every agent, and its neighbours as indices
/// (`neighbours[start[i]..start[i + 1]]`).
struct Crowd {
    agents: Vec<OrcaAgent>,
    start: Vec<usize>,
    neighbours: Vec<u32>,
}

/// `n` agents on a jittered square grid, velocities and goals random.
fn crowd(n: usize, seed: u64) -> Crowd {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let side = (n as f32).sqrt().ceil() as usize;
    let agents: Vec<OrcaAgent> = (0..n)
        .map(|i| {
            let cell = Vec2::new((i % side) as f32, (i / side) as f32) * SPACING;
            let jitter = Vec2::new(rng.random_range(-0.25..0.25), rng.random_range(-0.25..0.25));
            let max_speed = rng.random_range(1.2f32..2.0);
            let heading = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
            let drift = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
            OrcaAgent {
                position: cell + jitter,
                velocity: drift * rng.random_range(0.0..max_speed),
                radius: rng.random_range(0.35..0.55),
                preferred_velocity: heading * max_speed,
                max_speed,
                time_horizon: 2.0,
                obstacle_time_horizon: 1.0,
            }
        })
        .collect();
    let (start, neighbours) = neighbour_sets(&agents, side);
    Crowd {
        agents,
        start,
        neighbours,
    }
}

/// Each agent's nearest [`MAX_NEIGHBOURS`] within [`NEIGHBOUR_DISTANCE`],
/// by distance then index, from the grid cells around it.
fn neighbour_sets(agents: &[OrcaAgent], side: usize) -> (Vec<usize>, Vec<u32>) {
    let reach = (NEIGHBOUR_DISTANCE / SPACING).ceil() as isize + 1;
    let mut start = Vec::with_capacity(agents.len() + 1);
    let mut neighbours = Vec::with_capacity(agents.len() * MAX_NEIGHBOURS);
    let mut near: Vec<(f32, u32)> = Vec::new();
    for (i, a) in agents.iter().enumerate() {
        let (cx, cy) = ((i % side) as isize, (i / side) as isize);
        near.clear();
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                let (x, y) = (cx + dx, cy + dy);
                if x < 0 || y < 0 || x >= side as isize {
                    continue;
                }
                let j = y as usize * side + x as usize;
                if j == i || j >= agents.len() {
                    continue;
                }
                let d = a.position.distance_squared(agents[j].position);
                if d < NEIGHBOUR_DISTANCE * NEIGHBOUR_DISTANCE {
                    near.push((d, j as u32));
                }
            }
        }
        near.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
        start.push(neighbours.len());
        neighbours.extend(near.iter().take(MAX_NEIGHBOURS).map(|&(_, j)| j));
    }
    start.push(neighbours.len());
    (start, neighbours)
}

/// kiai: every agent's new velocity into `out`, copying its neighbours out
/// of the crowd into `buffer` first.
fn kiai_pass(
    crowd: &Crowd,
    scratch: &mut OrcaScratch,
    buffer: &mut Vec<OrcaNeighbour>,
    out: &mut [Vec2],
) {
    for (i, (agent, v)) in crowd.agents.iter().zip(out.iter_mut()).enumerate() {
        gather(crowd, i, buffer);
        *v = compute_velocity(agent, buffer, &[], TIME_STEP, scratch);
    }
}

/// Agent `i`'s neighbours, copied out of the crowd into `buffer`.
#[inline]
fn gather(crowd: &Crowd, i: usize, buffer: &mut Vec<OrcaNeighbour>) {
    buffer.clear();
    buffer.extend(
        crowd.neighbours[crowd.start[i]..crowd.start[i + 1]]
            .iter()
            .map(|&j| {
                let n = &crowd.agents[j as usize];
                OrcaNeighbour {
                    position: n.position,
                    velocity: n.velocity,
                    radius: n.radius,
                    responsibility: 1.0,
                }
            }),
    );
}

/// The crowd as dodgy sees it: each agent with responsibility 1, as seen
/// by others with responsibility 0 (dodgy's share is
/// `own / (own + neighbour's)`: 1), and its neighbours borrowed.
struct DodgyCrowd<'a> {
    agents: Vec<dodgy_2d::Agent>,
    neighbours: Vec<Vec<Cow<'a, dodgy_2d::Agent>>>,
    preferred: Vec<dodgy_2d::Vec2>,
    max_speed: Vec<f32>,
    options: dodgy_2d::AvoidanceOptions,
}

fn dodgy_vec(v: Vec2) -> dodgy_2d::Vec2 {
    dodgy_2d::Vec2::new(v.x, v.y)
}

fn dodgy_agent(a: &OrcaAgent, responsibility: f32) -> dodgy_2d::Agent {
    dodgy_2d::Agent {
        position: dodgy_vec(a.position),
        velocity: dodgy_vec(a.velocity),
        radius: a.radius,
        avoidance_responsibility: responsibility,
    }
}

/// The others, as every agent's neighbours see them (responsibility 0).
fn dodgy_others(crowd: &Crowd) -> Vec<dodgy_2d::Agent> {
    crowd.agents.iter().map(|a| dodgy_agent(a, 0.0)).collect()
}

fn dodgy_crowd<'a>(crowd: &Crowd, others: &'a [dodgy_2d::Agent]) -> DodgyCrowd<'a> {
    DodgyCrowd {
        agents: crowd.agents.iter().map(|a| dodgy_agent(a, 1.0)).collect(),
        neighbours: (0..crowd.agents.len())
            .map(|i| {
                crowd.neighbours[crowd.start[i]..crowd.start[i + 1]]
                    .iter()
                    .map(|&j| Cow::Borrowed(&others[j as usize]))
                    .collect()
            })
            .collect(),
        preferred: crowd
            .agents
            .iter()
            .map(|a| dodgy_vec(a.preferred_velocity))
            .collect(),
        max_speed: crowd.agents.iter().map(|a| a.max_speed).collect(),
        options: dodgy_2d::AvoidanceOptions {
            obstacle_margin: 0.0,
            time_horizon: 2.0,
            obstacle_time_horizon: 1.0,
        },
    }
}

/// dodgy: every agent's new velocity into `out`.
fn dodgy_pass(crowd: &DodgyCrowd<'_>, out: &mut [Vec2]) {
    for (i, v) in out.iter_mut().enumerate() {
        let r = crowd.agents[i].compute_avoiding_velocity(
            &crowd.neighbours[i],
            &[],
            crowd.preferred[i],
            crowd.max_speed[i],
            TIME_STEP,
            &crowd.options,
        );
        *v = Vec2::new(r.x, r.y);
    }
}

/// How the two libraries' velocities compare over the crowd.
#[derive(Clone, Copy, Debug, Default)]
struct Agreement {
    /// Agents whose velocities are within [`TOLERANCE`].
    equal: usize,
    /// Agents whose velocities differ by more, but solve the program
    /// equally well (see [`Verdict`]).
    as_good: usize,
    /// Agents where dodgy's velocity solves it worse than kiai's.
    kiai_better: usize,
    /// The largest distance between the two velocities, world units per
    /// second.
    largest: f32,
}

impl Agreement {
    /// One clause for the scenario's note.
    fn describe(&self, n: usize) -> String {
        let equal = format!(
            "velocities equal within {TOLERANCE:.0e} for {} of {n}, largest difference {:.1e}",
            self.equal, self.largest
        );
        if self.equal == n {
            return equal;
        }
        format!(
            "{equal}; the other {} are ill-conditioned programs, where kiai's answer is as \
             good as dodgy's for {} and better for {} (worst half-plane violation, speed \
             limit and distance to the preferred velocity, within {TOLERANCE:.0e})",
            n - self.equal,
            self.as_good,
            self.kiai_better
        )
    }
}

/// How well a velocity solves one agent's program, judged on kiai's
/// half-planes (dodgy builds the same ones, up to rounding).
#[derive(Clone, Copy, Debug)]
struct Score {
    /// Beyond the speed limit, world units per second (0 within it).
    over_speed: f32,
    /// The worst violation of a half-plane (0 when all are satisfied).
    worst: f32,
    /// Distance to the preferred velocity.
    from_preferred: f32,
}

impl Score {
    fn of(v: Vec2, agent: &OrcaAgent, lines: &[HalfPlane]) -> Score {
        Score {
            over_speed: (v.length() - agent.max_speed).max(0.0),
            worst: lines.iter().map(|l| l.violation(v)).fold(0.0, f32::max),
            from_preferred: v.distance(agent.preferred_velocity),
        }
    }

    /// Worse than `other` by more than [`TOLERANCE`]: over the speed limit,
    /// or violating a half-plane more, or (both satisfying every one)
    /// further from the preferred velocity.
    fn worse_than(&self, other: &Score) -> bool {
        let feasible = self.worst <= TOLERANCE && other.worst <= TOLERANCE;
        self.over_speed > other.over_speed + TOLERANCE
            || self.worst > other.worst + TOLERANCE
            || (feasible && self.from_preferred > other.from_preferred + TOLERANCE)
    }
}

/// The comparison of two velocities that differ by more than
/// [`TOLERANCE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Neither solves the program worse than the other.
    AsGood,
    /// dodgy's solves it worse.
    KiaiBetter,
    /// kiai's solves it worse: a failure.
    DodgyBetter,
}

/// Judges agent `i`'s two velocities on the agent's program. A few agents
/// of a crowd sit where the program is ill-conditioned (half-planes at
/// small angles, a nearly flat optimum): there `f32` rounding moves the
/// answer along the optimum, by up to about 1e-2 between the two libraries
/// on this crowd, and dodgy's sometimes past the speed limit (kiai-core's
/// `tests/orca_vs_reference.rs` holds kiai to an `f64` transcription of
/// RVO2 within 1e-4).
fn verdict(crowd: &Crowd, i: usize, ours: Vec2, theirs: Vec2) -> Verdict {
    let agent = &crowd.agents[i];
    let mut scratch = OrcaScratch::new();
    let mut buffer = Vec::new();
    gather(crowd, i, &mut buffer);
    compute_velocity(agent, &buffer, &[], TIME_STEP, &mut scratch);
    let lines = scratch.half_planes();
    let (ours, theirs) = (
        Score::of(ours, agent, lines),
        Score::of(theirs, agent, lines),
    );
    if ours.worse_than(&theirs) {
        Verdict::DodgyBetter
    } else if theirs.worse_than(&ours) {
        Verdict::KiaiBetter
    } else {
        Verdict::AsGood
    }
}

/// Compares every agent's velocities; fails on an agent whose velocity
/// from kiai solves its program worse than dodgy's.
fn agreement(crowd: &Crowd, ours: &[Vec2], theirs: &[Vec2]) -> Result<Agreement, String> {
    let mut a = Agreement::default();
    for (i, (&o, &t)) in ours.iter().zip(theirs).enumerate() {
        let d = o.distance(t);
        a.largest = a.largest.max(d);
        if d <= TOLERANCE {
            a.equal += 1;
            continue;
        }
        match verdict(crowd, i, o, t) {
            Verdict::AsGood => a.as_good += 1,
            Verdict::KiaiBetter => a.kiai_better += 1,
            Verdict::DodgyBetter => {
                return Err(format!(
                    "agent {i}: kiai {o} solves its program worse than dodgy_2d {t}"
                ));
            }
        }
    }
    Ok(a)
}

/// `avoidance/orca/{1k,10k}`: one ORCA pass over the crowd (ms per tick).
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    [(1_000usize, "1k"), (10_000, "10k")]
        .into_iter()
        .map(|(n, label)| scenario(n, label, effort))
        .collect()
}

fn scenario(n: usize, label: &str, effort: Effort) -> Result<Scenario, String> {
    let name = format!("avoidance/orca/{label}");
    let crowd = crowd(n, 17);
    let others = dodgy_others(&crowd);
    let dodgy = dodgy_crowd(&crowd, &others);
    let mut scratch = OrcaScratch::new();
    let mut buffer = Vec::with_capacity(MAX_NEIGHBOURS);
    let mut ours = vec![Vec2::ZERO; n];
    let mut theirs = vec![Vec2::ZERO; n];
    // Warm-up (the scratch grows), then count allocations over one pass.
    kiai_pass(&crowd, &mut scratch, &mut buffer, &mut ours);
    let before = allocations();
    kiai_pass(&crowd, &mut scratch, &mut buffer, &mut ours);
    let kiai_allocations = allocations() - before;
    let est = once_ms(|| dodgy_pass(&dodgy, &mut theirs));
    let times = medians_interleaved(effort.reps(2.0 * est), 2, |k| {
        if k == 0 {
            kiai_pass(&crowd, &mut scratch, &mut buffer, &mut ours);
        } else {
            dodgy_pass(&dodgy, &mut theirs);
        }
    });
    let agreement = agreement(&crowd, &ours, &theirs).map_err(|e| format!("{name}: {e}"))?;
    let constrained = crowd.neighbours.len() as f64 / n as f64;
    Ok(Scenario {
        name,
        ours_ms: times[0],
        peer: "dodgy_2d 0.5".into(),
        peer_ms: times[1],
        note: format!(
            "ms per ORCA pass over {n} agents, {constrained:.1} neighbours each, no walls, \
             1 thread; {}; kiai allocated {kiai_allocations} times in a pass after warm-up",
            agreement.describe(n)
        ),
    })
}
