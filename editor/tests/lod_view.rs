//! Tick level of detail in the editor: the "LOD tiers" layer rings every
//! agent in its tier's colour and marks the point of interest, the legend
//! names each tier's period, the Inspector gives the selected agent's tier
//! and the Why tab says when its decision is a held one.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use eframe::egui::{Key, Pos2, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kiai_editor::EditorApp;
use kiai_editor::model::{Command, Sel, SelectCommand};
use kiai_editor::views::canvas::layers::tiers;

mod common;
use common::{Shot, colour_distance, editor, key, pixel, render, root, run_to, screen};

fn lod_file() -> std::path::PathBuf {
    root().join("editor/tests/lod.ron")
}

/// The text of the first label that starts with `prefix`.
fn label_starting(h: &Harness<'_, EditorApp>, prefix: &str) -> Option<String> {
    let text = |n: &egui_kittest::kittest::AccessKitNode<'_>| n.label().or_else(|| n.value());
    let node = h.query_all_by(|n| text(n).is_some_and(|l| l.starts_with(prefix)));
    node.map(|n| text(&n.accesskit_node()).unwrap_or_default())
        .next()
}

/// Pixels of the tier ring around `at` (one point either side of it)
/// within reach of `colour`.
fn ring_pixels(h: &Harness<'_, EditorApp>, image: &Shot, at: Pos2, colour: [u8; 3]) -> usize {
    let zoom = screen(h, 1.0, 0.0).x - screen(h, 0.0, 0.0).x;
    let r = kiai_editor::views::canvas::glyph::radius(zoom) + 3.0;
    let reach = (r + 2.0).ceil() as i32;
    let mut n = 0;
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let q = Pos2::new(at.x.round() + dx as f32, at.y.round() + dy as f32);
            if ((q - at).length() - r).abs() <= 1.0
                && colour_distance(pixel(image, q), colour) < 60.0
            {
                n += 1;
            }
        }
    }
    n
}

fn rgb(c: eframe::egui::Color32) -> [u8; 3] {
    [c.r(), c.g(), c.b()]
}

/// Selects agent `name` as a click on it would.
fn select(h: &mut Harness<'_, EditorApp>, name: &str) -> usize {
    let i = h
        .state()
        .doc()
        .def()
        .agents
        .iter()
        .position(|a| a.name == name);
    let i = i.expect("the agent exists");
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![Sel::Agent(i)])));
    h.run_steps(3);
    i
}

#[test]
fn the_layer_rings_agents_by_tier_and_marks_the_point_of_interest() {
    let mut h = editor(&lod_file());
    run_to(&mut h, 9);
    assert!(h.state().model.overlays.lod_tiers, "on by default");
    let on = render(&mut h);
    // Kept in cargo's scratch directory for a look.
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-lod.png");
    h.render().unwrap().save(&out).unwrap();
    let at = |h: &Harness<'_, EditorApp>, name: &str| {
        let def = h.state().doc().def();
        let a = def.agents.iter().find(|a| a.name == name).unwrap();
        screen(h, a.pos.0, a.pos.2)
    };
    for (name, tier) in [("near", 0), ("middle", 1), ("far", 2)] {
        let colour = rgb(tiers::colour(tier));
        let found = ring_pixels(&h, &on, at(&h, name), colour);
        assert!(found >= 6, "{name}: {found} pixels of tier {tier}'s ring");
        let other = rgb(tiers::colour((tier + 1) % 3));
        let wrong = ring_pixels(&h, &on, at(&h, name), other);
        assert_eq!(wrong, 0, "{name}: no ring of another tier");
    }
    // The player's archetype has no tiers: no ring, but the cross of a
    // point of interest through it.
    let player = at(&h, "player");
    let cross = rgb(tiers::INTEREST);
    let arm = |d: f32| pixel(&on, player + eframe::egui::vec2(d, d));
    assert!(
        [3.0, 5.0, -3.0, -5.0]
            .iter()
            .all(|&d| colour_distance(arm(d), cross) < 60.0),
        "a cross on the player"
    );

    // The legend names the tiers and their periods.
    for row in [
        "tier 0: every tick",
        "tier 1: every 4 ticks",
        "tier 2: every 8 ticks",
        "thin ring: decision held",
        "point of interest (a cross)",
    ] {
        assert!(label_starting(&h, row).is_some(), "legend row `{row}`");
    }

    // Switched off in the View menu, the rings and the legend go.
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_role_and_label(
        Role::CheckBox,
        "LOD tiers: a ring in each agent's tier colour",
    )
    .click();
    h.run_steps(2);
    key(&mut h, Key::Escape);
    h.run_steps(2);
    assert!(!h.state().model.overlays.lod_tiers);
    let off = render(&mut h);
    for (name, tier) in [("near", 0), ("middle", 1), ("far", 2)] {
        let found = ring_pixels(&h, &off, at(&h, name), rgb(tiers::colour(tier)));
        assert_eq!(found, 0, "{name}: no ring with the layer off");
    }
    assert!(label_starting(&h, "tier 0: every tick").is_none());
}

#[test]
fn the_why_tab_says_when_a_decision_is_held() {
    let mut h = editor(&lod_file());
    run_to(&mut h, 9);
    h.get_by_label("Why").click();
    h.run_steps(3);

    // A far post thinks one tick in 8: find a tick where it holds.
    let far = select(&mut h, "far");
    let held_tick = (9..17)
        .find(|&t| {
            run_to(&mut h, t);
            let world = h.state().model.sim.as_ref().unwrap().world();
            !world.thinks(world.agents().id(far).unwrap())
        })
        .expect("held on 7 ticks of 8");
    let world = h.state().model.sim.as_ref().unwrap().world();
    let id = world.agents().id(far).unwrap();
    let since = world.thought_at(id).unwrap() + 1;
    assert!(
        since < held_tick && held_tick - since < 8,
        "{since} {held_tick}"
    );
    assert_eq!(
        label_starting(&h, "held since tick"),
        Some(format!(
            "held since tick {since} — tier 2, thinks every 8 ticks"
        )),
        "at tick {held_tick}"
    );

    // The near post thinks every tick: nothing is held.
    select(&mut h, "near");
    assert_eq!(label_starting(&h, "held since tick"), None);
}

#[test]
fn the_inspector_gives_the_agents_tier_and_period() {
    let mut h = editor(&lod_file());
    run_to(&mut h, 9);
    h.get_by_label("Inspector").click();
    h.run_steps(3);
    select(&mut h, "middle");
    let line = label_starting(&h, "LOD tier ").expect("the Inspector names the tier");
    assert!(
        line.starts_with("LOD tier 1, thinks every 4 ticks; "),
        "{line}"
    );
    select(&mut h, "near");
    assert_eq!(
        label_starting(&h, "LOD tier ").as_deref(),
        Some("LOD tier 0, thinks every tick; decided this tick")
    );
    select(&mut h, "player");
    assert_eq!(label_starting(&h, "LOD tier "), None, "no tiers, no line");
}

#[test]
fn the_archetype_inspector_adds_a_tier_and_saves_it_as_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lod.ron");
    let original = std::fs::read_to_string(lod_file()).unwrap();
    std::fs::write(&path, &original).unwrap();
    let mut h = editor(&path);
    h.get_by_label("Inspector").click();
    h.run_steps(2);
    let post = common::archetype(&h, "post");
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![Sel::Archetype(
            post,
        )])));
    h.run_steps(3);
    let on = h.get_by_role_and_label(Role::CheckBox, "tick LOD");
    assert_eq!(
        on.accesskit_node().toggled(),
        Some(eframe::egui::accesskit::Toggled::True)
    );
    for row in ["tier 0", "tier 1", "tier 2"] {
        assert!(label_starting(&h, row).is_some(), "a row `{row}`");
    }
    h.get_by_label("+ tier").click();
    h.run_steps(3);
    let lod = &h.state().doc().def().archetypes.0[post].1.lod;
    let found: Vec<(Option<f32>, u32)> = lod.iter().map(|t| (t.within, t.every)).collect();
    assert_eq!(
        found,
        [(Some(20.0), 1), (Some(45.0), 4), (Some(90.0), 8), (None, 8)]
    );
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let saved = std::fs::read_to_string(&path).unwrap();
    let changed: Vec<&str> = saved
        .lines()
        .zip(original.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a)
        .collect();
    assert_eq!(
        changed,
        [
            "            lod: [(within: 20.0, every: 1), (within: 45.0, every: 4), (within: 90.0, every: 8), (every: 8)],"
        ]
    );
    assert_eq!(saved.lines().count(), original.lines().count());
}
