//! Edit → Generate waypoints as a designer uses it on the village: the
//! bar with its parameters and the preview drawn over the map before
//! anything changes, Generate as one undo step, generated waypoints drawn
//! apart from the designer's own, and the saved file byte for byte what
//! `kiai navgen --write` writes (at the spacing the file records, too).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use eframe::egui::{self, Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kiai_editor::EditorApp;
use kiai_editor::model::{Command, Sel, SelectCommand};
use kiai_editor::theme::Palette;

mod common;
use common::{Shot, colour_distance, editor, kiai_cli, pixel, render, root, screen};

fn rgb(c: egui::Color32) -> [u8; 3] {
    [c.r(), c.g(), c.b()]
}

/// The village copied into a temporary directory (so saving writes there).
fn village(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let file = dir.join(name);
    std::fs::copy(root().join("content/demo/village.ron"), &file).unwrap();
    file
}

/// Opens Edit → Generate waypoints… as a user does.
fn open_panel(h: &mut Harness<'_, EditorApp>) {
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label("Generate waypoints…").click();
    h.run_steps(3);
}

/// How many of `points` (screen) show `colour` at their centre.
fn showing(image: &Shot, points: &[Pos2], colour: egui::Color32) -> usize {
    points
        .iter()
        .filter(|&&p| colour_distance(pixel(image, p), rgb(colour)) < 40.0)
        .count()
}

#[test]
fn the_preview_is_drawn_before_generate_and_generate_is_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let file = village(dir.path(), "village.ron");
    let original = std::fs::read_to_string(&file).unwrap();
    let mut h = editor(&file);
    let before = h.state().doc().def().clone();
    open_panel(&mut h);
    assert!(h.query_by_label("Generate waypoints").is_some(), "the bar");
    let preview = h.state().model.navgen.preview().cloned();
    let Some(Ok(preview)) = preview else {
        panic!("no preview: {preview:?}");
    };
    let label = format!(
        "preview: {} waypoints ({} by hand), {} links, coverage 100.0% within 4 u, generated in",
        preview.net.points.len(),
        preview.hand,
        preview.net.links.len()
    );
    assert!(
        h.query_by_label_contains(&label).is_some(),
        "the bar says what it will make: {label}"
    );
    assert_eq!(
        h.state().doc().def(),
        &before,
        "the preview changes nothing"
    );

    // The preview's rings are drawn where its generated waypoints are.
    let palette = Palette::dark();
    let image = render(&mut h);
    let rings: Vec<Pos2> = preview.net.points[preview.net.fixed..]
        .iter()
        .map(|p| screen(&h, p.x, p.y))
        .filter(|p| p.x > 350.0 && p.x < 1050.0 && p.y > 150.0 && p.y < 800.0)
        .collect();
    assert!(
        rings.len() >= 50,
        "{} preview waypoints on the map",
        rings.len()
    );
    // A ring of radius 3.5 points: look on it, right of the centre.
    let on_ring: Vec<Pos2> = rings.iter().map(|p| *p + egui::vec2(3.5, 0.0)).collect();
    let drawn = showing(&image, &on_ring, palette.navgen_preview);
    assert!(
        drawn * 10 >= rings.len() * 6,
        "{drawn} of {} preview rings drawn",
        rings.len()
    );

    h.get_by_label("Generate").click();
    h.run_steps(3);
    assert!(!h.state().model.navgen.open, "Generate closes the bar");
    let after = h.state().doc().def().clone();
    assert_eq!(after.waypoints.len(), preview.net.points.len());
    assert!(
        after
            .waypoints
            .iter()
            .skip(preview.hand)
            .all(|w| w.tags.iter().any(|t| t == "generated"))
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc().def(), &before, "one Ctrl+Z undoes it all");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc().def(), &after, "and redo brings it back");

    // Saved, the file is what `kiai navgen --write` makes of the village.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let saved = std::fs::read_to_string(&file).unwrap();
    let cli = village(dir.path(), "by_cli.ron");
    let out = kiai_cli(&["navgen", cli.to_str().unwrap(), "--write"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(saved, std::fs::read_to_string(&cli).unwrap());
    for comment in original
        .lines()
        .filter(|l| l.trim_start().starts_with("//"))
    {
        assert!(saved.contains(comment), "lost {comment:?}");
    }
}

#[test]
fn generated_waypoints_are_drawn_apart_from_the_designers_own() {
    let dir = tempfile::tempdir().unwrap();
    let file = village(dir.path(), "village.ron");
    let mut h = editor(&file);
    open_panel(&mut h);
    h.get_by_label("Generate").click();
    h.run_steps(3);
    let palette = Palette::dark();
    let image = render(&mut h);
    let def = h.state().doc().def().clone();
    let inside = |p: &Pos2| p.x > 350.0 && p.x < 1050.0 && p.y > 150.0 && p.y < 800.0;
    let (mut hand, mut generated) = (Vec::new(), Vec::new());
    for w in def.waypoints.iter().filter(|w| w.active) {
        let at = screen(&h, w.pos.0, w.pos.2);
        if !inside(&at) {
            continue;
        }
        if w.tags.iter().any(|t| t == "generated") {
            generated.push(at);
        } else {
            hand.push(at);
        }
    }
    assert!(hand.len() >= 20 && generated.len() >= 50);
    let g = showing(&image, &generated, palette.waypoint_generated);
    let hd = showing(&image, &hand, palette.waypoint);
    assert!(
        g * 10 >= generated.len() * 7,
        "{g} of {} generated",
        generated.len()
    );
    assert!(hd * 10 >= hand.len() * 7, "{hd} of {} by hand", hand.len());
    // And not the other way round.
    assert!(showing(&image, &generated, palette.waypoint) * 10 < generated.len());
}

#[test]
fn a_map_without_bounds_gets_a_message_and_no_generate() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("open.ron");
    std::fs::write(
        &file,
        "(format: 2, name: \"open\", walls: [(from: (0.0, 0.0), to: (5.0, 0.0), height: 3.0)])\n",
    )
    .unwrap();
    let mut h = editor(&file);
    open_panel(&mut h);
    assert!(
        h.query_by_label_contains("add `bounds").is_some(),
        "the bar says what to add"
    );
    h.get_by_label("Generate").click();
    h.run_steps(2);
    assert!(h.state().doc().def().waypoints.is_empty());
}

/// The waypoints of `def` as (x, z) bit patterns, to compare sets.
fn places(def: &kiai_content::def::ContentDef) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = def
        .waypoints
        .iter()
        .map(|w| (w.pos.0.to_bits(), w.pos.2.to_bits()))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn the_generated_net_follows_a_dragged_wall_near_it_only() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fortress.ron");
    std::fs::copy(
        root().join("content/examples/fortress_generated.ron"),
        &file,
    )
    .unwrap();
    let mut h = editor(&file);
    let before = h.state().doc().def().clone();
    // The vault's wall, (10, 0) to (10, 30): its north end dragged to (18, 24).
    let k = before
        .walls
        .iter()
        .position(|w| w.from == (10.0, 0.0) && w.to == (10.0, 30.0))
        .expect("the vault's wall");
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![Sel::Wall(k)])));
    h.run_steps(2);
    let (from, to) = (screen(&h, 10.0, 30.0), screen(&h, 18.0, 24.0));
    h.hover_at(from);
    h.step();
    common::press(&mut h, from, true, Modifiers::NONE);
    h.step();
    for s in 1..=8 {
        h.hover_at(from + (to - from) * (s as f32 / 8.0));
        h.step();
    }
    let during = h.state().doc().def().clone();
    assert_ne!(
        places(&during),
        places(&before),
        "the net follows while dragging"
    );
    common::press(&mut h, to, false, Modifiers::NONE);
    h.run_steps(2);
    let after = h.state().doc().def().clone();
    let wall = &after.walls[k];
    assert!(wall.to.0 > 15.0, "the wall moved: {wall:?}");
    // Every waypoint that appeared or went lies near the wall's old or new place.
    let reach = 4.0 * 2.5 + 4.0 + 0.5 + 1.0;
    let (lo, hi) = (
        (10.0 - reach, -reach),
        (wall.to.0.max(10.0) + reach, 30.0 + reach),
    );
    let old = places(&before);
    let new = places(&after);
    let changed: Vec<&(u32, u32)> = old
        .iter()
        .filter(|p| new.binary_search(p).is_err())
        .chain(new.iter().filter(|p| old.binary_search(p).is_err()))
        .collect();
    assert!(!changed.is_empty(), "some waypoints changed");
    for &&(x, z) in &changed {
        let (x, z) = (f32::from_bits(x), f32::from_bits(z));
        assert!(
            x >= lo.0 && x <= hi.0 && z >= lo.1 && z <= hi.1,
            "({x}, {z}) changed, far from the wall"
        );
    }
    assert!(
        changed.len() * 4 < old.len(),
        "{} of {} changed",
        changed.len(),
        old.len()
    );
    // One step: the wall and the net come back together.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc().def(), &before);
}

#[test]
fn the_validation_panel_warns_about_ground_the_net_leaves_uncovered() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("village.ron");
    std::fs::copy(root().join("content/examples/village_generated.ron"), &file).unwrap();
    let mut h = editor(&file);
    h.get_by_label("Validation").click();
    h.run_steps(3);
    // The generated waypoints of the north-east corner selected and deleted.
    let corner: Vec<Sel> = h
        .state()
        .doc()
        .def()
        .waypoints
        .iter()
        .enumerate()
        .filter(|(_, w)| {
            w.tags.iter().any(|t| t == "generated") && w.pos.0 > 80.0 && w.pos.2 > 50.0
        })
        .map(|(i, _)| Sel::Waypoint(i))
        .collect();
    assert!(corner.len() >= 5);
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(corner)));
    h.state_mut()
        .model
        .apply(Command::Edit(kiai_editor::model::EditCommand::Delete));
    let start = std::time::Instant::now();
    while h
        .query_by_label_contains("no waypoint within 4 units covers the walkable ground at (")
        .is_none()
    {
        assert!(
            start.elapsed().as_secs() < 10,
            "no coverage warning in the panel"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
}

#[test]
fn a_map_generated_at_another_spacing_opens_generates_and_saves_at_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = village(dir.path(), "village.ron");
    let made = kiai_cli(&[
        "navgen",
        file.to_str().unwrap(),
        "--spacing",
        "12",
        "--write",
    ]);
    assert!(made.status.success());
    let mut h = editor(&file);
    open_panel(&mut h);
    assert_eq!(
        h.state().model.navgen.spacing,
        12.0,
        "the bar opens at the file's spacing"
    );
    assert!(
        h.query_by_label_contains("coverage 100.0% within 12 u")
            .is_some(),
        "and previews at it"
    );
    // At 6 units, generated and saved: the file records 6, byte for byte
    // what `kiai navgen --spacing 6 --write` makes of the same file.
    let cli = dir.path().join("by_cli.ron");
    std::fs::copy(&file, &cli).unwrap();
    h.state_mut()
        .model
        .apply(Command::NavGen(kiai_editor::model::NavGenCommand::Params {
            radius: 0.5,
            spacing: 6.0,
        }));
    h.run_steps(3);
    h.get_by_label("Generate").click();
    h.run_steps(3);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("    navgen: (radius: 0.5, spacing: 6.0),\n"));
    let out = kiai_cli(&["navgen", cli.to_str().unwrap(), "--spacing", "6", "--write"]);
    assert!(out.status.success());
    assert_eq!(saved, std::fs::read_to_string(&cli).unwrap());
}
