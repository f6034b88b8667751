//! Waypoint-graph navigation for kiai.
//!
//! # Vocabulary
//!
//! - A **waypoint** ([`WaypointId`]) is a point in the world (world units,
//!   Y up) that agents walk between. It can be switched off (`active =
//!   false`): a blown-up bridge. Inactive waypoints are never selected,
//!   entered or walked through.
//! - A **link** ([`LinkId`]) is a directed connection `from -> to` that can be
//!   walked in a straight line. Add both directions for a two-way path.
//! - A **cost list** ([`CostListId`]) is a named set of *multipliers*, one per
//!   link, for one kind of unit ("infantry", "vehicle"): walking a link costs
//!   its length x the multiplier. 1.0 is plain distance, 4.0 is a swamp.
//! - The editable [`WaypointGraph`] (ids survive deletes) is **frozen** into a
//!   compact [`NavGraph`] for queries.
//! - **Selection** ([`WaypointGraph::select_neighbour`]) is the cheap,
//!   memoryless step of article 001: which neighbour to walk to next, toward or
//!   away from a destination.
//! - **Path search** ([`NavGraph::find_path`]) is A* over a [`PathFilter`]
//!   with reusable scratch memory in a [`NavQuery`]; a [`DistanceField`]
//!   gives every waypoint's cost to one goal.
//! - **Clearance** ([`NavGraph::set_clearances`]) is the widest radius that
//!   can walk a link (measured by the caller against its walls); filters'
//!   `min_clearance` skips links too narrow for a unit.
//! - **String pulling** ([`smooth_path`]) cuts a route's corners where the
//!   caller says the straight way is clear.
//!
//! ```
//! use glam::Vec3;
//! use kiai_nav::{
//!     Destination, Heading, NavQuery, PathFilter, PathStatus, SelectOptions, WaypointGraph,
//! };
//! use rand::SeedableRng;
//!
//! let mut graph = WaypointGraph::new();
//! let infantry = graph.add_cost_list("infantry", 1.0)?;
//! let a = graph.add_waypoint(Vec3::new(0.0, 0.0, 0.0))?;
//! let b = graph.add_waypoint(Vec3::new(10.0, 0.0, 0.0))?;
//! let c = graph.add_waypoint(Vec3::new(10.0, 0.0, 10.0))?;
//! for (from, to) in [(a, b), (b, c), (a, c)] {
//!     graph.add_link(from, to)?;
//! }
//! // The direct link a -> c is a swamp for infantry.
//! let swamp = graph.find_link(a, c).ok_or("no link")?;
//! graph.set_link_cost(swamp, infantry, 3.0)?;
//!
//! // One step of article-001 selection: from a, toward c.
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! let next = graph.select_neighbour(
//!     a,
//!     Destination::Waypoint(c),
//!     &SelectOptions::new(Heading::Toward, infantry),
//!     &mut rng,
//! );
//! assert_eq!(next, Some(c)); // the destination itself is taken at once
//!
//! // A full path: around the swamp (cost 20) beats through it (cost ~42.4).
//! let nav = graph.freeze();
//! let mut query = NavQuery::default();
//! let result = nav.find_path(a, c, &PathFilter::new(infantry), &mut query)?;
//! assert_eq!(result.status, PathStatus::Complete);
//! assert_eq!(query.path(), &[a, b, c]);
//! assert!((result.cost - 20.0).abs() < 1e-4);
//!
//! // Agents can enter the graph anywhere.
//! assert_eq!(nav.nearest_waypoint(Vec3::new(9.0, 0.0, 2.0), true), Some(b));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Determinism: no hash-map iteration order and no OS randomness reaches a
//! result; ties are broken by id or link order; randomness comes only from
//! the caller's `rng`.
//!
//! **Architecture Invariant:** kiai-nav knows nothing of Lua, RON files, egui
//! or kiai-core.

mod alt;
mod changes;
mod clearance;
mod connect;
mod error;
mod field;
mod frozen;
mod graph;
mod heap;
mod ids;
mod landmarks;
pub mod navgen;
mod point_grid;
mod query;
mod segment;
mod select;
mod smooth;
mod spatial;

pub use connect::AutoConnect;
pub use error::NavError;
pub use field::DistanceField;
pub use frozen::NavGraph;
pub use graph::{Link, Waypoint, WaypointGraph};
pub use ids::{CostListId, LinkId, WaypointId};
pub use landmarks::{DEFAULT_LANDMARKS, LANDMARKS_FROM};
pub use query::{NavQuery, PartialReason, PathFilter, PathResult, PathStatus, SliceStatus};
pub use segment::point_segment_distance;
pub use select::{Destination, Heading, NeighbourFilter, SelectOptions};
pub use smooth::{path_length, smooth_path};
