//! `kiai run --record` and `kiai fork`: a recording replays exactly; a fork
//! with no change never parts from it; a longer cone parts at or after the
//! fork with the percepts it adds; changes a running world cannot take are
//! refused and say what can be changed.

mod common;

use common::{json, kiai};
use kiai_content::recording::Recording;
use serde_json::Value;

/// Records `args` (a `kiai run` command line without `--record`) into a
/// temporary directory; returns it and the recording's path.
fn record(args: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let rec = dir.path().join("run.kiairec").display().to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--record", &rec, "--json"]);
    let out = kiai(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, rec)
}

#[test]
fn a_recording_holds_the_run_and_a_fork_without_changes_never_diverges() {
    let (_dir, rec) = record(&["run", "content/demo/arena.ron", "--ticks", "60"]);
    let run = json(&["run", "content/demo/arena.ron", "--ticks", "60", "--json"]);
    let r = Recording::load(rec.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((r.format, r.seed, r.ticks()), (2, 7, 60));
    assert_eq!(
        Some(format!("{:016x}", r.hashes[59]).as_str()),
        run["state_hash"].as_str()
    );
    let v = json(&["fork", &rec, "--at", "30", "--json"]);
    assert_eq!(v["at"], 30);
    assert_eq!(v["ticks"], 60);
    assert_eq!(v["first_divergent_tick"], Value::Null);
    assert_eq!(v["hashes"]["base"], v["hashes"]["fork"]);
    assert_eq!(v["hashes"]["base"], run["state_hash"]);
    assert_eq!(v["differences"], serde_json::json!([]));
    assert_eq!(v["replay_mismatch"], Value::Null);
    let human = common::stdout(&["fork", &rec, "--at", "30"]);
    let lines: Vec<&str> = human.lines().collect();
    assert_eq!(lines.len(), 2, "{human}");
    assert!(lines[0].ends_with(": fork at tick 30 (no change), both branches to tick 60"));
    assert_eq!(
        lines[1],
        format!(
            "no divergence: identical state hashes to tick 60 ({})",
            run["state_hash"].as_str().unwrap_or_default()
        )
    );
}

#[test]
fn a_longer_cone_diverges_after_the_fork_and_reports_who_sees_whom() {
    let (_dir, rec) = record(&["run", "content/demo/arena.ron", "--ticks", "60"]);
    let v = json(&[
        "fork",
        &rec,
        "--at",
        "30",
        "--set",
        "archetypes.guard.senses.eyes.shape.range=45",
        "--json",
    ]);
    let first = v["first_divergent_tick"].as_u64().unwrap_or(0);
    assert!(first > 30, "{v}");
    assert_ne!(v["hashes"]["base"], v["hashes"]["fork"]);
    assert_eq!(v["changed"], serde_json::json!(["archetype guard"]));
    let diffs = v["differences"].as_array().cloned().unwrap_or_default();
    let fork_only: Vec<&Value> = diffs
        .iter()
        .filter(|d| d["kind"] == "sees" && d["branch"] == "fork")
        .collect();
    assert!(!fork_only.is_empty(), "{v}");
    // The new percepts come first from guards' eyes, at the divergent tick.
    assert!(fork_only.iter().any(|d| d["sense"] == "eyes"
        && d["tick"] == first
        && d["agent"].as_str().is_some_and(|a| a.contains("_guard_"))));
    assert!(
        diffs
            .iter()
            .any(|d| d["kind"] == "state" && d["tick"].as_u64() >= Some(first))
    );
}

#[test]
fn scripted_runs_and_runs_with_events_replay_exactly() {
    let (_dir, rec) = record(&["run", "content/demo/guards.ron", "--ticks", "40"]);
    let v = json(&["fork", &rec, "--at", "10", "--json"]);
    assert_eq!(v["first_divergent_tick"], Value::Null, "{v}");
    assert_eq!(v["replay_mismatch"], Value::Null, "{v}");
    let (_dir, rec) = record(&[
        "run",
        "content/demo/arena.ron",
        "--ticks",
        "40",
        "--events",
        "content/events/arena.events.ron",
    ]);
    let r = Recording::load(rec.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.events.len(), 4);
    let v = json(&["fork", &rec, "--at", "5", "--json"]);
    assert_eq!(v["first_divergent_tick"], Value::Null, "{v}");
    assert_eq!(v["replay_mismatch"], Value::Null, "{v}");
    // Moving an agent at the fork parts the branches at once.
    let v = json(&[
        "fork",
        &rec,
        "--at",
        "5",
        "--set",
        "agents.blue_scout_16.pos=(0.0, 0.0, 0.0)",
        "--json",
    ]);
    assert_eq!(v["first_divergent_tick"], 6, "{v}");
    assert_eq!(
        v["changed"],
        serde_json::json!(["agent blue_scout_16: pos"])
    );
}

#[test]
fn changes_a_running_world_cannot_take_are_refused_with_the_reason() {
    let (_dir, rec) = record(&["run", "content/demo/arena.ron", "--ticks", "20"]);
    let refused = |set: &str| -> String {
        let out = kiai(&["fork", &rec, "--at", "10", "--set", set, "--json"]);
        assert_eq!(out.status.code(), Some(1), "{set}");
        assert!(out.stdout.is_empty(), "no JSON on failure");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = refused("seed=3");
    assert!(
        e.contains("`seed` cannot change in a running world; a fork changes archetypes"),
        "{e}"
    );
    // How the waypoints were generated is the map's, as the waypoints are.
    let e = refused("navgen=(radius: 0.5, spacing: 6.0)");
    assert!(
        e.contains("`navgen` cannot change in a running world"),
        "{e}"
    );
    let e = refused("archetypes.guard.senses.eyes.shape.range=-5");
    assert!(
        e.contains("would make the content invalid") && e.contains("range must be greater than 0"),
        "{e}"
    );
    let e = refused("archetypes.guard.senses.eyes.shape.rnage=5");
    assert!(e.contains("did you mean `range`?"), "{e}");
    let e = refused("archetypes.guard.movement=Static");
    assert!(e.contains("movement cannot change kind"), "{e}");
    let out = kiai(&["fork", &rec, "--at", "20"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to compare"));
    let out = kiai(&["fork", "content/demo/arena.ron", "--at", "1"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a kiai recording"));
}
