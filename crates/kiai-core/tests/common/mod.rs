//! Helpers the tests of the tick's events share.

#![allow(dead_code)] // each test file uses its own part

use kiai_core::glam::Vec3;
use kiai_core::{AgentId, EventKind, World};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Runs `f` on a pool of `threads` threads.
pub(crate) fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("thread pool: {e}"))
        .install(f)
}

/// Moves each agent whose index `which` picks by up to `reach` on X and Z.
pub(crate) fn nudge(
    world: &mut World,
    rng: &mut ChaCha8Rng,
    which: impl Fn(usize) -> bool,
    reach: f32,
) {
    for i in (0..world.agents().len()).filter(|&i| which(i)) {
        let p = world.agents().positions()[i];
        let step = Vec3::new(
            rng.random_range(-reach..reach),
            0.0,
            rng.random_range(-reach..reach),
        );
        let _ = world.set_position(AgentId::from_index(i), p + step);
    }
}

/// Whether `kind` is one of the sense stage's events.
pub(crate) fn is_percept(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Gained { .. }
            | EventKind::Lost { .. }
            | EventKind::Heard { .. }
            | EventKind::Message { .. }
    )
}
