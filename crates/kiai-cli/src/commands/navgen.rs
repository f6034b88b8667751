//! `kiai navgen`: generate a map's waypoints and links from its walls and
//! bounds, print how good the net is, and with `--write` merge it into the
//! file in place (FILE.bak kept), replacing only generated waypoints and
//! links.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use kiai_content::navgen::{gen_input, is_generated, merge, params_for};
use kiai_content::{to_ron_preserving, write_atomic};
use kiai_nav::navgen::{
    CoveringGrid, GeneratedNet, NavGenQuality, generate, measure, uniform_grid_covering,
};
use serde_json::{Value, json};

use crate::commands::set::new_errors;
use crate::edit_in_place::read_for_edit;
use crate::output::{REPORTED, outln, print_json};

/// `kiai navgen --help`: what the command does.
pub(crate) const LONG_ABOUT: &str = "Generate the waypoint graph of a map from its bounds and \
    walls (doors may be crossed; closing one blocks its links at runtime) and print its quality: \
    coverage (walkable sample points that see a waypoint within the spacing), route ratio (route \
    through the graph against the shortest path around the walls, on random pairs) and size \
    against a uniform grid of the same coverage (the coarsest of 1, 7/8, ..., 1/8 of the spacing \
    that covers as much).\n\n\
    Waypoints placed by hand are kept and linked into the net. Generated waypoints carry the tag \
    \"generated\"; links touching one are the generator's. With --write the file is edited in \
    place (FILE.bak kept, comments kept): only generated waypoints and links change, surviving \
    ones keep their ids and costs, and the radius and spacing go into the file's `navgen`. The \
    radius defaults to the one the file records, else the archetypes' largest body radius (0.5 \
    without archetypes); the spacing to the one the file records, else 8 radii (at least 2; a \
    recorded spacing that was 8 radii follows a new --radius).";

/// `kiai navgen --help`: examples.
pub(crate) const EXAMPLES: &str = "Examples:\n  \
    kiai navgen content/demo/village.ron\n  \
    kiai navgen level.ron --radius 0.6 --spacing 5 --write\n  \
    kiai navgen level.ron --json";

/// `kiai navgen`'s flags.
#[derive(Args)]
pub(crate) struct NavgenArgs {
    /// Content file (.ron, newest format) with `bounds` and walls.
    file: PathBuf,
    /// Agent radius, world units, >= 0 (default: the file's `navgen`
    /// radius, else the largest archetype body radius).
    #[arg(long)]
    radius: Option<f32>,
    /// Coverage grid spacing and coverage distance, world units, > 0.01
    /// (default: the file's `navgen` spacing, else 8 radii, at least 2).
    #[arg(long)]
    spacing: Option<f32>,
    /// Merge the generated net into FILE in place (FILE.bak kept).
    #[arg(long)]
    write: bool,
    /// Print one JSON object on stdout.
    #[arg(long)]
    json: bool,
}

/// Runs `kiai navgen`.
pub(crate) fn run(args: &NavgenArgs) -> anyhow::Result<ExitCode> {
    let file = args.file.display().to_string();
    let refuse = |message: &str| -> anyhow::Result<ExitCode> {
        eprintln!("error: {message}");
        Ok(REPORTED)
    };
    let (text, def) =
        match read_for_edit(&args.file, "run `kiai navgen` on the content it came from") {
            Ok(read) => read,
            Err(message) => return refuse(&message),
        };
    let (radius, spacing) = params_for(&def, args.radius, args.spacing);
    // Say where a value that is no number came from (the generator only
    // knows that one is not).
    for (name, value, flag) in [
        ("radius", radius, args.radius),
        ("spacing", spacing, args.spacing),
    ] {
        if !value.is_finite() {
            return refuse(&match flag {
                Some(_) => format!("{file}: --{name} {value} is not a finite number"),
                None => format!(
                    "{file}: navgen.{name} is {value} in the file, not a finite number: fix it, or pass --{name}"
                ),
            });
        }
    }
    let input = match gen_input(&def, radius, spacing) {
        Ok(i) => i,
        Err(e) => return refuse(&format!("{file}: {e}")),
    };
    let started = Instant::now();
    let net = match generate(&input) {
        Ok(n) => n,
        Err(e) => return refuse(&format!("{file}: {e}")),
    };
    let seconds = started.elapsed().as_secs_f64();
    let quality = measure(&input, &net, def.seed)?;
    let grid = uniform_grid_covering(&input, quality.coverage, def.seed)?;
    let merged = merge(&def, &net, (radius, spacing));
    let written =
        to_ron_preserving(&text, &merged).context("cannot write the generated content")?;
    let changed = written.text != text;
    let net_changed = merged.waypoints != def.waypoints || merged.links != def.links;
    if args.write && changed {
        if let Some(problems) = new_errors(&text, &written.text, &file) {
            return refuse(&format!(
                "the generated net would make {file} invalid (nothing was written):\n{problems}"
            ));
        }
        write_atomic(&args.file, written.text.as_bytes(), true)
            .with_context(|| format!("cannot write {file}"))?;
    }
    let report = Report {
        net: &net,
        quality: &quality,
        grid: &grid,
        hand: def.waypoints.iter().filter(|w| !is_generated(w)).count(),
        radius,
        spacing,
        seconds,
        changed,
        net_changed,
        written: args.write && changed,
    };
    if args.json {
        print_json(&report.json())?;
    } else {
        report.print(&file)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `kiai navgen` reports.
struct Report<'a> {
    net: &'a GeneratedNet,
    quality: &'a NavGenQuality,
    /// The uniform grid of the same coverage.
    grid: &'a CoveringGrid,
    hand: usize,
    radius: f32,
    spacing: f32,
    seconds: f64,
    /// The file would change (its net, or only what it records in
    /// `navgen`).
    changed: bool,
    /// Its waypoints or links would change.
    net_changed: bool,
    written: bool,
}

/// A route-ratio summary as JSON (`null`s when the reference was skipped).
fn ratio_json(q: &NavGenQuality) -> Value {
    json!({ "median": q.median(), "max": q.max(), "pairs": q.ratios.len(), "unreached": q.unreached })
}

/// The narrowest link clearance of `net`, world units.
fn min_clearance(net: &GeneratedNet) -> Option<f32> {
    net.links.iter().map(|l| l.clearance).reduce(f32::min)
}

impl Report<'_> {
    /// The `--json` object.
    fn json(&self) -> Value {
        json!({
            "waypoints": self.net.points.len(),
            "links": self.net.links.len(),
            "hand_waypoints": self.hand,
            "door_links": self.net.links.iter().filter(|l| l.door).count(),
            "min_clearance": min_clearance(self.net),
            "coverage": self.quality.coverage,
            "cover_distance": self.spacing,
            "samples": self.quality.samples,
            "route_ratio": ratio_json(self.quality),
            "radius": self.radius,
            "spacing": self.spacing,
            "seconds": self.seconds,
            "grid": {
                "spacing": self.grid.spacing,
                "waypoints": self.grid.net.points.len(),
                "links": self.grid.net.links.len(),
                "coverage": self.grid.quality.coverage,
                "route_ratio": ratio_json(&self.grid.quality),
                "seconds": self.grid.seconds,
                "coarser": self.grid.tried.iter()
                    .map(|&(spacing, coverage)| json!({ "spacing": spacing, "coverage": coverage }))
                    .collect::<Vec<_>>(),
            },
            "changed": self.changed,
            "written": self.written,
        })
    }

    /// The human summary.
    fn print(&self, file: &str) -> anyhow::Result<()> {
        let q = self.quality;
        let ratio = |q: &NavGenQuality| match (q.median(), q.max()) {
            (Some(m), Some(x)) => format!(
                "route ratio median {m:.3}, max {x:.3} ({} pairs)",
                q.ratios.len()
            ),
            _ => "route ratio not measured (too many corners for the reference)".to_owned(),
        };
        outln(&format!(
            "{file}: {} waypoints ({} by hand), {} two-way links in {:.3} s (radius {}, spacing {})",
            self.net.points.len(),
            self.hand,
            self.net.links.len(),
            self.seconds,
            self.radius,
            self.spacing
        ))?;
        outln(&format!(
            "  coverage {:.1}% of {} walkable samples within {}; {}",
            q.coverage * 100.0,
            q.samples,
            self.spacing,
            ratio(q)
        ))?;
        let g = self.grid;
        let which = if g.quality.coverage >= q.coverage {
            "uniform grid of the same coverage"
        } else {
            "finest uniform grid tried (it covers less)"
        };
        outln(&format!(
            "  {which}: spacing {}, {} waypoints, {} links, coverage {:.1}%, {}",
            g.spacing,
            g.net.points.len(),
            g.net.links.len(),
            g.quality.coverage * 100.0,
            ratio(&g.quality)
        ))?;
        outln(&match (self.written, self.net_changed, self.changed) {
            (true, ..) => format!("  wrote {file} (previous version in {file}.bak)"),
            (false, true, _) => "  the file's net differs; --write merges it in".to_owned(),
            (false, false, true) => "  the file holds this net; --write records the radius and \
                spacing it was generated with (navgen)"
                .to_owned(),
            (false, false, false) => "  the file already holds this net".to_owned(),
        })?;
        Ok(())
    }
}
