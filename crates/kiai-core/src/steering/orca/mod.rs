//! ORCA local avoidance: Optimal Reciprocal Collision Avoidance (van den
//! Berg, Guy, Lin, Manocha, "Reciprocal n-Body Collision Avoidance", 2011),
//! computed as RVO2, the authors' C++ library, computes it.
//!
//! Each agent, each step, picks the velocity nearest its preferred one that
//! avoids collisions for a time horizon: every neighbour and every wall
//! turns into a half-plane of permitted velocities, and a linear program
//! finds the permitted velocity nearest the preferred one within the
//! agent's speed disc. All of it is on the X-Z plane, as [`glam::Vec2`]
//! with `x` = world x and `y` = world z.
//!
//! ```
//! use kiai_core::glam::Vec2;
//! use kiai_core::steering::orca::{
//!     OrcaAgent, OrcaNeighbour, OrcaScratch, OrcaSegment, compute_velocity,
//! };
//!
//! let mut scratch = OrcaScratch::new(); // one per thread, reused
//! let me = OrcaAgent {
//!     position: Vec2::ZERO,
//!     velocity: Vec2::new(1.0, 0.0),
//!     radius: 0.5,
//!     preferred_velocity: Vec2::new(1.5, 0.0),
//!     max_speed: 2.0,
//!     time_horizon: 2.0,
//!     obstacle_time_horizon: 1.0,
//! };
//! // Someone walking straight at us, who avoids too (half each).
//! let them = OrcaNeighbour {
//!     position: Vec2::new(3.0, 0.0),
//!     velocity: Vec2::new(-1.0, 0.0),
//!     radius: 0.5,
//!     responsibility: 0.5,
//! };
//! let wall = OrcaSegment { a: Vec2::new(-5.0, 2.0), b: Vec2::new(5.0, 2.0) };
//! let v = compute_velocity(&me, &[them], &[wall], 0.1, &mut scratch);
//! assert!(v.length() <= 2.0 + 1e-5);
//! assert!(v.y.abs() > 0.1, "steps aside: {v}");
//! ```
//!
//! # The algorithm
//!
//! As RVO2's `Agent::computeNewVelocity`: the walls' half-planes first,
//! then one per neighbour (`neighbour.rs`: the velocity obstacle truncated
//! at the time horizon, the relative velocity projected on its cut-off
//! circle or a leg, the half-plane moved the neighbour's responsibility share
//! of the way out; discs that already overlap use a cut-off of one time
//! step). The 2D incremental linear program (`program.rs`, RVO2's
//! `linearProgram1`/`linearProgram2`) finds the permitted velocity nearest
//! the preferred one. When the neighbours' half-planes leave none, the 3D
//! program (`fallback.rs`, `linearProgram3`) takes the velocity that
//! minimises the largest violation of the neighbours' half-planes, the
//! walls' held: walls are never relaxed (but for a rounding allowance of
//! 1e-5 world units per second, below).
//!
//! # Walls
//!
//! RVO2 takes obstacles as polygons with convexity flags; kiai's walls are
//! independent segments, seen from both sides ([`OrcaSegment`]). Each is
//! what RVO2 makes of a two-vertex polygon (both vertices convex), and of
//! its two edges the one facing the agent counts, as RVO2's obstacle query
//! keeps only edges with the agent on their outer side. The clearance is
//! the agent's radius. Where segments meet at a corner each is avoided on
//! its own (there is no non-convex vertex to join them), which keeps the
//! clearance from both. Give the walls nearest first, as RVO2 does: a wall
//! whose velocity obstacle an earlier wall's half-plane already covers adds
//! none. A wall's half-plane depends on the agent's velocity; when those of
//! the walls alone leave no velocity (RVO2 then keeps a partial result that
//! may cross a wall), they are built again from the zero velocity, which
//! each of them then admits.
//!
//! # Where kiai departs from RVO2
//!
//! - A responsibility share per neighbour instead of RVO2's fixed half
//!   (below).
//! - Walls are segments (above). Where RVO2 adds no half-plane because the
//!   velocity projects on a leg pointing into the obstacle (leaving it to
//!   the polygon's neighbouring edge), a wall has no such edge, and kiai
//!   takes the cut-off line: that happens when the agent stands at its
//!   clearance from the wall, sliding along it.
//! - When the walls' half-planes alone leave no velocity, they are built
//!   again from the zero velocity (above).
//! - `linearProgram1` relaxes the walls' half-planes by 1e-5 world units
//!   per second per unit of speed limit (at least 1): wall legs meet
//!   exactly at the zero velocity, where RVO2's answer hangs on the sign of
//!   a rounding error. Neighbours' half-planes are held exactly.
//! - The same numbers computed in better-conditioned ways, equal in exact
//!   arithmetic: positions along a line are measured from its point nearest
//!   the origin, the 3D program's lines of equal violation are placed by
//!   their point nearest the origin rather than by the intersection of two
//!   lines at a small angle (which can be far away), the speed limit is
//!   compared by length when its square overflows, and the result is scaled
//!   back into the speed disc if rounding left it outside.
//!
//! `tests/orca_vs_reference.rs` checks all of it against a plain `f64`
//! transcription of RVO2 with these departures.
//!
//! # Responsibility
//!
//! RVO2 moves every half-plane half-way out of the velocity obstacle: each
//! of two agents takes half of the avoidance. [`OrcaNeighbour`] carries the
//! share instead: 0.5 is RVO2's; 1.0 takes all of it (the neighbour will
//! not avoid: a higher-priority agent or a body the game moves); 0.0 drops
//! the neighbour. Two agents whose shares for each other add up to 1 avoid
//! each other exactly as ORCA guarantees.
//!
//! # Degenerate inputs
//!
//! Nothing panics and the velocity returned is always finite:
//! - an agent whose position is not finite gets the zero velocity; a
//!   non-finite velocity or preferred velocity counts as zero; a negative or
//!   NaN radius or max speed as zero; time horizons and the time step are
//!   clamped to [[`MIN_TIME`], [`MAX_TIME`]] seconds;
//! - a neighbour or wall with a non-finite value is ignored, as is a
//!   zero-length wall;
//! - coincident agents (and any pair whose relative velocity ends the step
//!   exactly on the other's centre) separate away from the neighbour's
//!   centre, or, the centres coinciding, along the agent's preferred
//!   velocity, else along `+x` (nothing in the inputs tells two identical
//!   agents apart: they move together until something differs).
//!
//! # Cost
//!
//! No allocation once the caller's [`OrcaScratch`] has grown, no trait
//! objects; the work is linear in the neighbours and walls while the
//! preferred velocity is permitted, quadratic at worst (as RVO2).
//! Neighbours' half-planes are computed four at a time, branch-free (the
//! cut-off circle and the leg both computed, one selected), and so are the
//! bounds a line's earlier half-planes put on it: each of the four lanes
//! computes exactly what it would alone, so the result is the same bits
//! whether or not the compiler turns the lanes into packed instructions.
//! Everything is `f32`, and the result depends only on the inputs and
//! their order.

mod agent;
mod fallback;
mod half_plane;
mod neighbour;
mod program;
mod scratch;
mod segment;
mod solve;

pub use agent::{MAX_TIME, MIN_TIME, OrcaAgent};
pub use half_plane::HalfPlane;
pub use neighbour::OrcaNeighbour;
pub(crate) use neighbour::{LANES, LaneBlocks, Lanes};
pub use scratch::OrcaScratch;
pub use segment::OrcaSegment;
pub use solve::compute_velocity;
pub(crate) use solve::compute_velocity_of;
