//! What a designer meets in the first minutes: the file prompt, the
//! inspector, text fields, the cost-list panel. Each test replays what a
//! tester did with a real mouse and keyboard.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::path::Path;

use eframe::egui::{self, Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use kiai_editor::app::{Dialog, PathFor};

mod common;
use common::{click, contrast, editor, key, pixel, render, root, screen};

fn copy_demo(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::copy(root().join("content/demo").join(name), &path).unwrap();
    path
}

fn prompt_text(h: &egui_kittest::Harness<'_, kiai_editor::EditorApp>) -> Option<String> {
    match &h.state().dialog() {
        Some(Dialog::Path(PathFor::Open, text)) => Some(text.clone()),
        _ => None,
    }
}

/// Problem 1: the prompt was pre-filled with the folder and typing
/// appended to it; a missing file opened an empty map titled like it.
#[test]
fn the_open_prompt_replaces_its_text_completes_paths_and_refuses_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let village = copy_demo(dir.path(), "village.ron");
    let guards = copy_demo(dir.path(), "guards.ron");
    let mut h = editor(&village);
    h.state_mut().system_dialogs = false;

    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    let folder = prompt_text(&h).expect("the editor's own prompt asks");
    assert!(
        folder.starts_with(&dir.path().display().to_string()),
        "{folder}"
    );

    // Typing replaces the suggestion.
    let full = guards.display().to_string();
    let partial = &full[..full.len() - "rds.ron".len()];
    h.event(egui::Event::Text(partial.to_owned()));
    h.run_steps(2);
    assert_eq!(prompt_text(&h).as_deref(), Some(partial), "typed text");

    // Tab completes the only file that matches.
    h.key_press(Key::Tab);
    h.run_steps(2);
    assert_eq!(prompt_text(&h).as_deref(), Some(full.as_str()), "completed");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().doc().path(), Some(guards.as_path()));
    assert!(
        !h.state().doc().def().agents.is_empty(),
        "the guards opened"
    );

    // A file that does not exist is refused, with what to do instead.
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    let missing = dir.path().join("gaurds.ron").display().to_string();
    h.event(egui::Event::Text(missing.clone()));
    h.run_steps(2);
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(
        h.state().doc().path(),
        Some(guards.as_path()),
        "still the guards"
    );
    assert!(!h.state().doc().def().agents.is_empty());
    let message = h.get_by_label_contains("does not exist");
    let text = message
        .accesskit_node()
        .label()
        .or_else(|| message.accesskit_node().value())
        .unwrap_or_default();
    assert!(
        text.contains("gaurds.ron") && text.contains("New"),
        "{text}"
    );
    assert!(!dir.path().join("gaurds.ron").exists());
}

/// Problem 5: selecting on the map left another tab in front of the
/// inspector.
#[test]
fn selecting_an_object_brings_the_inspector_forward() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    h.get_by_label("Why").click();
    h.run_steps(3);
    let baker = h
        .state()
        .doc()
        .def()
        .agents
        .iter()
        .find(|a| a.name == "baker")
        .unwrap()
        .pos;
    key(&mut h, Key::V);
    let p = screen(&h, baker.0, baker.2);
    click(&mut h, p);
    h.run_steps(2);
    assert!(
        h.query_by_label("Agent baker").is_some(),
        "the inspector shows the agent"
    );

    // The same from another tab, for a waypoint.
    h.get_by_label("Cost lists").click();
    h.run_steps(3);
    let p = screen(&h, 50.0, 40.0);
    click(&mut h, p);
    h.run_steps(2);
    assert!(h.query_by_label("Waypoint 45").is_some());
}

/// Problem 5: text fields looked like labels until clicked. A field's
/// edge must stand out from the panel around it (WCAG 1.4.11: 3:1).
#[test]
fn text_fields_have_a_visible_edge() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    let field = h
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "name")
        .rect();
    let image = render(&mut h);
    let panel = pixel(&image, egui::pos2(field.min.x - 4.0, field.center().y));
    let edge = [0.0, 1.0]
        .into_iter()
        .flat_map(|d| {
            [
                egui::pos2(field.min.x + d, field.center().y),
                egui::pos2(field.center().x, field.min.y + d),
                egui::pos2(field.center().x, field.max.y - 1.0 - d),
            ]
        })
        .map(|p| contrast(pixel(&image, p), panel))
        .fold(1.0f32, f32::max);
    assert!(edge >= 3.0, "field edge contrast {edge:.2}:1");
}

/// Problem 5: after Add the name stayed in the field (the README's next
/// step then typed "infantryvehicle"), and Enter did not add.
#[test]
fn the_cost_list_field_clears_after_add_and_enter_adds() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor(&dir.path().join("new.ron"));
    h.get_by_label("Cost lists").click();
    h.run_steps(3);
    let field = h.get_by_label("list");
    field.focus();
    field.type_text("infantry");
    h.run_steps(2);
    h.get_by_label("Add").click();
    h.run_steps(3);
    assert_eq!(h.state().doc().def().cost_lists, vec!["infantry"]);
    let value = h.get_by_label("list").value().unwrap_or_default();
    assert_eq!(value, "", "the field is empty for the next name");

    let field = h.get_by_label("list");
    field.focus();
    field.type_text("vehicle");
    h.run_steps(2);
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(
        h.state().doc().def().cost_lists,
        vec!["infantry", "vehicle"],
        "Enter adds"
    );
}

/// Problem 6: the README's step 4 said "Vehicles now avoid it", but the
/// default multiplier on a 10-unit link made it cost exactly as much as
/// the 3-link way around, and the route did not change.
#[test]
fn a_link_painted_with_the_default_multiplier_is_avoided() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor(&dir.path().join("grid.ron"));
    // Two rows of three waypoints, 10 apart, linked to their neighbours.
    key(&mut h, Key::W);
    for z in [0.0, 10.0] {
        for x in [-10.0, 0.0, 10.0] {
            let p = screen(&h, x, z);
            click(&mut h, p);
        }
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.step();
    key(&mut h, Key::J);
    assert_eq!(h.state().doc().def().links.len(), 7);
    // Paint the link between (-10, 0) and (0, 0) with the default brush.
    h.remove_cursor();
    key(&mut h, Key::Escape);
    key(&mut h, Key::C);
    let (a, b) = (screen(&h, -5.0, -3.0), screen(&h, -5.0, 3.0));
    common::drag(&mut h, a, b);
    // The path tool between its ends: A* goes around (4 waypoints).
    key(&mut h, Key::H);
    for x in [-10.0, 0.0] {
        let p = screen(&h, x, 0.0);
        click(&mut h, p);
    }
    h.get_by_label("Cost lists").click();
    h.run_steps(3);
    let node = h.get_by_label_contains("A* (default)");
    let text = node
        .accesskit_node()
        .label()
        .or_else(|| node.accesskit_node().value())
        .unwrap_or_default();
    assert!(text.ends_with("4 waypoints"), "{text}");
}

/// Item 8: the wheel zooms around the cursor (as Tiled, LDtk and Godot
/// do): the world point under the pointer stays under it, and the map gets
/// bigger.
#[test]
fn the_wheel_zooms_around_the_cursor() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    let at = screen(&h, 20.0, 30.0);
    let before = (screen(&h, 0.0, 0.0), screen(&h, 10.0, 0.0));
    h.hover_at(at);
    h.step();
    for _ in 0..3 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, 1.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    h.run_steps(3);
    let after = (screen(&h, 0.0, 0.0), screen(&h, 10.0, 0.0));
    let scale = |(a, b): (egui::Pos2, egui::Pos2)| (b.x - a.x) / 10.0;
    assert!(
        scale(after) > scale(before) * 1.1,
        "zoomed in: {} -> {} points per unit",
        scale(before),
        scale(after)
    );
    let still = screen(&h, 20.0, 30.0);
    assert!(
        still.distance(at) < 2.0,
        "the point under the cursor moved from {at:?} to {still:?}"
    );
}

/// Item 8: right-clicking a link offers what can be done with it, and the
/// menu's choice is an undoable edit. (Its hover tooltip — length and cost
/// per list — was checked under Xvfb: the harness does not hold a pointer
/// still long enough for a tooltip.)
#[test]
fn a_link_has_a_right_click_menu() {
    let dir = tempfile::tempdir().unwrap();
    let village = copy_demo(dir.path(), "village.ron");
    let mut h = editor(&village);
    let def = h.state().doc().def().clone();
    let (i, link) = def
        .links
        .iter()
        .enumerate()
        .find(|(_, l)| l.two_way && !l.costs.0.is_empty())
        .expect("a painted two-way link");
    let end = |id: u32| def.waypoints.iter().find(|w| w.id == id).unwrap().pos;
    let (a, b) = (end(link.from), end(link.to));
    let mid = screen(&h, (a.0 + b.0) / 2.0, (a.2 + b.2) / 2.0);

    h.hover_at(mid);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: mid,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    h.run_steps(2);
    h.get_by_label("Make one-way").click();
    h.run_steps(2);
    assert!(!h.state().doc().def().links[i].two_way, "now one-way");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(h.state().doc().def().links[i].two_way, "undone");
}

/// Validation said "0 errors" for a map whose archetype names a script
/// file that is not there (Play then ran that archetype without it).
#[test]
fn a_missing_script_file_is_a_validation_error_at_its_archetype() {
    let dir = tempfile::tempdir().unwrap();
    let guards = common::copy_guards(dir.path());
    std::fs::remove_file(dir.path().join("scripts/coward.lua")).unwrap();
    let mut h = editor(&guards);
    h.run_steps(10);
    let findings: Vec<String> = common::findings(&h);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0].ends_with("coward.lua` not found"),
        "{findings:?}"
    );
    // The validation panel lists it; clicking it selects the archetype.
    h.get_by_label_contains("coward.lua` not found").click();
    h.run_steps(2);
    let intruder = common::archetype(&h, "intruder");
    assert!(
        h.state()
            .model
            .selection
            .contains(&kiai_editor::Sel::Archetype(intruder))
    );
}
