//! Killing `kiai migrate` at random points never leaves an unreadable file:
//! after every kill the file is byte for byte either the old (format 1) or
//! the new (format 2) version, and a backup, when present, is the old one.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A format-1 grid map of `side` x `side` waypoints with positional costs.
fn v1_grid(side: u32) -> String {
    let mut s = String::from(
        "// A generated grid for the kill test.\n(\n    format: 1,\n    cost_lists: [\"infantry\", \"vehicle\"],\n    waypoints: [\n",
    );
    for z in 0..side {
        for x in 0..side {
            s.push_str(&format!(
                "        (id: {}, pos: ({}.0, 0.0, {}.0)),\n",
                z * side + x,
                x * 10,
                z * 10
            ));
        }
    }
    s.push_str("    ],\n    links: [\n");
    for z in 0..side {
        for x in 0..side {
            let id = z * side + x;
            if x + 1 < side {
                s.push_str(&format!(
                    "        (from: {id}, to: {}, costs: [1.0, {}.5], two_way: true),\n",
                    id + 1,
                    id % 7
                ));
            }
            if z + 1 < side {
                s.push_str(&format!(
                    "        (from: {id}, to: {}, costs: [1.0, 2.0], two_way: true),\n",
                    id + side
                ));
            }
        }
    }
    s.push_str("    ],\n)\n");
    s
}

fn migrate(file: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kiai"));
    c.arg("migrate").arg(file);
    c.stdout(std::process::Stdio::null());
    c.stderr(std::process::Stdio::null());
    c
}

#[test]
fn killing_migrate_never_leaves_a_broken_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let old = v1_grid(20);
    // The new version, from an uninterrupted run.
    let reference = dir.path().join("reference.ron");
    std::fs::write(&reference, &old).unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let status = migrate(&reference)
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    let full = start.elapsed();
    assert!(status.success());
    let new = std::fs::read_to_string(&reference).unwrap_or_default();
    assert!(new.contains("format: 2,") && new != old);

    let file = dir.path().join("level.ron");
    let bak = dir.path().join("level.ron.bak");
    std::fs::write(&file, &old).unwrap_or_else(|e| panic!("{e}"));
    // Delays spread over the whole run, a little past its end.
    let span = full.as_micros().max(1000) as u64 * 5 / 4;
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let (mut kills, mut interrupted, mut completed) = (0, 0, 0);
    while kills < 200 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut child = migrate(&file).spawn().unwrap_or_else(|e| panic!("{e}"));
        std::thread::sleep(Duration::from_micros(state % span));
        let still_running = matches!(child.try_wait(), Ok(None));
        let _ = child.kill();
        let _ = child.wait();
        kills += 1;
        let now = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("kill {kills}: {e}"));
        if now == new {
            completed += 1;
            // Start over from the old version for the next kill.
            std::fs::write(&file, &old).unwrap_or_else(|e| panic!("{e}"));
        } else {
            assert_eq!(
                now, old,
                "kill {kills}: neither the old nor the new version"
            );
            if still_running {
                interrupted += 1;
            }
        }
        if bak.exists() {
            let b = std::fs::read_to_string(&bak).unwrap_or_default();
            assert_eq!(b, old, "kill {kills}: the backup is not the old version");
        }
    }
    eprintln!(
        "{kills} kills over {span} us (full run {full:?}): {interrupted} interrupted, {completed} completed"
    );
    assert!(
        interrupted >= 20,
        "too few kills landed mid-run: {interrupted}"
    );
    assert!(completed >= 1, "no run completed: {completed}");
}
