//! Building the navigation graph from content.

use std::collections::BTreeMap;

use kiai_core::glam::Vec3;
use kiai_nav::{CostListId, NavError, WaypointGraph, WaypointId};

use crate::format::def::{ContentDef, DEFAULT_COST_LIST};
use crate::load::{Content, Source};
use crate::pack::Pack;

/// A navigation graph built from content, with the content's waypoint ids.
#[derive(Clone, Debug)]
pub struct NavMap {
    /// The editable graph.
    pub graph: WaypointGraph,
    to_graph: BTreeMap<u32, WaypointId>,
    to_content: BTreeMap<WaypointId, u32>,
}

impl NavMap {
    /// The graph id of the waypoint the content calls `id`.
    pub fn waypoint(&self, id: u32) -> Option<WaypointId> {
        self.to_graph.get(&id).copied()
    }

    /// The content id of graph waypoint `id`.
    pub fn content_id(&self, id: WaypointId) -> Option<u32> {
        self.to_content.get(&id).copied()
    }

    /// The cost list called `name`.
    pub fn cost_list(&self, name: &str) -> Option<CostListId> {
        self.graph.cost_list(name)
    }

    /// The first cost list (the one used when none is named).
    pub fn first_cost_list(&self) -> Option<CostListId> {
        self.graph.cost_lists().next().map(|(id, _)| id)
    }

    /// Names of all cost lists, in order.
    pub fn cost_list_names(&self) -> Vec<&str> {
        self.graph.cost_lists().map(|(_, n)| n).collect()
    }
}

/// Builds the navigation graph of `def` (expects validated content; returns
/// an error rather than panicking otherwise).
pub fn build_nav(def: &ContentDef) -> Result<NavMap, NavError> {
    let mut graph = WaypointGraph::new();
    if def.cost_lists.is_empty() {
        graph.add_cost_list(DEFAULT_COST_LIST, 1.0)?;
    }
    for name in &def.cost_lists {
        graph.add_cost_list(name, 1.0)?;
    }
    let mut to_graph = BTreeMap::new();
    let mut to_content = BTreeMap::new();
    for w in &def.waypoints {
        let id = graph.add_waypoint(Vec3::new(w.pos.0, w.pos.1, w.pos.2))?;
        if let Some(wp) = graph.waypoint_mut(id) {
            wp.name.clone_from(&w.name);
            wp.tags.clone_from(&w.tags);
        }
        graph.set_active(id, w.active)?;
        to_graph.insert(w.id, id);
        to_content.insert(id, w.id);
    }
    let lookup = |id: u32| {
        to_graph
            .get(&id)
            .copied()
            .ok_or(NavError::UnknownWaypoint(WaypointId(id)))
    };
    for l in &def.links {
        let (from, to) = (lookup(l.from)?, lookup(l.to)?);
        let mut ends = vec![(from, to)];
        if l.two_way {
            ends.push((to, from));
        }
        for (a, b) in ends {
            let link = graph.add_link(a, b)?;
            for (name, cost) in l.costs.iter() {
                let list = graph
                    .cost_list(name)
                    .ok_or(NavError::UnknownCostList(kiai_nav::CostListId(u16::MAX)))?;
                graph.set_link_cost(link, list, *cost)?;
            }
        }
    }
    Ok(NavMap {
        graph,
        to_graph,
        to_content,
    })
}

/// The editable graph of a pack's cost lists, waypoints and links, with the
/// graph id of each waypoint by its index in the pack (expects a checked
/// pack; returns an error rather than panicking otherwise).
pub(crate) fn pack_graph(pack: &Pack) -> Result<(WaypointGraph, Vec<WaypointId>), NavError> {
    let mut graph = WaypointGraph::new();
    let lists = pack
        .cost_lists
        .iter()
        .map(|name| graph.add_cost_list(name, 1.0))
        .collect::<Result<Vec<CostListId>, _>>()?;
    let mut ids = Vec::with_capacity(pack.waypoints.len());
    for w in &pack.waypoints {
        let id = graph.add_waypoint(Vec3::new(w.pos.0, w.pos.1, w.pos.2))?;
        if let Some(wp) = graph.waypoint_mut(id) {
            wp.name.clone_from(&w.name);
            wp.tags.clone_from(&w.tags);
        }
        graph.set_active(id, w.active)?;
        ids.push(id);
    }
    let at = |i: u32| {
        ids.get(i as usize)
            .copied()
            .ok_or(NavError::UnknownWaypoint(WaypointId(i)))
    };
    let costs = pack.link_costs.chunks_exact(lists.len().max(1));
    for (l, costs) in pack.links.iter().zip(costs) {
        let link = graph.add_link(at(l.from)?, at(l.to)?)?;
        for (&list, &cost) in lists.iter().zip(costs) {
            // Every list starts at 1.0, as content that names no cost.
            if cost != 1.0 {
                graph.set_link_cost(link, list, cost)?;
            }
        }
    }
    Ok((graph, ids))
}

impl Content {
    /// The navigation graph this content describes.
    pub fn nav(&self) -> Result<NavMap, NavError> {
        match &self.source {
            Source::Text(def) => build_nav(def),
            Source::Pack(pack) => {
                let (graph, ids) = pack_graph(pack)?;
                let mut to_graph = BTreeMap::new();
                let mut to_content = BTreeMap::new();
                for (w, id) in pack.waypoints.iter().zip(ids) {
                    to_graph.insert(w.id, id);
                    to_content.insert(id, w.id);
                }
                Ok(NavMap {
                    graph,
                    to_graph,
                    to_content,
                })
            }
        }
    }
}
