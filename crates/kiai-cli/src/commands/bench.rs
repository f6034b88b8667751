//! `kiai bench`: runs the `kiai-bench` binary that sits next to this `kiai`.
//!
//! The benchmarks, their peers (kiddo, rstar, petgraph's A*, pathfinding)
//! and the counting allocator live in the `kiai-bench` crate, so the shipped
//! `kiai` links none of them. A workspace build puts both binaries in the
//! same directory (`target/release/`), where this command finds the other.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::Context;
use clap::Args;

/// `kiai bench`'s flags, passed on to `kiai-bench`.
#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Shorter runs (seconds instead of minutes); figures are noisier.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object on stdout instead of a table:
    /// {"scenarios":[{"name","ours_ms","peer","peer_ms","ratio","note"}],...}.
    #[arg(long)]
    json: bool,
}

/// The command that builds the benchmark binary next to a release `kiai`.
const BUILD_COMMAND: &str = "cargo build --release -p kiai-bench";

/// Runs `kiai-bench` from this executable's directory with the same options,
/// its output going straight to ours, and exits with its exit code.
pub(crate) fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let exe = std::env::current_exe().context("cannot locate the kiai executable")?;
    let binary = sibling(&exe);
    if !binary.is_file() {
        eprintln!("{}", missing(&binary));
        return Ok(ExitCode::FAILURE);
    }
    let mut command = Command::new(&binary);
    if args.quick {
        command.arg("--quick");
    }
    if args.json {
        command.arg("--json");
    }
    let status = command
        .status()
        .with_context(|| format!("cannot run {}", binary.display()))?;
    match status.code() {
        Some(code) => Ok(ExitCode::from(u8::try_from(code).unwrap_or(1))),
        None => anyhow::bail!("{} ended without an exit code ({status})", binary.display()),
    }
}

/// `kiai-bench` in the directory of `exe`.
fn sibling(exe: &Path) -> PathBuf {
    let name = format!("kiai-bench{}", std::env::consts::EXE_SUFFIX);
    exe.parent().unwrap_or(Path::new(".")).join(name)
}

/// What to do when the benchmark binary is not there.
fn missing(binary: &Path) -> String {
    let debug = if cfg!(debug_assertions) {
        "\nThis kiai is a debug build: for real figures build both in release \
         (`cargo build --release -p kiai-cli -p kiai-bench`) and run `target/release/kiai bench`; \
         `cargo build -p kiai-bench` puts a debug one next to this kiai."
    } else {
        ""
    };
    format!(
        "error: `kiai bench` runs the benchmark binary kiai-bench, which is not next to this kiai \
         ({} does not exist).\nBuild it with `{BUILD_COMMAND}` (from the kiai workspace; it goes \
         to target/release/, beside the release kiai), then run `kiai bench` again.{debug}",
        binary.display()
    )
}
