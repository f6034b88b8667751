//! Keeping the thread pool awake through a tick.
//!
//! A tick splits its work over the rayon pool many times (every stage, and
//! several passes inside some). Between those parallel passes the pool's
//! other threads run out of work and, after a short spin, go to sleep; the
//! next pass then waits for one to wake. On a virtual machine that wake-up
//! costs tens of microseconds per pass (measured in BENCHMARKS.md: 17–95 µs
//! lost per parallel pass of 0.1–2 ms on 2 cores; 2–9 µs with the other
//! thread kept awake), a part of what keeps a 2-thread tick from running
//! twice as fast as a 1-thread one.
//!
//! So while a tick runs, [`while_awake`] puts one *keeper* job on the pool.
//! The first thread to steal from the tick's thread takes it, and the
//! keeper then takes the pool's pending work as it appears
//! ([`rayon::yield_now`]) and spins while there is none, so the next
//! parallel pass finds that thread awake. Only one: a second keeper would
//! mostly be taken by the first (a keeper's own steals take the oldest job
//! of the tick's thread), so on pools of more threads the others still
//! wake as rayon wakes them. Results never depend on it: it only changes
//! which thread runs a piece of work, never what the piece computes.
//! [`Pipeline::set_threads_awake`](crate::Pipeline::set_threads_awake)
//! turns it off.
//!
//! Why a keeper never holds up its own tick: it is pushed on the tick's
//! thread's queue before any of the tick's work, and other threads steal
//! the oldest job of a queue first, so no piece of the tick leaves that
//! thread before the keeper has; whoever runs a piece of the tick either
//! runs it above the keeper (inside it) or never sees the keeper. (Pushing
//! the keeper after any work, or spawning it with `spawn_broadcast`, would
//! lose this.) A keeper that starts on a thread already inside a tick or a
//! keeper returns at once; one that finds no work for [`IDLE_LIMIT`]
//! returns. A keeper taken up by a thread that waits inside a piece of
//! *another* tick on the same pool (ticks side by side, as `kiai test`
//! runs scenarios) makes that tick wait until this one ends or its keeper
//! goes idle: a delay, never a deadlock.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::par;

/// How long a keeper waits without finding work before it lets its thread
/// sleep: longer than most sequential parts of a tick (the fog update, 0.5
/// ms at 10k agents; scripts deciding, 0.5–4 ms), short enough that a
/// keeper stranded by unrelated work costs only a moment. (The clock
/// decides only when a thread may sleep, never what a tick computes.)
const IDLE_LIMIT: Duration = Duration::from_millis(4);

/// Idle rounds between looks at the clock, and before a keeper offers its
/// core to other threads (`sched_yield`) on every idle round.
const SPINS: u32 = 64;

thread_local! {
    /// Whether this thread is running a tick under [`while_awake`] or a
    /// keeper.
    static BUSY: Cell<bool> = const { Cell::new(false) };
}

/// Runs `body` (a tick) with another thread of the current pool kept
/// awake until it returns, when `wanted`. Unless `wanted`, on a thread
/// outside any rayon pool, in a pool of one thread, or on a thread already
/// running a tick or a keeper, it just runs `body`.
pub(crate) fn while_awake<R>(wanted: bool, body: impl FnOnce() -> R) -> R {
    if !wanted
        || rayon::current_num_threads() < 2
        || rayon::current_thread_index().is_none()
        || BUSY.get()
    {
        return body();
    }
    #[cfg(test)]
    tests::LIVE.fetch_add(1, Ordering::SeqCst);
    let done = Arc::new(AtomicBool::new(false));
    let keeper = Arc::clone(&done);
    // Pushed on this thread's queue before any of the tick's work: see the
    // module docs.
    rayon::spawn(move || keep(&keeper));
    let _end = End {
        done,
        was_busy: BUSY.replace(true),
        was_kept: par::set_kept_awake(true),
    };
    body()
}

/// Ends the keeper (and restores this thread's flags) when the tick
/// returns or unwinds.
struct End {
    done: Arc<AtomicBool>,
    was_busy: bool,
    was_kept: bool,
}

impl Drop for End {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Release);
        BUSY.set(self.was_busy);
        par::set_kept_awake(self.was_kept);
    }
}

/// A keeper: runs the pool's work until `done`, or until there has been
/// none for [`IDLE_LIMIT`].
fn keep(done: &AtomicBool) {
    #[cfg(test)]
    let _live = tests::Live;
    if BUSY.replace(true) {
        return;
    }
    let mut idle_rounds = 0u32;
    let mut idle_since = Instant::now();
    while !done.load(Ordering::Acquire) {
        if let Some(rayon::Yield::Executed) = rayon::yield_now() {
            idle_rounds = 0;
            continue;
        }
        if idle_rounds == 0 {
            idle_since = Instant::now();
        }
        idle_rounds += 1;
        if idle_rounds < SPINS {
            std::hint::spin_loop();
            continue;
        }
        std::thread::yield_now();
        if idle_rounds.is_multiple_of(SPINS) && idle_since.elapsed() > IDLE_LIMIT {
            break;
        }
    }
    BUSY.set(false);
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use rayon::prelude::*;

    use super::while_awake;

    /// Keepers spawned and not yet returned, over every test of this
    /// module (they run one at a time: see `ONE_AT_A_TIME`).
    pub(super) static LIVE: AtomicUsize = AtomicUsize::new(0);

    /// Counts a keeper out when it returns.
    pub(super) struct Live;

    impl Drop for Live {
        fn drop(&mut self) {
            LIVE.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// The tests count keepers in one global.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Waits (at most ten seconds) until every keeper has returned.
    fn keepers_gone() -> bool {
        let start = Instant::now();
        while LIVE.load(Ordering::SeqCst) != 0 {
            if start.elapsed() > Duration::from_secs(10) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    /// A tick-shaped body: parallel passes with serial work between.
    fn passes(seed: u64) -> u64 {
        (0..4u64)
            .map(|pass| {
                let sum: u64 = (0..20_000u32)
                    .into_par_iter()
                    .with_min_len(1024)
                    .map(|i| (u64::from(i) ^ seed).wrapping_mul(pass + 0x9e37_79b9))
                    .sum();
                sum.rotate_left(pass as u32)
            })
            .fold(0, |a, b| a ^ b)
    }

    #[test]
    fn a_kept_tick_computes_what_a_plain_one_does_and_its_keepers_end() {
        let _one = ONE_AT_A_TIME.lock();
        let plain = pool(1).install(|| passes(7));
        assert_eq!(pool(2).install(|| while_awake(true, || passes(7))), plain);
        assert_eq!(pool(4).install(|| while_awake(true, || passes(7))), plain);
        assert!(
            keepers_gone(),
            "{} keepers still running",
            LIVE.load(Ordering::SeqCst)
        );
    }

    #[test]
    fn keepers_end_when_the_tick_panics() {
        let _one = ONE_AT_A_TIME.lock();
        let two = pool(2);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            two.install(|| while_awake(true, || -> u64 { panic!("a tick that fails") }))
        }));
        assert!(caught.is_err());
        assert!(
            keepers_gone(),
            "{} keepers still running",
            LIVE.load(Ordering::SeqCst)
        );
        assert_eq!(
            two.install(|| while_awake(true, || passes(3))),
            pool(1).install(|| passes(3))
        );
    }

    #[test]
    fn ticks_side_by_side_and_nested_on_one_pool_all_finish() {
        let _one = ONE_AT_A_TIME.lock();
        let plain: Vec<u64> = (0..24).map(passes).collect();
        for threads in [2, 3, 4] {
            let kept: Vec<u64> = pool(threads).install(|| {
                (0..24u64)
                    .into_par_iter()
                    .map(|k| while_awake(true, || passes(k) ^ while_awake(true, || 0)))
                    .collect()
            });
            assert_eq!(kept, plain, "{threads} threads");
        }
        assert!(
            keepers_gone(),
            "{} keepers still running",
            LIVE.load(Ordering::SeqCst)
        );
    }
}
