//! [`NavError`]: bad user data and misuse of handles.

use crate::{CostListId, LinkId, WaypointId};

/// What went wrong in an edit or a query. Returned, never panicked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NavError {
    /// The waypoint does not exist (never added, or removed).
    #[error("{0} does not exist")]
    UnknownWaypoint(WaypointId),
    /// The link does not exist.
    #[error("{0} does not exist")]
    UnknownLink(LinkId),
    /// The cost list does not exist (never added, or removed).
    #[error("{0} does not exist")]
    UnknownCostList(CostListId),
    /// A position had a NaN or infinite coordinate.
    #[error("position {0:?} is not finite")]
    NonFinitePosition([f32; 3]),
    /// A cost multiplier was negative, NaN or infinite (must be finite and >= 0).
    #[error("cost multiplier {0} must be finite and >= 0")]
    InvalidMultiplier(f32),
    /// A link `from -> to` already exists.
    #[error("a link from {0} to {1} already exists")]
    DuplicateLink(WaypointId, WaypointId),
    /// A link from a waypoint to itself was requested.
    #[error("{0} cannot link to itself")]
    SelfLink(WaypointId),
    /// A cost list with this name already exists.
    #[error("a cost list named {0:?} already exists")]
    DuplicateCostList(String),
    /// Too many cost lists (at most 65535 slots).
    #[error("too many cost lists")]
    TooManyCostLists,
    /// The start of a path search is inactive or excluded by the filter.
    #[error("{0} is inactive or excluded and cannot start a path")]
    StartNotUsable(WaypointId),
    /// `update`/`finish` of a time-sliced search without a `begin`, or with a
    /// different graph than the one passed to `begin`.
    #[error("no time-sliced search was begun on this graph")]
    NoSearch,
}
