//! The tick running on this thread, for the functions made once per
//! script state (`raw_nearest`, the batch driver) that outlive ticks and so
//! cannot borrow one: [`run_with`] publishes it in a thread-local while the
//! tick's scripts run, tagged with the script state's number, and
//! [`with_tick`] reads it back.
#![allow(
    unsafe_code,
    reason = "the published tick is a type-erased pointer, valid while run_with runs"
)]

use std::cell::Cell;

use super::Tick;

/// What a thread's running tick publishes: the tick (type-erased) and the
/// number of the script state it belongs to.
#[derive(Clone, Copy)]
struct Running {
    tick: *const (),
    script: u64,
}

thread_local! {
    static RUNNING: Cell<Option<Running>> = const { Cell::new(None) };
}

/// Runs `f` with `tick` of script state number `script` published as this
/// thread's running tick (what ran before is restored after, also when `f`
/// panics).
pub(crate) fn run_with<R>(tick: &Tick<'_>, script: u64, f: impl FnOnce() -> R) -> R {
    /// Restores the previous value when dropped.
    struct Restore(Option<Running>);
    impl Drop for Restore {
        fn drop(&mut self) {
            RUNNING.with(|r| r.set(self.0));
        }
    }
    let now = Running {
        tick: std::ptr::from_ref(tick).cast(),
        script,
    };
    let _restore = Restore(RUNNING.with(|r| r.replace(Some(now))));
    f()
}

/// Runs `f` on the tick this thread runs for script state number `script`:
/// `None` outside that state's ticks.
pub(crate) fn with_tick<R>(script: u64, f: impl FnOnce(&Tick<'_>) -> R) -> Option<R> {
    let running = RUNNING.with(Cell::get).filter(|r| r.script == script)?;
    // SAFETY: `run_with` publishes the tick only while its borrow of it
    // lives (it restores the previous value before returning or
    // unwinding); `f` cannot keep the reference (it is valid for `f`'s
    // call only, whatever the lifetimes it names); the script
    // number makes sure it is this state's tick. Only shared reads of what
    // it borrows happen through it (its cells guard the rest).
    let tick: &Tick<'_> = unsafe { &*running.tick.cast::<Tick<'_>>() };
    Some(f(tick))
}
