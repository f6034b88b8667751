//! How `kiai run` reports time: the mean per tick, and the typical, the
//! one-in-a-hundred and the worst tick, for the whole tick and per stage
//! (a game feels the worst tick, not the mean).

use kiai_core::{Spread, Stage, StageTimings, TickTimes};
use serde_json::{Value, json};

/// One spread as JSON: `{"mean", "p50", "p99", "max"}`, milliseconds.
fn spread_json(s: Spread) -> Value {
    json!({ "mean": s.mean, "p50": s.p50, "p99": s.p99, "max": s.max })
}

/// `"tick_ms"` (the whole tick) and `"stage_ms"` (each stage by name,
/// then `"upkeep"`: the tick's work outside its stages) for
/// `kiai run --json`.
pub(crate) fn json(times: &TickTimes) -> (Value, Value) {
    let mut stages: serde_json::Map<String, Value> = Stage::ALL
        .iter()
        .map(|&s| (s.name().to_owned(), spread_json(times.stage(s))))
        .collect();
    stages.insert(StageTimings::UPKEEP.to_owned(), spread_json(times.upkeep()));
    (spread_json(times.tick()), Value::Object(stages))
}

/// The summary's time lines: the mean per tick with each stage's and the
/// upkeep's mean (the line `kiai run` always printed), then a table of
/// mean, p50, p99 and max for the tick, every stage and the upkeep.
pub(crate) fn lines(times: &TickTimes, ms_per_tick: f64) -> Vec<String> {
    let mut means: Vec<String> = Stage::ALL
        .iter()
        .map(|&s| format!("{} {:.4}", s.name(), times.stage(s).mean))
        .collect();
    means.push(format!(
        "{} {:.4}",
        StageTimings::UPKEEP,
        times.upkeep().mean
    ));
    let mut out = vec![
        format!(
            "time        {ms_per_tick:.4} ms/tick ({})",
            means.join(", ")
        ),
        format!(
            "            {:>10} {:>9} {:>9} {:>9}  ms per tick, over {} ticks",
            "mean",
            "p50",
            "p99",
            "max",
            times.len()
        ),
    ];
    let row = |name: &str, s: Spread| {
        format!(
            "  {name:<9} {:>10.4} {:>9.4} {:>9.4} {:>9.4}",
            s.mean, s.p50, s.p99, s.max
        )
    };
    out.push(row("tick", times.tick()));
    for &s in &Stage::ALL {
        out.push(row(s.name(), times.stage(s)));
    }
    out.push(row(StageTimings::UPKEEP, times.upkeep()));
    out
}
