//! The batch driver: one call per script per tick runs the script's
//! `decide` over its agents in batch order and keeps what each returned.
//!
//! It is one raw Lua C function, made once per script state: a driver in
//! Lua paid for its own loop, a `math.type` call per result and a table of
//! results the host read back; this one calls `decide` through the C API
//! and hands each result to the host directly, as an integer in the tick's
//! `hits` (see `run.rs`, which reads them).
//!
//! An agent whose `decide` returned something adds one hit: its batch
//! position times 2^[`POSITION_BITS`] plus its result packed as state code
//! (`k + 1` for `BehaviourState::ALL[k]`, as `intent::unpack` reads it) +
//! 16 × (target + 1), below 2^33, when the result is one of the common
//! shapes (`"chase", handle`); anything else is [`SLOW`], its five values
//! left at its position in the `extra` tables for the host to parse.
//! `cur[1]` holds the position running now (the instruction hook charges
//! it, and after an error the host restarts the batch behind it).
#![allow(
    unsafe_code,
    reason = "a raw lua_CFunction calls decide and reads its results through the C API"
)]

use std::ffi::c_int;

use kiai_core::BehaviourState;
use mlua::{Function, Lua, ffi};

use crate::api::{catch, with_tick};
use crate::intent::SLOW;

/// Where the batch position starts in a hit: below it, the packed result.
pub(crate) const POSITION_BITS: u32 = 34;

/// Largest target handle packed (larger ones take the slow path).
const MAX_PACKED_TARGET: i64 = 1 << 28;

/// The driver's arguments, by stack index: `decide`, the batch of agent
/// tables, the first and last positions to run, `ctx`, `cur`, then the
/// five `extra` tables (state, target, x, y, z).
const DECIDE: c_int = 1;
const BATCH: c_int = 2;
const FIRST: c_int = 3;
const LAST: c_int = 4;
const CTX: c_int = 5;
const CUR: c_int = 6;
const EXTRA: c_int = 7;
const ARGS: c_int = 11;

/// Makes the driver for the state of script number `script` (the number
/// [`crate::api::run_with`] publishes its ticks under).
pub(crate) fn make(lua: &Lua, script: u64) -> mlua::Result<Function> {
    let codes = lua.create_table()?;
    for (k, state) in BehaviourState::ALL.iter().enumerate() {
        codes.raw_set(state.name(), k + 1)?;
    }
    // SAFETY: the closure pops the two arguments exec_raw pushed (its
    // upvalues: the state codes and the script number) and leaves the one
    // closure made of them.
    unsafe {
        lua.exec_raw((codes, script as i64), |state| {
            ffi::lua_pushcclosure(state, drive, 2);
        })
    }
}

/// `driver(decide, batch, first, last, ctx, cur, es, et, ex, ey, ez)`.
///
/// Lua errors (a failing `decide`) unwind it with `longjmp`: its frame
/// holds no value with a destructor.
unsafe extern "C-unwind" fn drive(state: *mut ffi::lua_State) -> c_int {
    // SAFETY (every call below): `state` is the running state, called with
    // the arguments above (run.rs); above the ARGS values the stack holds
    // at most six (five results and one lookup), within the LUA_MINSTACK
    // (20) slots a C function has beyond its arguments.
    unsafe {
        let first = ffi::lua_tointegerx(state, FIRST, std::ptr::null_mut());
        let last = ffi::lua_tointegerx(state, LAST, std::ptr::null_mut());
        let script = ffi::lua_tointegerx(state, ffi::lua_upvalueindex(2), std::ptr::null_mut());
        ffi::lua_settop(state, ARGS);
        // Checked before the first call (and again for each hit, which
        // cannot fail once this passed).
        if with_tick(script as u64, |_| ()).is_none() {
            outside_tick(state);
        }
        let mut k = first;
        while k <= last {
            ffi::lua_pushinteger(state, k);
            ffi::lua_rawseti(state, CUR, 1);
            ffi::lua_pushvalue(state, DECIDE);
            ffi::lua_rawgeti(state, BATCH, k);
            ffi::lua_pushvalue(state, CTX);
            ffi::lua_call(state, 2, 5);
            if ffi::lua_type(state, ARGS + 1) != ffi::LUA_TNIL {
                let code = match packed(state) {
                    Some(code) => code,
                    None => {
                        keep(state, k);
                        SLOW
                    }
                };
                let hit = (k << POSITION_BITS) + code;
                if !keep_hit(script as u64, hit) {
                    outside_tick(state);
                }
            }
            ffi::lua_settop(state, ARGS);
            k += 1;
        }
        ffi::lua_pushinteger(state, 0);
        ffi::lua_rawseti(state, CUR, 1);
        0
    }
}

/// Adds `hit` to the hits of the tick this thread runs for script
/// `script`: false when there is none (or the host panicked, which
/// [`crate::api::run_with`] resumes).
fn keep_hit(script: u64, hit: i64) -> bool {
    catch(|| {
        with_tick(script, |tick| {
            let Ok(mut hits) = tick.hits.try_borrow_mut() else {
                return false;
            };
            hits.push(hit);
            true
        })
        .unwrap_or(false)
    })
    .unwrap_or(false)
}

/// Raises "the batch driver runs only inside a tick", with `cur[1]` = 0 (no
/// agent's call is blamed: the host gives up on the batch).
///
/// # Safety
/// `state` is [`drive`]'s, its arguments in place.
unsafe fn outside_tick(state: *mut ffi::lua_State) -> ! {
    // SAFETY: `cur` is at CUR; two values pushed, one popped by rawseti;
    // lua_error never returns.
    unsafe {
        ffi::lua_pushinteger(state, 0);
        ffi::lua_rawseti(state, CUR, 1);
        ffi::lua_pushstring(state, c"the batch driver runs only inside a tick".as_ptr());
        ffi::lua_error(state)
    }
}

/// The results on top (`state, target, x, y, z` at ARGS + 1..=5) packed,
/// when they are a state name with no goal and no target or a handle
/// (integer) target.
///
/// # Safety
/// `state` is [`drive`]'s, with the five results in place.
unsafe fn packed(state: *mut ffi::lua_State) -> Option<i64> {
    // SAFETY: indices ARGS + 1..=5 exist; the pushed code is popped.
    unsafe {
        if ffi::lua_type(state, ARGS + 3) != ffi::LUA_TNIL {
            return None;
        }
        ffi::lua_pushvalue(state, ARGS + 1);
        ffi::lua_rawget(state, ffi::lua_upvalueindex(1));
        let mut ok = 0;
        let c = ffi::lua_tointegerx(state, -1, &mut ok);
        ffi::lua_pop(state, 1);
        if ok == 0 {
            return None;
        }
        let target = match ffi::lua_type(state, ARGS + 2) {
            ffi::LUA_TNIL => -1,
            _ if ffi::lua_isinteger(state, ARGS + 2) != 0 => {
                let t = ffi::lua_tointegerx(state, ARGS + 2, std::ptr::null_mut());
                if !(0..MAX_PACKED_TARGET).contains(&t) {
                    return None;
                }
                t
            }
            _ => return None,
        };
        Some(c + (target + 1) * 16)
    }
}

/// Leaves the five results at position `k` of the `extra` tables.
///
/// # Safety
/// `state` is [`drive`]'s, with the five results in place.
unsafe fn keep(state: *mut ffi::lua_State, k: i64) {
    // SAFETY: each value pushed is popped by rawseti.
    unsafe {
        for i in 0..5 {
            ffi::lua_pushvalue(state, ARGS + 1 + i);
            ffi::lua_rawseti(state, EXTRA + i, k);
        }
    }
}
