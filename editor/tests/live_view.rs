//! The map while the simulation runs: one source of truth (live
//! positions everywhere), overlays that can be switched, and a picture
//! that stays readable: labels apart, glyphs big enough, colours that mean
//! one thing, a legend that explains them.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use eframe::egui::{self, Key, Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kiai_core::AgentId;
use kiai_editor::EditorApp;

mod common;
use common::{click, colour_distance, contrast, editor, key, pixel, render, root, run_to, screen};

fn labels(h: &Harness<'_, EditorApp>) -> Vec<(Rect, String)> {
    h.state().drawn_labels().to_vec()
}

/// Whether any node's label or value contains `text`.
fn shows(h: &Harness<'_, EditorApp>, text: &str) -> bool {
    h.query_all_by(|n| {
        n.label().is_some_and(|l| l.contains(text)) || n.value().is_some_and(|v| v.contains(text))
    })
    .next()
    .is_some()
}

/// Sum of absolute channel differences over a 5x5 patch around `p`.
fn patch_difference(a: &common::Shot, b: &common::Shot, p: Pos2) -> u32 {
    let mut sum = 0;
    for dy in -2..=2 {
        for dx in -2..=2 {
            let q = p + egui::vec2(dx as f32, dy as f32);
            let (x, y) = (pixel(a, q), pixel(b, q));
            sum += x
                .iter()
                .zip(y)
                .map(|(u, v)| u32::from(u.abs_diff(v)))
                .sum::<u32>();
        }
    }
    sum
}

/// Whether world point `(x, z)` is inside a cone at `eye` facing `f`.
fn in_cone(eye: (f32, f32), f: (f32, f32), range: f32, fov_deg: f32, p: (f32, f32)) -> bool {
    let d = (p.0 - eye.0, p.1 - eye.1);
    let len = (d.0 * d.0 + d.1 * d.1).sqrt();
    let fl = (f.0 * f.0 + f.1 * f.1).sqrt();
    len < range && (d.0 * f.0 + d.1 * f.1) / (len * fl) > (fov_deg.to_radians() / 2.0).cos()
}

/// Problem 2: paused at tick 147 in the village, raider_2's cone was drawn
/// where it is, but the "senses now" shading and the inspector used its
/// start position.
#[test]
fn paused_mid_run_the_inspector_and_the_shading_show_where_agents_are_now() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    run_to(&mut h, 147);
    let (index, p, f, start, start_f, sensed) = {
        let sim = h.state().model.sim.as_ref().unwrap();
        let agents = sim.world().agents();
        let id = agents.find("raider_2").unwrap();
        let i = id.index();
        let names: Vec<String> = sim
            .world()
            .percepts()
            .sensed(AgentId::from_index(i), 0)
            .iter()
            .map(|o| agents.names()[o.index()].clone())
            .collect();
        let def = h.state().doc().def();
        let a = def.agents.iter().find(|a| a.name == "raider_2").unwrap();
        (
            i,
            agents.positions()[i],
            agents.facings()[i],
            (a.pos.0, a.pos.2),
            (a.facing.0, a.facing.2),
            names,
        )
    };
    assert!(
        (p.x - start.0).abs() + (p.z - start.1).abs() > 5.0,
        "raider_2 has moved"
    );
    key(&mut h, Key::V);
    let at = screen(&h, p.x, p.z);
    click(&mut h, at);
    assert_eq!(h.state().selected_agent(), Some(index));
    h.run_steps(2);

    // The inspector: where it is now, and what it senses now.
    let shown = format!("({:.1}, {:.1}, {:.1})", p.x, p.y, p.z);
    assert!(shows(&h, &shown), "the inspector shows {shown}");
    let expected = if sensed.is_empty() {
        "senses now: nobody".to_owned()
    } else {
        format!("senses now: {}", sensed.join(", "))
    };
    assert!(shows(&h, &expected), "the inspector shows `{expected}`");

    // The shading: with "what the selected agent senses" on, tiles inside
    // the live cone change colour; tiles only in the start cone do not.
    let (range, fov) = (45.0, 120.0);
    h.state_mut().model.tools.show_sight = true;
    h.run_steps(2);
    let on = render(&mut h);
    h.state_mut().model.tools.show_sight = false;
    h.run_steps(2);
    let off = render(&mut h);
    let mut live_checked = 0;
    let mut start_checked = 0;
    for d in [0.2f32, 0.3, 0.4, 0.5] {
        for turn in [-0.4f32, 0.0, 0.4] {
            let rotate = |v: (f32, f32)| {
                let (s, c) = (turn * (fov / 2.0f32).to_radians()).sin_cos();
                let n = (v.0 * v.0 + v.1 * v.1).sqrt();
                ((v.0 * c - v.1 * s) / n, (v.0 * s + v.1 * c) / n)
            };
            let lf = rotate((f.x, f.z));
            let live_point = (p.x + lf.0 * range * d, p.z + lf.1 * range * d);
            let sf = rotate(start_f);
            let start_point = (start.0 + sf.0 * range * d, start.1 + sf.1 * range * d);
            // Well inside the map pane of the default layout.
            let on_map = |q: Pos2| q.x > 260.0 && q.x < 980.0 && q.y > 120.0 && q.y < 600.0;
            let q = screen(&h, live_point.0, live_point.1);
            if on_map(q) && !in_cone(start, start_f, range, fov, live_point) {
                live_checked += 1;
                assert!(
                    patch_difference(&on, &off, q) > 40,
                    "shaded inside the live cone at {live_point:?}"
                );
            }
            let q = screen(&h, start_point.0, start_point.1);
            if on_map(q) && !in_cone((p.x, p.z), (f.x, f.z), range * 1.1, fov + 10.0, start_point) {
                start_checked += 1;
                assert!(
                    patch_difference(&on, &off, q) < 40,
                    "not shaded where only the start cone reaches, {start_point:?}"
                );
            }
        }
    }
    assert!(
        live_checked >= 3 && start_checked >= 3,
        "{live_checked} {start_checked}"
    );
}

/// Problem 3: the fog dropdown inside the View menu closed the menu on
/// click.
#[test]
fn fog_of_war_switches_on_from_the_view_menu() {
    let arena = root().join("content/demo/arena.ron");
    let mut h = editor(&arena);
    run_to(&mut h, 20);
    assert_eq!(h.state().model.overlays.fog, None);
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("fog of war").click();
    h.run_steps(2);
    h.get_by_label("spectator").click();
    h.run_steps(2);
    assert_eq!(h.state().model.overlays.fog, Some(None), "fog of war is on");
}

/// Problem 3, the panel: the Layers tab beside the Outliner has the fog of
/// war (and every other overlay) as plain choices that stay on screen.
#[test]
fn fog_of_war_and_overlays_switch_from_the_layers_tab() {
    use egui::accesskit::Role;
    let arena = root().join("content/demo/arena.ron");
    let mut h = editor(&arena);
    run_to(&mut h, 20);
    h.get_by_label("Layers").click();
    h.run_steps(2);
    let factions: Vec<String> = h
        .state()
        .doc()
        .def()
        .factions
        .iter()
        .map(|f| f.name.clone())
        .collect();
    h.get_by_role_and_label(Role::RadioButton, &factions[1])
        .click();
    h.run_steps(2);
    assert_eq!(h.state().model.overlays.fog, Some(Some(1)));
    h.get_by_role_and_label(Role::RadioButton, "spectator")
        .click();
    h.run_steps(2);
    assert_eq!(h.state().model.overlays.fog, Some(None));
    let before = h.state().model.overlays.sounds;
    h.get_by_role_and_label(Role::CheckBox, "This tick's sounds")
        .click();
    h.run_steps(2);
    assert_eq!(h.state().model.overlays.sounds, !before);
    // Still there: the tab does not close like a menu.
    h.get_by_role_and_label(Role::RadioButton, "off").click();
    h.run_steps(2);
    assert_eq!(h.state().model.overlays.fog, None);
}

/// Problem 4: labels overlapped until unreadable.
#[test]
fn labels_never_overlap_while_playing() {
    let arena = root().join("content/demo/arena.ron");
    let mut h = editor(&arena);
    run_to(&mut h, 50);
    let drawn = labels(&h);
    assert!(drawn.len() >= 10, "labels are drawn: {}", drawn.len());
    for (i, (a, ta)) in drawn.iter().enumerate() {
        for (b, tb) in &drawn[i + 1..] {
            let overlap = a.intersect(*b);
            assert!(
                !overlap.is_positive() || overlap.area() < 1.0,
                "`{ta}` {a:?} overlaps `{tb}` {b:?}"
            );
        }
    }
}

/// The centre colours of the village's agents, drawn as they are now.
fn agent_centres(h: &mut Harness<'_, EditorApp>) -> Vec<(String, [u8; 3], Pos2)> {
    let image = render(h);
    let positions: Vec<(String, f32, f32)> = match &h.state().model.sim {
        Some(sim) if sim.tick() > 0 => {
            let a = sim.world().agents();
            (0..a.len())
                .map(|i| (a.names()[i].clone(), a.positions()[i].x, a.positions()[i].z))
                .collect()
        }
        _ => h
            .state()
            .doc()
            .def()
            .agents
            .iter()
            .map(|a| (a.name.clone(), a.pos.0, a.pos.2))
            .collect(),
    };
    positions
        .into_iter()
        .map(|(n, x, z)| {
            let p = screen(h, x, z);
            (n, pixel(&image, p), p)
        })
        .collect()
}

/// Problem 4: agents were tiny arrows. A glyph covers at least a disc of
/// 6 points' radius in its own colour.
#[test]
fn agent_glyphs_are_big_enough_to_read() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    run_to(&mut h, 147);
    let image = render(&mut h);
    for (name, colour, p) in agent_centres(&mut h) {
        let mut area = 0;
        for dy in -14..=14 {
            for dx in -14..=14 {
                let q = p + egui::vec2(dx as f32, dy as f32);
                if colour_distance(pixel(&image, q), colour) < 24.0 {
                    area += 1;
                }
            }
        }
        assert!(area >= 110, "{name}: {area} pixels of its colour");
    }
}

/// Problem 4: red and blue meant faction while editing and chase and
/// evade while playing. No colour an agent is drawn in while editing is
/// one it is drawn in while playing.
#[test]
fn faction_and_state_colours_never_coincide() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    let editing = agent_centres(&mut h);
    run_to(&mut h, 147);
    let playing = agent_centres(&mut h);
    let states: std::collections::BTreeSet<String> = {
        let sim = h.state().model.sim.as_ref().unwrap();
        sim.world()
            .agents()
            .decisions()
            .iter()
            .map(|d| d.state.name().to_owned())
            .collect()
    };
    assert!(states.contains("chase"), "{states:?}");
    for (a, ca, _) in &editing {
        for (b, cb, _) in &playing {
            assert!(
                colour_distance(*ca, *cb) > 40.0,
                "{a} editing {ca:?} and {b} playing {cb:?} look alike"
            );
        }
    }
}

/// Problem 4: Lua states (investigate, command, patrol) were missing from
/// the legend and sense colours were unexplained.
#[test]
fn the_legend_lists_every_state_present_and_the_sense_colours() {
    let dir = tempfile::tempdir().unwrap();
    let guards = common::copy_guards(dir.path());
    let mut h = editor(&guards);
    run_to(&mut h, 150);
    let (states, guard) = {
        let sim = h.state().model.sim.as_ref().unwrap();
        let a = sim.world().agents();
        let states: std::collections::BTreeSet<String> = (0..a.len())
            .map(|i| {
                sim.run()
                    .script_label(i)
                    .map_or_else(|| a.decisions()[i].state.name().to_owned(), str::to_owned)
                    .replace('_', " ")
            })
            .collect();
        let guard = (0..a.len())
            .find(|&i| a.names()[i].starts_with("guard"))
            .unwrap();
        (states, (guard, a.positions()[guard]))
    };
    assert!(states.len() >= 3, "{states:?}");
    for state in &states {
        assert!(
            h.query_all_by_label(state).next().is_some(),
            "the legend lists `{state}`"
        );
    }
    // Select a guard: its senses join the legend with their colours.
    key(&mut h, Key::V);
    let at = screen(&h, guard.1.x, guard.1.z);
    click(&mut h, at);
    assert_eq!(h.state().selected_agent(), Some(guard.0));
    h.run_steps(2);
    let senses: Vec<String> = {
        let def = h.state().doc().def();
        let name = &h
            .state()
            .model
            .sim
            .as_ref()
            .unwrap()
            .world()
            .agents()
            .names()[guard.0];
        let a = def.agents.iter().find(|a| &a.name == name).unwrap();
        let arch = def.archetypes.get(&a.archetype).unwrap();
        arch.senses.iter().map(|s| s.name.clone()).collect()
    };
    for sense in senses {
        let prefix = format!("{sense}: ");
        assert!(
            h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with(&prefix)))
                .next()
                .is_some(),
            "the legend explains sense `{sense}`"
        );
    }
}

/// Problem 4: waypoint names were never drawn and inactive waypoints were
/// nearly invisible.
#[test]
fn waypoint_names_are_drawn_and_inactive_waypoints_stand_out() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    h.run_steps(2);
    let drawn: Vec<String> = labels(&h).into_iter().map(|(_, t)| t).collect();
    let def = h.state().doc().def().clone();
    for w in &def.waypoints {
        if let Some(name) = &w.name {
            assert!(
                drawn.contains(name),
                "waypoint `{name}` is labelled: {drawn:?}"
            );
        }
    }
    let image = render(&mut h);
    let inactive = def.waypoints.iter().find(|w| !w.active).unwrap();
    let centre = pixel(&image, screen(&h, inactive.pos.0, inactive.pos.2));
    // The background: outside the village's bounds, in the map.
    let background = pixel(&image, screen(&h, -15.0, 35.0));
    let ratio = contrast(centre, background);
    assert!(ratio >= 3.0, "inactive waypoint contrast {ratio:.2}:1");
}

/// Selecting an agent adds its senses to the legend strip under the map,
/// which can take another line: the map keeps its zoom and position, so
/// what is under the pointer stays there.
#[test]
fn the_legend_growing_does_not_move_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let guards = common::copy_guards(dir.path());
    let mut h = editor(&guards);
    run_to(&mut h, 100);
    let (a, b) = (screen(&h, 0.0, 0.0), screen(&h, 10.0, 10.0));
    let p = {
        let sim = h.state().model.sim.as_ref().unwrap();
        let i = sim.world().agents().find("guard_3").unwrap().index();
        sim.world().agents().positions()[i]
    };
    key(&mut h, Key::V);
    let at = screen(&h, p.x, p.z);
    click(&mut h, at);
    assert!(h.state().selected_agent().is_some());
    h.run_steps(2);
    assert!(
        shows(&h, "senses of guard_3"),
        "the legend shows its senses"
    );
    assert_eq!((screen(&h, 0.0, 0.0), screen(&h, 10.0, 10.0)), (a, b));
}
