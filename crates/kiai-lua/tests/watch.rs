//! Reloading script files: only effective changes reload, a broken file is
//! reported once, and the watcher does not feed on its own reads.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;
use std::time::{Duration, Instant};

use kiai_core::{AgentId, ArchetypeId, Pipeline};
use kiai_lua::{LuaDecider, Reload, ScriptWatcher};

mod common;

const ONE: &str = "function decide() return 'one' end\n";
const TWO: &str = "function decide() return 'two' end\n";
const BROKEN: &str = "function decide()\n  return (\nend\n";

/// A decider running the file `s.lua` (written with `source`) for the
/// guards of the common scene.
fn decider(dir: &Path, source: &str) -> (LuaDecider, std::path::PathBuf) {
    let path = dir.join("s.lua");
    std::fs::write(&path, source).unwrap();
    let mut d = LuaDecider::new(common::limits());
    let (id, result) = d.load_file(&path);
    result.unwrap();
    d.assign(ArchetypeId(0), id);
    (d, path)
}

fn label_after_a_tick(d: &mut LuaDecider) -> Option<String> {
    let mut world = common::world();
    Pipeline::new().tick(&mut world, d);
    d.label(AgentId::from_index(0)).map(str::to_owned)
}

#[test]
fn only_changed_bytes_reload_and_a_broken_file_fails_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, path) = decider(dir.path(), ONE);
    // Unchanged: nothing to do, however often asked.
    assert_eq!(d.reload_file_if_changed(&path), None);
    std::fs::write(&path, ONE).unwrap();
    assert_eq!(d.reload_file_if_changed(&path), None);
    // Changed: reloaded once.
    std::fs::write(&path, TWO).unwrap();
    assert_eq!(d.reload_file_if_changed(&path), Some(Ok(())));
    assert_eq!(d.reload_file_if_changed(&path), None);
    assert_eq!(label_after_a_tick(&mut d).as_deref(), Some("two"));
    // Broken: the error once, not also in the reports; the last good
    // version keeps running.
    std::fs::write(&path, BROKEN).unwrap();
    let err = d.reload_file_if_changed(&path).unwrap().unwrap_err();
    assert!(
        err.to_string()
            .ends_with("s.lua:3: unexpected symbol near 'end'"),
        "{err}"
    );
    assert_eq!(d.take_reports(), Vec::new());
    assert_eq!(d.reload_file_if_changed(&path), None);
    std::fs::write(&path, BROKEN).unwrap();
    assert_eq!(d.reload_file_if_changed(&path), None);
    assert_eq!(label_after_a_tick(&mut d).as_deref(), Some("two"));
    // Restored to the first version: reloaded.
    std::fs::write(&path, ONE).unwrap();
    assert_eq!(d.reload_file_if_changed(&path), Some(Ok(())));
    assert_eq!(label_after_a_tick(&mut d).as_deref(), Some("one"));
    // A file that is gone: said once.
    std::fs::remove_file(&path).unwrap();
    let err = d.reload_file_if_changed(&path).unwrap().unwrap_err();
    assert!(err.message.starts_with("cannot read: "), "{err}");
    assert_eq!(d.reload_file_if_changed(&path), None);
}

#[test]
fn reload_errors_are_returned_not_also_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, path) = decider(dir.path(), ONE);
    std::fs::write(&path, BROKEN).unwrap();
    assert!(d.reload_file(&path).is_err());
    let id = d.script_of(ArchetypeId(0)).unwrap();
    assert!(d.reload(id, BROKEN).is_err());
    assert_eq!(d.take_reports(), Vec::new());
}

/// What `w` reloads into `d` over `window`, polled as a tick loop does.
fn poll_for(w: &mut ScriptWatcher, d: &mut LuaDecider, tick: u64, window: Duration) -> Vec<Reload> {
    let end = Instant::now() + window;
    let mut out = Vec::new();
    while Instant::now() < end {
        out.extend(w.poll(d, tick));
        std::thread::sleep(Duration::from_millis(5));
    }
    out
}

#[test]
fn the_watcher_reloads_once_per_edit_and_ignores_reads() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, path) = decider(dir.path(), ONE);
    let other = dir.path().join("other.lua");
    std::fs::write(&other, ONE).unwrap();
    let mut w = ScriptWatcher::new([path.as_path(), other.as_path()]).unwrap();
    let window = Duration::from_millis(1500);

    std::fs::write(&path, TWO).unwrap();
    let seen = poll_for(&mut w, &mut d, 7, window);
    assert_eq!(
        seen,
        [Reload {
            path: path.clone(),
            tick: 7,
            result: Ok(())
        }]
    );
    // Reading the scripts (as a reload does) is not an edit.
    for _ in 0..3 {
        std::fs::read(&path).unwrap();
        std::fs::read(&other).unwrap();
    }
    assert_eq!(poll_for(&mut w, &mut d, 8, window), []);
    // A file no script uses: nothing.
    std::fs::write(&other, TWO).unwrap();
    assert_eq!(poll_for(&mut w, &mut d, 9, window), []);

    std::fs::write(&path, BROKEN).unwrap();
    let seen = poll_for(&mut w, &mut d, 10, window);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].tick, 10);
    assert!(seen[0].result.is_err(), "{seen:?}");
    std::fs::write(&path, BROKEN).unwrap();
    assert_eq!(poll_for(&mut w, &mut d, 11, window), []);
}
