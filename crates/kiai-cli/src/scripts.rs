//! Lua scripts during `kiai run`: the watcher that reloads them
//! (`--watch`) and what they report (errors with tracebacks, `print`
//! lines), all on stderr.

use anyhow::Context;
use kiai::lua::{LuaDecider, ScriptError, ScriptWatcher};

/// A watcher over `lua`'s script files; says on stderr what it watches.
pub(crate) fn watch_scripts(lua: &LuaDecider) -> anyhow::Result<ScriptWatcher> {
    let watcher = ScriptWatcher::new(lua.script_paths()).context("cannot watch the scripts")?;
    match lua.script_paths().count() {
        0 => eprintln!("watching no script files: the scripts came bundled in a pack"),
        n => eprintln!("watching {n} script files for changes"),
    }
    Ok(watcher)
}

/// A script error on stderr: `tick T: file:line: message`, then the
/// traceback if any.
pub(crate) fn print_script_error(tick: u64, error: &ScriptError) {
    eprintln!("tick {tick}: {error}");
    if !error.traceback.is_empty() {
        eprintln!("{}", error.traceback);
    }
}

/// The script errors and `print` lines of the last tick, on stderr.
pub(crate) fn print_script_output(lua: &mut LuaDecider) {
    for r in lua.take_reports() {
        print_script_error(r.tick, &r.error);
    }
    for line in lua.take_log() {
        eprintln!("{line}");
    }
}
