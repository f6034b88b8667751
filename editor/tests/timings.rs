//! The Timings tab as a designer reads it: every stage (and the tick's
//! upkeep) with its worst tick beside its last, the worst tick of the run
//! named above the plot, and the whole tick's median and 99th percentile
//! beside its mean.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use egui_kittest::kittest::{NodeT, Queryable};

mod common;
use common::{editor, play_until, root};

#[test]
fn the_timings_tab_names_the_worst_tick_the_p99_and_each_stages_max() {
    let mut h = editor(&root().join("content/demo/village.ron"));
    play_until(&mut h, 30);
    h.get_by_label("Timings").click();
    h.run_steps(2);
    // A label's text is its accessibility label or value (a label shows
    // both: count each text once).
    let mut labels: Vec<String> = h
        .query_all_by(|n| n.label().or_else(|| n.value()).is_some())
        .filter_map(|n| {
            let n = n.accesskit_node();
            n.label().or_else(|| n.value())
        })
        .collect();
    labels.sort();
    labels.dedup();
    // For a person to look at (next to the test's other output).
    if let Ok(image) = h.render() {
        let _ = image
            .save(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-timings.png"));
    }
    let worst: Vec<&String> = labels
        .iter()
        .filter(|l| l.starts_with("worst tick "))
        .collect();
    assert_eq!(worst.len(), 1, "{labels:?}");
    let sim = h.state().model.sim.as_ref().unwrap();
    let kept = sim.timings.len();
    assert!(
        worst[0].contains(&format!("(of the last {kept}; now ")),
        "{}",
        worst[0]
    );
    // The whole tick's median and 99th percentile beside the mean, once.
    let spread: Vec<&String> = labels.iter().filter(|l| l.starts_with("p50 ")).collect();
    assert_eq!(spread.len(), 1, "{labels:?}");
    assert!(
        spread[0].contains(" ms, p99 ")
            && spread[0].contains(" ms, mean ")
            && spread[0].ends_with(" ms (whole tick)"),
        "{}",
        spread[0]
    );
    // Every stage, and the upkeep (the tick's work outside them: the
    // whole tick is their sum, as `kiai run` times it).
    let names = kiai_editor::model::sim::timed_names();
    assert_eq!(names.last(), Some(&"upkeep"));
    for stage in names {
        // The upkeep's line is dashed, and so is its legend's mark.
        let mark = if stage == "upkeep" { "╍" } else { "━" };
        let line = labels
            .iter()
            .find(|l| l.starts_with(&format!("{mark} {stage} ")))
            .unwrap_or_else(|| panic!("no legend for {stage} in {labels:?}"));
        assert!(
            line.contains(" ms (max ") && line.ends_with(" ms)"),
            "{line}"
        );
    }
}
