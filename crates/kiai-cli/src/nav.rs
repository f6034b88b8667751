//! The navigation graph `kiai path` and `kiai select` search: the cost
//! list and the waypoints named on the command line, by their ids in the
//! content file.

use anyhow::Context;
use kiai_content::{Content, NavMap};
use kiai_nav::{CostListId, WaypointId};

/// The navigation graph and the cost list named on the command line (the
/// first when none is).
pub(crate) fn nav_of(
    content: &Content,
    cost_list: Option<&str>,
) -> anyhow::Result<(NavMap, CostListId)> {
    let nav = content.nav().context("cannot build the navigation graph")?;
    let list = match cost_list {
        Some(name) => nav.cost_list(name).with_context(|| {
            format!(
                "no cost list `{name}`; this file has: {}",
                nav.cost_list_names().join(", ")
            )
        })?,
        None => nav.first_cost_list().context("the file has no cost list")?,
    };
    Ok((nav, list))
}

/// The waypoint with content id `id`.
pub(crate) fn waypoint(nav: &NavMap, id: u32) -> anyhow::Result<WaypointId> {
    nav.waypoint(id)
        .with_context(|| format!("no waypoint with id {id} in this file"))
}
