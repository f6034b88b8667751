//! Breakpoints: the run pauses on the tick a chosen agent (or any agent of
//! an archetype) changes its decision, starts sensing someone, or its
//! script fails — the tick a run outside the editor shows it happening —
//! selects that agent, and the Why tab says why it stopped. "Next event"
//! steps the selected agent to its next event.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use common::{click, copy_guards, editor, key, root, run_to, screen};
use eframe::egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kiai_core::AgentId;
use kiai_editor::EditorApp;
use kiai_editor::model::breakpoints::{Breakpoint, Trigger, Who};
use kiai_editor::model::sim::{LineKind, Sim};
use kiai_editor::model::{BreakpointCommand, Command, SelectCommand};

/// Presses Play and steps frames until the run pauses by itself.
fn play_until_paused(h: &mut Harness<'_, EditorApp>) {
    h.key_press(Key::Space);
    h.step();
    let start = Instant::now();
    while h.state().model.sim.as_ref().is_some_and(|s| s.playing) {
        h.step();
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the run never stopped at the breakpoint"
        );
    }
    h.run_steps(3);
}

/// The text of the first label that starts with `prefix`.
fn label_starting(h: &Harness<'_, EditorApp>, prefix: &str) -> Option<String> {
    let text = |n: &egui_kittest::kittest::AccessKitNode<'_>| n.label().or_else(|| n.value());
    let node = h.query_all_by(|n| text(n).is_some_and(|l| l.starts_with(prefix)));
    node.map(|n| text(&n.accesskit_node()).unwrap_or_default())
        .next()
}

/// Everything the Why tab shows about the stop: the stop line.
fn why_stop_line(h: &mut Harness<'_, EditorApp>) -> String {
    h.get_by_label("Why").click();
    h.run_steps(3);
    label_starting(h, "Stopped at tick ").expect("the Why tab says where it stopped")
}

/// A run outside the editor's UI, at the seed the editor plays with.
fn reference(h: &Harness<'_, EditorApp>, dir: &std::path::Path) -> Sim {
    let m = &h.state().model;
    Sim::new(m.doc.def(), dir, m.live_seed).unwrap()
}

#[test]
fn a_decision_breakpoint_stops_on_the_tick_the_agent_changes_its_mind() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    run_to(&mut h, 40);

    // Select raider_2 on the map and add the breakpoint from its tab.
    let (slot, p) = {
        let sim = h.state().model.sim.as_ref().unwrap();
        let slot = sim.world().agents().find("raider_2").unwrap().index();
        (slot, sim.world().agents().positions()[slot])
    };
    key(&mut h, Key::V);
    let at = screen(&h, p.x, p.z);
    click(&mut h, at);
    assert_eq!(h.state().selected_agent(), Some(slot));
    h.get_by_label("Breakpoints").click();
    h.run_steps(3);
    let add = h
        .query_all_by(|n| n.label().is_some_and(|l| l.ends_with("Add breakpoint")))
        .next()
        .expect("an Add breakpoint button");
    add.click();
    h.run_steps(2);
    assert_eq!(
        h.state().model.breakpoints.0,
        vec![Breakpoint::new(
            Who::Agent("raider_2".to_owned()),
            [Trigger::Decision]
        )]
    );

    // Outside the editor: the first tick after 40 whose decision (state
    // or target) differs from the tick before.
    let mut sim = reference(&h, village.parent().unwrap());
    sim.seek(40).unwrap();
    let mut before = sim.world().agents().decisions()[slot];
    let expected = loop {
        sim.step();
        let now = sim.world().agents().decisions()[slot];
        if now.state != before.state || now.target != before.target {
            break (sim.tick(), before, now);
        }
        before = now;
        assert!(sim.tick() < 2000, "raider_2 never changes its mind");
    };

    play_until_paused(&mut h);
    let sim = h.state().model.sim.as_ref().unwrap();
    assert_eq!(sim.tick(), expected.0, "stopped on the tick it changed");
    let hit = sim.hit.clone().expect("a breakpoint stopped it");
    assert_eq!((hit.agent, hit.name.as_str()), (slot, "raider_2"));
    assert_eq!(hit.breakpoint, Some(0));
    assert_eq!(h.state().selected_agent(), Some(slot), "it is selected");
    let (_, from, to) = expected;
    assert!(
        label_starting(&h, "Stopped at tick ").is_some(),
        "the Why tab comes forward by itself"
    );
    let line = why_stop_line(&mut h);
    let words = |s: kiai_core::BehaviourState| s.name().replace('_', " ");
    // The old target is named too (`chase baker -> random walk`).
    let names = h
        .state()
        .model
        .sim
        .as_ref()
        .unwrap()
        .world()
        .agents()
        .names()
        .to_vec();
    let old_target = from
        .target
        .map_or_else(String::new, |t| format!(" {}", names[t.index()]));
    assert!(
        line.starts_with(&format!(
            "Stopped at tick {}: raider_2 — decision changed: {}{old_target} -> {}",
            expected.0,
            words(from.state),
            words(to.state)
        )),
        "{line}"
    );
    assert!(
        label_starting(&h, "breakpoint: raider_2: decision changes").is_some(),
        "the Why tab names the breakpoint"
    );
}

/// The agents each sense of every agent senses now, by slot.
fn sensed(sim: &Sim) -> Vec<Vec<BTreeSet<usize>>> {
    let world = sim.world();
    let agents = world.agents();
    (0..agents.len())
        .map(|slot| {
            let archetype = agents.archetypes()[slot];
            let senses = world.archetypes()[archetype.index()].senses.len();
            (0..senses)
                .map(|s| {
                    world
                        .percepts()
                        .sensed(AgentId::from_index(slot), s)
                        .iter()
                        .map(|a| a.index())
                        .collect()
                })
                .collect()
        })
        .collect()
}

#[test]
fn an_archetype_percept_breakpoint_stops_when_one_of_them_starts_sensing_someone() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let mut h = editor(&guards);
    run_to(&mut h, 20);
    h.state_mut()
        .model
        .apply(Command::Breakpoint(BreakpointCommand::Add(
            Breakpoint::new(Who::Archetype("guard".to_owned()), [Trigger::Gained]),
        )));

    // Outside the editor: the first tick after 20 at which a guard senses
    // someone it did not sense the tick before, and who gained whom.
    let mut sim = reference(&h, guards.parent().unwrap());
    sim.seek(20).unwrap();
    let is_guard = |sim: &Sim, slot: usize| {
        let a = sim.world().agents().archetypes()[slot];
        sim.world().archetypes()[a.index()].name == "guard"
    };
    let mut before = sensed(&sim);
    let (tick, gained) = loop {
        sim.step();
        let now = sensed(&sim);
        let gained: Vec<(usize, usize)> = (0..now.len())
            .filter(|&slot| is_guard(&sim, slot))
            .flat_map(|slot| {
                let (now, before) = (&now[slot], &before[slot]);
                now.iter()
                    .zip(before)
                    .flat_map(|(n, b)| n.difference(b).copied().collect::<Vec<_>>())
                    .map(move |target| (slot, target))
                    .collect::<Vec<_>>()
            })
            .collect();
        if !gained.is_empty() {
            break (sim.tick(), gained);
        }
        before = now;
        assert!(sim.tick() < 2000, "no guard ever sees anyone");
    };

    play_until_paused(&mut h);
    let sim = h.state().model.sim.as_ref().unwrap();
    assert_eq!(sim.tick(), tick, "stopped on the tick a guard saw someone");
    let hit = sim.hit.clone().expect("the breakpoint stopped it");
    let target_name = |t: usize| sim.world().agents().names()[t].clone();
    let (_, target) = *gained
        .iter()
        .find(|(slot, _)| *slot == hit.agent)
        .unwrap_or_else(|| panic!("{} gained nobody at tick {tick}", hit.name));
    assert!(hit.name.starts_with("guard_"), "{}", hit.name);
    let target = target_name(target);
    let line = why_stop_line(&mut h);
    assert!(
        line.contains(&format!("started sensing {target}")),
        "{line}"
    );
}

#[test]
fn a_script_error_breakpoint_stops_on_the_failing_tick() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    // The captain's script fails once, at its 37th tick.
    let script = dir.path().join("scripts/captain.lua");
    let good = std::fs::read_to_string(&script).unwrap();
    let broken = good.replacen(
        "function decide(agent, ctx)",
        "function decide(agent, ctx)\n  if ctx.tick == 37 then error(\"radio broke\") end",
        1,
    );
    assert_ne!(broken, good, "captain.lua has a decide function");
    std::fs::write(&script, broken).unwrap();

    let mut h = editor(&guards);
    run_to(&mut h, 5);
    h.state_mut()
        .model
        .apply(Command::Breakpoint(BreakpointCommand::Add(
            Breakpoint::new(Who::Agent("captain".to_owned()), [Trigger::ScriptError]),
        )));

    // Outside the editor: the tick (ticks run, as the transport bar counts)
    // after which the console shows the error.
    let mut sim = reference(&h, guards.parent().unwrap());
    let failed_at = loop {
        sim.step();
        let error = sim
            .console
            .lines()
            .iter()
            .find(|l| l.kind == LineKind::Error && l.text.contains("radio broke"));
        if let Some(l) = error {
            assert_eq!(
                l.tick,
                sim.tick(),
                "the console numbers it as the transport bar"
            );
            break sim.tick();
        }
        assert!(sim.tick() < 200, "the captain's script never failed");
    };

    play_until_paused(&mut h);
    let sim = h.state().model.sim.as_ref().unwrap();
    assert_eq!(sim.tick(), failed_at);
    let hit = sim.hit.clone().expect("the breakpoint stopped it");
    assert_eq!(hit.name, "captain");
    let line = why_stop_line(&mut h);
    assert!(
        line.starts_with(&format!(
            "Stopped at tick {failed_at}: captain — its script failed: "
        )) && line.contains("captain.lua:")
            && line.contains("radio broke"),
        "{line}"
    );

    // Playing on, the run does not stop again: the script works after.
    h.key_press(Key::Space);
    let start = Instant::now();
    while h.state().model.sim.as_ref().unwrap().tick() < failed_at + 30 {
        h.step();
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "it stopped again"
        );
    }
}

#[test]
fn next_event_steps_the_selected_agent_to_its_next_event() {
    let village = root().join("content/demo/village.ron");
    let mut h = editor(&village);
    run_to(&mut h, 40);
    let slot = {
        let sim = h.state().model.sim.as_ref().unwrap();
        sim.world().agents().find("raider_1").unwrap().index()
    };
    h.state_mut()
        .model
        .apply(Command::Select(SelectCommand::Set(vec![
            kiai_editor::Sel::Agent(slot),
        ])));
    h.run_steps(2);

    // Outside the editor: the first tick after 40 with an event about it.
    let mut sim = reference(&h, village.parent().unwrap());
    sim.seek(40).unwrap();
    let expected = loop {
        sim.step();
        if let Some(cause) = sim.event_of(slot) {
            break (sim.tick(), cause);
        }
        assert!(sim.tick() < 2000, "nothing ever happens to raider_1");
    };

    let next = h
        .query_all_by(|n| n.label().is_some_and(|l| l.ends_with("Next event")))
        .next()
        .expect("a Next event button");
    next.click();
    h.run_steps(3);
    let sim = h.state().model.sim.as_ref().unwrap();
    assert_eq!(sim.tick(), expected.0);
    assert!(!sim.playing);
    let line = why_stop_line(&mut h);
    assert_eq!(
        line,
        format!("Stopped at tick {}: raider_1 — {}", expected.0, expected.1)
    );
}

/// A scripted agent's decision change is told with the names its script
/// gives its states (`investigate`), as the map and the legend show them,
/// not the runtime's state under them.
#[test]
fn a_scripted_decision_change_is_told_with_the_scripts_state_names() {
    let dir = tempfile::tempdir().unwrap();
    let guards = copy_guards(dir.path());
    let mut h = editor(&guards);
    h.state_mut()
        .model
        .apply(Command::Breakpoint(BreakpointCommand::Add(
            Breakpoint::new(Who::Agent("guard_3".to_owned()), [Trigger::Decision]),
        )));

    // Outside the editor: the first tick guard_3's decision changes, and
    // the state names before and after, as the run records them.
    let mut sim = reference(&h, guards.parent().unwrap());
    let slot = sim.world().agents().find("guard_3").unwrap().index();
    let mut before = sim.world().agents().decisions()[slot];
    let (tick, from, to) = loop {
        sim.step();
        let now = sim.world().agents().decisions()[slot];
        if now.state != before.state || now.target != before.target {
            let t = sim.tick();
            let from = match t {
                1 => before.state.name().replace('_', " "),
                _ => sim.timeline().state_name_at(slot, t - 1).unwrap(),
            };
            break (t, from, sim.timeline().state_name_at(slot, t).unwrap());
        }
        before = now;
        assert!(sim.tick() < 500, "guard_3 never changes its mind");
    };
    assert!(
        sim.run().script_label(slot).is_some(),
        "its script names the state it is in"
    );
    assert_eq!(to, sim.run().script_label(slot).unwrap().replace('_', " "));

    play_until_paused(&mut h);
    assert_eq!(h.state().model.sim.as_ref().unwrap().tick(), tick);
    let line = why_stop_line(&mut h);
    assert!(
        line.starts_with(&format!(
            "Stopped at tick {tick}: guard_3 — decision changed: {from} -> {to}"
        )),
        "{line}"
    );
}
