//! The editor's recording of a scripted run replays exactly, with a script
//! that takes its decisions from the order `pairs` and `next` visit table
//! keys in (`tests/data/iteration_order.lua`): recording, scrubbing back
//! (scripted runs replay from tick 0) and a replay of the saved recording
//! all give the hashes `kiai run`'s own decider gives.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use std::path::{Path, PathBuf};

use kiai::lua::Limits;
use kiai_core::{Pipeline, state_hash};
use kiai_editor::model::sim::{LineKind, Sim, load_recording, save_recording};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

/// The state hash after each of `ticks` ticks, as `kiai run` computes it:
/// the content's world and its scripts' decider, outside the editor.
fn reference(ticks: u64) -> Vec<u64> {
    let content = kiai_content::Content::load(&data().join("iteration_order.ron")).unwrap();
    let mut world = content.world(None).unwrap();
    let (decider, errors) = kiai::lua::decider_for(&content, Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    let mut decider = decider.unwrap();
    let mut pipeline = Pipeline::new();
    (0..ticks)
        .map(|_| {
            pipeline.tick(&mut world, &mut decider);
            state_hash(&world)
        })
        .collect()
}

#[test]
fn a_recording_of_an_iteration_order_script_replays_exactly() {
    let content = kiai_content::Content::load(&data().join("iteration_order.ron")).unwrap();
    let def = content.into_def();
    let mut sim = Sim::new(&def, &data(), def.seed).unwrap();
    sim.seek(150).unwrap();
    assert!(sim.run().has_scripts());
    let errors: Vec<_> = sim
        .console
        .lines()
        .iter()
        .filter(|l| l.kind == LineKind::Error)
        .map(|l| l.text.clone())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        sim.timeline().hashes(),
        reference(150),
        "the editor's run differs from kiai run's"
    );

    // Scrubbing back rebuilds the scripted run from tick 0; every tick
    // agrees with the recorded hash.
    for t in [60u64, 1, 149, 150] {
        sim.seek(t).unwrap();
        assert_eq!(
            state_hash(sim.world()),
            sim.timeline().hashes()[t as usize - 1],
            "tick {t}"
        );
    }
    assert_eq!(sim.timeline().mismatch(), None);

    // The recording saved and opened again replays without a mismatch.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("order.kiairec");
    save_recording(&file, &sim.recording()).unwrap();
    let recording = load_recording(&file).unwrap();
    let mut replay = Sim::from_recording(&recording, &data()).unwrap();
    replay.seek(150).unwrap();
    assert_eq!(replay.timeline().mismatch(), None);
    assert_eq!(replay.timeline().hashes(), sim.timeline().hashes());
    assert_eq!(state_hash(replay.world()), state_hash(sim.world()));
}

/// A recording made as `kiai run --record` makes it (scripts and all) opens
/// in the editor and replays without a mismatch; one with events is refused
/// with the way to replay it.
#[test]
fn a_recording_from_the_command_line_opens_and_replays() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/demo");
    let content = kiai_content::Content::load(&demo.join("guards.ron")).unwrap();
    let recording = kiai::fork::record(&content, None, &[], 30).unwrap();
    assert_eq!(recording.format, 2);
    assert!(!recording.scripts.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("guards.kiairec");
    recording.save(&file).unwrap();
    let opened = load_recording(&file).unwrap();
    // The scripts replay from the recorded text: no script files here.
    let mut replay = Sim::from_recording(&opened, dir.path()).unwrap();
    replay.seek(30).unwrap();
    assert_eq!(replay.timeline().mismatch(), None);
    assert_eq!(replay.timeline().hashes(), recording.hashes);

    let arena = kiai_content::Content::load(&demo.join("arena.ron")).unwrap();
    let events = kiai_content::events::EventsDef::from_str(
        &std::fs::read_to_string(demo.join("../events/arena.events.ron")).unwrap(),
        "arena.events.ron",
    )
    .unwrap();
    let with_events = kiai::fork::record(&arena, None, &events.events, 5).unwrap();
    let Err(e) = Sim::from_recording(&with_events, dir.path()) else {
        panic!("a recording with events opened");
    };
    assert!(
        e.contains("the editor cannot replay events: `kiai fork"),
        "{e}"
    );
}
