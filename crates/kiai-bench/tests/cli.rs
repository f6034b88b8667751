//! The `kiai-bench` binary's command line: what `kiai bench` passes through.

use std::process::Command;

fn kiai_bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kiai-bench"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run kiai-bench: {e}"))
}

#[test]
fn help_names_the_options_kiai_bench_passes_through() {
    let out = kiai_bench(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for option in ["--quick", "--json", "peer_ms / ours_ms"] {
        assert!(help.contains(option), "{help}");
    }
}

#[test]
fn an_unknown_option_is_a_usage_error_and_runs_nothing() {
    let out = kiai_bench(&["--fast"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unexpected argument '--fast'"), "{err}");
}
