//! `kiai export` and `kiai migrate`: the content pipeline commands.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use kiai_content::migrate::migrate_text;
use kiai_content::{Content, backup_path, pack_to_ron, write_atomic};
use serde_json::{Value, json};

use crate::{REPORTED, outln, print_json};

/// How `kiai export` encodes the pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PackFormat {
    /// Compact binary (magic header + postcard body); what games load.
    Binary,
    /// Pretty RON of the same resolved data, for people to read.
    Ron,
}

#[derive(Args)]
pub(crate) struct ExportArgs {
    /// Content file (.ron, any supported format version) to export.
    file: PathBuf,
    /// Where to write the pack (replaced atomically).
    #[arg(short, long, value_name = "PACK")]
    out: PathBuf,
    /// Encoding of the pack.
    #[arg(long, value_enum, default_value_t = PackFormat::Binary)]
    format: PackFormat,
    /// Print one JSON object on stdout: {"ok","out","bytes"}.
    #[arg(long)]
    json: bool,
}

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

/// Prints diagnostics to stderr.
fn report(diagnostics: &[kiai_content::Diagnostic]) {
    for d in diagnostics {
        eprintln!("{d}");
    }
}

pub(crate) fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let content = match Content::load(&args.file) {
        Ok(c) => {
            report(&c.warnings);
            c
        }
        Err(d) => {
            report(&d.0);
            if args.json {
                print_json(&json!({ "ok": false, "out": Value::Null, "bytes": 0 }))?;
            }
            return Ok(REPORTED);
        }
    };
    let pack = content.to_pack()?;
    let bytes = match args.format {
        PackFormat::Binary => pack.encode().context("cannot encode the pack")?,
        PackFormat::Ron => pack_to_ron(&pack)
            .context("cannot write the pack as RON")?
            .into_bytes(),
    };
    write_atomic(&args.out, &bytes, false)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let out = args.out.display().to_string();
    if args.json {
        print_json(&json!({ "ok": true, "out": out, "bytes": bytes.len() }))?;
    } else {
        outln(&format!(
            "{}: {} agents, {} waypoints, {} links -> {out} ({} bytes, {})",
            args.file.display(),
            pack.agents.len(),
            pack.waypoints.len(),
            pack.links.len(),
            bytes.len(),
            match args.format {
                PackFormat::Binary => "binary",
                PackFormat::Ron => "ron",
            }
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Most changes listed one by one in the human summary.
const SHOWN_CHANGES: usize = 20;

pub(crate) fn migrate(args: &MigrateArgs) -> anyhow::Result<ExitCode> {
    let file = args.file.display().to_string();
    let meta = std::fs::metadata(&args.file).with_context(|| format!("cannot read {file}"))?;
    if meta.len() > kiai_content::MAX_FILE_BYTES {
        anyhow::bail!(
            "{file} is {} bytes; content files are limited to {}",
            meta.len(),
            kiai_content::MAX_FILE_BYTES
        );
    }
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {file}"))?;
    if bytes.starts_with(&kiai_content::pack::PACK_MAGIC) {
        anyhow::bail!("{file} is an exported pack; migrate the content it came from instead");
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => match Content::load(&args.file) {
            // Reports the position of the first invalid byte.
            Err(d) => {
                report(&d.0);
                return Ok(REPORTED);
            }
            Ok(_) => anyhow::bail!("{file} is not valid UTF-8 text"),
        },
    };
    let m = match migrate_text(&text, &file) {
        Ok(m) => m,
        Err(d) => {
            report(&d.0);
            return Ok(REPORTED);
        }
    };
    let to = kiai_content::FORMAT_VERSION;
    let wrote = !m.changes.is_empty() && !args.dry_run;
    if wrote {
        write_atomic(&args.file, m.text.as_bytes(), true)
            .with_context(|| format!("cannot write {file}"))?;
    }
    if args.json {
        let changes: Vec<Value> = m
            .changes
            .iter()
            .map(|c| json!({ "path": c.path, "change": c.message }))
            .collect();
        print_json(&json!({
            "ok": true,
            "file": file,
            "from": m.from,
            "to": to,
            "written": wrote,
            "kept_layout": m.kept_layout,
            "backup": wrote.then(|| backup_path(&args.file).display().to_string()),
            "changes": changes,
        }))?;
    } else if m.changes.is_empty() {
        outln(&format!("{file}: already format {to}; nothing to change"))?;
    } else {
        outln(&format!(
            "{file}: format {} -> {to}, {} change{}{}",
            m.from,
            m.changes.len(),
            if m.changes.len() == 1 { "" } else { "s" },
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
    }
    Ok(ExitCode::SUCCESS)
}
