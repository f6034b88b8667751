//! [`TickTimes`]: every tick's stage timings kept, summarised as a game
//! feels them: the typical tick, the bad one in a hundred and the worst.

use std::time::Duration;

use crate::pipeline::{Stage, StageTimings};

/// The spread of one timing over many ticks, in milliseconds (>= 0).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// The arithmetic mean.
    pub mean: f64,
    /// The median: half the ticks took at most this.
    pub p50: f64,
    /// The 99th percentile (nearest rank): one tick in a hundred took more.
    pub p99: f64,
    /// The slowest tick.
    pub max: f64,
}

impl Spread {
    /// The spread of `ms` (any order); all zero for no samples.
    pub fn of(ms: &[f64]) -> Spread {
        if ms.is_empty() {
            return Spread::default();
        }
        let mut sorted = ms.to_vec();
        sorted.sort_by(f64::total_cmp);
        // Nearest rank: the smallest value with at least p of the samples
        // at or below it.
        let rank =
            |p: f64| sorted[((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1];
        Spread {
            mean: sorted.iter().sum::<f64>() / sorted.len() as f64,
            p50: rank(0.50),
            p99: rank(0.99),
            max: sorted[sorted.len() - 1],
        }
    }
}

/// The timings of every tick of a run, one [`StageTimings`] per tick, for
/// reports that show the worst ticks beside the mean (`kiai run`, the
/// editor's timings plot, benchmarks).
#[derive(Clone, Debug, Default)]
pub struct TickTimes {
    ticks: Vec<StageTimings>,
}

impl TickTimes {
    /// No ticks yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one tick's timings (e.g. [`Pipeline::timings`](crate::Pipeline::timings)
    /// after a tick).
    pub fn push(&mut self, tick: StageTimings) {
        self.ticks.push(tick);
    }

    /// How many ticks were added.
    pub fn len(&self) -> usize {
        self.ticks.len()
    }

    /// True before the first tick.
    pub fn is_empty(&self) -> bool {
        self.ticks.is_empty()
    }

    /// Every tick's timings, in the order added.
    pub fn ticks(&self) -> &[StageTimings] {
        &self.ticks
    }

    /// The whole tick's spread (its stages and upkeep, per tick).
    pub fn tick(&self) -> Spread {
        self.spread_by(StageTimings::total)
    }

    /// One stage's spread.
    pub fn stage(&self, stage: Stage) -> Spread {
        self.spread_by(|t| t.get(stage))
    }

    /// The spread of the work outside the stages ([`StageTimings::upkeep`]).
    pub fn upkeep(&self) -> Spread {
        self.spread_by(|t| t.upkeep)
    }

    /// The sum of every tick's timings, stage by stage.
    pub fn totals(&self) -> StageTimings {
        let mut sum = StageTimings::default();
        for t in &self.ticks {
            sum.add(t);
        }
        sum
    }

    fn spread_by(&self, f: impl Fn(&StageTimings) -> Duration) -> Spread {
        let ms: Vec<f64> = self
            .ticks
            .iter()
            .map(|t| f(t).as_secs_f64() * 1e3)
            .collect();
        Spread::of(&ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hundred_ticks_with_one_slow_one_show_it_as_the_max_not_the_p99() {
        let mut times = TickTimes::new();
        for k in 0..100u64 {
            times.push(StageTimings {
                navigate: Duration::from_millis(if k == 37 { 500 } else { 1 + k % 3 }),
                sense: Duration::from_millis(1),
                ..StageTimings::default()
            });
        }
        let nav = times.stage(Stage::Navigate);
        assert_eq!(nav.max, 500.0);
        assert_eq!(nav.p99, 3.0);
        assert_eq!(nav.p50, 2.0);
        let tick = times.tick();
        assert_eq!(tick.max, 501.0);
        assert!((tick.mean - (1.0 + nav.mean)).abs() < 1e-9);
        assert_eq!(Spread::of(&[]), Spread::default());
        assert_eq!(Spread::of(&[4.0]).p99, 4.0);
    }
}
