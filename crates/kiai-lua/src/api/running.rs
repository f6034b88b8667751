//! The tick running on this thread, for the functions made once per
//! script state (`raw_nearest`, the batch driver) that outlive ticks and so
//! cannot borrow one: [`run_with`] publishes it in a thread-local while the
//! tick's scripts run, tagged with the script state's number, and
//! [`with_tick`] reads it back. A panic inside such a function must not
//! unwind through Lua's C frames: [`catch`] keeps it, the function raises
//! a Lua error instead, and [`run_with`] resumes the panic once Lua is
//! done (as mlua does for its own callbacks).
#![allow(
    unsafe_code,
    reason = "the published tick is a type-erased pointer, valid while run_with runs"
)]

use std::any::Any;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

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
    /// The first panic [`catch`] kept since [`run_with`] last looked.
    static PANIC: Cell<Option<Box<dyn Any + Send>>> = const { Cell::new(None) };
}

/// Runs `f` (host code inside a C function Lua called): `None` when it
/// panicked, the panic kept for [`run_with`] to resume.
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Option<R> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Some(r),
        Err(payload) => {
            PANIC.with(|p| {
                let first = p.take().unwrap_or(payload);
                p.set(Some(first));
            });
            None
        }
    }
}

/// Runs `f` with `tick` of script state number `script` published as this
/// thread's running tick (what ran before is restored after, also when `f`
/// panics); a panic [`catch`] kept meanwhile is resumed when `f` returns.
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
    let r = f();
    if let Some(payload) = PANIC.with(Cell::take) {
        resume_unwind(payload);
    }
    r
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report
mod tests {
    use std::cell::RefCell;

    use kiai_core::{World, WorldConfig};

    use super::*;
    use crate::sense_ids::SenseIds;
    use crate::sensed_lists::SensedLists;

    /// Runs `f` with a tick of an empty world.
    fn with_empty_tick(f: impl FnOnce(&Tick<'_>)) {
        let lua = mlua::Lua::new();
        let world = World::new(WorldConfig::default());
        let senses = SenseIds::new(lua.create_table().unwrap());
        let sensed = SensedLists::default();
        let hits = RefCell::new(Vec::new());
        let tick = Tick {
            world: &world,
            minds: RefCell::new(&mut []),
            actions: RefCell::new(Vec::new()),
            intents: RefCell::new(Vec::new()),
            batch_ids: &[],
            senses: &senses,
            sensed: &sensed,
            hits: &hits,
            current: Cell::new(None),
            cur: lua.create_table().unwrap(),
        };
        f(&tick);
    }

    #[test]
    fn the_tick_is_found_only_by_its_own_script_and_only_while_it_runs() {
        with_empty_tick(|tick| {
            assert!(with_tick(7, |_| ()).is_none());
            run_with(tick, 7, || {
                assert_eq!(with_tick(7, |t| t.world.agents().len()), Some(0));
                assert!(with_tick(8, |_| ()).is_none());
                // Nested (the REPL inside a tick): the inner one, then the
                // outer one again.
                run_with(tick, 8, || assert!(with_tick(7, |_| ()).is_none()));
                assert!(with_tick(7, |_| ()).is_some());
            });
            assert!(with_tick(7, |_| ()).is_none());
        });
    }

    #[test]
    fn a_panic_kept_inside_lua_resumes_when_the_scripts_are_done() {
        with_empty_tick(|tick| {
            let went_on = Cell::new(false);
            let resumed = catch_unwind(AssertUnwindSafe(|| {
                run_with(tick, 9, || {
                    let first = catch(|| panic!("first"));
                    let second = catch(|| panic!("second"));
                    assert!(first.is_none() && second.is_none());
                    went_on.set(true);
                })
            }));
            assert!(went_on.get(), "catch kept both panics, the scripts went on");
            let payload = resumed.expect_err("the kept panic resumes");
            assert_eq!(payload.downcast_ref::<&str>(), Some(&"first"));
            assert!(with_tick(9, |_| ()).is_none());
        });
    }
}
