//! `kiai path`: the A* route between two waypoints, and with `--smooth`
//! the polyline a walker of the given radius actually walks (string
//! pulling against the content's walls).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use kiai_content::NavMap;
use kiai_core::World;
use kiai_core::glam::{Vec2, Vec3};
use kiai_core::perception::occlusion::{RayScratch, Sweep, Walls};
use kiai_nav::{
    CostListId, NavQuery, PartialReason, PathFilter, PathResult, PathStatus, WaypointId,
    path_length, smooth_path,
};
use serde_json::json;

use crate::load::load;
use crate::nav::{nav_of, waypoint};
use crate::output::{REPORTED, outln, print_json};
use crate::sim::world_of;

/// `kiai path`'s flags.
#[derive(Args)]
pub(crate) struct PathArgs {
    /// Content file (.ron) with waypoints and links.
    file: PathBuf,
    /// Start waypoint id (as in the content file).
    #[arg(long)]
    from: u32,
    /// Goal waypoint id.
    #[arg(long)]
    to: u32,
    /// Cost list to price links with (a unit type); defaults to the first.
    #[arg(long)]
    cost_list: Option<String>,
    /// The walking unit's radius, world units: links that pass closer to a
    /// wall are not used, and `--smooth` keeps this far from walls.
    #[arg(long, default_value_t = kiai_core::Archetype::DEFAULT_RADIUS)]
    radius: f32,
    /// Also print the smoothed route: the corners a walker that smooths its
    /// route visits (straight where the way is clear of walls), and both
    /// lengths.
    #[arg(long)]
    smooth: bool,
    /// Print one JSON object on stdout instead of a summary.
    #[arg(long)]
    json: bool,
}

/// Runs `kiai path`.
pub(crate) fn run(args: &PathArgs) -> anyhow::Result<ExitCode> {
    if !(args.radius.is_finite() && args.radius >= 0.0) {
        anyhow::bail!("--radius must be a finite number >= 0, not {}", args.radius);
    }
    let Some(content) = load(&args.file) else {
        return Ok(REPORTED);
    };
    let (nav, list) = nav_of(&content, args.cost_list.as_deref())?;
    let ends = (waypoint(&nav, args.from)?, waypoint(&nav, args.to)?);
    let world = world_of(&content, None)?;
    let route = search(args, &nav, &world, list, ends)?;
    if args.json {
        print_route_json(args, &route)?;
    } else {
        print_summary(args, &route)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A route found: the search's result, its waypoints (content ids) and
/// points, and the smoothed polyline.
struct Route {
    result: PathResult,
    ids: Vec<u32>,
    points: Vec<Vec3>,
    smoothed: Vec<Vec3>,
}

/// Searches `nav` from `from` to `to` for a walker of `args.radius`:
/// links that pass closer to a wall of `world` than that are not used, and
/// the smoothed route keeps that far from the walls.
fn search(
    args: &PathArgs,
    nav: &NavMap,
    world: &World,
    list: CostListId,
    (from, to): (WaypointId, WaypointId),
) -> anyhow::Result<Route> {
    let walls = world.occluders().map(|o| &o.walls);
    let mut frozen = nav.graph.freeze();
    let mut rays = RayScratch::new();
    if let Some(walls) = walls {
        let reach = args.radius * 1.01 + 0.01;
        frozen.set_clearances(|a, b| {
            let floor = a.y.min(b.y) + Sweep::STEP_HEIGHT;
            Some(walls.segment_clearance((xz(a), xz(b)), reach, floor, &mut rays))
        });
    }
    let mut query = NavQuery::new(u32::MAX);
    let mut filter = PathFilter::new(list);
    filter.min_clearance = args.radius;
    let result = frozen
        .find_path(from, to, &filter, &mut query)
        .context("cannot search")?;
    let ids: Vec<u32> = query
        .path()
        .iter()
        .filter_map(|w| nav.content_id(*w))
        .collect();
    let points: Vec<Vec3> = query.path().iter().filter_map(|w| frozen.pos(*w)).collect();
    let mut smoothed = Vec::new();
    smooth_path(
        &points,
        |a, b| clear(walls, (a, b), args.radius, &mut rays),
        &mut smoothed,
    );
    Ok(Route {
        result,
        ids,
        points,
        smoothed,
    })
}

/// How the search ended, as printed: `complete`, `unreachable` or
/// `out_of_nodes`.
fn status_name(status: PathStatus) -> &'static str {
    match status {
        PathStatus::Complete => "complete",
        PathStatus::Partial {
            reason: PartialReason::Unreachable,
        } => "unreachable",
        PathStatus::Partial {
            reason: PartialReason::OutOfNodes,
        } => "out_of_nodes",
    }
}

/// The `--json` object (with the lengths and the smoothed polyline for
/// `--smooth`).
fn print_route_json(args: &PathArgs, route: &Route) -> anyhow::Result<()> {
    let result = &route.result;
    let mut out = json!({
        "found": result.is_complete(),
        "waypoints": route.ids,
        "cost": result.cost,
        "status": status_name(result.status),
        "expanded": result.expanded,
    });
    if args.smooth {
        let smoothed = &route.smoothed;
        out["length"] = json!(path_length(&route.points));
        out["smoothed"] = json!(smoothed.iter().map(|p| [p.x, p.y, p.z]).collect::<Vec<_>>());
        out["smoothed_length"] = json!(path_length(smoothed));
    }
    print_json(&out)
}

/// The human summary: the route (or the closest reachable part), then
/// the smoothed corners for `--smooth`.
fn print_summary(args: &PathArgs, route: &Route) -> anyhow::Result<()> {
    let result = &route.result;
    let ids: Vec<String> = route.ids.iter().map(u32::to_string).collect();
    if result.is_complete() {
        outln(&format!(
            "{} -> {}: cost {:.3} via {}",
            args.from,
            args.to,
            result.cost,
            ids.join(" ")
        ))?;
    } else {
        outln(&format!(
            "{} -> {}: no route ({}); closest reachable: {}",
            args.from,
            args.to,
            status_name(result.status),
            ids.join(" ")
        ))?;
    }
    if args.smooth {
        let smoothed = &route.smoothed;
        let corners: Vec<String> = smoothed
            .iter()
            .map(|p| format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z))
            .collect();
        outln(&format!(
            "smoothed: {} corners, length {:.3} (route {:.3}): {}",
            smoothed.len(),
            path_length(smoothed),
            path_length(&route.points),
            corners.join(" ")
        ))?;
    }
    Ok(())
}

/// The horizontal part of `p` (x and z).
fn xz(p: Vec3) -> Vec2 {
    Vec2::new(p.x, p.z)
}

/// Whether a body of `radius` walks straight from `a` to `b` clear of the
/// walls (always, without walls).
fn clear(walls: Option<&Walls>, (a, b): (Vec3, Vec3), radius: f32, rays: &mut RayScratch) -> bool {
    walls.is_none_or(|w| w.clear_of((xz(a), xz(b)), radius, a.y + Sweep::STEP_HEIGHT, rays))
}
