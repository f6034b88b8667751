//! Movement in the editor: the bodies, the velocity avoidance chose
//! against the one steering asked for, and smoothed routes drawn where the
//! agents are; an archetype's radius and avoidance edited in the inspector
//! and saved as small text changes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use eframe::egui::{self, Key, Modifiers, Pos2, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kiai_core::glam::Vec3;
use kiai_editor::EditorApp;
use kiai_editor::theme::Palette;

mod common;
use common::{Shot, click, colour_distance, editor, key, pixel, render, root, run_to, screen};

/// Switches a map overlay on or off from the View menu, as a user does.
fn switch(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::CheckBox, label).click();
    h.run_steps(2);
    // A click in a menu may close it; close it in any case.
    key(h, Key::Escape);
    h.run_steps(2);
}

fn rgb(c: egui::Color32) -> [u8; 3] {
    [c.r(), c.g(), c.b()]
}

/// How many of `points` have a pixel within `tolerance` of `colour`.
fn near(image: &Shot, points: &[Pos2], colour: [u8; 3], tolerance: f32) -> usize {
    points
        .iter()
        .filter(|&&q| colour_distance(pixel(image, q), colour) < tolerance)
        .count()
}

/// Whether screen point `q` is well inside the map pane of the default
/// layout (not under a panel or the legend).
fn on_map(q: Pos2) -> bool {
    q.x > 300.0 && q.x < 950.0 && q.y > 140.0 && q.y < 560.0
}

#[test]
fn bodies_and_smoothed_routes_are_drawn_where_the_agents_are() {
    let crossing = root().join("content/demo/crossing.ron");
    let mut h = editor(&crossing);
    run_to(&mut h, 300);
    let off = render(&mut h);
    for label in [
        "Bodies: a circle of each agent's radius",
        "Avoidance: wanted and chosen velocity",
        "Smoothed routes of waypoint walkers",
    ] {
        switch(&mut h, label);
    }
    let o = &h.state().model.overlays;
    assert!(o.bodies && o.avoidance && o.smoothed, "{o:?}");
    let on = render(&mut h);
    // Kept in cargo's scratch directory for a look.
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-crossing.png");
    h.render().unwrap().save(&out).unwrap();
    let palette = Palette::dark();
    let zoom = screen(&h, 1.0, 0.0).x - screen(&h, 0.0, 0.0).x;
    assert!(
        zoom > 3.0,
        "the crossing fills the map: {zoom} points a unit"
    );

    let sim = h.state().model.sim.as_ref().unwrap();
    let world = sim.world();
    let agents = world.agents();
    let radius = world.archetypes()[agents.archetypes()[0].index()].radius;
    let glyph = kiai_editor::views::canvas::glyph::radius(zoom);

    // Bodies: a ring of the body's radius around every agent on the map,
    // in the body colour (over the glyph: glyphs are at least 8 points);
    // in the crush at the door other rings and arrows cover a few.
    // The pixels of the annulus one point either side of the radius.
    let ring = |at: Pos2| -> Vec<Pos2> {
        let r = radius * zoom;
        let reach = (r + 2.0).ceil() as i32;
        let mut points = Vec::new();
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                let q = Pos2::new(at.x.round() + dx as f32, at.y.round() + dy as f32);
                if ((q - at).length() - r).abs() <= 1.0 {
                    points.push(q);
                }
            }
        }
        points
    };
    let (mut shown, mut checked, mut before) = (0, 0, 0);
    for i in 0..agents.len() {
        let p = agents.positions()[i];
        let at = screen(&h, p.x, p.z);
        if !agents.alive()[i] || !on_map(at) {
            continue;
        }
        checked += 1;
        let points = ring(at);
        if near(&on, &points, rgb(palette.body), 60.0) >= 3 {
            shown += 1;
        }
        if near(&off, &points, rgb(palette.body), 60.0) >= 3 {
            before += 1;
        }
    }
    assert!(checked >= 50, "{checked} agents on the map");
    assert!(
        shown * 10 >= checked * 8,
        "a body ring around {shown} of {checked} agents"
    );
    assert!(before * 10 < checked, "no ring before: {before}");

    // Smoothed routes: the line from a walker to the point it heads for,
    // drawn halfway there where no glyph or name covers it.
    let labels = h.state().drawn_labels().to_vec();
    let nav = world.nav().unwrap();
    let clear_of_agents = |q: Vec3| {
        agents.positions().iter().all(|a| {
            let d = egui::vec2(a.x - q.x, a.z - q.z).length() * zoom;
            d > glyph + 4.0
        })
    };
    let (mut lines, mut walkers) = (0, 0);
    for (i, state) in world.nav_states().iter().enumerate() {
        let p = agents.positions()[i];
        let Some(to) = state.direct.or_else(|| state.next.and_then(|w| nav.pos(w))) else {
            continue;
        };
        if (to - p).length() * zoom < 4.0 * glyph {
            continue;
        }
        let mid = (p + to) * 0.5;
        let q = screen(&h, mid.x, mid.z);
        let under_label = labels.iter().any(|(r, _)| r.expand(2.0).contains(q));
        if !agents.alive()[i] || !on_map(q) || !clear_of_agents(mid) || under_label {
            continue;
        }
        walkers += 1;
        let route = rgb(palette.route_smooth);
        let changed = colour_distance(pixel(&on, q), pixel(&off, q)) > 30.0;
        if changed && colour_distance(pixel(&on, q), route) < 90.0 {
            lines += 1;
        }
    }
    assert!(walkers >= 3, "{walkers} walkers with an open way");
    assert!(
        lines * 10 >= walkers * 8,
        "a smoothed route drawn halfway to the point of {lines} of {walkers} walkers"
    );

    // The legend names the new colours.
    for text in [
        "body (its radius)",
        "velocity it wanted",
        "velocity avoidance chose",
        "smoothed route",
    ] {
        assert!(
            h.query_by_label(text).is_some(),
            "the legend shows `{text}`"
        );
    }
}

/// A walker with avoidance looking half a second ahead, its goal straight
/// behind a wide post.
const HEAD_ON: &str = r#"(
    format: 2,
    name: "head on",
    bounds: (min: (-10.0, 0.0, -10.0), max: (10.0, 5.0, 10.0)),
    factions: [(name: "blue")],
    archetypes: {
        "walker": (
            movement: Walker(min_speed: 0.5, max_speed: 1.5, direction_change_factor: 20, planar: true),
            avoidance: Some((time_horizon: 0.5)),
        ),
        "post": (movement: Static, radius: Some(2.0)),
    },
    agents: [
        (name: "a", archetype: "walker", faction: "blue", pos: (-6.0, 0.0, 0.0), goal: Some((6.0, 0.0, 0.0))),
        (name: "post", archetype: "post", faction: "blue", pos: (0.0, 0.0, 0.1)),
    ],
)
"#;

#[test]
fn the_velocity_they_wanted_and_the_one_avoidance_chose_are_two_arrows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("head_on.ron");
    std::fs::write(&path, HEAD_ON).unwrap();
    let mut h = editor(&path);
    // Play until avoidance turns the walker well away from its way.
    let turned = |h: &Harness<'_, EditorApp>, i: usize| {
        let world = h.state().model.sim.as_ref().unwrap().world();
        let (chosen, wanted) = (
            world.agents().velocities()[i],
            world.preferred_velocities()[i],
        );
        chosen.length() > 0.5 && chosen.normalize().dot(wanted.normalize_or_zero()) < 0.95
    };
    let mut tick = 1;
    run_to(&mut h, tick);
    while !turned(&h, 0) {
        tick += 1;
        assert!(tick < 100, "avoidance turns it before it meets the post");
        run_to(&mut h, tick);
    }
    // Names off: the post's name would lie over the arrows' tips.
    switch(&mut h, "Names of agents and waypoints");
    assert!(!h.state().model.overlays.labels);
    let off = render(&mut h);
    switch(&mut h, "Avoidance: wanted and chosen velocity");
    let on = render(&mut h);
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-avoidance.png");
    h.render().unwrap().save(&out).unwrap();
    let palette = Palette::dark();
    let zoom = screen(&h, 1.0, 0.0).x - screen(&h, 0.0, 0.0).x;
    let glyph = kiai_editor::views::canvas::glyph::radius(zoom);
    let sim = h.state().model.sim.as_ref().unwrap();
    let world = sim.world();
    let agents = world.agents();
    // Points along the outer half of an arrow from the glyph's edge, one
    // second of travel long.
    let arrow = |at: Pos2, v: Vec3| -> Vec<Pos2> {
        let d = egui::vec2(v.x, -v.z).normalized();
        let length = v.length() * zoom;
        (3..6)
            .map(|k| at + d * (glyph + length * k as f32 / 6.0))
            .collect()
    };
    for i in [0] {
        let p = agents.positions()[i];
        let at = screen(&h, p.x, p.z);
        let (chosen, wanted) = (agents.velocities()[i], world.preferred_velocities()[i]);
        let labels = h.state().drawn_labels().to_vec();
        for (v, colour) in [
            (chosen, palette.velocity_chosen),
            (wanted, palette.velocity_preferred),
        ] {
            let mut points = arrow(at, v);
            points.retain(|q| !labels.iter().any(|(r, _)| r.expand(2.0).contains(*q)));
            assert!(points.len() >= 2, "names cover the arrow");
            assert_eq!(
                near(&on, &points, rgb(colour), 60.0),
                points.len(),
                "agent {i}: an arrow of {colour:?} along {v} from {at:?}"
            );
            assert_eq!(near(&off, &points, rgb(colour), 60.0), 0, "none before");
        }
    }
}

const SCENE: &str = r#"// One walker in an empty room.
(
    format: 2,
    name: "room",
    bounds: (min: (-20.0, 0.0, -20.0), max: (20.0, 5.0, 20.0)),
    factions: [(name: "blue")],
    archetypes: {
        "walker": (
            movement: Walker(min_speed: 0.5, max_speed: 1.5, direction_change_factor: 20, planar: true),
        ),
    },
    agents: [
        (name: "a1", archetype: "walker", faction: "blue", pos: (0.0, 0.0, 0.0)),
    ],
)
"#;

/// Sets the inspector's number field `label` to `value`, as a user typing
/// it would.
fn set(h: &mut Harness<'_, EditorApp>, label: &str, value: f64) {
    h.get_by_role_and_label(Role::SpinButton, label)
        .set_value_accesskit(value);
    h.run_steps(2);
}

#[test]
fn radius_avoidance_and_goal_edited_in_the_inspector_save_as_small_text_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("room.ron");
    std::fs::write(&path, SCENE).unwrap();
    let mut h = editor(&path);
    key(&mut h, Key::V);
    let at = screen(&h, 0.0, 0.0);
    click(&mut h, at);
    assert_eq!(h.state().selected_agent(), Some(0));
    h.run_steps(2);

    set(&mut h, "radius", 0.8);
    h.get_by_role_and_label(Role::CheckBox, "avoidance").click();
    h.run_steps(2);
    set(&mut h, "time horizon", 2.5);
    set(&mut h, "priority", 2.0);
    h.get_by_role_and_label(Role::CheckBox, "goal").click();
    h.run_steps(2);
    let arch = &h.state().doc().def().archetypes.0[0].1;
    assert_eq!(arch.radius, Some(0.8));
    let avoidance = arch.avoidance.unwrap();
    assert_eq!((avoidance.time_horizon, avoidance.priority), (2.5, 2));
    assert_eq!(avoidance.max_neighbours, 16, "the default");
    assert_eq!(h.state().doc().def().agents[0].goal, Some((0.0, 0.0, 0.0)));

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.step();
    assert!(!h.state().doc().is_dirty(), "saved");
    // The preserving writer adds the fields after the archetype's last
    // line and the agent's last field, in the file's implicit-Some style.
    let saved = std::fs::read_to_string(&path).unwrap();
    let expected = SCENE
        .replace(
            "planar: true),\n",
            "planar: true),\n            radius: 0.8,\n            avoidance: (time_horizon: 2.5, priority: 2),\n",
        )
        .replace(
            "pos: (0.0, 0.0, 0.0))",
            "pos: (0.0, 0.0, 0.0), goal: (0.0, 0.0, 0.0))",
        );
    assert_eq!(saved, expected);
    let reloaded = kiai_content::parse(&saved, "room.ron").unwrap();
    assert_eq!(&reloaded, h.state().doc().def(), "the file reads back");

    // Every edit is one undo step: undone, the file is the original again.
    for _ in 0..5 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.step();
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.step();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), SCENE);
}

/// A time horizon of zero read from a file: the archetype's inspector says
/// what is wrong above its fields, and typing a valid value clears it.
#[test]
fn a_bad_avoidance_value_is_reported_above_the_archetypes_fields() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("room.ron");
    let bad = SCENE.replace(
        "planar: true),\n",
        "planar: true),\n            avoidance: Some((time_horizon: 0.0)),\n",
    );
    std::fs::write(&path, bad).unwrap();
    let mut h = editor(&path);
    let shown = |h: &Harness<'_, EditorApp>| {
        h.query_all_by_label_contains("time_horizon must be greater than 0")
            .count()
    };
    assert_eq!(shown(&h), 1, "in the Validation tab");
    h.get_by_label("walker").click();
    h.run_steps(3);
    assert_eq!(shown(&h), 2, "and above the archetype's fields");
    set(&mut h, "time horizon", 3.0);
    // Validation runs on a background thread after each change.
    for _ in 0..100 {
        if shown(&h) == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    assert_eq!(shown(&h), 0, "fixed");
}
