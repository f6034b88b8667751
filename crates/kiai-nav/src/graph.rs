//! [`WaypointGraph`]: the editable waypoint graph.

use glam::Vec3;
use petgraph::Direction;
use petgraph::stable_graph::StableDiGraph;
use petgraph::visit::{EdgeRef, NodeIndexable};

use crate::spatial::PointIndex;
use crate::{CostListId, LinkId, NavError, WaypointId};

/// One waypoint: a point agents walk between.
#[derive(Clone, Debug, PartialEq)]
pub struct Waypoint {
    pos: Vec3,
    /// Inactive waypoints are never selected, entered or walked through (a
    /// blown-up bridge). The seed marks them with a negative id.
    pub active: bool,
    /// Optional designer-facing name.
    pub name: Option<String>,
    /// Free-form tags ("cover", "door"); kiai-nav does not interpret them.
    pub tags: Vec<String>,
}

impl Waypoint {
    /// Position in world units (Y up). Change it with
    /// [`WaypointGraph::set_pos`] so the spatial index stays in sync.
    pub fn pos(&self) -> Vec3 {
        self.pos
    }
}

/// A directed link's data: one cost multiplier per cost-list slot.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    costs: Vec<f32>,
}

impl Link {
    /// The multiplier for `list` (finite, >= 0), or `None` if the slot does not exist.
    pub fn cost(&self, list: CostListId) -> Option<f32> {
        self.costs.get(list.index()).copied()
    }
}

/// The editable waypoint graph: waypoints, directed links and named cost lists.
///
/// Built on a petgraph `StableGraph`, so [`WaypointId`]s and [`LinkId`]s survive
/// removals (an editor keeps selections and undo records as ids). A spatial
/// index is kept in sync for [`nearest_waypoint`](Self::nearest_waypoint).
/// For path searches, [`freeze`](Self::freeze) it into a [`NavGraph`](crate::NavGraph).
///
/// Every link carries one cost multiplier per cost list (the article's
/// `MovementCostListForWaypointsInRange[CostListID]`): the cost of walking a
/// link is its length times the multiplier. New links get 1.0 in every list;
/// a new list gives every existing link its `default_multiplier`.
#[derive(Clone, Debug, Default)]
pub struct WaypointGraph {
    graph: StableDiGraph<Waypoint, Link, u32>,
    cost_lists: Vec<Option<String>>,
    spatial: PointIndex,
}

pub(crate) fn check_multiplier(m: f32) -> Result<f32, NavError> {
    if m.is_finite() && m >= 0.0 {
        Ok(m)
    } else {
        Err(NavError::InvalidMultiplier(m))
    }
}

impl WaypointGraph {
    /// An empty graph without cost lists.
    pub fn new() -> Self {
        Self::default()
    }

    // ---- waypoints -------------------------------------------------------

    /// Adds an active, unnamed waypoint at `pos` (world units, finite).
    pub fn add_waypoint(&mut self, pos: Vec3) -> Result<WaypointId, NavError> {
        if !pos.is_finite() {
            return Err(NavError::NonFinitePosition(pos.to_array()));
        }
        let node = self.graph.add_node(Waypoint {
            pos,
            active: true,
            name: None,
            tags: Vec::new(),
        });
        let id = WaypointId::from_node(node);
        self.spatial.insert(pos, id.0);
        Ok(id)
    }

    /// The waypoint, if it exists.
    pub fn waypoint(&self, id: WaypointId) -> Option<&Waypoint> {
        self.graph.node_weight(id.node())
    }

    /// Mutable access to `active`, `name` and `tags` (the position goes
    /// through [`set_pos`](Self::set_pos)).
    pub fn waypoint_mut(&mut self, id: WaypointId) -> Option<&mut Waypoint> {
        self.graph.node_weight_mut(id.node())
    }

    /// Moves a waypoint to `pos` (world units, finite).
    pub fn set_pos(&mut self, id: WaypointId, pos: Vec3) -> Result<(), NavError> {
        if !pos.is_finite() {
            return Err(NavError::NonFinitePosition(pos.to_array()));
        }
        let w = self
            .graph
            .node_weight_mut(id.node())
            .ok_or(NavError::UnknownWaypoint(id))?;
        let old = w.pos;
        w.pos = pos;
        self.spatial.remove(old, id.0);
        self.spatial.insert(pos, id.0);
        Ok(())
    }

    /// Sets the `active` flag; errors if the waypoint does not exist.
    pub fn set_active(&mut self, id: WaypointId, active: bool) -> Result<(), NavError> {
        let w = self.waypoint_mut(id).ok_or(NavError::UnknownWaypoint(id))?;
        w.active = active;
        Ok(())
    }

    /// Removes a waypoint and every link to or from it; returns it.
    pub fn remove_waypoint(&mut self, id: WaypointId) -> Option<Waypoint> {
        let w = self.graph.remove_node(id.node())?;
        self.spatial.remove(w.pos, id.0);
        Some(w)
    }

    /// True if the waypoint exists.
    pub fn contains(&self, id: WaypointId) -> bool {
        self.graph.contains_node(id.node())
    }

    /// Number of waypoints.
    pub fn waypoint_count(&self) -> usize {
        self.graph.node_count()
    }

    /// All waypoint ids in ascending order.
    pub fn waypoint_ids(&self) -> impl Iterator<Item = WaypointId> + '_ {
        self.graph.node_indices().map(WaypointId::from_node)
    }

    /// One past the largest waypoint index ever in use (for dense arrays keyed by index).
    pub fn waypoint_bound(&self) -> usize {
        self.graph.node_bound()
    }

    /// The waypoint nearest to `pos` (3D distance), optionally only among
    /// active ones. Ties go to the smallest id. O(log n) via the spatial index.
    pub fn nearest_waypoint(&self, pos: Vec3, active_only: bool) -> Option<WaypointId> {
        self.spatial
            .nearest(
                pos,
                |k| {
                    !active_only
                        || self
                            .graph
                            .node_weight(WaypointId(k).node())
                            .is_some_and(|w| w.active)
                },
                |k| k,
            )
            .map(WaypointId)
    }

    /// Waypoint ids within `radius` (world units, inclusive) of `pos`, ascending.
    pub fn waypoints_within(&self, pos: Vec3, radius: f32) -> Vec<WaypointId> {
        let mut keys = Vec::new();
        self.spatial.within(pos, radius, &mut keys);
        keys.into_iter().map(WaypointId).collect()
    }

    // ---- links -----------------------------------------------------------

    /// Adds a directed link `from -> to` with multiplier 1.0 in every cost list.
    pub fn add_link(&mut self, from: WaypointId, to: WaypointId) -> Result<LinkId, NavError> {
        for id in [from, to] {
            if !self.contains(id) {
                return Err(NavError::UnknownWaypoint(id));
            }
        }
        if from == to {
            return Err(NavError::SelfLink(from));
        }
        if self.find_link(from, to).is_some() {
            return Err(NavError::DuplicateLink(from, to));
        }
        let link = Link {
            costs: vec![1.0; self.cost_lists.len()],
        };
        Ok(LinkId::from_edge(self.graph.add_edge(
            from.node(),
            to.node(),
            link,
        )))
    }

    /// Sets the multiplier of `link` in `list` (finite, >= 0; 1.0 = plain length).
    pub fn set_link_cost(
        &mut self,
        link: LinkId,
        list: CostListId,
        multiplier: f32,
    ) -> Result<(), NavError> {
        let m = check_multiplier(multiplier)?;
        if self.cost_list_name(list).is_none() {
            return Err(NavError::UnknownCostList(list));
        }
        let l = self
            .graph
            .edge_weight_mut(link.edge())
            .ok_or(NavError::UnknownLink(link))?;
        l.costs[list.index()] = m;
        Ok(())
    }

    /// The multiplier of `link` in `list`, if both exist.
    pub fn link_cost(&self, link: LinkId, list: CostListId) -> Option<f32> {
        self.cost_list_name(list)?;
        self.graph.edge_weight(link.edge())?.cost(list)
    }

    /// The link `from -> to`, if any.
    pub fn find_link(&self, from: WaypointId, to: WaypointId) -> Option<LinkId> {
        self.graph
            .find_edge(from.node(), to.node())
            .map(LinkId::from_edge)
    }

    /// `(from, to)` of a link.
    pub fn link_endpoints(&self, link: LinkId) -> Option<(WaypointId, WaypointId)> {
        self.graph
            .edge_endpoints(link.edge())
            .map(|(a, b)| (WaypointId::from_node(a), WaypointId::from_node(b)))
    }

    /// Length of a link in world units (distance between its endpoints).
    pub fn link_length(&self, link: LinkId) -> Option<f32> {
        let (a, b) = self.link_endpoints(link)?;
        Some(self.waypoint(a)?.pos.distance(self.waypoint(b)?.pos))
    }

    /// Removes a link and returns its data.
    pub fn remove_link(&mut self, link: LinkId) -> Option<Link> {
        self.graph.remove_edge(link.edge())
    }

    /// Number of links.
    pub fn link_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// All link ids in ascending order.
    pub fn link_ids(&self) -> impl Iterator<Item = LinkId> + '_ {
        self.graph.edge_indices().map(LinkId::from_edge)
    }

    /// Outgoing links of `id` as `(link, to)`, in ascending [`LinkId`] order
    /// (the order the selection routines visit neighbours in). Empty if `id`
    /// does not exist.
    pub fn links_from(&self, id: WaypointId) -> Vec<(LinkId, WaypointId)> {
        let mut out: Vec<(LinkId, WaypointId)> = if self.contains(id) {
            self.graph
                .edges_directed(id.node(), Direction::Outgoing)
                .map(|e| (LinkId::from_edge(e.id()), WaypointId::from_node(e.target())))
                .collect()
        } else {
            Vec::new()
        };
        out.sort_unstable();
        out
    }

    // ---- cost lists ------------------------------------------------------

    /// Adds a named cost list; every existing link gets `default_multiplier`
    /// (finite, >= 0) in it.
    pub fn add_cost_list(
        &mut self,
        name: &str,
        default_multiplier: f32,
    ) -> Result<CostListId, NavError> {
        let m = check_multiplier(default_multiplier)?;
        if self.cost_list(name).is_some() {
            return Err(NavError::DuplicateCostList(name.to_owned()));
        }
        let slot = u16::try_from(self.cost_lists.len()).map_err(|_| NavError::TooManyCostLists)?;
        self.cost_lists.push(Some(name.to_owned()));
        for l in self.graph.edge_weights_mut() {
            l.costs.push(m);
        }
        Ok(CostListId(slot))
    }

    /// The cost list named `name`.
    pub fn cost_list(&self, name: &str) -> Option<CostListId> {
        self.cost_lists
            .iter()
            .position(|n| n.as_deref() == Some(name))
            .map(|i| CostListId(i as u16))
    }

    /// The name of a cost list.
    pub fn cost_list_name(&self, list: CostListId) -> Option<&str> {
        self.cost_lists.get(list.index())?.as_deref()
    }

    /// Removes a cost list and returns its name. Its id is never reused.
    pub fn remove_cost_list(&mut self, list: CostListId) -> Option<String> {
        self.cost_lists.get_mut(list.index())?.take()
    }

    /// Existing cost lists in ascending id order.
    pub fn cost_lists(&self) -> impl Iterator<Item = (CostListId, &str)> + '_ {
        self.cost_lists
            .iter()
            .enumerate()
            .filter_map(|(i, n)| Some((CostListId(i as u16), n.as_deref()?)))
    }

    /// Number of cost-list slots ever created (removed lists included).
    pub(crate) fn cost_list_slots(&self) -> usize {
        self.cost_lists.len()
    }

    pub(crate) fn petgraph(&self) -> &StableDiGraph<Waypoint, Link, u32> {
        &self.graph
    }
}
