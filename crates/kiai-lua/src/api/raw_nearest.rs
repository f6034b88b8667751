//! `agent:nearest(sense, filter)` as one raw Lua C function.
//!
//! Asking for the nearest sensed hostile is what most scripted deciders do
//! for every agent on every tick. Through the prelude's method wrapper and
//! an mlua callback the call cost about 160 ns, three times the query; as
//! one C function that resolves the sense and filter itself it costs about
//! a third less (`kiai bench`, `lua/one query`). Besides reading its
//! arguments and pushing its results, it calls the prelude's `sense_id` and
//! `filter_id` for names met the first time, and the query is the safe
//! Rust of [`super::senses`]. `self[0]`, the handle, is read raw (agent
//! tables and the REPL's views hold it raw).
//!
//! The function is made once per script state and outlives ticks, so it
//! cannot borrow a tick: it finds the tick this thread runs for its state
//! through [`super::running`]. A call outside a tick finds none and raises
//! an error like the other host functions'.
#![allow(
    unsafe_code,
    reason = "a raw lua_CFunction reads its arguments and pushes its results through the C API"
)]

use std::ffi::c_int;

use mlua::{Function, Table, ffi};

use super::NOT_AN_AGENT;
use super::running::{catch, with_tick};
use super::senses::{agent_sense, filter_of, nearest_of};

/// Upvalues of the C function, in order: the prelude's `sense_ids` table
/// and `sense_id` function, its `filter_ids` table and `filter_id`
/// function, and the script state's number.
const UPVALUES: c_int = 5;

/// Makes `agent:nearest` for the state of script number `script`; `parts`
/// is the prelude's `{sense_ids, sense_id, filter_ids, filter_id}`.
pub(crate) fn make(lua: &mlua::Lua, parts: &Table, script: u64) -> mlua::Result<Function> {
    let args = (
        parts.raw_get::<Table>(1)?,
        parts.raw_get::<Function>(2)?,
        parts.raw_get::<Table>(3)?,
        parts.raw_get::<Function>(4)?,
        script as i64,
    );
    // SAFETY: the closure pops the five arguments exec_raw pushed and
    // leaves the one closure made of them.
    unsafe {
        lua.exec_raw(args, |state| {
            ffi::lua_pushcclosure(state, nearest, UPVALUES);
        })
    }
}

/// Largest error message raised, in bytes (longer ones are cut).
const MAX_MESSAGE: usize = 512;

/// `agent:nearest(sense, filter)`: the handle and distance of the nearest
/// agent the sense lists that passes the filter, or two nils.
///
/// Lua errors unwind C functions with `longjmp`, which would skip Rust
/// destructors: this frame holds no value with one when it calls anything
/// that may raise (the prelude's `sense_id` and `filter_id`, `lua_error`).
unsafe extern "C-unwind" fn nearest(state: *mut ffi::lua_State) -> c_int {
    // SAFETY (every call below): `state` is the running state, which Lua
    // gives its C functions; after `lua_settop(3)` indices 1-3 hold the
    // arguments (nil for missing ones: an index above the top would name a
    // different value once something is pushed), and a C function may push
    // up to LUA_MINSTACK (20) values.
    unsafe {
        ffi::lua_settop(state, 3);
        let mut message = [0u8; MAX_MESSAGE];
        let Some(handle) = handle(state) else {
            // Called with `.` instead of `:` (or on something else): say
            // so before anything about the other arguments.
            let len = copy_message(NOT_AN_AGENT, &mut message);
            raise(state, &message[..len]);
        };
        // The filter first, as the prelude's wrapper did (a bad one is the
        // error reported, and registers no sense name).
        let filter = if ffi::lua_type(state, 3) == ffi::LUA_TNIL {
            1
        } else {
            resolved(state, 3, 3, 4)
        };
        let sense = resolved(state, 2, 1, 2);
        let script = ffi::lua_tointegerx(state, ffi::lua_upvalueindex(5), std::ptr::null_mut());
        // The error is dropped, its text copied to the stack, before
        // anything may raise (a panic is kept for the host to resume).
        let found = match catch(|| query(handle, sense, filter, script as u64)) {
            Some(Ok(found)) => Ok(found),
            Some(Err(mlua::Error::RuntimeError(text))) => Err(copy_message(&text, &mut message)),
            Some(Err(e)) => Err(copy_message(&e.to_string(), &mut message)),
            None => Err(copy_message(
                "agent:nearest failed inside the host",
                &mut message,
            )),
        };
        match found {
            Ok(Some((id, distance))) => {
                ffi::lua_pushinteger(state, id);
                ffi::lua_pushnumber(state, f64::from(distance));
            }
            Ok(None) => {
                ffi::lua_pushnil(state);
                ffi::lua_pushnil(state);
            }
            Err(len) => raise(state, &message[..len]),
        }
        2
    }
}

/// The agent's handle, `self[0]` (raw): `None` when `self` is not an agent
/// table.
///
/// # Safety
/// `state` is a running state with its first argument at index 1.
unsafe fn handle(state: *mut ffi::lua_State) -> Option<i64> {
    // SAFETY: index 1 is acceptable; rawgeti pushes one value, popped.
    unsafe {
        if ffi::lua_type(state, 1) != ffi::LUA_TTABLE {
            return None;
        }
        ffi::lua_rawgeti(state, 1, 0);
        let mut ok = 0;
        let h = ffi::lua_tointegerx(state, -1, &mut ok);
        ffi::lua_pop(state, 1);
        (ok != 0).then_some(h)
    }
}

/// Argument `arg` as an id: its entry in the table at upvalue `table`, else
/// what the function at upvalue `resolve` returns for it (which raises
/// when it is no name).
///
/// # Safety
/// `state` is a running state of [`nearest`] (its upvalues in place).
unsafe fn resolved(state: *mut ffi::lua_State, arg: c_int, table: c_int, resolve: c_int) -> i64 {
    // SAFETY: the upvalues exist; one value is left and popped.
    unsafe {
        ffi::lua_pushvalue(state, arg);
        if ffi::lua_rawget(state, ffi::lua_upvalueindex(table)) == ffi::LUA_TNIL {
            ffi::lua_pop(state, 1);
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(resolve));
            ffi::lua_pushvalue(state, arg);
            ffi::lua_call(state, 1, 1);
        }
        let id = ffi::lua_tointegerx(state, -1, std::ptr::null_mut());
        ffi::lua_pop(state, 1);
        id
    }
}

/// The query itself, on the tick this thread runs for script `script`.
fn query(handle: i64, sense: i64, filter: i64, script: u64) -> mlua::Result<Option<(i64, f32)>> {
    with_tick(script, |tick| {
        let (i, s) = agent_sense(Some(handle), sense, tick)?;
        Ok(nearest_of(tick, i, s, filter_of(filter)?))
    })
    .unwrap_or_else(|| {
        Err(super::rt(
            "agent:nearest works only inside hooks (decide, on_seen, ...)",
        ))
    })
}

/// Copies `text` into `buf`, cut at a character boundary: its length.
fn copy_message(text: &str, buf: &mut [u8; MAX_MESSAGE]) -> usize {
    let mut len = text.len().min(MAX_MESSAGE);
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    buf[..len].copy_from_slice(&text.as_bytes()[..len]);
    len
}

/// Raises `message`, prefixed with the calling script's `file:line:` as
/// Lua's `error(message, 2)` would.
///
/// # Safety
/// `state` is a running state; `message` lives on the caller's stack (no
/// destructor is skipped).
unsafe fn raise(state: *mut ffi::lua_State, message: &[u8]) -> ! {
    // SAFETY: two values pushed and joined; lua_error never returns.
    unsafe {
        ffi::luaL_where(state, 1);
        ffi::lua_pushlstring(state, message.as_ptr().cast(), message.len());
        ffi::lua_concat(state, 2);
        ffi::lua_error(state)
    }
}
