//! What a new designer ran into (issue 31), each checked as the designer
//! sees it: the hash on screen, the text in a field, the Validation
//! panel's lines, the files left behind, the selection after a click.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::path::Path;

use eframe::egui::{self, Key, Modifiers};
use kiai_editor::model::{Command, Edit, EditCommand, Item, Tool};

mod common;
use common::{
    copy_guards, drag, editor, kiai_hash, play_until, screen, scrub, tick_status, type_keys,
};
use egui_kittest::kittest::Queryable;

/// Item 1: after a Reset, an edit made at tick 0 is what Play runs: the
/// hash on screen is `kiai run`'s on the saved, edited file; an edit past
/// tick 0 says that the map and the run differ, and one click restarts.
#[test]
fn play_after_reset_runs_the_map_as_edited() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let mut h = editor(&guards);
    play_until(&mut h, 5);
    h.key_press_modifiers(Modifiers::COMMAND, Key::R);
    h.run_steps(2);
    assert_eq!(tick_status(&h), "tick 0 | state -");

    // guard_2 dragged from (25, 10) to (24.8, 33.4), then saved.
    common::key(&mut h, Key::V);
    let (from, to) = (screen(&h, 25.0, 10.0), screen(&h, 24.8, 33.4));
    drag(&mut h, from, to);
    let i = h
        .state()
        .doc()
        .def()
        .agents
        .iter()
        .position(|a| a.name == "guard_2")
        .unwrap();
    let moved = h.state().doc().def().agents[i].pos;
    assert!((moved.2 - 33.4).abs() < 1.0, "dragged: {moved:?}");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.step();
    assert!(!h.state().doc().is_dirty(), "saved");

    play_until(&mut h, 15);
    scrub(&mut h, 15);
    let expected = kiai_hash(&guards, 15);
    assert_eq!(tick_status(&h), format!("tick 15 | state {expected}"));
    assert!(!h.state().model.map_differs(), "the run is the map's");

    // Past tick 0, an edit says so; Restart from the map rebuilds.
    let old = h.state().doc().def().agents[i].clone();
    let mut new = old.clone();
    new.pos.0 -= 3.0;
    h.state_mut()
        .model
        .apply(Command::Edit(EditCommand::Apply(Edit::Set {
            index: i,
            old: Item::Agent(old),
            new: Item::Agent(new),
        })));
    h.run_steps(2);
    assert!(h.state().model.map_differs(), "an edit past tick 0 differs");
    h.get_by_label("Restart from the map").click();
    h.run_steps(2);
    assert!(!h.state().model.map_differs(), "restarted from the map");
    assert_eq!(tick_status(&h), "tick 0 | state -");
}

/// Item 1, scripts: a script broken after a Reset and before Play is
/// reported when Play builds the run, and its agents decide with the
/// Rust default (not the version that was good at the Reset).
#[test]
fn a_script_broken_after_reset_is_what_play_runs() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let mut h = editor(&guards);
    play_until(&mut h, 3);
    h.key_press_modifiers(Modifiers::COMMAND, Key::R);
    h.run_steps(2);
    let script = dir.path().join("scripts/guard.lua");
    std::fs::write(&script, "function decide(agent, ctx)\n  return (\nend\n").unwrap();
    play_until(&mut h, 2);
    let sim = h.state().model.sim.as_ref().unwrap();
    let errors: Vec<_> = sim
        .console
        .lines()
        .iter()
        .filter(|l| {
            l.kind == kiai_editor::model::sim::LineKind::Error && l.text.contains("guard.lua")
        })
        .collect();
    assert!(!errors.is_empty(), "the load error is in the console");
    let guard = sim.world().agents().find("guard_1").unwrap().index();
    assert_eq!(
        sim.run().script_label(guard),
        None,
        "guard_1 decides with the Rust default, not the script good at the Reset"
    );
}

/// Item 2: README step 3 typed literally. The Cost lists tab's name field
/// takes the keyboard as the tab opens and keeps it after Enter: the
/// letters land in the field and no map shortcut fires (F frames, T
/// switches waypoints, R and L pick tools).
#[test]
fn letters_typed_in_the_cost_lists_tab_land_in_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor(&dir.path().join("mymap.ron"));
    common::key(&mut h, Key::W);
    for z in [0.0, 10.0] {
        for x in [-10.0, 0.0, 10.0] {
            let p = screen(&h, x, z);
            common::click(&mut h, p);
        }
    }
    let before = h.state().doc().def().waypoints.clone();
    let view = h.state().world_to_screen(0.0, 0.0);

    h.get_by_label("Cost lists").click();
    h.run_steps(3);
    type_keys(&mut h, "infantry");
    common::key(&mut h, Key::Enter);
    h.run_steps(2);
    type_keys(&mut h, "vehicle");
    common::key(&mut h, Key::Enter);
    h.run_steps(2);

    let def = h.state().doc().def();
    assert_eq!(def.cost_lists, vec!["infantry", "vehicle"]);
    assert_eq!(def.waypoints, before, "T switched no waypoint");
    assert_eq!(h.state().model.tools.tool, Tool::Waypoint, "no tool picked");
    assert_eq!(h.state().world_to_screen(0.0, 0.0), view, "F did not frame");
    assert_eq!(h.state().model.current_list(), "vehicle");
}

/// Item 3: paused mid-run, a click on a waypoint selects it (the
/// inspector shows it) and a drag moves it; the transport bar then says
/// that the map and the run differ.
#[test]
fn waypoints_select_and_drag_while_paused_mid_run() {
    let village = common::root().join("content/demo/village.ron");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("village.ron");
    std::fs::copy(&village, &path).unwrap();
    let mut h = editor(&path);
    common::run_to(&mut h, 20);
    assert!(h.state().model.is_live());

    // The waypoint farthest from every agent of the run.
    let sim = h.state().model.sim.as_ref().unwrap();
    let agents: Vec<_> = sim.world().agents().positions().to_vec();
    let def = h.state().doc().def();
    let far = |w: &kiai::content::def::WaypointDef| {
        agents
            .iter()
            .map(|p| (p.x - w.pos.0).hypot(p.z - w.pos.2))
            .fold(f32::MAX, f32::min)
    };
    let (k, w) = def
        .waypoints
        .iter()
        .enumerate()
        .max_by(|a, b| far(a.1).total_cmp(&far(b.1)))
        .unwrap();
    let (k, at) = (k, w.pos);

    common::key(&mut h, Key::V);
    let p = screen(&h, at.0, at.2);
    common::click(&mut h, p);
    h.run_steps(2);
    assert!(
        h.query_by_label(&format!("Waypoint {k}")).is_some(),
        "the inspector shows the waypoint clicked"
    );
    let to = screen(&h, at.0 + 3.0, at.2);
    drag(&mut h, p, to);
    let moved = h.state().doc().def().waypoints[k].pos;
    assert!((moved.0 - at.0 - 3.0).abs() < 0.6, "{at:?} -> {moved:?}");
    h.run_steps(2);
    assert!(h.query_by_label("Restart from the map").is_some());
}

/// The Validation panel's diagnostic lines (those naming a file under
/// `dir`), top to bottom.
fn validation_lines(
    h: &mut egui_kittest::Harness<'_, kiai_editor::EditorApp>,
    dir: &Path,
) -> Vec<String> {
    use egui_kittest::kittest::NodeT;
    let prefix = dir.display().to_string();
    let text = |n: &egui_kittest::kittest::AccessKitNode<'_>| n.label().or_else(|| n.value());
    h.query_all_by(|n| {
        n.role() == egui::accesskit::Role::Label && text(n).is_some_and(|l| l.starts_with(&prefix))
    })
    .map(|n| text(&n.accesskit_node()).unwrap_or_default())
    .collect()
}

/// Waits (stepping frames) until `f` holds, at most 10 s.
fn wait_until(
    h: &mut egui_kittest::Harness<'_, kiai_editor::EditorApp>,
    what: &str,
    mut f: impl FnMut(&mut egui_kittest::Harness<'_, kiai_editor::EditorApp>) -> bool,
) {
    let start = std::time::Instant::now();
    while !f(h) {
        assert!(
            start.elapsed().as_secs() < 10,
            "timed out waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
}

/// Item 4: a script broken on disk is an error in the Validation panel,
/// line for line what `kiai validate` prints, and the status bar counts
/// it; fixed on disk, the panel says "No problems" again.
#[test]
fn the_validation_panel_says_what_kiai_validate_says_scripts_included() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let guards = copy_guards(&root);
    let mut h = editor(&guards);
    h.get_by_label("Validation").click();
    h.run_steps(3);
    wait_until(&mut h, "no problems", |h| {
        h.query_by_label("No problems").is_some()
    });

    let script = root.join("scripts/guard.lua");
    let good = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{good}\nfunction broken(\n")).unwrap();
    let cli = common::kiai_cli(&["validate", guards.to_str().unwrap()]);
    assert_eq!(cli.status.code(), Some(1), "kiai validate fails");
    let expected: Vec<String> = String::from_utf8(cli.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(expected[0].contains("guard.lua:"), "{expected:?}");
    wait_until(&mut h, "the script's error", |h| {
        validation_lines(h, &root) == expected
    });
    assert!(
        h.query_by_label("1 error, 0 warnings").is_some(),
        "in the status bar"
    );

    std::fs::write(&script, good).unwrap();
    wait_until(&mut h, "no problems again", |h| {
        h.query_by_label("No problems").is_some()
    });
}

/// Asks the editor's window to close, as the window manager (or eframe
/// after Ctrl+Q) does.
fn close_window(h: &mut egui_kittest::Harness<'_, kiai_editor::EditorApp>) {
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.run_steps(2);
}

/// Item 6: an autosaved edit undone back to the saved state leaves no
/// `.recovery`, nor does a quit that discards the changes: the next start
/// offers nothing to recover.
#[test]
fn no_recovery_file_after_a_clean_quit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("guards.ron");
    std::fs::copy(common::root().join("content/demo/guards.ron"), &path).unwrap();
    let recovery = kiai_editor::app::recovery_path(Some(&path));
    let mut h = editor(&path);
    h.state_mut().model.autosave_every = std::time::Duration::ZERO;
    common::key(&mut h, Key::V);
    let (from, to) = (screen(&h, 25.0, 10.0), screen(&h, 20.0, 10.0));
    drag(&mut h, from, to);
    h.run_steps(2);
    assert!(recovery.exists(), "autosaved");

    // Undone back to the saved state, then Ctrl+Q: no prompt, no file.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(!h.state().doc().is_dirty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Q);
    close_window(&mut h);
    assert!(!recovery.exists(), "removed at the saved state");
    assert!(h.query_by_label("Unsaved changes").is_none(), "no prompt");

    // Next start: edited, autosaved, quit with Discard: no file either.
    let mut h = editor(&path);
    assert!(h.query_by_label("Recover unsaved changes?").is_none());
    h.state_mut().model.autosave_every = std::time::Duration::ZERO;
    common::key(&mut h, Key::V);
    drag(&mut h, from, to);
    h.run_steps(2);
    assert!(recovery.exists(), "autosaved again");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Q);
    close_window(&mut h);
    h.get_by_label("Discard").click();
    h.run_steps(2);
    close_window(&mut h);
    assert!(!recovery.exists(), "removed at a quit that discards");

    let h = editor(&path);
    assert!(h.query_by_label("Recover unsaved changes?").is_none());
}

/// Opens the map's right-click menu at `pos`.
fn right_click(h: &mut egui_kittest::Harness<'_, kiai_editor::EditorApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    h.step();
}

/// Item 7: after Esc closes the right-click menu, the next click on the
/// map selects (three times over).
#[test]
fn the_next_click_after_esc_closes_a_menu_selects() {
    let village = common::root().join("content/demo/village.ron");
    let mut h = editor(&village);
    common::key(&mut h, Key::V);
    let def = h.state().doc().def().clone();
    for (k, a) in def.agents.iter().enumerate().take(3) {
        let empty = screen(&h, a.pos.0 + 4.0, a.pos.2 + 4.0);
        right_click(&mut h, empty);
        assert!(
            h.query_by_label("Select and inspect").is_some(),
            "the menu is open"
        );
        common::key(&mut h, Key::Escape);
        h.run_steps(2);
        assert!(
            h.query_by_label("Select and inspect").is_none(),
            "Esc closed it"
        );
        let p = screen(&h, a.pos.0, a.pos.2);
        common::click(&mut h, p);
        assert_eq!(
            h.state().selected_agent(),
            Some(k),
            "try {k}: the click selects"
        );
    }
}

/// Item 7, the console: clicking a script error's line opens its file
/// with the system's opener and says so; when there is no opener, the
/// status bar says how to open it instead.
#[test]
fn clicking_a_console_error_opens_the_file_or_says_how() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    std::fs::write(
        dir.path().join("scripts/guard.lua"),
        "function decide(agent, ctx)\n  return (\nend\n",
    )
    .unwrap();
    let mut h = editor(&guards);
    h.get_by_label("Console").click();
    h.run_steps(3);
    common::key(&mut h, Key::Period);
    h.run_steps(3);
    let line = |h: &egui_kittest::Harness<'_, kiai_editor::EditorApp>| {
        use egui_kittest::kittest::NodeT;
        h.query_all_by(|n| {
            n.role() == egui::accesskit::Role::Label
                && n.value()
                    .is_some_and(|v| v.starts_with("[0]") && v.contains("guard.lua:"))
        })
        .next()
        .expect("the error is in the console")
        .accesskit_node()
        .value()
        .unwrap()
    };
    let text = line(&h);
    let status = |h: &egui_kittest::Harness<'_, kiai_editor::EditorApp>| {
        h.state()
            .model
            .status
            .clone()
            .map(|s| s.0)
            .unwrap_or_default()
    };

    h.state_mut().opener = "kiai-no-such-opener".into();
    h.query_all_by_value(&text).next().unwrap().click();
    h.run_steps(2);
    assert!(
        status(&h).starts_with("cannot open ") && status(&h).contains("guard.lua:3"),
        "{}",
        status(&h)
    );

    h.state_mut().opener = "true".into();
    h.query_all_by_value(&text).next().unwrap().click();
    h.run_steps(2);
    assert!(status(&h).starts_with("opening "), "{}", status(&h));
}

/// Item 5: at 800x600 the transport bar wraps instead of clipping (the
/// tick slider, the tick and the hash are inside the window), every tab
/// of the right-hand group fits its bar, and the map keeps a usable area;
/// made larger, the map is framed again.
#[test]
fn an_800x600_window_is_usable() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let mut h = common::editor_sized(&guards, true, egui::Vec2::new(800.0, 600.0));
    common::key(&mut h, Key::Period);
    h.run_steps(3);
    let image = h.render().unwrap();
    image
        .save(Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-800x600.png"))
        .unwrap();
    if std::env::var_os("KIAI_UPDATE_SCREENSHOT").is_some() {
        image
            .save(common::root().join("docs/editor-800x600.png"))
            .unwrap();
    }
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0));
    let inside = |r: egui::Rect| window.contains_rect(r);
    let text = |n: &egui_kittest::kittest::AccessKitNode<'_>| n.label().or_else(|| n.value());
    let status = h
        .query_all_by(|n| text(n).is_some_and(|l| l.starts_with("tick 1 | state ")))
        .next()
        .expect("the tick and the hash");
    assert!(inside(status.rect()), "hash inside: {:?}", status.rect());
    let slider = h.get_by_role_and_label(egui::accesskit::Role::Slider, "tick");
    assert!(inside(slider.rect()), "slider inside: {:?}", slider.rect());
    for tab in [
        "Inspector",
        "Why",
        "Profiles",
        "Cost lists",
        "Outliner",
        "Validation",
    ] {
        let r = h.get_by_label(tab).rect();
        assert!(inside(r), "{tab} tab inside: {r:?}");
    }
    let map = h.state().views.canvas.map_rect();
    assert!(map.width() >= 480.0 && map.height() >= 300.0, "map {map:?}");
    let bounds = h.state().doc().def().bounds.unwrap();
    for (x, z) in [(bounds.min.0, bounds.min.2), (bounds.max.0, bounds.max.2)] {
        assert!(
            map.expand(1.0).contains(screen(&h, x, z)),
            "framed at 800x600"
        );
    }

    h.set_size(egui::vec2(1400.0, 900.0));
    h.run_steps(3);
    let map = h.state().views.canvas.map_rect();
    let (a, b) = (
        screen(&h, bounds.min.0, bounds.min.2),
        screen(&h, bounds.max.0, bounds.max.2),
    );
    let framed = egui::Rect::from_two_pos(a, b);
    assert!(
        map.expand(1.0).contains_rect(framed),
        "{framed:?} in {map:?}"
    );
    assert!(
        framed.width() > map.width() * 0.6 || framed.height() > map.height() * 0.6,
        "framed again, not left small: {framed:?} in {map:?}"
    );
}

/// Item 8: a breakpoint's words name the old target as well as the new
/// one (`chase intruder_4 -> chase intruder_2`).
#[test]
fn a_decision_change_names_the_old_target() {
    use kiai_core::{BehaviourState, EventKind};
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let mut h = editor(&guards);
    common::key(&mut h, Key::Period);
    h.run_steps(2);
    let sim = h.state_mut().model.sim.as_mut().unwrap();
    for _ in 0..2000 {
        sim.step();
        let world = sim.world();
        let names = world.agents().names().to_vec();
        let retarget = world.events().iter().find_map(|e| match e.kind {
            EventKind::DecisionChanged { agent, from, to }
                if from == BehaviourState::Chase && to.state == BehaviourState::Chase =>
            {
                Some((agent.index(), to.target?))
            }
            _ => None,
        });
        if let Some((slot, to)) = retarget {
            use kiai_editor::model::breakpoints::{Breakpoint, Breakpoints, Trigger, Who};
            let on = Breakpoint::new(Who::Agent(names[slot].clone()), [Trigger::Decision]);
            let hit = sim
                .check(&Breakpoints(vec![on]))
                .expect("the breakpoint stops");
            let words = hit.cause;
            let Some(rest) = words.strip_prefix("decision changed: chase ") else {
                // A script's `investigate` (a chase toward a place).
                continue;
            };
            let new = &names[to.index()];
            assert!(words.ends_with(&format!(" -> chase {new}")), "{words}");
            let old = rest.split(" -> ").next().unwrap_or_default();
            assert!(
                names.iter().any(|n| n == old),
                "the old target named: {words}"
            );
            return;
        }
    }
    panic!("no guard changed whom it chases in 2000 ticks");
}

/// Item 8: a new map's defaults. Snapping is on, so waypoints clicked
/// about 10 units apart save as whole numbers; the agents placed with
/// their archetype and faction made for them validate without a warning;
/// the link menu offers only the costs a link does not have; a faction
/// typo reads "unknown faction", not the runtime's "handle".
#[test]
fn a_new_map_is_snapped_and_warning_free() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mymap.ron");
    let mut h = editor(&path);
    assert!(h.state().model.tools.snap, "snap on by default");
    common::key(&mut h, Key::W);
    for x in [-10.13, 0.07] {
        let p = screen(&h, x, 0.21);
        common::click(&mut h, p);
    }
    common::key(&mut h, Key::A);
    for x in [-6.0, 0.0, 6.0] {
        let p = screen(&h, x, 8.0);
        common::click(&mut h, p);
    }
    let def = h.state().doc().def().clone();
    assert_eq!(def.waypoints[0].pos, (-10.0, 0.0, 0.0));
    assert_eq!(def.waypoints[1].pos, (0.0, 0.0, 0.0));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.step();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("pos: (-10.0, 0.0, 0.0)"), "{saved}");
    // Link the two waypoints; the menu of a ×1 link offers no ×1.
    common::key(&mut h, Key::L);
    let (a, b) = (screen(&h, -10.0, 0.0), screen(&h, 0.0, 0.0));
    common::click(&mut h, a);
    common::click(&mut h, b);
    assert_eq!(h.state().doc().def().links.len(), 1);
    // Linked waypoints and agents made with the editor's defaults: no
    // warning.
    h.get_by_label("Validation").click();
    wait_until(&mut h, "no problems", |h| {
        h.query_by_label("No problems").is_some()
    });
    assert_eq!(h.state().model.validation.counts(), (0, 0));

    common::key(&mut h, Key::V);
    let mid = screen(&h, -5.0, 0.0);
    right_click(&mut h, mid);
    assert!(h.query_by_label_contains("Cost ×1 in").is_none());
    h.query_by_label_contains("Cost ×5 in").unwrap().click();
    h.run_steps(2);
    right_click(&mut h, mid);
    assert!(h.query_by_label_contains("Cost ×1 in").is_some());
    assert!(h.query_by_label_contains("Cost ×5 in").is_none());
    common::key(&mut h, Key::Escape);

    // A faction typo.
    let old = h.state().doc().def().agents[0].clone();
    let mut new = old.clone();
    new.faction = "bleu".into();
    h.state_mut()
        .model
        .apply(Command::Edit(EditCommand::Apply(Edit::Set {
            index: 0,
            old: Item::Agent(old),
            new: Item::Agent(new),
        })));
    common::key(&mut h, Key::Period);
    h.run_steps(2);
    let error = h.state().model.sim_error.clone().unwrap_or_default();
    assert!(error.contains("unknown faction `bleu`"), "{error}");
    assert!(!error.contains("handle"), "{error}");
}
