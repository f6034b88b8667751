//! Small `Copy` handles: [`WaypointId`], [`LinkId`], [`CostListId`].

use std::fmt;

use petgraph::stable_graph::{EdgeIndex, NodeIndex};

/// Handle of a waypoint in a [`WaypointGraph`](crate::WaypointGraph).
///
/// Stable across removals of *other* waypoints (the graph is a petgraph
/// `StableGraph`). The slot of a removed waypoint may be reused by a later
/// [`add_waypoint`](crate::WaypointGraph::add_waypoint).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WaypointId(pub u32);

impl WaypointId {
    /// The raw index (what content files and the CLI call `id`).
    pub fn index(self) -> u32 {
        self.0
    }

    pub(crate) fn node(self) -> NodeIndex<u32> {
        NodeIndex::new(self.0 as usize)
    }

    pub(crate) fn from_node(n: NodeIndex<u32>) -> Self {
        Self(n.index() as u32)
    }
}

impl fmt::Display for WaypointId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "waypoint {}", self.0)
    }
}

/// Handle of a directed link (an edge `from -> to`).
///
/// Stable across removals of other links; a removed link's slot may be reused.
/// Neighbours are always visited in ascending `LinkId` order, which on a graph
/// built without removals is the order the links were added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkId(pub u32);

impl LinkId {
    /// The raw index.
    pub fn index(self) -> u32 {
        self.0
    }

    pub(crate) fn edge(self) -> EdgeIndex<u32> {
        EdgeIndex::new(self.0 as usize)
    }

    pub(crate) fn from_edge(e: EdgeIndex<u32>) -> Self {
        Self(e.index() as u32)
    }
}

impl fmt::Display for LinkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "link {}", self.0)
    }
}

/// Handle of a named movement-cost list (one per unit type, e.g. "infantry",
/// "vehicle"): the article's `CostListID`.
///
/// Ids are never reused: removing a list leaves its slot empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CostListId(pub u16);

impl CostListId {
    /// The raw slot index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for CostListId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cost list {}", self.0)
    }
}
