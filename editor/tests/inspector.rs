//! The inspector edits the fields the content gained: a wall's name, door
//! and open flags, an archetype's body. Edited through the UI and saved,
//! the file changes on those lines only and loads back with the new values.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

mod common;

use common::{editor, root};
use eframe::egui::accesskit::Role;
use eframe::egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use kiai_content::def::BodyDef;
use kiai_editor::Sel;
use kiai_editor::model::{Command, SelectCommand};

/// Lines of `after` that differ from `before` (same line count).
fn changed_lines(before: &str, after: &str) -> Vec<String> {
    assert_eq!(before.lines().count(), after.lines().count());
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .map(|(_, b)| b.trim().to_owned())
        .collect()
}

#[test]
fn a_wall_becomes_a_named_open_door_through_the_inspector() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fortress.ron");
    let original = std::fs::read_to_string(root().join("content/demo/fortress.ron")).unwrap();
    std::fs::write(&path, &original).unwrap();
    let mut h = editor(&path);
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![Sel::Wall(0)])));
    h.run_steps(3);

    // "starts open" waits for "door".
    let open = h.get_by_role_and_label(Role::CheckBox, "starts open");
    assert!(open.accesskit_node().is_disabled(), "only doors start open");
    let name = h.get_by_role_and_label(Role::TextInput, "name");
    name.focus();
    name.type_text("west_gate");
    h.run_steps(2);
    h.get_by_role_and_label(Role::CheckBox, "door").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::CheckBox, "starts open")
        .click();
    h.run_steps(2);

    let wall = &h.state().doc().def().walls[0];
    assert_eq!(wall.name.as_deref(), Some("west_gate"));
    assert!(wall.door && wall.open);

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let saved = std::fs::read_to_string(&path).unwrap();
    let changed = changed_lines(&original, &saved);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(
        changed[0].contains("name: \"west_gate\"")
            && changed[0].contains("door: true")
            && changed[0].contains("open: true"),
        "{}",
        changed[0]
    );
    assert!(changed[0].ends_with("// south wall, west of the gate"));
    let loaded = kiai_content::Content::load(&path).unwrap().into_def();
    assert_eq!(loaded.walls[0], h.state().doc().def().walls[0]);
}

#[test]
fn an_archetype_body_is_chosen_in_the_inspector() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fortress.ron");
    let original = std::fs::read_to_string(root().join("content/demo/fortress.ron")).unwrap();
    std::fs::write(&path, &original).unwrap();
    let mut h = editor(&path);
    let guard = h.state().doc().def().archetypes.position("guard").unwrap();
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![Sel::Archetype(
            guard,
        )])));
    h.run_steps(3);
    assert_eq!(
        h.state().doc().def().archetypes.0[guard].1.body,
        BodyDef::Simulated
    );
    h.get_by_label("Driven").click();
    h.run_steps(2);
    assert_eq!(
        h.state().doc().def().archetypes.0[guard].1.body,
        BodyDef::Driven
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("body: Driven"), "the body is written");
    let loaded = kiai_content::Content::load(&path).unwrap().into_def();
    assert_eq!(loaded.archetypes.0[guard].1.body, BodyDef::Driven);
    // Undo puts it back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state().doc().def().archetypes.0[guard].1.body,
        BodyDef::Simulated
    );
}
