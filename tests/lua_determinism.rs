//! Scripts are exactly as deterministic as the engine: a script that takes
//! its decisions from the first key `pairs` and `next` meet in tables keyed
//! by strings, numbers, tables, functions and coroutines
//! (`tests/data/iteration_order.lua`) gives the same state hash in separate
//! `kiai run` processes and at any thread count.

mod common;

use common::kiai;

const CONTENT: &str = "tests/data/iteration_order.ron";

/// `kiai run CONTENT --ticks 300 --json EXTRA...`: the state hash and the
/// agents per state; the run must print no script error.
fn run(extra: &[&str]) -> (String, serde_json::Value) {
    let mut args = vec!["run", CONTENT, "--ticks", "300", "--json"];
    args.extend_from_slice(extra);
    let out = kiai(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "script errors: {stderr}");
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"));
    let hash = v["state_hash"].as_str().unwrap_or_default().to_owned();
    assert_eq!(hash.len(), 16, "{v}");
    (hash, v["states"].clone())
}

#[test]
fn iteration_order_is_the_same_in_every_process_and_at_any_thread_count() {
    let (first, states) = run(&[]);
    // The script decided: its custom state shows, and not everyone is in
    // the same state.
    let in_state = |s: &str| states[s].as_u64().unwrap_or(0);
    assert!(in_state("investigate") > 0, "{states}");
    assert!(in_state("investigate") < 11, "{states}");
    let mut hashes = vec![first.clone()];
    for _ in 0..4 {
        hashes.push(run(&[]).0);
    }
    hashes.push(run(&["--threads", "1"]).0);
    hashes.push(run(&["--threads", "2"]).0);
    assert!(hashes.iter().all(|h| *h == first), "{hashes:?}");
    // Another seed is another run: the hash does depend on the simulation.
    assert_ne!(run(&["--seed", "4"]).0, first);
}
