//! The frame clock: the smoothed interval between frames and the
//! editor's own update time while frames flow (the status bar's readout),
//! and `--measure-frames N`, which prints percentiles and quits.

use std::time::Instant;

use eframe::egui;

/// Frames further apart than this are not a flow of frames: the editor
/// was idle in between (drawn only on input).
const IDLE_AFTER_MS: f32 = 250.0;

/// Frame timing.
pub(crate) struct FrameClock {
    last: Option<Instant>,
    /// Smoothed interval (ms), smoothed update time (ms), and whether the
    /// last interval was part of a flow.
    smoothed: (f32, f32, bool),
    measure: Option<(u32, Vec<f32>, Vec<f32>)>,
}

impl FrameClock {
    /// A clock; `measure`: frames to measure before quitting.
    pub(crate) fn new(measure: Option<u32>) -> Self {
        Self {
            last: None,
            smoothed: (0.0, 0.0, false),
            measure: measure.map(|n| (n, Vec::new(), Vec::new())),
        }
    }

    /// A frame begins: returns when.
    pub(crate) fn begin(&mut self) -> Instant {
        let now = Instant::now();
        if let Some(prev) = self.last.replace(now) {
            let dt = prev.elapsed().as_secs_f32() * 1e3;
            let flowing = dt < IDLE_AFTER_MS;
            self.smoothed.0 = if flowing && self.smoothed.2 {
                self.smoothed.0 * 0.9 + dt * 0.1
            } else {
                dt
            };
            self.smoothed.2 = flowing;
            if let Some((_, intervals, _)) = &mut self.measure {
                intervals.push(dt);
            }
        }
        now
    }

    /// The frame that began at `started` ends: records its update time;
    /// when measuring, asks for the next frame or prints and quits.
    pub(crate) fn end(&mut self, ctx: &egui::Context, started: Instant) {
        let update = started.elapsed().as_secs_f32() * 1e3;
        self.smoothed.1 = if self.smoothed.1 == 0.0 {
            update
        } else {
            self.smoothed.1 * 0.9 + update * 0.1
        };
        if let Some((left, _, updates)) = &mut self.measure {
            updates.push(update);
            *left = left.saturating_sub(1);
            if *left == 0 {
                if let Some((_, intervals, updates)) = self.measure.take() {
                    report(&intervals, &updates);
                }
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                ctx.request_repaint();
            }
        }
    }

    /// The interval and update time (ms) while frames flow; `None` while
    /// idle.
    pub(crate) fn readout(&self) -> Option<(f32, f32)> {
        self.smoothed
            .2
            .then_some((self.smoothed.0, self.smoothed.1))
    }
}

fn percentile(values: &[f32], p: f32) -> f32 {
    let mut v = values.to_vec();
    v.sort_by(f32::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    v[((v.len() - 1) as f32 * p).round() as usize]
}

fn report(intervals: &[f32], updates: &[f32]) {
    // Skip the first frames: fonts and textures upload then.
    let skip = |v: &[f32]| v[v.len().min(10)..].to_vec();
    let (intervals, updates) = (skip(intervals), skip(updates));
    println!(
        "frames {}: interval p50 {:.2} ms p99 {:.2} ms; update p50 {:.2} ms p99 {:.2} ms",
        intervals.len(),
        percentile(&intervals, 0.5),
        percentile(&intervals, 0.99),
        percentile(&updates, 0.5),
        percentile(&updates, 0.99),
    );
}
