//! Lua scripts through the `kiai` binary: they change outcomes, `validate`
//! compiles them, and `run --watch` reloads an edited script within a second.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kiai(args: &[&str]) -> (bool, String, String) {
    kiai_in(&root(), args)
}

/// `kiai args` run in `dir`: success, stdout, stderr.
fn kiai_in(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kiai"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run_json(file: &str, ticks: u32) -> Value {
    let (ok, out, err) = kiai(&["run", file, "--ticks", &ticks.to_string(), "--json"]);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn count(v: &Value, state: &str) -> u64 {
    v["states"][state].as_u64().unwrap_or(0)
}

#[test]
fn example_scripts_change_outcomes() {
    let with = run_json("content/demo/guards.ron", 60);
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("content/demo/guards.ron")).unwrap();
    let stripped: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("script:"))
        .collect::<Vec<_>>()
        .join("\n");
    let plain = dir.path().join("plain.ron");
    std::fs::write(&plain, stripped).unwrap();
    let without = run_json(plain.to_str().unwrap(), 60);
    assert_ne!(with["state_hash"], without["state_hash"]);
    // patrol.lua: both patrols walk their loop; captain.lua commands;
    // guard.lua: guards go to look at the quiet pebble at tick 10.
    assert_eq!(count(&with, "patrol"), 2, "{with}");
    assert_eq!(count(&with, "command"), 1, "{with}");
    assert!(count(&with, "investigate") >= 1, "{with}");
    for s in ["patrol", "command", "investigate"] {
        assert_eq!(count(&without, s), 0, "{without}");
    }
    // Same seed, same result.
    assert_eq!(
        run_json("content/demo/guards.ron", 60)["state_hash"],
        with["state_hash"]
    );
}

#[test]
fn validate_reports_script_syntax_errors_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.lua"),
        "function decide(agent)\n  return (\nend\n",
    )
    .unwrap();
    let level = dir.path().join("level.ron");
    std::fs::write(
        &level,
        r#"(format: 2, factions: [(name: "red")], archetypes: { "guard": (script: "bad.lua"), "other": (script: "missing.lua") }, agents: [])"#,
    )
    .unwrap();
    let (ok, out, _) = kiai(&["validate", level.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("missing.lua` not found"), "{out}");
    std::fs::write(dir.path().join("missing.lua"), "return {}").unwrap();
    let (ok, out, _) = kiai(&["validate", level.to_str().unwrap()]);
    assert!(!ok);
    let line = out
        .lines()
        .find(|l| l.contains("bad.lua"))
        .unwrap_or_default();
    assert!(
        line.contains("bad.lua:3:1: error: unexpected symbol near 'end'"),
        "{out}"
    );
    let (ok, _, err) = kiai(&["validate", "content/demo/guards.ron"]);
    assert!(ok, "{err}");
}

#[test]
fn a_script_outside_the_content_folder_is_named_without_the_climb() {
    let dir = tempfile::tempdir().unwrap();
    let (content, scripts) = (dir.path().join("content/demo"), dir.path().join("scripts"));
    std::fs::create_dir_all(&content).unwrap();
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::write(
        scripts.join("bad.lua"),
        "function decide(agent)\n  retur\nend\n",
    )
    .unwrap();
    std::fs::write(
        content.join("level.ron"),
        r#"(format: 2, factions: [(name: "red")], archetypes: { "guard": (script: "../../scripts/bad.lua") }, agents: [])"#,
    )
    .unwrap();
    let (_, stdout, _) = kiai_in(dir.path(), &["validate", "content/demo/level.ron"]);
    let errors: Vec<&str> = stdout.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(errors.len(), 1, "{stdout}");
    assert!(
        errors[0].starts_with("scripts/bad.lua:3:1: error: "),
        "{stdout}"
    );
}

#[test]
fn run_watch_reloads_an_edited_script_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("s.lua");
    let version = |v: &str| {
        format!(
            "function decide(agent)\n  if not agent.memory['{v}'] then agent.memory['{v}'] = true print('version {v}') end\nend\n"
        )
    };
    std::fs::write(&script, version("one")).unwrap();
    let level = dir.path().join("level.ron");
    std::fs::write(
        &level,
        r#"(format: 2, factions: [(name: "red")], archetypes: { "guard": (script: "s.lua") },
            agents: [(name: "g", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0))])"#,
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiai"))
        .args([
            "run",
            level.to_str().unwrap(),
            "--ticks",
            "4000000000",
            "--watch",
            "--json",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    let wait_for = |needle: &str, limit: Duration| -> Option<Instant> {
        let end = Instant::now() + limit;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok((at, line)) if line.contains(needle) => return Some(at),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    };
    let first = wait_for("version one", Duration::from_secs(30));
    // Let the watcher settle before editing.
    std::thread::sleep(Duration::from_millis(300));
    let edited = Instant::now();
    std::fs::write(&script, version("two")).unwrap();
    let second = wait_for("version two", Duration::from_secs(5));
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.is_some(), "the first version never ran");
    let second = second.expect("the edited script never ran");
    let took = second.duration_since(edited);
    assert!(took < Duration::from_secs(1), "took {took:?}");
}
