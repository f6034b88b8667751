//! Saving from the editor keeps the designer's file: comments, layout and
//! everything that did not change stay byte for byte.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use eframe::egui::{Key, Modifiers};

mod common;
use common::{drag, editor, key, root, screen};

#[test]
fn dragging_one_agent_and_saving_changes_only_its_pos_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("guards.ron");
    let original = std::fs::read_to_string(root().join("content/demo/guards.ron")).unwrap();
    std::fs::write(&path, &original).unwrap();
    let mut h = editor(&path);
    let def = h.state().doc().def().clone();
    let i = def.agents.iter().position(|a| a.name == "guard_1").unwrap();
    let before = def.agents[i].pos;

    // Drag guard_1 with the select tool.
    key(&mut h, Key::V);
    let from = screen(&h, before.0, before.2);
    let to = screen(&h, before.0 + 6.0, before.2 - 4.0);
    drag(&mut h, from, to);
    let moved = h.state().doc().def().agents[i].pos;
    assert!(
        (moved.0 - before.0 - 6.0).abs() < 1.0 && (moved.2 - before.2 + 4.0).abs() < 1.0,
        "{before:?} -> {moved:?}"
    );
    let mut expected_def = def.clone();
    expected_def.agents[i].pos = moved;
    assert_eq!(
        h.state().doc().def(),
        &expected_def,
        "only its position moved"
    );

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.step();
    assert!(!h.state().doc().is_dirty(), "saved");

    // The saved bytes are the original's with guard_1's `pos` text replaced:
    // every comment, the layout and every other line are untouched.
    let saved = std::fs::read_to_string(&path).unwrap();
    let old_pos = "pos: (-25.0, 0.0, 10.0)";
    assert_eq!(original.matches(old_pos).count(), 1);
    let new_pos = format!("pos: ({:?}, {:?}, {:?})", moved.0, moved.1, moved.2);
    assert_eq!(saved, original.replacen(old_pos, &new_pos, 1));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("guards.ron.bak")).unwrap(),
        original
    );

    // Saving again without a change writes the same bytes.
    h.state_mut().save();
    h.step();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved);
}

/// The lines of `before` and `after` that differ (same line count).
fn changed(before: &str, after: &str) -> Vec<(String, String)> {
    let (a, b): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    assert_eq!(a.len(), b.len(), "{after}");
    a.iter()
        .zip(&b)
        .filter(|(x, y)| x != y)
        .map(|(x, y)| ((*x).to_owned(), (*y).to_owned()))
        .collect()
}

#[test]
fn document_edits_of_every_demo_save_as_small_text_changes() {
    use kiai_editor::{EditorApp, Item, Options};
    let dir = tempfile::tempdir().unwrap();
    let demos = std::fs::read_dir(root().join("content/demo")).unwrap();
    for demo in demos.flatten().map(|e| e.path()) {
        let name = demo.display().to_string();
        let original = std::fs::read_to_string(&demo).unwrap();
        let path = dir.path().join(demo.file_name().unwrap());
        std::fs::write(&path, &original).unwrap();
        let mut app = EditorApp::new(
            Options {
                file: Some(path.clone()),
                ..Default::default()
            },
            None,
        );
        let doc = &mut app.model.doc;

        // One value through an Edit: only its line changes.
        let old = doc.def().agents[0].clone();
        let mut new = old.clone();
        new.pos.0 += 2.5;
        doc.apply(kiai_editor::Edit::Set {
            index: 0,
            old: Item::Agent(old),
            new: Item::Agent(new),
        })
        .unwrap();
        assert!(app.save(), "{name}");
        let once = std::fs::read_to_string(&path).unwrap();
        assert_eq!(changed(&original, &once).len(), 1, "{name}");

        // An added agent and a removed waypoint (or the agent added only):
        // every comment line of the file survives.
        let doc = &mut app.model.doc;
        let mut added = doc.def().agents[0].clone();
        added.name = "added_in_the_editor".to_owned();
        let index = doc.def().agents.len();
        doc.apply(kiai_editor::Edit::Insert {
            index,
            item: Item::Agent(added),
        })
        .unwrap();
        if !doc.def().waypoints.is_empty() {
            let edit = doc.remove_waypoints_edit(&[0]);
            doc.apply(edit).unwrap();
        }
        assert!(app.save(), "{name}");
        let twice = std::fs::read_to_string(&path).unwrap();
        let comments = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| l.contains("//"))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(comments(&twice), comments(&original), "{name}");
        let reloaded = kiai_content::parse(&twice, &name).unwrap();
        assert_eq!(&reloaded, app.model.doc.def(), "{name}");
        let agent_line = twice
            .lines()
            .find(|l| l.contains("added_in_the_editor"))
            .unwrap();
        assert!(
            agent_line
                .trim_start()
                .starts_with("(name: \"added_in_the_editor\"")
        );
    }
}

/// Problem 7: autosave ran only while the mouse or keyboard was used: an
/// edited map left idle had no recovery file. Here the editor is driven
/// as eframe drives it: a frame runs only when the editor asked for one.
#[test]
fn autosave_runs_on_a_timer_while_nobody_touches_the_editor() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("village.ron");
    std::fs::copy(root().join("content/demo/village.ron"), &path).unwrap();
    let mut h = editor(&path);
    h.state_mut().model.autosave_every = Duration::from_millis(1500);
    key(&mut h, Key::W);
    let p = screen(&h, 47.0, 52.0);
    common::click(&mut h, p);
    assert!(h.state().doc().is_dirty());
    h.remove_cursor();
    h.step();
    let recovery = kiai_editor::app::recovery_path(Some(&path));
    let deadline = Instant::now() + Duration::from_secs(6);
    let mut frames = 0;
    while Instant::now() < deadline && !recovery.exists() {
        let delay = h
            .output()
            .viewport_output
            .get(&eframe::egui::ViewportId::ROOT)
            .map_or(Duration::MAX, |v| v.repaint_delay);
        let left = deadline.saturating_duration_since(Instant::now());
        if delay >= left {
            // Nothing asked for a frame before the deadline: eframe sleeps.
            std::thread::sleep(left);
            break;
        }
        std::thread::sleep(delay.max(Duration::from_millis(5)));
        h.step();
        frames += 1;
    }
    assert!(
        recovery.exists(),
        "no recovery file after 6 s idle ({frames} frames ran)"
    );
    let text = std::fs::read_to_string(&recovery).unwrap();
    let saved = kiai_content::parse(&text, "recovery").unwrap();
    assert_eq!(&saved, h.state().doc().def(), "the recovery holds the edit");
}
