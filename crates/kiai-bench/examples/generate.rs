//! Writes the generated benchmark project to stdout:
//! `cargo run --release -p kiai-bench --example generate -- SIDE > map.ron`
//! gives SIDE × SIDE waypoints (two-way grid links, two cost lists) and
//! 1,000 agents. SIDE = 100 is the editor's frame-time scene (10k
//! waypoints, 1k agents); 317 is the 100k-waypoint load benchmark.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let side = match std::env::args().nth(1).map(|s| s.parse::<u32>()) {
        None => 100,
        Some(Ok(n)) if (2..=2000).contains(&n) => n,
        Some(_) => {
            eprintln!("usage: generate [SIDE]   (SIDE in 2..=2000, default 100)");
            return ExitCode::from(2);
        }
    };
    let text = kiai_bench::content::project(side);
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("generate: {e}");
            ExitCode::FAILURE
        }
    }
}
