//! `kiai migrate`: rewrites a content file in place to the newest format
//! version, keeping its comments and layout where it can and the previous
//! version as FILE.bak.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use kiai_content::migrate::{TextMigration, migrate_text};
use kiai_content::{Content, backup_path, write_atomic};
use serde_json::{Value, json};

use crate::edit_in_place::content_bytes;
use crate::output::{REPORTED, outln, plural, print_diagnostics, print_json};

/// `kiai migrate`'s flags.
#[derive(Args)]
pub(crate) struct MigrateArgs {
    /// Content file to rewrite in place to the newest format version (the
    /// previous version is kept as FILE.bak).
    file: PathBuf,
    /// Show what would change without writing anything.
    #[arg(long)]
    dry_run: bool,
    /// Print one JSON object on stdout instead of a summary.
    #[arg(long)]
    json: bool,
}

/// Most changes listed one by one in the human summary.
const SHOWN_CHANGES: usize = 20;

/// Runs `kiai migrate`: reads, migrates, writes (unless a dry run or
/// nothing changed) and reports.
pub(crate) fn run(args: &MigrateArgs) -> anyhow::Result<ExitCode> {
    let file = args.file.display().to_string();
    let Some(text) = read_text(&args.file, &file)? else {
        return Ok(REPORTED);
    };
    let m = match migrate_text(&text, &file) {
        Ok(m) => m,
        Err(d) => {
            print_diagnostics(&d.0);
            return Ok(REPORTED);
        }
    };
    let wrote = !m.changes.is_empty() && !args.dry_run;
    if wrote {
        write_atomic(&args.file, m.text.as_bytes(), true)
            .with_context(|| format!("cannot write {file}"))?;
    }
    if args.json {
        print_report_json(args, &file, &m, wrote)?;
    } else {
        print_summary(args, &file, &m, wrote)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The text of the content file at `path` (named `file`): within the size
/// limit, not a pack, UTF-8; `None` when the position of an invalid byte
/// was reported.
fn read_text(path: &Path, file: &str) -> anyhow::Result<Option<String>> {
    let bytes = content_bytes(path, "migrate the content it came from instead")?;
    match String::from_utf8(bytes) {
        Ok(t) => Ok(Some(t)),
        Err(_) => match Content::load(path) {
            // Reports the position of the first invalid byte.
            Err(d) => {
                print_diagnostics(&d.0);
                Ok(None)
            }
            Ok(_) => anyhow::bail!("{file} is not valid UTF-8 text"),
        },
    }
}

/// The `--json` object: the versions, whether it was written, and every
/// change.
fn print_report_json(
    args: &MigrateArgs,
    file: &str,
    m: &TextMigration,
    wrote: bool,
) -> anyhow::Result<()> {
    let changes: Vec<Value> = m
        .changes
        .iter()
        .map(|c| json!({ "path": c.path, "change": c.message }))
        .collect();
    print_json(&json!({
        "ok": true,
        "file": file,
        "from": m.from,
        "to": kiai_content::FORMAT_VERSION,
        "written": wrote,
        "kept_layout": m.kept_layout,
        "backup": wrote.then(|| backup_path(&args.file).display().to_string()),
        "changes": changes,
    }))
}

/// The human summary: the versions, the changes (at most
/// [`SHOWN_CHANGES`]) and where the previous version was kept.
fn print_summary(
    args: &MigrateArgs,
    file: &str,
    m: &TextMigration,
    wrote: bool,
) -> anyhow::Result<()> {
    let to = kiai_content::FORMAT_VERSION;
    if m.changes.is_empty() {
        outln(&format!("{file}: already format {to}; nothing to change"))?;
        return Ok(());
    }
    outln(&format!(
        "{file}: format {} -> {to}, {} change{}{}",
        m.from,
        m.changes.len(),
        plural(m.changes.len()),
        if args.dry_run {
            " (dry run: nothing written)"
        } else if m.kept_layout {
            "; comments and layout kept"
        } else {
            "; the changed parts were rewritten in the readable layout"
        }
    ))?;
    for c in m.changes.iter().take(SHOWN_CHANGES) {
        outln(&format!("  {}: {}", c.path, c.message))?;
    }
    if m.changes.len() > SHOWN_CHANGES {
        outln(&format!(
            "  ... and {} more",
            m.changes.len() - SHOWN_CHANGES
        ))?;
    }
    if wrote {
        outln(&format!(
            "  previous version kept as {}",
            backup_path(&args.file).display()
        ))?;
    }
    Ok(())
}
