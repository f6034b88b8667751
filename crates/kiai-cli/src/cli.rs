//! The `kiai` command line as clap reads it: the program's help and the
//! list of commands, one line each (its summary in `kiai --help`).
//!
//! Each command's own flags (`RunArgs`, `PathArgs`, ...) are defined
//! beside the code that reads them, in `commands/<command>.rs`, not here:
//! a flag and its use change together, the fields stay private to the
//! command, and one file shows a command whole. The flags that `run`,
//! `perceive` and `fog` share are `sim::SimArgs`.

use clap::{Parser, Subcommand};

use crate::commands::{
    bench, export, fog, fork, lua_defs, migrate, navgen, path, perceive, run, select, set, test,
    validate,
};

/// The whole command line: one command and its flags.
#[derive(Parser)]
#[command(
    name = "kiai",
    version,
    about = "kiai game-AI toolkit: run, inspect, validate and benchmark AI content",
    long_about = "kiai game-AI toolkit: run, inspect, validate and benchmark AI content.\n\n\
        FILE is a content file in RON (see content/demo/ for examples). Every command prints a \
        human summary, or one JSON object on stdout with --json. Content problems are reported \
        as `file:line:col: error: message` and exit with status 1.",
    after_help = "Examples:\n  kiai run content/demo/arena.ron --ticks 600 --seed 1\n  \
        kiai perceive content/demo/arena.ron --tick 10 --json\n  \
        kiai validate content/demo/*.ron\n  \
        kiai set level.ron archetypes.guard.senses.eyes.shape.range=40\n  kiai bench --quick"
)]
pub(crate) struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The commands, in the order `kiai --help` lists them.
#[derive(Subcommand)]
pub(crate) enum Command {
    /// Simulate headlessly and report the final state.
    Run(run::RunArgs),
    /// Report what each agent senses at a given tick.
    Perceive(perceive::PerceiveArgs),
    /// Check content files and report every problem with file:line:col.
    Validate(validate::ValidateArgs),
    /// Find the cheapest route between two waypoints (A*).
    Path(path::PathArgs),
    /// Pick the next waypoint toward or away from a destination (article 001).
    Select(select::SelectArgs),
    /// Report the tile fog of war per faction at a given tick.
    Fog(fog::FogArgs),
    /// Run the side-by-side benchmarks (kiai against a peer, same inputs).
    Bench(bench::BenchArgs),
    /// Write a validated, resolved runtime pack (binary or RON).
    Export(export::ExportArgs),
    /// Rewrite a content file in place to the newest format (keeps FILE.bak).
    Migrate(migrate::MigrateArgs),
    /// Set values in a content file by path, keeping comments (FILE.bak).
    #[command(long_about = set::LONG_ABOUT, after_help = set::EXAMPLES)]
    Set(set::SetArgs),
    /// Generate waypoints and links from walls; print coverage and route quality.
    #[command(long_about = navgen::LONG_ABOUT, after_help = navgen::EXAMPLES)]
    Navgen(navgen::NavgenArgs),
    /// Run scenario tests (*.scenario.ron): pass/fail, why, coverage.
    #[command(long_about = test::LONG_ABOUT)]
    Test(test::TestArgs),
    /// Replay a recording, change the world at a tick, compare the branches.
    #[command(long_about = fork::LONG_ABOUT, after_help = fork::EXAMPLES)]
    Fork(fork::ForkArgs),
    /// Write lua-language-server definitions for the script API.
    #[command(after_help = lua_defs::AFTER_HELP)]
    LuaDefs(lua_defs::LuaDefsArgs),
}
