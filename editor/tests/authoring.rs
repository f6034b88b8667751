//! The editor driven through its real UI with egui_kittest (no display):
//! input events go in, the document and the screen come out.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::path::{Path, PathBuf};

use eframe::egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use kiai_content::def::ShapeDef;
use kiai_editor::Sel;

mod common;
use common::{click, drag, editor, editor_with, key, root, screen};

#[test]
fn place_connect_paint_undo_redo_save_and_reload() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("first.ron");
    let mut h = editor(&path);
    assert!(h.state().doc().def().waypoints.is_empty());

    // Three waypoints with the waypoint tool.
    key(&mut h, Key::W);
    let corners = [(-20.0, -10.0), (20.0, -10.0), (20.0, 20.0)];
    for (x, z) in corners {
        let p = screen(&h, x, z);
        click(&mut h, p);
    }
    let def = h.state().doc().def().clone();
    assert_eq!(def.waypoints.len(), 3, "three clicks, three waypoints");
    for (w, (x, z)) in def.waypoints.iter().zip(corners) {
        assert!(
            (w.pos.0 - x).abs() < 0.5 && (w.pos.2 - z).abs() < 0.5,
            "{w:?}"
        );
    }

    // Connect them in a chain with the link tool: 0-1, then 1-2.
    key(&mut h, Key::L);
    for (x, z) in corners {
        let p = screen(&h, x, z);
        click(&mut h, p);
    }
    let ids: Vec<u32> = def.waypoints.iter().map(|w| w.id).collect();
    let links: Vec<(u32, u32, bool)> = h
        .state()
        .doc()
        .def()
        .links
        .iter()
        .map(|l| (l.from, l.to, l.two_way))
        .collect();
    assert_eq!(links, vec![(ids[0], ids[1], true), (ids[1], ids[2], true)]);
    let linked = h.state().doc().def().clone();

    // Paint the first link's cost with the paint tool.
    key(&mut h, Key::C);
    let a = screen(&h, 0.0, -16.0);
    let b = screen(&h, 0.0, -4.0);
    drag(&mut h, a, b);
    let painted = h.state().doc().def().clone();
    let brush = kiai_editor::model::settings::DEFAULT_BRUSH;
    assert_eq!(painted.links[0].costs.get("default"), Some(&brush));
    assert_eq!(
        painted.links[1].costs.get("default"),
        None,
        "outside the brush"
    );

    // Undo twice (the paint, the second link), redo once (the link).
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.step();
    assert_eq!(h.state().doc().def().links.len(), 1);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.step();
    assert_eq!(
        h.state().doc().def(),
        &linked,
        "redo brings the link back, not the paint"
    );
    assert!(h.state().doc().is_dirty());

    // Save, then reload from disk in the runtime's loader and the editor.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.step();
    assert!(!h.state().doc().is_dirty(), "saved");
    let loaded = kiai_content::Content::load(&path).expect("the saved file validates");
    assert_eq!(loaded.def(), Some(h.state().doc().def()));
    let reopened = editor(&path);
    assert_eq!(reopened.state().doc().def(), &linked);
}

/// A copy of the village in `dir`, for tests that edit it: the editor may
/// autosave edits next to the file it opened.
fn village_copy(dir: &Path) -> PathBuf {
    let path = dir.join("village.ron");
    std::fs::copy(root().join("content/demo/village.ron"), &path).unwrap();
    path
}

#[test]
fn dragging_a_cone_handle_changes_the_archetype_range() {
    let dir = tempfile::tempdir().unwrap();
    let village = village_copy(dir.path());
    let mut h = editor(&village);
    let def = h.state().doc().def().clone();
    let raider = def
        .agents
        .iter()
        .position(|a| a.name == "raider_1")
        .unwrap();
    let a = &def.agents[raider];

    // Select the agent by clicking it.
    key(&mut h, Key::V);
    let p = screen(&h, a.pos.0, a.pos.2);
    click(&mut h, p);
    assert_eq!(h.state().selected_agent(), Some(raider));

    // Its archetype's cone: drag the range handle 10 units farther out.
    let archetype = def.archetypes.position("raider").unwrap();
    let before = match def.archetypes.0[archetype].1.senses[0].shape {
        ShapeDef::Cone { range, .. } => range,
        ref other => panic!("{other:?}"),
    };
    let handle = kiai_editor::canvas::handles(&def, raider)
        .into_iter()
        .find(|h| h.sense == Some(0) && h.kind == kiai_editor::canvas::HandleKind::Range)
        .unwrap();
    let f = {
        let (x, z) = (a.facing.0, a.facing.2);
        let n = (x * x + z * z).sqrt();
        (x / n, z / n)
    };
    let from = screen(&h, handle.at.0, handle.at.1);
    let to = screen(&h, handle.at.0 + f.0 * 10.0, handle.at.1 + f.1 * 10.0);
    drag(&mut h, from, to);
    let after = match h.state().doc().def().archetypes.0[archetype].1.senses[0].shape {
        ShapeDef::Cone { range, .. } => range,
        ref other => panic!("{other:?}"),
    };
    assert!(
        (after - (before + 10.0)).abs() < 0.5,
        "range {before} -> {after}, expected about {}",
        before + 10.0
    );
    // Every raider shares it; one undo step restores it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.step();
    assert_eq!(h.state().doc().def(), &def);
}

#[test]
fn a_file_with_errors_opens_with_its_diagnostics_and_they_select() {
    let bad = root().join("tests/malformed/19_three_mistakes.ron");
    let mut h = editor(&bad);
    // It parses, so it opens for fixing.
    assert_eq!(h.state().doc().def().agents.len(), 1);
    let errors: Vec<String> = common::findings(&h);
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors[0].ends_with("4:40: error: unknown faction `bleu`"),
        "{errors:?}"
    );
    // The validation panel shows them; clicking the facing error selects
    // the agent.
    let node = h.get_by_label_contains("facing must not be zero");
    node.click();
    h.step();
    h.step();
    assert!(h.state().model.selection.contains(&Sel::Agent(0)));
}

#[test]
fn renders_the_village_to_a_png() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor_with(&village, true);
    let def = h.state().doc().def().clone();
    let baker = def
        .agents
        .iter()
        .position(|a| a.name == "raider_1")
        .unwrap();
    let p = screen(&h, def.agents[baker].pos.0, def.agents[baker].pos.2);
    click(&mut h, p);
    // The vehicle list's heat map and its route across the village.
    let vehicle = def.cost_lists.iter().position(|n| n == "vehicle").unwrap();
    h.state_mut().model.tools.cost_list = vehicle;
    h.state_mut().model.tools.path_pick = (Some(0), Some(69));
    h.run_steps(2);
    let image = h.render().expect("renders on the CPU");
    assert_eq!(image.width(), 1400);
    // Kept in cargo's scratch directory for a look; the committed
    // screenshot changes only when asked.
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-village.png");
    image.save(&out).unwrap();
    if std::env::var_os("KIAI_UPDATE_SCREENSHOT").is_some() {
        image.save(root().join("docs/editor.png")).unwrap();
    }
    // The canvas is drawn: many distinct colours, and the cone's fill.
    let mut colours = std::collections::HashSet::new();
    for px in image.pixels() {
        colours.insert(px.0);
    }
    assert!(colours.len() > 200, "only {} colours", colours.len());
}

/// The README's "Your first map in 5 minutes", step by step through the UI.
#[test]
fn first_map_in_five_minutes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mymap.ron");
    let mut h = editor(&path);

    // 1. Six waypoints (W), select all (Ctrl+A), auto-connect (J).
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
    assert_eq!(h.state().doc().def().waypoints.len(), 6);
    assert_eq!(
        h.state().doc().def().links.len(),
        7,
        "neighbours 10 apart, not diagonals"
    );

    // 2. Two cost lists in the Cost lists tab: type a name, Add, type the
    //    next (the field is empty again), Add.
    h.get_by_label("Cost lists").click();
    h.run_steps(3);
    for name in ["infantry", "vehicle"] {
        let field = h.get_by_label("list");
        field.focus();
        field.type_text(name);
        h.step();
        h.get_by_label("Add").click();
        h.step();
        h.step();
    }
    assert_eq!(
        h.state().doc().def().cost_lists,
        vec!["infantry", "vehicle"]
    );

    // 3. Paint the vehicle list (the list just added is current) over the
    //    first row's left link, with the tool bar's default multiplier.
    //    The map's letter keys act with the pointer over the map.
    let over_map = screen(&h, 0.0, 5.0);
    h.hover_at(over_map);
    key(&mut h, Key::Escape);
    key(&mut h, Key::C);
    let a = screen(&h, -5.0, -3.0);
    let b = screen(&h, -5.0, 3.0);
    drag(&mut h, a, b);
    let painted: Vec<_> = h
        .state()
        .doc()
        .def()
        .links
        .iter()
        .filter(|l| l.costs.get("vehicle").is_some_and(|m| *m > 1.0))
        .cloned()
        .collect();
    assert_eq!(painted.len(), 1, "one link under the brush");

    // "Vehicles now avoid it": the path tool's A* route for the vehicle
    // list between the link's ends goes around it, as the Cost lists tab
    // says.
    key(&mut h, Key::H);
    for x in [-10.0, 0.0] {
        let p = screen(&h, x, 0.0);
        click(&mut h, p);
    }
    h.run_steps(2);
    let node = h.get_by_label_contains("A* (vehicle)");
    let text = node
        .accesskit_node()
        .label()
        .or_else(|| node.accesskit_node().value())
        .unwrap_or_default();
    assert!(text.ends_with("4 waypoints"), "{text}");
    key(&mut h, Key::Escape);

    // 4. Three agents (A): a `guard` archetype and a faction come with the
    //    first.
    key(&mut h, Key::A);
    for (x, z) in [(-5.0, 5.0), (5.0, 5.0), (0.0, 15.0)] {
        let p = screen(&h, x, z);
        click(&mut h, p);
    }
    let def = h.state().doc().def().clone();
    assert_eq!(def.agents.len(), 3);
    assert_eq!(def.archetypes.0[0].0, "guard");

    // 5. Tune the cone: select the first agent, drag its range handle.
    key(&mut h, Key::V);
    let p = screen(&h, -5.0, 5.0);
    click(&mut h, p);
    let handle = kiai_editor::canvas::handles(&def, 0)
        .into_iter()
        .find(|h| h.kind == kiai_editor::canvas::HandleKind::Range)
        .unwrap();
    let from = screen(&h, handle.at.0, handle.at.1);
    let to = screen(&h, handle.at.0 + 5.0, handle.at.1);
    drag(&mut h, from, to);
    let cone = h.state().doc().def().archetypes.0[0]
        .1
        .senses
        .iter()
        .find_map(|s| match s.shape {
            ShapeDef::Cone { range, .. } => Some(range),
            _ => None,
        })
        .unwrap();
    assert!((cone - 20.0).abs() < 0.5, "cone range {cone}");

    // 6. Save (Ctrl+S) and export (Ctrl+E) next to the file.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.step();
    let saved = kiai_content::Content::load(&path).expect("saved content validates");
    assert_eq!(saved.def(), Some(h.state().doc().def()));
    // What the designer reads in the file: waypoints snapped onto an axis
    // say `0.0`, not `-0.0`.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("(id: 1, pos: (0.0, 0.0, "), "{text}");
    assert!(!text.contains("-0.0,"), "{text}");

    // 7. The pack runs: what `kiai run mymap.kiaipack` does.
    let pack = kiai_content::Pack::load(&path.with_extension("kiaipack")).unwrap();
    let mut world = pack.world(None).unwrap();
    let mut pipeline = kiai_core::Pipeline::new();
    let mut decider = kiai_core::DefaultDecider::default();
    for _ in 0..100 {
        pipeline.tick(&mut world, &mut decider);
    }
    assert_eq!(world.tick(), 100);
    assert_eq!(world.agents().len(), 3);
}

#[test]
fn unsaved_changes_are_autosaved_and_offered_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.ron");
    std::fs::copy(root().join("content/demo/village.ron"), &path).unwrap();
    let mut h = editor(&path);
    // Place a waypoint, then autosave.
    key(&mut h, Key::W);
    let p = screen(&h, 47.0, 52.0);
    click(&mut h, p);
    let edited = h.state().doc().def().clone();
    assert!(h.state().doc().is_dirty());
    h.state_mut().model.autosave_now();
    let recovery = kiai_editor::app::recovery_path(Some(&path));
    assert!(recovery.exists());
    // The file itself is untouched; the next start offers the recovery.
    drop(h);
    let mut h = editor(&path);
    assert_ne!(h.state().doc().def(), &edited);
    assert!(matches!(
        h.state().dialog().cloned(),
        Some(kiai_editor::app::Dialog::Recover(_))
    ));
    h.get_by_label("Recover").click();
    h.run_steps(3);
    assert_eq!(h.state().doc().def(), &edited);
    assert!(h.state().doc().is_dirty(), "recovered, not saved yet");
}

/// Bad input never panics: every file of the malformed corpus opens (or
/// is refused with its diagnostics) and the editor keeps drawing, with the
/// first agent selected so its senses and sight are drawn too, and Play
/// pressed.
#[test]
fn every_malformed_file_opens_without_a_panic() {
    let dir = root().join("tests/malformed");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 40);
    for file in files {
        let mut h = editor(&file);
        if !h.state().doc().def().agents.is_empty() {
            h.state_mut().model.selection.add([Sel::Agent(0)]);
        }
        h.run_steps(3);
        // Playing builds the runtime world from it: refused with a
        // message, or run, never a crash.
        h.key_press(Key::Space);
        h.run_steps(3);
        assert!(
            !h.state().model.validation.findings.1.is_empty(),
            "{}: no diagnostics shown",
            file.display()
        );
    }
}

/// A monkey: random tools, clicks, drags, deletes, undos and redos on the
/// village. Nothing panics, and undoing every step restores the file's
/// content exactly.
#[test]
fn random_editing_never_panics_and_undo_all_restores_the_file() {
    use rand::{RngExt, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    let village = village_copy(dir.path());
    let mut h = editor(&village);
    let original = h.state().doc().def().clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let keys = [
        Key::V,
        Key::W,
        Key::L,
        Key::C,
        Key::X,
        Key::R,
        Key::A,
        Key::H,
        Key::T,
        Key::J,
        Key::Delete,
        Key::Escape,
        Key::G,
    ];
    let point = |rng: &mut rand_chacha::ChaCha8Rng| {
        (
            rng.random_range(-10.0f32..100.0),
            rng.random_range(-10.0f32..70.0),
        )
    };
    for step in 0..250 {
        match rng.random_range(0..10) {
            0..=2 => {
                let k = keys[rng.random_range(0..keys.len())];
                key(&mut h, k);
            }
            3..=5 => {
                let (x, z) = point(&mut rng);
                let p = screen(&h, x, z);
                click(&mut h, p);
            }
            6..=7 => {
                let (a, b) = (point(&mut rng), point(&mut rng));
                let (pa, pb) = (screen(&h, a.0, a.1), screen(&h, b.0, b.1));
                drag(&mut h, pa, pb);
            }
            8 => {
                h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
                h.step();
            }
            _ => {
                h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
                h.step();
            }
        }
        if step % 50 == 0 {
            h.key_press(Key::Escape);
            h.step();
        }
    }
    assert!(
        h.state().doc().undo_len() > 0,
        "the monkey edited something"
    );
    while h.state().doc().undo_len() > 0 {
        h.state_mut().model.apply(kiai_editor::model::Command::Edit(
            kiai_editor::model::EditCommand::Undo,
        ));
    }
    assert_eq!(h.state().doc().def(), &original);
}

/// Without a system file dialog (no xdg-desktop-portal), Save as and
/// Export as ask through the editor's own prompt, which suggests a path
/// beside the document, and Escape cancels it.
#[test]
fn the_editors_own_prompt_saves_as_and_exports_without_a_system_dialog() {
    use kiai_editor::app::{Dialog, PathFor};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.ron");
    std::fs::copy(root().join("content/demo/village.ron"), &path).unwrap();
    let mut h = editor(&path);
    h.state_mut().system_dialogs = false;

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run_steps(2);
    let suggested = dir.path().join("level.ron").display().to_string();
    assert_eq!(
        h.state().dialog().cloned(),
        Some(Dialog::Path(PathFor::SaveAs, suggested))
    );
    let copy = dir.path().join("copy.ron");
    h.state_mut()
        .set_dialog(Dialog::Path(PathFor::SaveAs, copy.display().to_string()));
    h.run_steps(2);
    h.get_by_label("OK").click();
    h.run_steps(2);
    assert_eq!(h.state().dialog().cloned(), None);
    assert_eq!(h.state().doc().path(), Some(copy.as_path()));
    let saved = kiai_content::Content::load(&copy).expect("the saved file validates");
    assert_eq!(saved.def(), Some(h.state().doc().def()));

    // Export as asks too, suggesting the document's name.
    h.state_mut().export_as();
    h.run_steps(2);
    assert!(matches!(
        h.state().dialog().cloned(),
        Some(Dialog::Path(PathFor::ExportAs, ref p)) if p.ends_with("copy.kiaipack")
    ));
    h.get_by_label("OK").click();
    h.run_steps(2);
    let pack = std::fs::read(dir.path().join("copy.kiaipack")).unwrap();
    assert!(kiai_content::Pack::decode(&pack).is_ok(), "a valid pack");

    // Escape closes the prompt and does nothing.
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    assert!(matches!(
        h.state().dialog().cloned(),
        Some(Dialog::Path(PathFor::Open, _))
    ));
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert_eq!(h.state().dialog().cloned(), None);
    assert_eq!(h.state().doc().path(), Some(copy.as_path()));

    // Opening through the prompt keeps using it for the next file.
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    h.state_mut()
        .set_dialog(Dialog::Path(PathFor::Open, path.display().to_string()));
    h.run_steps(2);
    h.get_by_label("OK").click();
    h.run_steps(2);
    assert_eq!(h.state().doc().path(), Some(path.as_path()));
    assert!(!h.state().system_dialogs);
}
