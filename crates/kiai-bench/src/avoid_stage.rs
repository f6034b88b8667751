//! What avoidance costs inside a tick: the avoid stage's share of the full
//! tick of the 10k-agent battle (`tick/10k`) when every walker avoids the
//! others (ORCA with the default settings), at the machine's thread count.

use kiai_core::{Avoidance, DefaultDecider, Pipeline, Stage, state_hash};

use crate::{Effort, Scenario};

/// `avoidance/stage share/10k`: ours = the avoid stage, peer = the whole
/// tick, both in ms per tick (ratio = tick / avoid; 4 or more means the
/// stage takes at most a quarter of the tick).
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let n = 10_000;
    let (warmup, ticks) = if effort.quick { (10, 30) } else { (30, 200) };
    let mut world = crate::tick::battle_with(n, 5, Some(Avoidance::default()))?;
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    for _ in 0..warmup {
        pipeline.tick(&mut world, &mut decider);
    }
    let (mut avoid, mut total) = (0.0, 0.0);
    for _ in 0..ticks {
        pipeline.tick(&mut world, &mut decider);
        let timings = pipeline.timings();
        avoid += timings.get(Stage::Avoid).as_secs_f64() * 1e3;
        total += timings.total().as_secs_f64() * 1e3;
    }
    let (avoid, total) = (avoid / ticks as f64, total / ticks as f64);
    Ok(vec![Scenario {
        name: "avoidance/stage share/10k".into(),
        ours_ms: avoid,
        peer: "the whole tick".into(),
        peer_ms: total,
        note: format!(
            "ms per tick over {ticks} ticks after {warmup}: the avoid stage against the full tick \
             (sense, decide, navigate, steer, avoid, integrate, noise, fog) of the tick/10k battle \
             ({n} walkers, sphere + cone, profiles, fog of war) with radius 0.5 and default \
             avoidance (4 s, 16 neighbours), {} threads; the avoid stage is {:.1}% of the tick; state hash {:016x}",
            rayon::current_num_threads(),
            100.0 * avoid / total.max(1e-12),
            state_hash(&world)
        ),
    }])
}
