//! `kiai set`: change values of a content file in place, keeping the rest
//! of its text (comments, layout, order), as `cargo add` edits Cargo.toml.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use kiai_content::def::ContentDef;
use kiai_content::value_path::{PathError, ValuePath, get, parse_assignment, set};
use kiai_content::{Content, Diagnostic, SpanIndex, backup_path, to_ron_preserving, write_atomic};
use serde_json::json;

use crate::edit_in_place::read_for_edit;
use crate::output::{REPORTED, outln, plural, print_json};

/// Most changed lines a dry run prints.
const SHOWN_LINES: usize = 40;

/// Longest hunk the dry run's line comparison looks across.
const RESYNC_LINES: usize = 400;

/// `kiai set --help`: what the command does and the PATH syntax.
pub(crate) const LONG_ABOUT: &str = "Set values of a content file in place, keeping its comments \
    and layout: only the text of the changed values is rewritten (the previous version is kept \
    as FILE.bak).\n\n\
    PATH is dotted from the top of the file: field names, map keys (archetypes, profiles, costs) \
    and named list items (agents, factions, senses, regions) by name, waypoints by id, other \
    items (links, walls, sounds, tuple elements) by index; quote a step with dots or spaces \
    (archetypes.\"big guard\".noise). VALUE is RON of the value's type.\n\n\
    The edited content is validated before anything is written. An unknown path, a value of the \
    wrong type or an edit that makes the content invalid is refused with exit status 1, and the \
    file is left untouched.";

/// `kiai set --help`: examples.
pub(crate) const EXAMPLES: &str = "Examples:\n  \
    kiai set level.ron archetypes.guard.senses.eyes.shape.range=40\n  \
    kiai set level.ron 'agents.g1.pos=(1.0, 0.0, 2.0)' seed=7\n  \
    kiai set content/demo/village.ron waypoints.3.active=false --dry-run\n  \
    kiai set level.ron profiles.coward.evade=9 --json";

/// `kiai set`'s flags.
#[derive(Args)]
pub(crate) struct SetArgs {
    /// Content file (.ron, newest format) to edit in place.
    file: PathBuf,
    /// Values to set, applied in order: PATH=VALUE (e.g. `seed=7`).
    #[arg(required = true, value_name = "PATH=VALUE")]
    assignments: Vec<String>,
    /// Print what would change (values and lines) without writing.
    #[arg(long)]
    dry_run: bool,
    /// Print one JSON object on stdout: {"ok","changed":[paths],"written"}.
    #[arg(long)]
    json: bool,
}

/// One value that changed: its path, and its text before and after
/// (`None`: the field holds its default and is not written).
struct Changed {
    path: ValuePath,
    before: Option<String>,
    after: Option<String>,
}

/// Runs `kiai set`: applies the assignments, refuses (exit status 1, file
/// untouched) what cannot be set or would make the content invalid, then
/// writes (unless a dry run or nothing changed) and reports.
pub(crate) fn run(args: &SetArgs) -> anyhow::Result<ExitCode> {
    let file = args.file.display().to_string();
    let refuse = |message: &str| -> anyhow::Result<ExitCode> {
        eprintln!("error: {message}");
        if args.json {
            print_json(&json!({ "ok": false, "changed": [], "written": false }))?;
        }
        Ok(REPORTED)
    };
    let (text, original) = match read_for_edit(&args.file, "set values in the content it came from")
    {
        Ok(read) => read,
        Err(message) => return refuse(&message),
    };
    let edits = match apply(&original, &args.assignments) {
        Ok(edits) => edits,
        Err(e) => return refuse(&format!("{e} (nothing was written)")),
    };
    let written =
        to_ron_preserving(&text, &edits.def).context("cannot write the edited content")?;
    if let Some(problems) = new_errors(&text, &written.text, &file) {
        let culprit = first_breaking(&original, &edits.steps, &file)
            .map_or_else(|| args.assignments.join(" "), str::to_owned);
        return refuse(&format!(
            "`{culprit}` would make {file} invalid (nothing was written):\n{problems}"
        ));
    }
    let changed = changed_values(&original, &edits.def, edits.paths);
    let write = !changed.is_empty() && !args.dry_run;
    if write {
        write_atomic(&args.file, written.text.as_bytes(), true)
            .with_context(|| format!("cannot write {file}"))?;
    }
    if args.json {
        let paths: Vec<String> = changed.iter().map(|c| c.path.to_string()).collect();
        print_json(&json!({ "ok": true, "changed": paths, "written": write }))?;
    } else {
        summary(args, &file, &changed, &text, &written.text)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The content after the assignments.
struct Edits<'a> {
    /// The edited definitions.
    def: ContentDef,
    /// The paths assigned, each once, in order.
    paths: Vec<ValuePath>,
    /// Each assignment with the content after it, to name the one that
    /// breaks it.
    steps: Vec<(&'a String, ContentDef)>,
}

/// Applies `assignments` (`PATH=VALUE`) in order to a copy of `original`;
/// fails on the first that does not parse or cannot be set.
fn apply<'a>(original: &ContentDef, assignments: &'a [String]) -> Result<Edits<'a>, PathError> {
    let mut def = original.clone();
    let mut paths: Vec<ValuePath> = Vec::new();
    let mut steps = Vec::with_capacity(assignments.len());
    for a in assignments {
        let (path, value) = parse_assignment(a)?;
        set(&mut def, &path, &value)?;
        if !paths.contains(&path) {
            paths.push(path);
        }
        steps.push((a, def.clone()));
    }
    Ok(Edits { def, paths, steps })
}

/// The values at `paths` that differ between `original` and `def`.
fn changed_values(original: &ContentDef, def: &ContentDef, paths: Vec<ValuePath>) -> Vec<Changed> {
    paths
        .into_iter()
        .filter_map(|path| {
            let before = get(original, &path).ok()?;
            let after = get(def, &path).ok()?;
            (before != after).then_some(Changed {
                path,
                before,
                after,
            })
        })
        .collect()
}

/// The errors `after` has and `before` had not (by message), one per line,
/// if any: an edit may leave problems the file already had, but not add
/// any.
pub(crate) fn new_errors(before: &str, after: &str, file: &str) -> Option<String> {
    let messages = |text: &str| -> Vec<String> {
        match Content::from_str(text, file) {
            Ok(_) => Vec::new(),
            Err(d) => {
                d.0.iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .collect()
            }
        }
    };
    let had: BTreeSet<String> = messages(before).into_iter().collect();
    let new: Vec<String> = messages(after)
        .into_iter()
        .filter(|m| !had.contains(m))
        .map(|m| format!("  {m}"))
        .collect();
    (!new.is_empty()).then(|| new.join("\n"))
}

/// The first assignment after which the content has an error it did not
/// have before, if one can be told.
fn first_breaking<'a>(
    original: &ContentDef,
    steps: &[(&'a String, ContentDef)],
    file: &str,
) -> Option<&'a str> {
    let errors = |def: &ContentDef| -> BTreeSet<String> {
        kiai_content::validate(def, &SpanIndex::default(), file)
            .into_iter()
            .filter(Diagnostic::is_error)
            .map(|d| d.message)
            .collect()
    };
    let had = errors(original);
    steps
        .iter()
        .find(|(_, def)| !errors(def).is_subset(&had))
        .map(|(a, _)| a.as_str())
}

/// The human summary: one line per changed value, and for a dry run the
/// lines that would change.
fn summary(
    args: &SetArgs,
    file: &str,
    changed: &[Changed],
    before: &str,
    after: &str,
) -> std::io::Result<()> {
    if changed.is_empty() {
        return outln(&format!(
            "{file}: the values are already set; nothing to change"
        ));
    }
    let n = changed.len();
    outln(&format!(
        "{file}: {n} value{} {}",
        plural(n),
        if args.dry_run {
            "would change (dry run: nothing written)"
        } else {
            "set"
        }
    ))?;
    let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(default)".to_owned());
    for c in changed {
        outln(&format!(
            "  {}: {} -> {}",
            c.path,
            shown(&c.before),
            shown(&c.after)
        ))?;
    }
    if args.dry_run {
        for line in changed_lines(before, after).into_iter().take(SHOWN_LINES) {
            outln(&format!("  {line}"))?;
        }
    } else {
        outln(&format!(
            "  previous version kept as {}",
            backup_path(&args.file).display()
        ))?;
    }
    Ok(())
}

/// The lines that differ between `before` and `after`, as `-` and `+`
/// lines with their line numbers in `before`, hunk by hunk.
fn changed_lines(before: &str, after: &str) -> Vec<String> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
            continue;
        }
        // A hunk: find the nearest line where both sides agree again.
        let (di, dj) = resync(&a[i..], &b[j..]);
        for (k, line) in a[i..i + di].iter().enumerate() {
            out.push(format!("{:>5} - {line}", i + k + 1));
        }
        for line in &b[j..j + dj] {
            out.push(format!("{:>5} + {line}", ""));
        }
        i += di;
        j += dj;
    }
    out
}

/// The smallest `(di, dj)` (by sum) after which `a` and `b` agree again
/// (or both end); past [`RESYNC_LINES`] the rest is one hunk.
fn resync(a: &[&str], b: &[&str]) -> (usize, usize) {
    for total in 1..=(a.len() + b.len()).min(RESYNC_LINES) {
        for di in 0..=total.min(a.len()) {
            let dj = total - di;
            if dj > b.len() {
                continue;
            }
            let done = di == a.len() && dj == b.len();
            if done || (di < a.len() && dj < b.len() && a[di] == b[dj]) {
                return (di, dj);
            }
        }
    }
    (a.len(), b.len())
}
