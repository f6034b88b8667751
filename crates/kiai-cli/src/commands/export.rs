//! `kiai export`: the content as a validated, resolved runtime pack, in
//! binary (what games load) or RON (for people to read).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use kiai_content::{pack_to_ron, write_atomic};
use serde_json::{Value, json};

use crate::load::load;
use crate::output::{REPORTED, outln, print_json};

/// How `kiai export` encodes the pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PackFormat {
    /// Compact binary (magic header + postcard body); what games load.
    Binary,
    /// Pretty RON of the same resolved data, for people to read.
    Ron,
}

/// `kiai export`'s flags.
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

/// Runs `kiai export`: loads, encodes and writes the pack, then says what
/// it wrote.
pub(crate) fn run(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let Some(content) = load(&args.file) else {
        if args.json {
            print_json(&json!({ "ok": false, "out": Value::Null, "bytes": 0 }))?;
        }
        return Ok(REPORTED);
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
