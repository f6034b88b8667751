//! Playing the simulation in the editor, driven through its UI with
//! egui_kittest, checked against `kiai run`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui::{self, Key};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kiai_editor::EditorApp;

mod common;
use common::{click, copy_guards, editor, play_until, root};

/// The target directory cargo builds this test in (`CARGO_TARGET_TMPDIR` is
/// its `tmp/`), wherever `CARGO_TARGET_DIR`, `--target-dir` or a config
/// put it.
fn target_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).to_path_buf()
}

/// `kiai run` (the CLI, built by cargo into this test's target directory)
/// with `args`; returns stdout.
fn kiai(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .current_dir(root())
        .args(["run", "-q", "-p", "kiai-cli", "--target-dir"])
        .arg(target_dir())
        .arg("--")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "kiai {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn text_of(n: &egui_kittest::kittest::AccessKitNode<'_>) -> Option<String> {
    n.label().or_else(|| n.value())
}

/// The text of the widget whose label or value starts with `prefix`.
fn label_starting(h: &mut Harness<'_, EditorApp>, prefix: &str) -> String {
    let hit = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        text_of(n).is_some_and(|l| l.starts_with(prefix))
    };
    if h.query_all_by(hit).next().is_none() {
        // Show what was on screen when the text was missing.
        if let Ok(image) = h.render() {
            let _ = image
                .save(Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-live-missing-label.png"));
        }
    }
    let node = h.query_all_by(hit).next().expect("the text is on screen");
    text_of(&node.accesskit_node()).unwrap_or_default()
}

#[test]
fn play_pause_inspect_matches_the_trace_and_scrubbing_replays_exactly() {
    let arena = root().join("content/demo/arena.ron");
    let dir = tempfile::tempdir().unwrap();
    let trace_path = dir.path().join("trace.jsonl");
    kiai(&[
        "run",
        "content/demo/arena.ron",
        "--ticks",
        "100",
        "--trace",
        trace_path.to_str().unwrap(),
    ]);
    let at50: serde_json::Value = serde_json::from_str(&kiai(&[
        "run",
        "content/demo/arena.ron",
        "--ticks",
        "50",
        "--json",
    ]))
    .unwrap();

    let mut h = editor(&arena);
    // Play (Space) until at least 100 ticks ran, then pause.
    play_until(&mut h, 100);
    assert!(!h.state().model.sim.as_ref().unwrap().playing, "paused");
    // Playing overshoots by a frame's ticks: scrub to exactly 100.
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "tick")
        .set_value_accesskit(100.0);
    h.run_steps(2);
    assert_eq!(h.state().model.sim.as_ref().unwrap().tick(), 100);

    // Pick an agent that is chasing in the trace's last tick.
    let trace: Vec<serde_json::Value> = std::fs::read_to_string(&trace_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let line = trace
        .iter()
        .filter(|t| t["tick"] == 99)
        .find(|t| t["state"] == "chase")
        .or_else(|| trace.iter().rfind(|t| t["tick"] == 99))
        .unwrap()
        .clone();
    let name = line["agent"].as_str().unwrap().to_owned();
    let sim = h.state().model.sim.as_ref().unwrap();
    let index = sim.world().agents().find(&name).unwrap().index();
    let p = sim.world().agents().positions()[index];
    let pos = h.state().world_to_screen(p.x, p.z);
    h.key_press(Key::V);
    h.step();
    click(&mut h, pos);
    assert_eq!(h.state().selected_agent(), Some(index), "clicked {name}");

    // The Why tab shows the decision of the 100th tick (the trace's tick
    // 99: traces count from 0), in the transport bar's numbering.
    h.get_by_label("Why").click();
    h.run_steps(3);
    let shown = label_starting(&mut h, "tick 100:");
    let expected = format!(
        "tick 100: {} {}",
        line["state"].as_str().unwrap().replace('_', " "),
        line["target"].as_str().unwrap_or("(no target)")
    );
    assert_eq!(shown, expected);
    let decided = label_starting(&mut h, "decided by:");
    assert_eq!(
        decided,
        format!(
            "decided by: {}",
            kiai_editor::views::why::decided_by_words(line["decided_by"].as_str().unwrap())
        )
    );

    // Scrub back 50 ticks: the state hash is a fresh run's to tick 50.
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "tick")
        .set_value_accesskit(50.0);
    h.run_steps(2);
    let status = label_starting(&mut h, "tick 50 | state ");
    assert_eq!(
        status,
        format!("tick 50 | state {}", at50["state_hash"].as_str().unwrap())
    );
}

/// Script errors the console has shown so far.
fn errors(sim: &kiai_editor::model::sim::Sim) -> usize {
    sim.console
        .lines()
        .iter()
        .filter(|l| l.kind == kiai_editor::model::sim::LineKind::Error)
        .count()
}

fn wait_for(h: &mut Harness<'_, EditorApp>, what: &str, f: impl Fn(&EditorApp) -> bool) {
    let start = Instant::now();
    while !f(h.state()) {
        h.step();
        std::thread::sleep(Duration::from_millis(20));
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}"
        );
    }
}

#[test]
fn a_broken_script_saved_during_play_is_reported_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let script = dir.path().join("scripts/guard.lua");
    let good = std::fs::read_to_string(&script).unwrap();
    let mut h = editor(&guards);
    h.get_by_label("Console").click();
    h.run_steps(3);
    h.key_press(Key::Space);
    wait_for(&mut h, "ticks", |a| {
        a.model.sim.as_ref().is_some_and(|s| s.tick() > 5)
    });

    // Save a script with a syntax error while playing.
    std::fs::write(&script, "function decide(agent, ctx)\n  return (\nend\n").unwrap();
    wait_for(&mut h, "the error in the console", |a| {
        a.model.sim.as_ref().is_some_and(|s| {
            s.console.lines().iter().any(|l| {
                l.kind == kiai_editor::model::sim::LineKind::Error && l.text.contains("guard.lua")
            })
        })
    });
    // The console shows it with file:line; the run keeps ticking.
    h.run_steps(2);
    let shown = label_starting(&mut h, "[");
    assert!(shown.contains("guard.lua:"), "{shown}");
    let before = h.state().model.sim.as_ref().unwrap().tick();
    wait_for(&mut h, "more ticks", |a| {
        a.model.sim.as_ref().is_some_and(|s| s.tick() > before + 5)
    });

    // Fix it: the script reloads and decides again.
    std::fs::write(&script, &good).unwrap();
    wait_for(&mut h, "the reload", |a| {
        a.model.sim.as_ref().is_some_and(|s| {
            s.console.lines().iter().any(|l| {
                l.kind == kiai_editor::model::sim::LineKind::Info && l.text.starts_with("reloaded")
            })
        })
    });
    let errors_before = errors(h.state().model.sim.as_ref().unwrap());
    let before = h.state().model.sim.as_ref().unwrap().tick();
    wait_for(&mut h, "ticks after the fix", |a| {
        a.model.sim.as_ref().is_some_and(|s| s.tick() > before + 10)
    });
    let sim = h.state().model.sim.as_ref().unwrap();
    let errors_after = errors(sim);
    assert_eq!(errors_before, errors_after, "no new errors once fixed");
    assert!(sim.playing, "still playing");

    // Pause, select a scripted guard and ask the REPL about it.
    h.key_press(Key::Space);
    h.step();
    let sim = h.state().model.sim.as_ref().unwrap();
    let guard = (0..sim.world().agents().len())
        .find(|&i| {
            sim.run()
                .script_of(i)
                .is_some_and(|p| p.ends_with("guard.lua"))
        })
        .unwrap();
    let name = sim.world().agents().names()[guard].clone();
    let p = sim.world().agents().positions()[guard];
    let pos = h.state().world_to_screen(p.x, p.z);
    h.key_press(Key::V);
    h.step();
    click(&mut h, pos);
    assert_eq!(h.state().selected_agent(), Some(guard));
    let field = h.get_by_label("lua>");
    field.focus();
    field.type_text("agent.name");
    h.step();
    h.key_press(Key::Enter);
    h.run_steps(2);
    let last = h
        .state()
        .model
        .sim
        .as_ref()
        .unwrap()
        .console
        .lines()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last.text, format!("> agent.name\n{name}"));
}

#[test]
fn seeking_back_from_snapshots_matches_the_recorded_hashes() {
    let arena = root().join("content/demo/arena.ron");
    let def = kiai_content::Content::load(&arena).unwrap().into_def();
    let mut sim = kiai_editor::model::sim::Sim::new(&def, &root(), def.seed).unwrap();
    sim.seek(120).unwrap();
    let hashes = sim.timeline().hashes().to_vec();
    assert!(
        sim.timeline().snapshot_ticks().contains(&25),
        "{:?}",
        sim.timeline().snapshot_ticks()
    );
    for t in [119u64, 75, 50, 26, 25, 1, 99, 0, 120] {
        sim.seek(t).unwrap();
        assert_eq!(sim.tick(), t);
        if t > 0 {
            assert_eq!(
                kiai_core::state_hash(sim.world()),
                hashes[t as usize - 1],
                "tick {t}"
            );
        }
    }
    assert_eq!(sim.timeline().mismatch(), None);
}

#[test]
fn a_pack_plays_with_its_bundled_scripts_like_its_content_file() {
    use kiai_editor::model::sim::Sim;
    let ron = kiai_content::Content::load(&root().join("content/demo/guards.ron")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pack_path = dir.path().join("guards.kiaipack");
    let bytes = ron.to_pack().unwrap().encode().unwrap();
    std::fs::write(&pack_path, bytes).unwrap();
    let pack = kiai_content::Content::load(&pack_path).unwrap();
    // The scripts' files are not next to the pack: only its bundled text
    // can run them.
    assert!(pack.scripts().iter().all(|s| !s.path.exists()));

    let seed = ron.seed();
    let mut document = Sim::new(&ron.to_def(), &root().join("content/demo"), seed).unwrap();
    let mut from_pack = Sim::from_content(&pack, seed).unwrap();
    document.seek(100).unwrap();
    from_pack.seek(100).unwrap();
    assert!(from_pack.run().has_scripts());
    assert_eq!(errors(&from_pack), 0, "{:?}", from_pack.console.lines());
    assert_eq!(
        kiai_core::state_hash(from_pack.world()),
        kiai_core::state_hash(document.world())
    );
    assert_eq!(from_pack.timeline().hashes(), document.timeline().hashes());
    let patrols = |s: &Sim| {
        (0..s.world().agents().len())
            .filter(|&i| s.run().script_label(i) == Some("patrol"))
            .count()
    };
    assert!(patrols(&from_pack) > 0);
    assert_eq!(patrols(&from_pack), patrols(&document));
}

/// The console's reload and error lines (not script prints) that appear
/// while playing for 2.5 s.
fn console_window(h: &mut Harness<'_, EditorApp>) -> Vec<kiai_editor::model::sim::ConsoleLine> {
    let from = h.state().model.sim.as_ref().unwrap().console.lines().len();
    let end = Instant::now() + Duration::from_millis(2500);
    while Instant::now() < end {
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    let sim = h.state().model.sim.as_ref().unwrap();
    assert!(sim.playing, "still playing");
    sim.console.lines()[from..]
        .iter()
        .filter(|l| l.kind != kiai_editor::model::sim::LineKind::Log)
        .cloned()
        .collect()
}

#[test]
fn each_script_edit_shows_once_in_the_console() {
    use kiai_editor::model::sim::LineKind;
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let guard = dir.path().join("scripts/guard.lua");
    let good = std::fs::read_to_string(&guard).unwrap();
    let mut h = editor(&guards);
    h.get_by_label("Console").click();
    h.run_steps(3);
    h.key_press(Key::Space);
    wait_for(&mut h, "ticks", |a| {
        a.model.sim.as_ref().is_some_and(|s| s.tick() > 5)
    });
    assert_eq!(
        console_window(&mut h),
        Vec::new(),
        "nothing happens unedited"
    );

    // One appended line: one reload, of that script only.
    std::fs::write(&guard, format!("{good}-- a comment\n")).unwrap();
    let lines = console_window(&mut h);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert_eq!(lines[0].kind, LineKind::Info, "{lines:#?}");
    assert!(
        lines[0].text.starts_with("reloaded ") && lines[0].text.contains("guard.lua"),
        "{lines:#?}"
    );
    let reloaded_at = lines[0].tick;

    // A syntax error: one line, at the tick it was found.
    let broken = "function decide(agent, ctx)\n  return (\nend\n";
    std::fs::write(&guard, broken).unwrap();
    let lines = console_window(&mut h);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert_eq!(lines[0].kind, LineKind::Error, "{lines:#?}");
    assert!(
        lines[0]
            .text
            .ends_with("guard.lua:3: unexpected symbol near 'end'"),
        "{lines:#?}"
    );
    assert!(lines[0].tick > reloaded_at, "{lines:#?}");
    h.run_steps(2);
    let shown = label_starting(&mut h, &format!("[{}] ", lines[0].tick));
    assert!(shown.ends_with("unexpected symbol near 'end'"), "{shown}");
    // Saved again unchanged: not reported again.
    std::fs::write(&guard, broken).unwrap();
    assert_eq!(console_window(&mut h), Vec::new());

    // Restored: one reload, no more errors.
    std::fs::write(&guard, &good).unwrap();
    let lines = console_window(&mut h);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].kind == LineKind::Info && lines[0].text.contains("guard.lua"),
        "{lines:#?}"
    );
    assert_eq!(console_window(&mut h), Vec::new());

    // Another script: only that one reloads.
    let captain = dir.path().join("scripts/captain.lua");
    let text = std::fs::read_to_string(&captain).unwrap();
    std::fs::write(&captain, format!("{text}\n-- edited\n")).unwrap();
    let lines = console_window(&mut h);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].text.contains("captain.lua"), "{lines:#?}");
}

/// A document opened by a relative name (`guards.ron`, directory "") names
/// a script it cannot find by its full path, without `..`, in the console.
#[test]
fn a_missing_script_is_named_by_its_full_path() {
    use kiai_editor::model::sim::{LineKind, Sim};
    let def = kiai_content::Content::load(&root().join("content/demo/guards.ron"))
        .unwrap()
        .into_def();
    // Run from the editor's crate folder, `../../scripts` is outside the
    // repository: the scripts are missing.
    let sim = Sim::new(&def, Path::new(""), def.seed).unwrap();
    let errors: Vec<&str> = sim
        .console
        .lines()
        .iter()
        .filter(|l| l.kind == LineKind::Error)
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(errors.len(), 4, "{errors:?}");
    let here = std::env::current_dir().unwrap();
    let outside = here.parent().unwrap().parent().unwrap().join("scripts");
    for e in errors {
        assert!(e.starts_with(&outside.display().to_string()), "{e}");
        assert!(!e.contains(".."), "{e}");
        assert!(e.contains(": cannot read"), "{e}");
    }
}
