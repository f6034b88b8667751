//! The Lua console and the scripts' failures: script errors (load and
//! run), `print`s, the editor's own messages (reloads, a what-if's change
//! that failed), REPL results; and how often each script failed so far,
//! from which the scripts that failed during the last tick are found
//! (breakpoints stop on them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kiai::lua::{ScriptError, ScriptReport};
use kiai_core::World;

use crate::model::breakpoints::ScriptFailure;
use crate::model::files;

/// What a console line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A script error (the agent fell back to the Rust decider).
    Error,
    /// A script's `print`.
    Log,
    /// The editor's own messages (reloads, seeks).
    Info,
}

/// One line of the Lua console.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsoleLine {
    /// The tick it happened at.
    pub tick: u64,
    /// What it is.
    pub kind: LineKind,
    /// The text (for errors: `file:line: message`).
    pub text: String,
    /// The traceback of an error, if any.
    pub traceback: String,
    /// The script file and line it points at, when known.
    pub at: Option<(PathBuf, Option<u32>)>,
}

/// What the scripts did during a tick (see `Run::take_script_output`).
pub(super) struct ScriptOutput {
    /// Problems reported (a problem is reported once, then only counted).
    pub(super) reports: Vec<ScriptReport>,
    /// Their `print`s.
    pub(super) log: Vec<String>,
    /// Failures so far of each script deciding an archetype (by
    /// `ScriptId` number).
    pub(super) failures: Vec<(u32, u64)>,
}

/// The console's lines and the scripts' failures.
#[derive(Default)]
pub struct Console {
    lines: Vec<ConsoleLine>,
    /// Failures counted so far per script (by `ScriptId` number).
    failures: BTreeMap<u32, u64>,
    /// The last error each script reported.
    last_error: BTreeMap<u32, String>,
    /// Scripts that failed during the last tick.
    tick_failures: Vec<ScriptFailure>,
}

impl Console {
    /// The lines, oldest first.
    pub fn lines(&self) -> &[ConsoleLine] {
        &self.lines
    }

    /// Empties the console (the failure counts stay).
    pub fn clear(&mut self) {
        self.lines.clear();
    }

    /// Takes the lines out (to keep them across a rebuilt run).
    pub fn take_lines(&mut self) -> Vec<ConsoleLine> {
        std::mem::take(&mut self.lines)
    }

    /// Puts `earlier` lines before the console's own.
    pub fn put_before(&mut self, mut earlier: Vec<ConsoleLine>) {
        earlier.append(&mut self.lines);
        self.lines = earlier;
    }

    /// The scripts that failed during the last tick.
    pub fn tick_failures(&self) -> &[ScriptFailure] {
        &self.tick_failures
    }

    /// Forgets the failure counts (the scripts were loaded again and count
    /// from zero); the lines stay.
    pub(super) fn forget_failures(&mut self) {
        self.failures.clear();
        self.last_error.clear();
        self.tick_failures.clear();
    }

    /// A script error at `tick`, named by its tidied path and line.
    pub(super) fn error(&mut self, e: &ScriptError, tick: u64) {
        let file = files::tidy(Path::new(&e.file));
        let at = Some((file.clone(), e.line));
        let text = match e.line {
            Some(line) => format!("{}:{line}: {}", file.display(), e.message),
            None => format!("{}: {}", file.display(), e.message),
        };
        self.push(tick, LineKind::Error, text, e.traceback.clone(), at);
    }

    /// One of the editor's own messages.
    pub(super) fn info(&mut self, text: String, tick: u64) {
        self.push(tick, LineKind::Info, text, String::new(), None);
    }

    fn push(
        &mut self,
        tick: u64,
        kind: LineKind,
        text: String,
        traceback: String,
        at: Option<(PathBuf, Option<u32>)>,
    ) {
        self.lines.push(ConsoleLine {
            tick,
            kind,
            text,
            traceback,
            at,
        });
    }

    /// Takes the scripts' reports and prints of tick `tick` into the
    /// console and finds the scripts whose failure count grew (none
    /// without scripts).
    pub(super) fn collect(&mut self, output: Option<ScriptOutput>, tick: u64) {
        self.tick_failures.clear();
        let Some(output) = output else { return };
        for r in &output.reports {
            self.last_error.insert(r.script.0, r.error.to_string());
        }
        for (k, n) in output.failures {
            let before = self.failures.insert(k, n).unwrap_or(0);
            if n > before {
                let error = self
                    .last_error
                    .get(&k)
                    .cloned()
                    .unwrap_or_else(|| "failed".to_owned());
                self.tick_failures.push(ScriptFailure { script: k, error });
            }
        }
        // Numbered like the transport bar and the prints: the ticks run
        // (the script saw `ctx.tick` one less during this tick).
        for r in output.reports {
            self.error(&r.error, tick);
        }
        for text in output.log {
            self.push(tick, LineKind::Log, text, String::new(), None);
        }
    }

    /// The REPL's `code` and its `result` at `world`'s tick, with the
    /// names of the agents whose handles the result shows.
    pub(super) fn evaluated(&mut self, code: &str, result: &Result<String, String>, world: &World) {
        let (kind, text) = match result {
            Ok(v) => (
                LineKind::Log,
                format!("> {code}\n{v}{}", handle_names(world, code, v)),
            ),
            Err(e) => (LineKind::Error, format!("> {code}\n{e}")),
        };
        self.push(world.tick(), kind, text, String::new(), None);
    }
}

/// For REPL results of code that asks for agents (`nearest`, `sensed`,
/// `target`, `find`, `.id`): the names of the live agents whose handles
/// appear in `result` as whole values (separated by whitespace or commas:
/// the `1` in `intruder_1` is no handle), as `  (3 = guard_2)`; empty
/// otherwise.
fn handle_names(world: &World, code: &str, result: &str) -> String {
    const ASKS: [&str; 5] = ["nearest", "sensed", "target", "find", ".id"];
    if !ASKS.iter().any(|a| code.contains(a)) {
        return String::new();
    }
    let mut named = Vec::new();
    for token in result.split(|c: char| c.is_whitespace() || c == ',') {
        let Ok(handle) = token.parse::<u64>() else {
            continue;
        };
        let slot = (handle & 0xffff_ffff) as usize;
        let generation = (handle >> 32) as u32;
        let agents = world.agents();
        if slot < agents.len()
            && agents.alive()[slot]
            && agents.generation_of(slot) == generation
            && !named.iter().any(|(h, _)| *h == handle)
        {
            named.push((handle, agents.names()[slot].clone()));
        }
    }
    if named.is_empty() {
        return String::new();
    }
    let list: Vec<String> = named.iter().map(|(h, n)| format!("{h} = {n}")).collect();
    format!("  ({})", list.join(", "))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::handle_names;

    #[test]
    fn only_whole_values_are_read_as_handles() {
        let content = kiai_content::Content::from_str(
            r#"(
                format: 2,
                factions: [(name: "red")],
                archetypes: { "guard": () },
                agents: [
                    (name: "intruder_1", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0)),
                    (name: "guard_1", archetype: "guard", faction: "red", pos: (1.0, 0.0, 0.0)),
                ],
            )"#,
            "names.ron",
        )
        .unwrap();
        let world = content.world(None).unwrap();
        let ask = "kiai.name((agent:nearest('eyes')))";
        assert_eq!(handle_names(&world, ask, "intruder_1"), "");
        let ask = "agent:nearest('eyes')";
        assert_eq!(
            handle_names(&world, ask, "1\t14.842967987061"),
            "  (1 = guard_1)"
        );
        assert_eq!(
            handle_names(&world, ask, "0, 1"),
            "  (0 = intruder_1, 1 = guard_1)"
        );
    }
}
