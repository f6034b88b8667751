//! `kiai select`: the next waypoint toward or away from a destination
//! (article 001's neighbour selection), with the same filters and jitter
//! an agent uses.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use kiai_nav::{Destination, Heading, NeighbourFilter, SelectOptions};
use rand::SeedableRng;
use serde_json::json;

use crate::load::load;
use crate::nav::{nav_of, waypoint};
use crate::output::{REPORTED, outln, print_json};

/// `kiai select`'s flags.
#[derive(Args)]
#[command(group = clap::ArgGroup::new("heading").required(true).args(["toward", "away"]))]
pub(crate) struct SelectArgs {
    /// Content file (.ron) with waypoints and links.
    file: PathBuf,
    /// The waypoint the agent stands on.
    #[arg(long)]
    at: u32,
    /// The destination waypoint.
    #[arg(long)]
    dest: u32,
    /// Pick the neighbour that gets closer to the destination.
    #[arg(long)]
    toward: bool,
    /// Pick the neighbour that gets farther from the destination.
    #[arg(long)]
    away: bool,
    /// Cost list to weigh links with; defaults to the first.
    #[arg(long)]
    cost_list: Option<String>,
    /// Skip neighbours farther than this from the current waypoint (world units).
    #[arg(long)]
    max_distance: Option<f32>,
    /// Waypoint ids never to pick, comma-separated.
    #[arg(long, value_delimiter = ',')]
    exclude: Vec<u32>,
    /// Random variation of link costs (0: none), so agents take detours.
    #[arg(long, default_value_t = 0.0)]
    jitter: f32,
    /// Seed of the jitter's random stream; defaults to the file's seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Print one JSON object on stdout instead of a summary.
    #[arg(long)]
    json: bool,
}

/// Runs `kiai select`: prints the waypoint picked, or that none
/// qualifies.
pub(crate) fn run(args: &SelectArgs) -> anyhow::Result<ExitCode> {
    let Some(content) = load(&args.file) else {
        return Ok(REPORTED);
    };
    let (nav, list) = nav_of(&content, args.cost_list.as_deref())?;
    let (at, dest) = (waypoint(&nav, args.at)?, waypoint(&nav, args.dest)?);
    let exclude = args
        .exclude
        .iter()
        .map(|id| waypoint(&nav, *id))
        .collect::<anyhow::Result<Vec<_>>>()?;
    check_numbers(args)?;
    let heading = if args.away {
        Heading::Away
    } else {
        Heading::Toward
    };
    let mut options = SelectOptions::new(heading, list);
    options.filter = NeighbourFilter {
        max_distance: args.max_distance,
        exclude: &exclude,
        ..NeighbourFilter::default()
    };
    options.jitter = args.jitter;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed.unwrap_or(content.seed()));
    let selected = nav
        .graph
        .select_neighbour(at, Destination::Waypoint(dest), &options, &mut rng)
        .and_then(|w| nav.content_id(w));
    if args.json {
        print_json(&json!({ "selected": selected }))?;
    } else {
        match selected {
            Some(id) => outln(&format!("{id}"))?,
            None => outln("none: no neighbour qualifies")?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses a `--jitter` or `--max-distance` out of range.
fn check_numbers(args: &SelectArgs) -> anyhow::Result<()> {
    if !(args.jitter.is_finite() && args.jitter >= 0.0) {
        anyhow::bail!("--jitter must be a finite number >= 0");
    }
    if args
        .max_distance
        .is_some_and(|d| !(d.is_finite() && d > 0.0))
    {
        anyhow::bail!("--max-distance must be a finite number > 0");
    }
    Ok(())
}
