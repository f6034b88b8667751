//! Keeping the pool's threads awake through a tick (the default inside a
//! rayon pool) changes which thread runs a piece of work, never the
//! result: the state hash after every tick is the same with the threads
//! kept awake or left to sleep, at 1, 2 and 3 threads.

mod common;

use common::{on_threads, soldiers};
use kiai_core::{DefaultDecider, Pipeline, state_hash};

/// The state hash after each of 8 ticks, on `threads` threads, with the
/// pool's threads kept `awake` or not.
fn hashes(threads: usize, awake: bool) -> Vec<u64> {
    on_threads(threads, || {
        // Enough agents that every per-agent stage splits over the threads.
        let mut world = soldiers(2_500, 120.0, 11, &[]);
        let mut pipeline = Pipeline::new();
        pipeline.set_threads_awake(awake);
        assert_eq!(pipeline.threads_awake(), awake);
        let mut decider = DefaultDecider::default();
        (0..8)
            .map(|_| {
                pipeline.tick(&mut world, &mut decider);
                state_hash(&world)
            })
            .collect()
    })
}

#[test]
fn threads_kept_awake_or_left_to_sleep_give_the_same_ticks() {
    assert!(Pipeline::new().threads_awake(), "awake is the default");
    let reference = hashes(1, false);
    for (threads, awake) in [(1, true), (2, true), (2, false), (3, true)] {
        assert_eq!(
            hashes(threads, awake),
            reference,
            "{threads} threads, awake {awake}"
        );
    }
}
