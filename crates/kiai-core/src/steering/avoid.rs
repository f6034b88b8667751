//! The avoid stage: every Simulated agent whose archetype has
//! [`Avoidance`] trades the velocity steering asked for (its *preferred*
//! velocity, kept in [`World::preferred_velocities`]) for the nearest one
//! that avoids its nearest neighbours and the walls for a time horizon
//! (ORCA, [`super::orca`]).
//!
//! - Neighbours come from the sense stage's grid (positions have not
//!   changed since it was built): the `max_neighbours` nearest within the
//!   agent's reach (its radius, the largest radius and `time_horizon`
//!   seconds at its top speed), nearest first, ties by slot, so the result
//!   does not depend on threads.
//! - Who gives way: between agents under way that avoid, the one of
//!   higher [`Avoidance::priority`] does not give way at all and the lower
//!   one all of it; equals share, the faster one less. An agent that
//!   wants to stand still (arrived, waiting) steps aside like an equal
//!   whatever its priority: priorities order traffic, not a crowd at
//!   rest, which would otherwise wall the way off. Agents that do not avoid (no avoidance,
//!   Driven or Kinematic bodies, missiles) are avoided by the others but
//!   never adjusted.
//! - Walls within `wall_time_horizon` seconds at top speed are obstacles,
//!   nearest first.
//! - The preferred velocity is turned by a hundredth of a radian at most,
//!   a deterministic function of the agent and the tick, so that perfectly
//!   symmetric crowds do not lock up (as RVO2's examples do).

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::data::agent_grid::UniformGrid;
use crate::data::walls::Sweep;
use crate::data::{Archetype, ArchetypeId, Avoidance, BodyMode, Lod, RayScratch, Walls};
use crate::par::PAR_MIN;
use crate::world::{Agents, World};

use super::orca::{
    LANES, LaneBlocks, Lanes, OrcaAgent, OrcaNeighbour, OrcaScratch, OrcaSegment,
    compute_velocity_of,
};
use super::smallest;

/// How much of the avoidance moves from a moving agent to a standing one
/// of equal priority: at full speed against standing still, the mover
/// takes 0.5 - MOMENTUM of it.
const MOMENTUM: f32 = 0.45;

/// Below this fraction of its top speed, an agent's preferred velocity
/// counts as standing still.
const RESTING: f32 = 0.05;

/// Largest angle the preferred velocity is turned by, radians.
const PERTURBATION: f32 = 0.01;

/// What the avoid stage reads of an agent as somebody's neighbour, kept in
/// the grid's cell order: an agent's neighbours then lie close together in
/// memory, where by slot they would be scattered.
#[derive(Clone, Copy, Debug, Default)]
struct Peer {
    /// Position on X-Z, world units.
    position: Vec2,
    /// Current velocity on X-Z, world units per second.
    velocity: Vec2,
    /// Radius, world units.
    radius: f32,
    /// Current speed as a fraction of its top speed, in [0, 1].
    pace: f32,
    /// Its [`Avoidance::priority`] when it gives way to others (a
    /// Simulated body whose archetype avoids), `None` when it never does.
    gives_way: Option<i32>,
    /// Whether the velocity steering asked of it this tick is below
    /// [`RESTING`] of its top speed.
    resting: bool,
}

/// Scratch memory of one chunk of the avoid stage.
#[derive(Debug, Default)]
struct Local {
    orca: OrcaScratch,
    rays: RayScratch,
    /// The nearest neighbours as [`neighbour_key`]s, nearest first.
    near: Vec<u64>,
    /// The keys of the candidates in reach, in no order (its length only
    /// grows: the candidate test writes a key for every candidate).
    hits: Vec<u64>,
    /// The ranges of the grid's cell order holding the candidates.
    spans: Vec<std::ops::Range<usize>>,
    /// The neighbours in `near`'s order, as ORCA's lanes.
    lanes: Vec<Lanes>,
    /// Walls in reach: (distance, index), sorted.
    near_walls: Vec<(f32, u32)>,
    segments: Vec<OrcaSegment>,
    /// (slot, velocity) of the chunk's agents whose velocity with
    /// avoidance differs from the one they prefer, in the order computed.
    chosen: Vec<(u32, Vec3)>,
}

/// What every agent's avoidance reads.
struct Context<'a> {
    grid: &'a UniformGrid,
    /// Every agent in the grid as a neighbour, in the grid's cell order.
    peers: &'a [Peer],
    archetypes: &'a [Archetype],
    archetype_of: &'a [ArchetypeId],
    positions: &'a [Vec3],
    velocities: &'a [Vec3],
    /// What steering asked for this tick, before avoidance.
    preferred: &'a [Vec3],
    body: &'a [BodyMode],
    alive: &'a [bool],
    generations: &'a [u32],
    walls: Option<&'a Walls>,
    /// The largest radius of any archetype, world units.
    max_radius: f32,
    dt: f32,
    tick: u64,
    /// Tick level of detail, when it acts (who thinks this tick, each
    /// agent's tier).
    lod: Option<&'a Lod>,
}

impl Context<'_> {
    /// Whether agent `i`, whose archetype avoids and who thinks this tick,
    /// plans its avoidance: with the tick level of detail, a tier without
    /// avoidance takes the preferred velocity as it is.
    fn plans(&self, i: usize, archetype: &Archetype) -> bool {
        let Some(lod) = self.lod else {
            return true;
        };
        let tier = lod
            .tier
            .get(i)
            .and_then(|&t| archetype.lod.get(usize::from(t)));
        tier.is_none_or(|t| t.avoidance)
    }
}

/// The avoid stage's buffers, kept between ticks (no allocation after
/// the first).
#[derive(Debug, Default)]
pub(crate) struct AvoidScratch {
    /// Slots in the order they are computed.
    order: Vec<u32>,
    /// Every agent in the grid as a neighbour, in the grid's cell order.
    peers: Vec<Peer>,
    /// Scratch memory of each chunk of [`PAR_MIN`] agents.
    locals: Vec<Local>,
}

/// Runs the avoid stage over `world` with the neighbours in `grid`.
///
/// Agents are computed in the grid's cell order, not slot order: the
/// agents computed one after another are neighbours, so the neighbours'
/// positions and velocities they read stay in the cache (in slot order
/// the stage spent most of its time on cache misses), then written back
/// by slot. Each agent's velocity depends only on the tick's inputs, so
/// the order changes nothing else.
pub(crate) fn run(world: &mut World, grid: &UniformGrid, scratch: &mut AvoidScratch) {
    let Agents {
        archetype,
        position,
        velocity,
        desired_velocity,
        desired_facing,
        preferred_velocity,
        body,
        alive,
        generation,
        ..
    } = &mut world.agents;
    preferred_velocity.clone_from(desired_velocity);
    if !world.archetypes.iter().any(|a| a.avoidance.is_some()) {
        return;
    }
    let AvoidScratch {
        order,
        peers,
        locals,
    } = scratch;
    gather_peers(
        grid,
        (&world.archetypes, archetype),
        (position, velocity, preferred_velocity, body),
        peers,
    );
    let ctx = Context {
        grid,
        peers,
        archetypes: &world.archetypes,
        archetype_of: archetype,
        positions: position,
        velocities: velocity,
        preferred: preferred_velocity,
        body,
        alive,
        generations: generation,
        walls: world.occluders.as_ref().map(|o| &o.walls),
        max_radius: world
            .archetypes
            .iter()
            .map(|a| a.radius)
            .fold(0.0, f32::max),
        dt: world.config.tick_seconds,
        tick: world.tick,
        lod: world.lod.active.then_some(&world.lod),
    };
    order.clear();
    if grid.rank.len() == position.len() {
        order.extend_from_slice(&grid.order);
    } else {
        // No grid of this tick (a stage run alone): slot order.
        order.extend(0..position.len() as u32);
    }
    // One chunk of agents per scratch, kept between ticks: rayon's
    // per-job scratch (`for_each_init`) allocated a hundred times a tick.
    let chunks = order.len().div_ceil(PAR_MIN);
    if locals.len() < chunks {
        locals.resize_with(chunks, Local::default);
    }
    order
        .par_chunks(PAR_MIN)
        .zip(locals.par_iter_mut())
        .enumerate()
        .for_each(|(c, (order, local))| {
            avoid_chunk(&ctx, c * PAR_MIN, order, local);
        });
    for &(slot, v) in locals[..chunks].iter().flat_map(|l| &l.chosen) {
        let (i, f) = (slot as usize, &mut desired_facing[slot as usize]);
        let followed = desired_velocity[i]
            .try_normalize()
            .is_some_and(|d| d.dot(*f) > 0.999);
        if followed && let Some(d) = v.try_normalize() {
            *f = d;
        }
        desired_velocity[i] = v;
    }
}

/// Fills `local.chosen` with the agents of `order` that avoid and the
/// velocities they choose, where those differ from the ones they prefer;
/// `first` is the place of `order[0]` in the order of computation.
fn avoid_chunk(ctx: &Context<'_>, first: usize, order: &[u32], local: &mut Local) {
    local.chosen.clear();
    for (k, &slot) in order.iter().enumerate() {
        let i = slot as usize;
        // A held agent (tick level of detail) moves on as it moved last
        // tick. Checked first, in one read: most agents are held.
        if ctx.lod.is_some_and(|lod| !lod.thinks(i)) {
            continue;
        }
        if !ctx.alive[i] || ctx.body[i] != BodyMode::Simulated {
            continue;
        }
        let archetype = &ctx.archetypes[ctx.archetype_of[i].index()];
        let Some(avoidance) = archetype.avoidance else {
            continue;
        };
        let preferred = ctx.preferred[i];
        if !ctx.plans(i, archetype) {
            continue;
        }
        let v = avoid(
            ctx,
            (i, first + k),
            (archetype, avoidance),
            preferred,
            local,
        );
        if v != preferred {
            local.chosen.push((slot, v));
        }
    }
}

/// Agent `i`'s velocity with avoidance, given the one it prefers; `k` is
/// its place in the order of computation.
fn avoid(
    ctx: &Context<'_>,
    (i, k): (usize, usize),
    (archetype, avoidance): (&Archetype, Avoidance),
    preferred: Vec3,
    local: &mut Local,
) -> Vec3 {
    let xz = |v: Vec3| Vec2::new(v.x, v.z);
    let max_speed = archetype.movement.max_speed();
    let me = OrcaAgent {
        position: xz(ctx.positions[i]),
        velocity: xz(ctx.velocities[i]),
        radius: archetype.radius,
        preferred_velocity: perturb(xz(preferred), ctx, i),
        max_speed,
        time_horizon: avoidance.time_horizon,
        obstacle_time_horizon: avoidance.wall_time_horizon,
    };
    let reach = archetype.radius + ctx.max_radius + avoidance.time_horizon * max_speed;
    if ctx.grid.rank.len() == ctx.positions.len() {
        nearest_neighbours(ctx, k, (reach, avoidance.max_neighbours as usize), local);
    } else {
        local.near.clear();
    }
    let wall_reach = archetype.radius + avoidance.wall_time_horizon * max_speed;
    let floor = ctx.positions[i].y + Sweep::STEP_HEIGHT;
    nearest_walls(ctx.walls, (me.position, wall_reach, floor), local);
    push_neighbours(ctx, (i, avoidance), local);
    let v = compute_velocity_of(
        &me,
        &LaneBlocks {
            blocks: &local.lanes,
            count: local.near.len(),
        },
        &local.segments,
        ctx.dt,
        &mut local.orca,
    );
    Vec3::new(v.x, preferred.y, v.y)
}

/// Fills `local.lanes` with the agents of `local.near`, each with the
/// share of avoiding it agent `i` takes, written straight into ORCA's
/// lanes (records copied into lanes cost a copy per neighbour).
fn push_neighbours(ctx: &Context<'_>, (i, avoidance): (usize, Avoidance), local: &mut Local) {
    let mine = ctx
        .grid
        .rank
        .get(i)
        .and_then(|&at| ctx.peers.get(at as usize));
    let (my_pace, i_rest) = mine.map_or((0.0, false), |m| (m.pace, m.resting));
    local.lanes.clear();
    local
        .lanes
        .resize(local.near.len().div_ceil(LANES), Lanes::default());
    for (j, &key) in local.near.iter().enumerate() {
        let slot = key as u32 as usize;
        let peer = &ctx.peers[ctx.grid.rank[slot] as usize];
        let responsibility = match peer.gives_way {
            Some(theirs) => {
                let share = if i_rest || peer.resting {
                    0.5
                } else {
                    avoidance.responsibility(theirs)
                };
                match share {
                    // Between equals, the one that moves keeps moving.
                    0.5 => (0.5 + MOMENTUM * (peer.pace - my_pace)).clamp(0.0, 1.0),
                    r => r,
                }
            }
            None => 1.0,
        };
        local.lanes[j / LANES].set(
            j % LANES,
            &OrcaNeighbour {
                position: peer.position,
                velocity: peer.velocity,
                radius: peer.radius,
                responsibility,
            },
        );
    }
}

/// Fills `local.near` with the `k` nearest other agents within `reach` on
/// X-Z of the agent at place `me` in the grid's cell order, nearest first
/// (ties by slot, so the result does not depend on threads): every
/// candidate in reach is collected, then the `k` smallest keys selected
/// and sorted ([`smallest`] for `k` up to 16). RVO2 takes neighbours
/// nearest first too; left in cell order, the crossing demo was 10% slower
/// and more crowded (the order decides the velocity ORCA falls back on
/// when none is permitted).
///
/// The candidates are the grid's cells around the agent itself, read in
/// place: about 30 in the 10k battle, where the cells around its whole
/// cell held 65 (copying those together, as the sense stage does for its
/// longer reach, paid for itself over only two or three agents a cell).
fn nearest_neighbours(ctx: &Context<'_>, me: usize, (reach, k): (f32, usize), local: &mut Local) {
    let near = &mut local.near;
    near.clear();
    let grid = ctx.grid;
    if k == 0 || reach.is_nan() || reach < 0.0 {
        return;
    }
    let (px, pz, r2) = (grid.xs[me], grid.zs[me], reach * reach);
    let spans = &mut local.spans;
    spans.clear();
    let mut total = 0;
    grid.for_each_span_near(Vec2::new(px, pz), reach, |span| {
        total += span.len();
        spans.push(span);
    });
    if local.hits.len() < total {
        local.hits.resize(total, 0);
    }
    let hits = &mut local.hits[..];
    let mut taken = 0;
    for span in spans.iter() {
        let (xs, zs) = (&grid.xs[span.clone()], &grid.zs[span.clone()]);
        let slots = &grid.order[span.clone()];
        // Every candidate is written and counted only when in reach: a
        // branch per candidate would mispredict for about one in five.
        // Keys carry slots, so that ties go by slot.
        for (k, ((&x, &z), &slot)) in span.clone().zip(xs.iter().zip(zs).zip(slots)) {
            let (dx, dz) = (x - px, z - pz);
            let d2 = dx * dx + dz * dz;
            hits[taken] = neighbour_key(d2, slot);
            taken += usize::from(d2 <= r2 && k != me);
        }
    }
    let hits = &mut hits[..taken];
    if k <= smallest::WIDTH {
        smallest::keep_smallest(hits, k, near);
        return;
    }
    let kept = if hits.len() > k {
        hits.select_nth_unstable(k - 1);
        &mut hits[..k]
    } else {
        hits
    };
    kept.sort_unstable();
    near.extend_from_slice(kept);
}

/// Fills `peers` with every agent of `grid`, in its cell order.
fn gather_peers(
    grid: &UniformGrid,
    (archetypes, archetype_of): (&[Archetype], &[ArchetypeId]),
    (positions, velocities, preferred, body): (&[Vec3], &[Vec3], &[Vec3], &[BodyMode]),
    peers: &mut Vec<Peer>,
) {
    peers.clear();
    if grid.rank.len() != velocities.len() {
        return;
    }
    peers.resize(grid.order.len(), Peer::default());
    // In cell order, in parallel: each agent's reads are scattered, but
    // two threads halve the wait (sequential in slot order, with the
    // writes scattered instead, this was a fifth of a held crowd's tick).
    peers
        .par_iter_mut()
        .zip(grid.order.par_iter())
        .with_min_len(PAR_MIN)
        .for_each(|(peer, &j)| {
            let j = j as usize;
            let archetype = &archetypes[archetype_of[j].index()];
            let top = archetype.movement.max_speed();
            let (p, v) = (positions[j], velocities[j]);
            *peer = Peer {
                position: Vec2::new(p.x, p.z),
                velocity: Vec2::new(v.x, v.z),
                radius: archetype.radius,
                pace: (v.length() / top.max(1e-6)).min(1.0),
                gives_way: archetype
                    .avoidance
                    .filter(|_| body[j] == BodyMode::Simulated)
                    .map(|a| a.priority),
                resting: preferred[j].length() < RESTING * top,
            };
        });
}

/// A neighbour as one integer that sorts by squared distance, then slot:
/// the bits of a non-negative float order as the float does.
fn neighbour_key(d2: f32, slot: u32) -> u64 {
    (u64::from(d2.max(0.0).to_bits()) << 32) | u64::from(slot)
}

/// Fills `local.segments` with the standing walls taller than `floor`
/// within `reach` of `center`, nearest first (ties by index).
fn nearest_walls(
    walls: Option<&Walls>,
    (center, reach, floor): (Vec2, f32, f32),
    local: &mut Local,
) {
    local.segments.clear();
    local.near_walls.clear();
    let Some(walls) = walls else {
        return;
    };
    let near = &mut local.near_walls;
    walls.for_each_in_box(
        center - reach,
        center + reach,
        &mut local.rays,
        |w, wall| {
            if !wall.holds(floor) {
                return;
            }
            let d = kiai_nav::point_segment_distance(center, wall.from, wall.to);
            if d <= reach {
                near.push((d, w as u32));
            }
        },
    );
    near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let all = walls.walls();
    local
        .segments
        .extend(near.iter().map(|&(_, w)| OrcaSegment {
            a: all[w as usize].from,
            b: all[w as usize].to,
        }));
}

/// `v` turned by a small angle that depends only on the agent and the
/// tick (at most [`PERTURBATION`] radians).
fn perturb(v: Vec2, ctx: &Context<'_>, i: usize) -> Vec2 {
    let mut x = (i as u64) ^ (u64::from(ctx.generations[i]) << 32) ^ ctx.tick.rotate_left(17);
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    let unit = (x >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
    Vec2::from_angle(unit * PERTURBATION).rotate(v)
}
