//! "What if…" on the timeline: fork the recorded run at the scrubbed tick
//! with edits made in the inspector, run both branches and see where they
//! part (the second timeline row, the highlighted ticks, the differences,
//! each a link to its tick). The fork's edits never reach the saved file
//! unless kept and saved; bad input is refused with what to do.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{copy_guards, editor, pixel, render, root, run_to};
use eframe::egui::accesskit::Role;
use eframe::egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kiai::fork::Difference;
use kiai_content::def::ShapeDef;
use kiai_editor::model::what_if::{Branch, Outcome};
use kiai_editor::model::{AddCommand, Command, SelectCommand, WhatIfCommand};
use kiai_editor::theme::Palette;
use kiai_editor::{EditorApp, Sel};

/// Ticks recorded before forking.
const RECORDED: u64 = 120;

/// The fork's tick.
const AT: u64 = 40;

fn text_of(n: &egui_kittest::kittest::AccessKitNode<'_>) -> Option<String> {
    n.label().or_else(|| n.value())
}

/// The texts on screen that contain `part`.
fn texts_containing(h: &Harness<'_, EditorApp>, part: &str) -> Vec<String> {
    h.query_all_by(|n| text_of(n).is_some_and(|l| l.contains(part)))
        .map(|n| text_of(&n.accesskit_node()).unwrap_or_default())
        .collect()
}

/// The one text on screen that contains `part`.
fn text_containing(h: &mut Harness<'_, EditorApp>, part: &str) -> String {
    let found = texts_containing(h, part);
    if found.is_empty()
        && let Ok(image) = h.render()
    {
        // Show what was on screen instead.
        let _ = image.save(Path::new(env!("CARGO_TARGET_TMPDIR")).join("what-if-missing-text.png"));
    }
    assert!(!found.is_empty(), "no text on screen contains {part:?}");
    found[0].clone()
}

/// Records `RECORDED` ticks, drags the timeline back to `at` and clicks
/// "What if…".
fn open_what_if(h: &mut Harness<'_, EditorApp>, at: u64) {
    run_to(h, RECORDED);
    let tick = h.get_by_role_and_label(Role::Slider, "tick");
    tick.set_value_accesskit(at as f64);
    h.run_steps(3);
    assert_eq!(h.state().model.sim.as_ref().unwrap().tick(), at);
    h.get_by_label("What if…").click();
    h.run_steps(3);
    assert!(h.state().model.what_if.is_some(), "What if… opened");
}

/// Clicks Run and steps frames until the fork's report is on screen.
fn run_fork(h: &mut Harness<'_, EditorApp>) {
    h.get_by_label("▶ Run").click();
    h.step();
    let start = Instant::now();
    while h
        .state()
        .model
        .what_if
        .as_ref()
        .is_some_and(|w| matches!(w.outcome, Outcome::Running { .. }))
    {
        std::thread::sleep(Duration::from_millis(20));
        h.step();
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the fork never finished"
        );
    }
    h.run_steps(3);
}

/// The report of the fork that ran.
fn report_of(h: &Harness<'_, EditorApp>) -> kiai::fork::Report {
    h.state()
        .model
        .what_if
        .as_ref()
        .and_then(|w| w.report())
        .cloned()
        .expect("the fork ran")
}

/// Selects archetype `name` and sets its first cone's range in the
/// inspector.
fn set_cone_range(h: &mut Harness<'_, EditorApp>, name: &str, range: f64) {
    let index = common::archetype(h, name);
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![Sel::Archetype(
            index,
        )])));
    h.run_steps(3);
    let field = h
        .query_all_by_role_and_label(Role::SpinButton, "range")
        .next()
        .expect("the inspector shows the cone's range");
    field.set_value_accesskit(range);
    h.run_steps(3);
}

/// The range of the first cone of archetype `name` in `def`.
fn cone_of(def: &kiai_content::def::ContentDef, name: &str) -> f32 {
    let senses = &def.archetypes.get(name).unwrap().senses;
    senses
        .iter()
        .find_map(|s| match s.shape {
            ShapeDef::Cone { range, .. } => Some(range),
            _ => None,
        })
        .expect("the archetype has a cone")
}

fn cone_range(h: &Harness<'_, EditorApp>, name: &str) -> f32 {
    cone_of(h.state().doc().def(), name)
}

/// The share of the pixels along the middle of `rect` from `from_x` to
/// its right end whose colour is close to `colour`.
fn share_of(shot: &common::Shot, rect: eframe::egui::Rect, from_x: f32, colour: [u8; 3]) -> f32 {
    let xs: Vec<f32> = (from_x.ceil() as i32..rect.right().floor() as i32)
        .map(|x| x as f32)
        .collect();
    let near = xs
        .iter()
        .filter(|x| {
            common::colour_distance(pixel(shot, Pos2::new(**x, rect.center().y)), colour) < 40.0
        })
        .count();
    near as f32 / xs.len().max(1) as f32
}

/// Two rows, base and fork, the fork's highlighted from tick `first`.
fn timelines_show_where_it_parts(h: &mut Harness<'_, EditorApp>, first: u64) {
    // Two rows: the base and the fork, which says where it parts.
    h.get_by_label_contains("base timeline");
    let fork_row = h.get_by_label_contains("fork timeline");
    assert_eq!(
        text_of(&fork_row.accesskit_node()).unwrap(),
        format!("fork timeline: forked at tick {AT}, differs from tick {first} to {RECORDED}")
    );
    let fork_rect = fork_row.rect();
    let base_rect = h.get_by_label_contains("base timeline").rect();
    assert!(
        fork_rect.top() > base_rect.bottom() - 1.0,
        "one row under the other"
    );

    // The ticks where they differ are drawn highlighted on the fork's row
    // only.
    let band = Palette::dark().status[1];
    let band = [band.r(), band.g(), band.b()];
    let shot = render(h);
    let x = |t: u64| fork_rect.left() + fork_rect.width() * t as f32 / RECORDED as f32;
    let on_fork = share_of(&shot, fork_rect, x(first) + 2.0, band);
    let on_base = share_of(&shot, base_rect, base_rect.left(), band);
    assert!(
        on_fork > 0.6,
        "the divergent ticks are highlighted ({on_fork})"
    );
    assert!(on_base < 0.05, "the base row is not ({on_base})");
}

/// The differences: every one at or after the fork, the first at tick
/// `first`; clicking one goes to its tick and selects its agent.
fn the_differences_are_links(h: &mut Harness<'_, EditorApp>, first: u64) {
    let lines = texts_containing(h, "tick ");
    let listed: Vec<(u64, String)> = lines
        .iter()
        .filter_map(|l| {
            let rest = l.strip_prefix("tick ")?;
            let (t, what) = rest.split_once(' ')?;
            // Not the transport bar's "tick 40 | state …".
            let what = what.trim();
            (!what.starts_with('|')).then_some(())?;
            Some((t.parse().ok()?, what.to_owned()))
        })
        .collect();
    assert!(!listed.is_empty(), "{lines:#?}");
    assert!(listed.iter().all(|(t, _)| *t >= AT), "{listed:#?}");
    assert_eq!(listed[0].0, first, "{listed:#?}");
    let (tick, what) = listed[0].clone();
    let agent = what.split([':', ' ']).next().unwrap().to_owned();
    let line = &lines[lines.iter().position(|l| l.contains(&what)).unwrap()];
    h.get_by_label(line).click();
    h.run_steps(3);
    let sim = h.state().model.sim.as_ref().unwrap();
    assert_eq!(sim.tick(), tick);
    let slot = sim.world().agents().find(&agent).unwrap().index();
    assert_eq!(h.state().selected_agent(), Some(slot));
}

#[test]
fn a_longer_cone_forks_the_run_and_the_timelines_show_where_it_parts() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_guards(dir.path());
    let original = std::fs::read(&path).unwrap();
    let mut h = editor(&path);
    open_what_if(&mut h, AT);
    let banner = text_containing(&mut h, "What if… at tick");
    assert_eq!(banner, format!("What if… at tick {AT}: 0 changes"));

    // The inspector's edit is the fork's change, not yet the map's.
    let before = cone_range(&h, "guard");
    set_cone_range(&mut h, "guard", 40.0);
    assert_eq!(cone_range(&h, "guard"), 40.0);
    assert_eq!(
        text_containing(&mut h, "What if… at tick"),
        format!("What if… at tick {AT}: 1 change")
    );
    text_containing(&mut h, "archetypes.guard.senses.eyes.shape.range=40.0");
    text_containing(&mut h, "edits here change the fork");

    run_fork(&mut h);
    let report = report_of(&h);
    let first = report
        .first_divergent_tick
        .expect("a longer cone makes the branches part");
    assert!(first >= AT, "first divergent tick {first} before the fork");
    let summary = text_containing(&mut h, "first divergent tick");
    assert!(
        summary.starts_with(&format!("first divergent tick {first}, ")),
        "{summary}"
    );

    timelines_show_where_it_parts(&mut h, first);
    the_differences_are_links(&mut h, first);

    // Cancel: the map is as it was, the file untouched.
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert!(h.state().model.what_if.is_none());
    assert!(texts_containing(&h, "fork timeline").is_empty());
    assert_eq!(cone_range(&h, "guard"), before);
    assert!(!h.state().doc().is_dirty());
    assert_eq!(std::fs::read(&path).unwrap(), original);
}

#[test]
fn a_fork_without_changes_shows_no_divergence() {
    let path = root().join("content/demo/arena.ron");
    let mut h = editor(&path);
    open_what_if(&mut h, 20);
    run_fork(&mut h);
    let summary = text_containing(&mut h, "no divergence");
    assert!(
        summary.starts_with(&format!(
            "no divergence: identical hashes to tick {RECORDED}"
        )),
        "{summary}"
    );
    let hash = h.state().model.sim.as_ref().unwrap().timeline().hashes()[RECORDED as usize - 1];
    assert!(summary.contains(&format!("{hash:016x}")), "{summary}");
    assert_eq!(
        text_of(&h.get_by_label_contains("fork timeline").accesskit_node()).unwrap(),
        "fork timeline: forked at tick 20, identical to the base"
    );
    assert!(texts_containing(&h, "differences (click").is_empty());
}

#[test]
fn the_saved_file_keeps_the_map_and_never_the_forks_edits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arena.ron");
    std::fs::copy(root().join("content/demo/arena.ron"), &path).unwrap();
    let original = std::fs::read(&path).unwrap();
    let mut h = editor(&path);
    let guard = "guard".to_owned();
    let start = cone_range(&h, &guard);

    // An edit of the map before What if… stays the map's.
    set_cone_range(&mut h, &guard, f64::from(start) + 1.0);
    h.key_press_modifiers(Modifiers::COMMAND, Key::R);
    h.run_steps(2);
    open_what_if(&mut h, 30);
    set_cone_range(&mut h, &guard, 44.0);
    assert_eq!(cone_range(&h, &guard), 44.0);

    // Saving waits until the what-if is left; undo stops where it began.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert_eq!(std::fs::read(&path).unwrap(), original);
    text_containing(&mut h, "then save");
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run_steps(2);
    }
    assert_eq!(
        cone_range(&h, &guard),
        start + 1.0,
        "undo stops at the what-if"
    );
    set_cone_range(&mut h, &guard, 44.0);
    run_fork(&mut h);
    assert_eq!(std::fs::read(&path).unwrap(), original);

    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert_eq!(cone_range(&h, &guard), start + 1.0);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let saved = kiai_content::Content::load(&path).unwrap().into_def();
    assert_eq!(
        cone_of(&saved, &guard),
        start + 1.0,
        "the map's edit is saved, the fork's is not"
    );

    // Keep changes: the fork's edit becomes the map's, unsaved until saved.
    let bytes = std::fs::read(&path).unwrap();
    h.get_by_label("What if…").click();
    h.run_steps(3);
    set_cone_range(&mut h, &guard, 50.0);
    h.get_by_label("Keep changes").click();
    h.run_steps(3);
    assert!(h.state().model.what_if.is_none());
    assert_eq!(cone_range(&h, &guard), 50.0);
    assert!(h.state().doc().is_dirty());
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn bad_input_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_guards(dir.path());
    let mut h = editor(&path);

    // No run yet: nothing to fork.
    h.state_mut()
        .model
        .apply(Command::WhatIf(WhatIfCommand::Open));
    h.run_steps(2);
    assert!(h.state().model.what_if.is_none());
    let status = h.state().model.status.clone().unwrap().0;
    assert!(status.contains("play or step first"), "{status}");

    // A fork past the recording's end.
    open_what_if(&mut h, AT);
    h.state_mut()
        .model
        .apply(Command::WhatIf(WhatIfCommand::At(RECORDED + 500)));
    h.run_steps(3);
    text_containing(&mut h, "is the end of the recording");
    assert!(h.get_by_label("▶ Run").accesskit_node().is_disabled());
    h.state_mut()
        .model
        .apply(Command::WhatIf(WhatIfCommand::Run));
    h.run_steps(3);
    let refused = text_containing(&mut h, "nothing to compare after tick");
    assert!(refused.contains("set the fork's tick earlier"), "{refused}");

    // An edit a running world cannot take: the fork says what to do.
    h.state_mut()
        .model
        .apply(Command::WhatIf(WhatIfCommand::At(AT)));
    let agents = h.state().doc().def().agents.len();
    h.state_mut()
        .model
        .apply(Command::Add(AddCommand::Agent((0.0, 0.0))));
    h.run_steps(2);
    assert_eq!(h.state().doc().def().agents.len(), agents + 1);
    run_fork(&mut h);
    let refused = text_containing(&mut h, "Undo that edit (Ctrl+Z) or Cancel");
    assert!(
        refused.contains("agents cannot be added or removed"),
        "{refused}"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc().def().agents.len(), agents);

    // Reset would rebuild the run with the fork's edits: it waits too.
    h.key_press_modifiers(Modifiers::COMMAND, Key::R);
    h.run_steps(2);
    let status = h.state().model.status.clone().unwrap().0;
    assert!(status.contains("What if… is open"), "{status}");
    assert_eq!(
        h.state().model.sim.as_ref().unwrap().timeline().recorded(),
        RECORDED
    );
}

#[test]
fn the_map_shows_either_branch_and_the_forks_run_agrees_with_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_guards(dir.path());
    let mut h = editor(&path);
    open_what_if(&mut h, AT);
    set_cone_range(&mut h, "guard", 40.0);
    run_fork(&mut h);
    let report = h
        .state()
        .model
        .what_if
        .as_ref()
        .and_then(|w| w.report())
        .cloned()
        .unwrap();

    // The fork's row name shows its run: the timeline scrubs the fork.
    h.query_all_by_label("fork").next().unwrap().click();
    h.run_steps(3);
    let w = h.state().model.what_if.as_ref().unwrap();
    assert_eq!(w.showing, Branch::Fork);
    let sim = h.state().model.sim.as_ref().unwrap();
    assert_eq!((sim.run().changed_at(), sim.tick()), (Some(AT), AT));
    text_containing(&mut h, "fork timeline");

    // At a state difference's tick, the agent is in the fork's state.
    let (tick, agent, state) = report
        .differences
        .iter()
        .find_map(|d| match d {
            Difference::State {
                tick, agent, fork, ..
            } => Some((*tick, agent.clone(), fork.replace('_', " "))),
            _ => None,
        })
        .expect("a state differs");
    let slider = h.get_by_role_and_label(Role::Slider, "tick");
    slider.set_value_accesskit(tick as f64);
    h.run_steps(3);
    let sim = h.state().model.sim.as_ref().unwrap();
    let slot = sim.world().agents().find(&agent).unwrap().index();
    assert_eq!(sim.tick(), tick);
    assert_eq!(sim.run().state_name(slot), state);
    // The map draws the fork's senses: its cone is the longer one.
    let scene = h.state().model.scene();
    let (_, guard) = scene.archetype(slot).unwrap();
    assert!(
        matches!(guard.senses[0].shape, ShapeDef::Cone { range, .. } if range == 40.0),
        "{:?}",
        guard.senses[0].shape
    );

    // To the end: the fork's hash is the report's, and the base's too.
    let slider = h.get_by_role_and_label(Role::Slider, "tick");
    slider.set_value_accesskit(report.ticks as f64);
    h.run_steps(3);
    let sim = h.state().model.sim.as_ref().unwrap();
    assert_eq!(
        sim.timeline().hashes()[report.ticks as usize - 1],
        report.hashes.1
    );
    assert_eq!(sim.timeline().mismatch(), None);
    h.query_all_by_label("base").next().unwrap().click();
    h.run_steps(3);
    let sim = h.state().model.sim.as_ref().unwrap();
    assert_eq!(sim.tick(), report.ticks, "the base goes to the fork's tick");
    assert_eq!(
        sim.timeline().hashes()[report.ticks as usize - 1],
        report.hashes.0
    );
    assert_eq!(sim.run().changed_at(), None);
    let recorded = cone_of(h.state().model.scene().def(), "guard");
    assert_eq!(recorded, 18.0, "the base keeps the recorded cone");

    // An edit after the run: the map goes back to the base.
    h.query_all_by_label("fork").next().unwrap().click();
    h.run_steps(3);
    set_cone_range(&mut h, "guard", 41.0);
    let w = h.state().model.what_if.as_ref().unwrap();
    assert_eq!(w.showing, Branch::Base);
    assert_eq!(
        h.state().model.sim.as_ref().unwrap().run().changed_at(),
        None
    );
    text_containing(&mut h, "Run again");
}

#[test]
fn a_fork_that_changes_no_state_and_no_percept_says_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_guards(dir.path());
    let mut h = editor(&path);
    open_what_if(&mut h, AT);
    let index = common::archetype(&h, "intruder");
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![Sel::Archetype(
            index,
        )])));
    h.run_steps(3);
    // A louder intruder: guards hear it louder (the state hashes part),
    // but within these ticks nobody decides otherwise or sees anyone new.
    h.query_all_by_role(Role::SpinButton)
        .find(|n| n.accesskit_node().numeric_value() == Some(60.0))
        .expect("the inspector shows the intruder's noise, 60")
        .set_value_accesskit(300.0);
    h.run_steps(3);
    run_fork(&mut h);
    let report = report_of(&h);
    assert!(report.first_divergent_tick.is_some(), "{report:?}");
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    text_containing(
        &mut h,
        "the branches differ in positions and inner state only",
    );
}
