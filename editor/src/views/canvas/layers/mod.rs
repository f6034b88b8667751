//! The map's layers, bottom to top: the ground ([`ground`]: grid, bounds,
//! regions, walls), the waypoint network ([`network`]: links, waypoints,
//! names), previews ([`preview`]: sight tiles, routes, tool feedback), the
//! agents ([`agents`]: senses, glyphs, handles, start positions) and what
//! the run shows ([`live`]: fog, sounds, routes, steering, percepts;
//! [`movement`]: bodies, preferred and chosen velocities, smoothed routes;
//! [`tiers`]: tick level of detail tiers and points of interest).

pub mod agents;
pub mod ground;
pub mod live;
pub mod movement;
pub mod network;
pub mod preview;
pub mod tiers;
