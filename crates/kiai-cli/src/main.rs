//! `kiai`: run, inspect, validate and benchmark kiai content from the shell.
//!
//! Every command reads a content file (`.ron`), prints a short human summary,
//! or one JSON object on stdout with `--json` (the contract pipelines and
//! tests rely on). Problems in content are printed as
//! `file:line:col: error: message` and make the command exit with status 1.
//!
//! This file only parses the command line (`cli.rs`) and hands it to the
//! command (`commands/`, one file each); what several commands share sits
//! in the files named after it.

mod cli;
mod commands;
mod edit_in_place;
mod junit;
mod load;
mod lod;
mod nav;
mod output;
mod positions;
mod recording;
mod run_summary;
mod scripts;
mod sim;
mod timings;
mod trace;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};
use commands::{
    bench, export, fog, fork, lua_defs, migrate, navgen, path, perceive, run, select, set, test,
    validate,
};

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Run(args) => run::run(&args),
        Command::Perceive(args) => perceive::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Path(args) => path::run(&args),
        Command::Select(args) => select::run(&args),
        Command::Fog(args) => fog::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Migrate(args) => migrate::run(&args),
        Command::Set(args) => set::run(&args),
        Command::Navgen(args) => navgen::run(&args),
        Command::Test(args) => test::run(&args),
        Command::Fork(args) => fork::run(&args),
        Command::LuaDefs(args) => lua_defs::run(&args),
    };
    exit_code(result)
}

/// The exit status of a command's result: an error is printed as
/// `error: ...` and fails, except a closed stdout (`kiai ... | head`).
fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => {
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
