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
    h.state_mut().state.save();
    h.step();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved);
}
