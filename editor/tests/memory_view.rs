//! The Inspector's Memory section: a scripted agent's `agent.memory` as
//! the script keeps it, following the tick slider, changed keys marked,
//! and a breakpoint on a memory key.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use eframe::egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kiai_editor::EditorApp;
use kiai_editor::model::breakpoints::{Breakpoint, Who};
use kiai_editor::model::{BreakpointCommand, Command, Sel, SelectCommand};

mod common;
use common::{copy_guards, kiai_hash, scrub, tick_status};

/// The memory lines the Inspector shows (`key = value`).
fn shown(h: &Harness<'_, EditorApp>) -> Vec<String> {
    h.query_all_by(|n| {
        n.role() == eframe::egui::accesskit::Role::Label
            && n.value().is_some_and(|v| v.contains(" = "))
    })
    .map(|n| n.accesskit_node().value().unwrap_or_default())
    .collect()
}

/// The first guard whose `alert` guard.lua sets within 600 ticks: its
/// slot, the tick it is set, and a later tick when it changes.
fn alert_ticks(h: &mut Harness<'_, EditorApp>) -> (usize, u64, u64) {
    let sim = h.state_mut().model.sim.as_mut().unwrap();
    let guards: Vec<usize> = (0..sim.world().agents().len())
        .filter(|&i| {
            sim.run()
                .script_of(i)
                .is_some_and(|p| p.ends_with("guard.lua"))
        })
        .collect();
    let mut first: Vec<Option<(u64, String)>> = vec![None; guards.len()];
    for t in 1..=600 {
        sim.seek(t).unwrap();
        for (k, &g) in guards.iter().enumerate() {
            let now = sim.memory_text(g, "agent.memory.alert").unwrap();
            match &first[k] {
                None if !now.is_empty() => first[k] = Some((t, now)),
                Some((t1, was)) if *was != now => return (g, *t1, t),
                _ => {}
            }
        }
    }
    panic!("no guard's alert was set and changed in 600 ticks");
}

#[test]
fn a_key_guard_lua_sets_appears_and_changes_with_the_tick_slider() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let mut h = common::editor_with(&guards, true);
    common::key(&mut h, Key::Period);
    h.run_steps(2);
    let (guard, set, changed) = alert_ticks(&mut h);

    scrub(&mut h, set - 1);
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![Sel::Agent(guard)])));
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("Memory (tick").is_some(),
        "the Inspector has a Memory section"
    );
    assert!(
        !shown(&h).iter().any(|l| l.starts_with("alert = ")),
        "no alert before tick {set}: {:?}",
        shown(&h)
    );

    scrub(&mut h, set);
    h.run_steps(2);
    let lines = shown(&h);
    assert!(lines.contains(&"alert = {4}".to_owned()), "{lines:?}");
    let memory = h.state().model.memory().unwrap();
    assert!(memory.changed.contains("alert"), "new: highlighted");
    let at_set = memory.clone();

    scrub(&mut h, changed);
    h.run_steps(2);
    let memory = h.state().model.memory().unwrap().clone();
    assert_eq!(memory.tick, changed);
    assert_ne!(memory.entries, at_set.entries, "the alert changed");
    assert!(
        memory.changed.iter().any(|p| p.starts_with("alert.")),
        "{:?}",
        memory.changed
    );
    for e in memory
        .entries
        .iter()
        .filter(|e| memory.changed.contains(&e.path))
    {
        let line = format!("{} = {}", e.key, e.value);
        assert!(shown(&h).contains(&line), "{line} is on screen");
    }
    // Reading the memory does not change the run.
    assert_eq!(
        tick_status(&h),
        format!("tick {changed} | state {}", kiai_hash(&guards, changed))
    );

    // Kept for a look; docs/editor-memory.png changes only when asked.
    let image = h.render().expect("renders on the CPU");
    image
        .save(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-memory.png"))
        .unwrap();
    if std::env::var_os("KIAI_UPDATE_SCREENSHOT").is_some() {
        image
            .save(common::root().join("docs/editor-memory.png"))
            .unwrap();
    }

    // A breakpoint on the key stops the run on the tick it is set.
    let name = h
        .state()
        .model
        .sim
        .as_ref()
        .unwrap()
        .world()
        .agents()
        .names()[guard]
        .clone();
    h.state_mut()
        .model
        .apply(Command::Breakpoint(BreakpointCommand::Add(
            Breakpoint::on_memory(Who::Agent(name), "alert"),
        )));
    scrub(&mut h, set - 2);
    common::key(&mut h, Key::Space);
    let start = std::time::Instant::now();
    while h.state().model.sim.as_ref().unwrap().playing {
        h.step();
        assert!(start.elapsed().as_secs() < 60, "the breakpoint stops it");
    }
    let sim = h.state().model.sim.as_ref().unwrap();
    let hit = sim.hit.clone().expect("stopped by the breakpoint");
    assert_eq!((hit.tick, hit.agent), (set, guard));
    assert!(
        hit.cause.starts_with("memory `alert` changed: nil -> {"),
        "{}",
        hit.cause
    );
}
