//! Scenario files (`*.scenario.ron`): a run of some content that must
//! behave as written, for `kiai test`.
//!
//! ```ron
//! (
//!     about: "the gate guard spots the thief at the gate",
//!     content: "../../content/demo/fortress.ron",
//!     seed: Some(3),
//!     ticks: 300,
//!     events: [(tick: 20, do: Move(agent: "thief_in_hall", pos: (0.0, 0.0, 25.0)))],
//!     expect: [
//!         "sees(gate_guard, thief_at_gate) within 10 ticks",
//!         "never sees(vault_guard, thief_in_hall)",
//!     ],
//! )
//! ```
//!
//! The content path is relative to the scenario file. `events` use the
//! vocabulary of events files ([`crate::events`]) and are checked by the
//! same code; expectations are one line each ([`crate::expect`]). Every
//! problem is reported as `file:line:col: error: message`, the content's
//! own diagnostics included.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::events::{ActionDef, EventDef, Schedule};
use super::expect::{Condition, Expectation, Window, parse_expectation};
use crate::format::def::ContentDef;
use crate::format::diag::{Diagnostic, Diagnostics, hint};
use crate::format::locate::{Pos, SpanIndex};
use crate::load::Content;
use crate::read::parse::parse_as;

/// The file name ending of scenario files.
pub const SCENARIO_SUFFIX: &str = ".scenario.ron";

/// Longest run a scenario may ask for, ticks.
pub const MAX_SCENARIO_TICKS: u64 = 10_000_000;

/// The behaviour states every content has.
pub const BUILT_IN_STATES: [&str; 3] = ["random_walk", "chase", "evade"];

/// A scenario file as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioDef {
    /// What the scenario pins down, one line (shown in reports).
    #[serde(default)]
    pub about: Option<String>,
    /// The content file or pack, relative to the scenario file.
    pub content: String,
    /// The seed; defaults to the content's.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Ticks to run at most (the run stops earlier once every expectation
    /// is decided), 1 to [`MAX_SCENARIO_TICKS`].
    pub ticks: u64,
    /// Changes while it runs, as in an events file.
    #[serde(default)]
    pub events: Vec<EventDef>,
    /// What must happen, one expectation per string.
    pub expect: Vec<String>,
}

/// One expectation and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// The expectation.
    pub expectation: Expectation,
    /// Where its text starts in the scenario file.
    pub pos: Pos,
}

/// A loaded, checked scenario, ready to run.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its name: the file name without `.scenario.ron`.
    pub name: String,
    /// The scenario file, as given.
    pub file: String,
    /// The `about` line, if any.
    pub about: Option<String>,
    /// The content file, resolved against the scenario's directory.
    pub content_path: PathBuf,
    /// The content.
    pub content: Content,
    /// The seed of the run.
    pub seed: u64,
    /// The tick limit.
    pub ticks: u64,
    /// The events as written (recordings keep them).
    pub events: Vec<EventDef>,
    /// The events, resolved (a fresh copy per run).
    pub schedule: Schedule,
    /// The expectations, in file order.
    pub expectations: Vec<Located>,
}

impl Scenario {
    /// Reads and checks the scenario file at `path`.
    pub fn load(path: &Path) -> Result<Self, Diagnostics> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            Diagnostics(vec![Diagnostic::error(
                &file,
                Pos { line: 1, column: 1 },
                format!("cannot read the scenario: {e}"),
            )])
        })?;
        Self::from_str(&text, &file, path.parent().unwrap_or(Path::new("")))
    }

    /// Parses and checks scenario `text` (from `file`, whose content path
    /// is relative to `dir`).
    pub fn from_str(text: &str, file: &str, dir: &Path) -> Result<Self, Diagnostics> {
        let def: ScenarioDef = parse_as(text, file)?;
        let spans = SpanIndex::new(text);
        let at = |path: &str| spans.pos(path);
        let mut problems = Vec::new();
        let content_path = dir.join(&def.content);
        let content = match Content::load(&content_path) {
            Ok(c) => Some(c),
            Err(d) => {
                problems.push(Diagnostic::error(
                    file,
                    at("content"),
                    format!(
                        "the content `{}` does not load (its problems follow)",
                        content_path.display()
                    ),
                ));
                problems.extend(d.0);
                None
            }
        };
        if !(1..=MAX_SCENARIO_TICKS).contains(&def.ticks) {
            problems.push(Diagnostic::error(
                file,
                at("ticks"),
                format!("ticks must be 1 to {MAX_SCENARIO_TICKS}, not {}", def.ticks),
            ));
        }
        if def.expect.is_empty() {
            problems.push(Diagnostic::error(
                file,
                at("expect"),
                "a scenario needs at least one expectation, e.g. `\"sees(guard, thief) within 100 ticks\"`",
            ));
        }
        let Some(content) = content else {
            return Err(Diagnostics(problems));
        };
        let content_def = content.to_def().into_owned();
        let schedule = match Schedule::from_def(&def.events, &content_def, file, &spans) {
            Ok(s) => Some(s),
            Err(d) => {
                problems.extend(d.0);
                None
            }
        };
        let names = Names::of(&content_def, &def.events, !content.scripts().is_empty());
        let mut expectations = Vec::with_capacity(def.expect.len());
        for (i, text_i) in def.expect.iter().enumerate() {
            let path = format!("expect[{i}]");
            let start = at(&path);
            match parse_expectation(text_i) {
                Ok(e) => {
                    let errors = names.check(&e, def.ticks);
                    if errors.is_empty() {
                        expectations.push(Located {
                            expectation: e,
                            pos: start,
                        });
                    }
                    for m in errors {
                        problems.push(Diagnostic::error(file, start, format!("`{text_i}`: {m}")));
                    }
                }
                Err(e) => problems.push(Diagnostic::error(
                    file,
                    inside(text, start, e.offset),
                    format!("`{text_i}`: {}", e.message),
                )),
            }
        }
        match schedule {
            Some(schedule) if problems.is_empty() => Ok(Self {
                name: name_of(file),
                file: file.to_owned(),
                about: def.about,
                content_path,
                seed: def.seed.unwrap_or(content.seed()),
                ticks: def.ticks,
                events: def.events,
                schedule,
                expectations,
                content,
            }),
            _ => {
                problems.sort_by(|a, b| {
                    (a.file != file, a.line, a.column).cmp(&(b.file != file, b.line, b.column))
                });
                Err(Diagnostics(problems))
            }
        }
    }
}

/// The scenario's name: its file name without [`SCENARIO_SUFFIX`].
pub fn name_of(file: &str) -> String {
    let base = Path::new(file)
        .file_name()
        .map_or_else(|| file.to_owned(), |n| n.to_string_lossy().into_owned());
    base.strip_suffix(SCENARIO_SUFFIX)
        .or_else(|| base.strip_suffix(".ron"))
        .unwrap_or(&base)
        .to_owned()
}

/// Every `*.scenario.ron` file under `paths` (files are taken as given,
/// directories searched recursively), sorted and without repeats.
pub fn find_scenarios(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, out)?;
            } else if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(SCENARIO_SUFFIX))
            {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{}: no such file or directory", p.display()),
            ));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Where byte `offset` of the string literal starting at `start` lies in
/// `text` (the literal's start when the string has escapes before it).
fn inside(text: &str, start: Pos, offset: usize) -> Pos {
    let Some(line) = text.lines().nth(start.line.saturating_sub(1) as usize) else {
        return start;
    };
    let rest: String = line
        .chars()
        .skip(start.column.saturating_sub(1) as usize)
        .collect();
    let open = if rest.starts_with('"') {
        1
    } else if let Some(raw) = rest.strip_prefix('r') {
        let hashes = raw.chars().take_while(|c| *c == '#').count();
        hashes + 2
    } else {
        return start;
    };
    let body = &rest[open.min(rest.len())..];
    let before = body.get(..offset).unwrap_or(body);
    if open == 1 && before.contains('\\') {
        return start;
    }
    Pos {
        line: start.line,
        column: start.column + (open + before.chars().count()) as u32,
    }
}

/// What expectations may name: agents (with their archetype's senses),
/// waypoints and states.
struct Names {
    /// Agent name to its senses (hearing or not).
    agents: BTreeMap<String, Vec<(String, bool)>>,
    waypoints: Vec<u32>,
    /// Scripts may report states of their own.
    scripted: bool,
}

impl Names {
    fn of(def: &ContentDef, events: &[EventDef], scripted: bool) -> Self {
        let senses = |archetype: &str| -> Vec<(String, bool)> {
            def.archetypes.get(archetype).map_or_else(Vec::new, |a| {
                a.senses
                    .iter()
                    .map(|s| {
                        (
                            s.name.clone(),
                            matches!(s.shape, crate::format::def::ShapeDef::Hearing { .. }),
                        )
                    })
                    .collect()
            })
        };
        let mut agents: BTreeMap<String, Vec<(String, bool)>> = def
            .agents
            .iter()
            .map(|a| (a.name.clone(), senses(&a.archetype)))
            .collect();
        for e in events {
            if let ActionDef::Spawn {
                name, archetype, ..
            } = &e.action
            {
                agents.insert(name.clone(), senses(archetype));
            }
        }
        Self {
            agents,
            waypoints: def.waypoints.iter().map(|w| w.id).collect(),
            scripted,
        }
    }

    fn agent(&self, name: &str, out: &mut Vec<String>) {
        if !self.agents.contains_key(name) {
            let h = hint(name, self.agents.keys().map(String::as_str));
            out.push(format!("no agent `{name}` in the content or its events{h}"));
        }
    }

    fn state(&self, state: &str, out: &mut Vec<String>) {
        if !self.scripted && !BUILT_IN_STATES.contains(&state) {
            let h = hint(state, BUILT_IN_STATES);
            out.push(format!(
                "unknown state `{state}`{h}; without scripts the states are random_walk, chase and evade"
            ));
        }
    }

    /// The problems of expectation `e` in a run of `limit` ticks.
    fn check(&self, e: &Expectation, limit: u64) -> Vec<String> {
        let mut out = Vec::new();
        match &e.condition {
            Condition::Sees {
                agent,
                target,
                sense,
            } => {
                self.agent(agent, &mut out);
                self.agent(target, &mut out);
                if let (Some(sense), Some(senses)) = (sense, self.agents.get(agent))
                    && !senses.iter().any(|(n, _)| n == sense)
                {
                    let h = hint(sense, senses.iter().map(|(n, _)| n.as_str()));
                    out.push(format!("`{agent}` has no sense `{sense}`{h}"));
                }
                if sense.is_none()
                    && self
                        .agents
                        .get(agent)
                        .is_some_and(|s| s.iter().all(|(_, hearing)| *hearing))
                {
                    out.push(format!("`{agent}` has no sense that sees (only hearing)"));
                }
            }
            Condition::State { agent, state, .. } => {
                self.agent(agent, &mut out);
                self.state(state, &mut out);
            }
            Condition::Reaches { agent, waypoint } => {
                self.agent(agent, &mut out);
                if !self.waypoints.contains(waypoint) {
                    out.push(format!("no waypoint with id {waypoint} in the content"));
                }
            }
            Condition::Count { state, .. } => self.state(state, &mut out),
            Condition::Distance { a, b, .. } => {
                self.agent(a, &mut out);
                self.agent(b, &mut out);
            }
            Condition::ScriptError | Condition::Hash(_) => {}
        }
        let (first, last) = e.window.ticks(limit);
        let bad_window = match e.window {
            Window::Within(n) | Window::At(n) => n == 0 || n > limit,
            Window::Before(n) => n < 2 || n > limit + 1,
            Window::End | Window::Eventually => false,
        };
        if bad_window || first > last {
            out.push(format!(
                "the window must lie in the run's ticks 1 to {limit} (checks follow each tick)"
            ));
        }
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::*;

    const CONTENT: &str = r#"(format: 2, factions: [(name: "red"), (name: "blue")],
        archetypes: {"guard": (senses: [(name: "eyes", shape: Cone(range: 10.0, fov_deg: 90.0))])},
        agents: [(name: "g1", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0)),
                 (name: "b1", archetype: "guard", faction: "blue", pos: (5.0, 0.0, 0.0))])"#;

    fn dir() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("level.ron"), CONTENT).unwrap();
        d
    }

    #[test]
    fn a_scenario_loads_with_its_events_and_expectations() {
        let d = dir();
        let text = r#"(
    content: "level.ron",
    ticks: 50,
    events: [(tick: 3, do: Walk(agent: "b1", path: [(5.0, 0.0, 0.0), (5.0, 0.0, 5.0)], speed: 10.0))],
    expect: ["sees(g1, b1, eyes) within 5 ticks", "state(g1) == chase at end"],
)"#;
        let s = Scenario::from_str(text, "t/x.scenario.ron", d.path()).unwrap();
        assert_eq!(s.name, "x");
        assert_eq!(s.ticks, 50);
        assert_eq!(s.expectations.len(), 2);
        assert_eq!(
            s.expectations[1].pos,
            Pos {
                line: 5,
                column: 51
            }
        );
        // 5 units at 10 u/s and 0.1 s per tick: a step on the first point and five more.
        assert_eq!(s.schedule.len(), 6);
    }

    #[test]
    fn mistakes_are_reported_where_they_are_written() {
        let d = dir();
        let text = r#"(
    content: "level.ron",
    ticks: 50,
    expect: [
        "sees(g1, b2) within 5 ticks",
        "sees(g1, b1) whithin 5",
        "state(g1) == chace",
        "sees(g1, b1) within 80 ticks",
    ],
    events: [(tick: 1, do: Move(agent: "nobody", pos: (0.0, 0.0, 0.0)))],
)"#;
        let e = Scenario::from_str(text, "x.scenario.ron", d.path()).unwrap_err();
        let lines: Vec<String> = e.0.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "x.scenario.ron:5:9: error: `sees(g1, b2) within 5 ticks`: no agent `b2` in the content or its events; did you mean `b1`?",
                "x.scenario.ron:6:23: error: `sees(g1, b1) whithin 5`: unexpected `whithin`: a window is `within N ticks`, `at tick N`, `before tick N`, `at end` or `eventually`",
                "x.scenario.ron:7:9: error: `state(g1) == chace`: unknown state `chace`; did you mean `chase`?; without scripts the states are random_walk, chase and evade",
                "x.scenario.ron:8:9: error: `sees(g1, b1) within 80 ticks`: the window must lie in the run's ticks 1 to 50 (checks follow each tick)",
                "x.scenario.ron:10:40: error: no agent `nobody` is in the world at tick 1",
            ],
        );
    }

    #[test]
    fn content_problems_come_through_with_their_own_positions() {
        let d = dir();
        std::fs::write(d.path().join("bad.ron"), "(format: 2, seed: -1)").unwrap();
        let e = Scenario::from_str(
            r#"(content: "bad.ron", ticks: 5, expect: ["no script errors"])"#,
            "x.scenario.ron",
            d.path(),
        )
        .unwrap_err();
        assert!(
            e.0[0]
                .to_string()
                .starts_with("x.scenario.ron:1:11: error: the content"),
            "{e}"
        );
        assert!(e.0.len() > 1 && e.0[1].file.ends_with("bad.ron"), "{e}");
    }

    #[test]
    fn scenario_files_are_found_under_directories_sorted() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join("sub")).unwrap();
        for f in ["b.scenario.ron", "sub/a.scenario.ron", "level.ron"] {
            std::fs::write(d.path().join(f), "").unwrap();
        }
        let found = find_scenarios(&[d.path().to_path_buf()]).unwrap();
        let names: Vec<String> = found
            .iter()
            .map(|p| name_of(&p.display().to_string()))
            .collect();
        assert_eq!(names, ["b", "a"]);
        assert!(find_scenarios(&[d.path().join("missing")]).is_err());
    }
}
