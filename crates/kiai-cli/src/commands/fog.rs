//! `kiai fog`: the tile fog of war per faction at a given tick (tiles
//! visible and explored), and with `--dump` the grid as the chosen
//! factions see it.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use kiai_core::fog::{FactionId as FogFaction, FactionMask, FogGrid, TilePos, TileState};
use kiai_core::{FactionId, Factions, World};
use serde_json::{Map, Value, json};

use crate::load::{load, schedule_of};
use crate::output::{REPORTED, outln, print_json};
use crate::sim::{SimArgs, simulate, with_threads, world_of};

/// `kiai fog`'s flags.
#[derive(Args)]
pub(crate) struct FogArgs {
    #[command(flatten)]
    sim: SimArgs,
    /// Simulate this many ticks first (0: the initial positions).
    #[arg(long, default_value_t = 0)]
    tick: u64,
    /// Report only this faction (and dump the grid as it sees it).
    #[arg(long)]
    faction: Option<String>,
    /// Also print the grid, one string per row of tiles (north = first row):
    /// `#` visible, `.` explored, ` ` unexplored, `X` blocking.
    #[arg(long)]
    dump: bool,
}

/// Runs `kiai fog`: simulates to `--tick` and reports the fog of the
/// chosen factions (all by default).
pub(crate) fn run(args: &FogArgs) -> anyhow::Result<ExitCode> {
    let Some(content) = load(&args.sim.file) else {
        return Ok(REPORTED);
    };
    let Some(mut schedule) = schedule_of(args.sim.events.as_deref(), &content) else {
        return Ok(REPORTED);
    };
    let mut world = world_of(&content, args.sim.seed)?;
    if world.fog().is_none() {
        anyhow::bail!(
            "{} has no `fog` section (add e.g. `fog: (tile_size: 2.0)` next to `bounds`)",
            args.sim.file.display()
        );
    }
    with_threads(args.sim.threads, || {
        simulate(&mut world, args.tick, &mut schedule);
    })?;
    let selected = selected_factions(world.factions(), args.faction.as_deref())?;
    let Some(fog) = world.fog() else {
        anyhow::bail!("the fog of war is not enabled");
    };
    let grid = fog.grid();
    let per_faction = tile_counts(grid, world.factions(), &selected);
    let rows = if args.dump {
        let spectator = FactionMask::of(selected.iter().map(|&i| FogFaction(i as u8)));
        dump(grid, spectator)
    } else {
        Vec::new()
    };
    if args.sim.json {
        print_report_json(args, &world, grid, per_faction, rows)?;
    } else {
        print_summary(&world, grid, &per_faction, rows)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The indices of the factions `--faction` names (all without it); an
/// error listing the names when it names none.
fn selected_factions(factions: &Factions, name: Option<&str>) -> anyhow::Result<Vec<usize>> {
    let Some(name) = name else {
        return Ok((0..factions.len()).collect());
    };
    let found = factions.find(name).map(|f| f.index()).with_context(|| {
        let names: Vec<&str> = (0..factions.len())
            .filter_map(|i| factions.name(FactionId::from_index(i)))
            .collect();
        format!("no faction `{name}`; this file has: {}", names.join(", "))
    })?;
    Ok(vec![found])
}

/// Per selected faction (by name), its visible and explored tile counts.
fn tile_counts(grid: &FogGrid, factions: &Factions, selected: &[usize]) -> Map<String, Value> {
    let mut per_faction = Map::new();
    for &i in selected {
        let f = FogFaction(i as u8);
        let name = factions.name(FactionId::from_index(i)).unwrap_or_default();
        per_faction.insert(
            name.to_owned(),
            json!({
                "visible": grid.visible_tile_count(f),
                "explored": grid.explored_tile_count(f),
            }),
        );
    }
    per_faction
}

/// The grid as `spectator` sees it, one string per row of tiles, north
/// first: `#` visible, `.` explored, ` ` unexplored, `X` blocking.
fn dump(grid: &FogGrid, spectator: FactionMask) -> Vec<String> {
    let spec = grid.spec();
    (0..spec.height)
        .rev()
        .map(|z| {
            (0..spec.width)
                .map(|x| {
                    let t = TilePos::new(x, z);
                    if grid.is_blocking(t) {
                        'X'
                    } else {
                        match grid.state(t, spectator) {
                            TileState::Visible => '#',
                            TileState::Explored => '.',
                            TileState::Unexplored => ' ',
                        }
                    }
                })
                .collect()
        })
        .collect()
}

/// The `--json` object: the tick, the grid's size, the counts per
/// faction, and the rows with `--dump`.
fn print_report_json(
    args: &FogArgs,
    world: &World,
    grid: &FogGrid,
    per_faction: Map<String, Value>,
    rows: Vec<String>,
) -> anyhow::Result<()> {
    let spec = grid.spec();
    let mut out = json!({
        "tick": world.tick(),
        "width": spec.width,
        "height": spec.height,
        "tile_size": spec.tile_size,
        "factions": per_faction,
    });
    if args.dump {
        out["grid"] = json!(rows);
    }
    print_json(&out)
}

/// The human summary: the tick and the grid's size, a line per faction,
/// and the rows (framed by `|`) with `--dump`.
fn print_summary(
    world: &World,
    grid: &FogGrid,
    per_faction: &Map<String, Value>,
    rows: Vec<String>,
) -> anyhow::Result<()> {
    let spec = grid.spec();
    outln(&format!(
        "tick {}: {} x {} tiles of {} units",
        world.tick(),
        spec.width,
        spec.height,
        spec.tile_size
    ))?;
    for (name, v) in per_faction {
        outln(&format!(
            "{name:<12} visible {:>7}  explored {:>7}",
            v["visible"], v["explored"]
        ))?;
    }
    for row in rows {
        outln(&format!("|{row}|"))?;
    }
    Ok(())
}
