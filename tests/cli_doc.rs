//! `docs/cli.md` is the reference of the `kiai` command line; this test keeps
//! it true.
//!
//! - Every subcommand `kiai --help` lists has a section headed
//!   ``## `kiai NAME` `` with at least one example, and every such section
//!   names a subcommand that exists.
//! - Every option `kiai NAME --help` lists is mentioned in that section, in
//!   code (`` `--ticks` ``).
//! - Every example runs, and its real output has the documented shape: the
//!   same keys, with values of the same JSON type (null, boolean, integer,
//!   float, string, array, object), recursively; arrays are compared by their
//!   first elements, and must be both empty or both non-empty.
//!
//! An example is an HTML comment holding the exact command line, directly
//! followed by a ` ```json ` block of its output (shortened where long: lists
//! may be cut after their first elements):
//!
//! ````text
//! <!-- kiai run content/demo/arena.ron --ticks 20 --json -->
//! ```json
//! {"ticks": 20, "agents": 50, ...}
//! ```
//! ````
//!
//! - The commands run in a fresh temporary directory holding copies of the
//!   repository's [`FIXTURES`], so paths read as from the repository root and
//!   commands that write files (`export -o`, `migrate`) write only there.
//! - Commands joined by ` && ` run in order in that directory (a pack to run,
//!   a recording to fork); each but the last must succeed, and the block
//!   shows the last one's output.
//! - A trailing `# exit N` expects exit status N instead of 0; a trailing
//!   `# jsonl FILE` compares the block with the first line of FILE (JSON
//!   Lines the command wrote) instead of stdout. Notes combine:
//!   `# exit 1, jsonl out.jsonl`.
//! - Arguments are separated by spaces; `'...'` or `"..."` quote one that
//!   holds spaces.
//!
//! A new command needs only its section and examples in `docs/cli.md`.
//! `kiai bench` takes minutes in a debug build, so its examples run in their
//! own test, against the release binaries (a debug test run uses the
//! release `kiai` beside its target directory, and skips with a message
//! when there is none); when `kiai bench` fails and no `kiai-bench` binary
//! sits next to `kiai` (the benchmarks not built), that test says so and
//! skips them.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// What every example's directory holds, copied from the repository.
const FIXTURES: &[&str] = &[
    "content",
    "scripts",
    "tests/data",
    "tests/malformed",
    "tests/scenarios",
];

/// Commands whose examples run in [`documented_bench_examples_match_the_real_output`].
const SLOW: &[&str] = &["bench"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kiai_exe() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_kiai"))
}

fn doc() -> String {
    std::fs::read_to_string(root().join("docs/cli.md"))
        .unwrap_or_else(|e| panic!("cannot read docs/cli.md: {e}"))
}

/// One `## `kiai NAME`` section of the page.
struct Section {
    name: String,
    /// Its text, heading included.
    text: String,
}

/// One documented example.
#[derive(Clone, Debug)]
struct Example {
    /// Line of the comment in docs/cli.md, from 1.
    line: usize,
    /// The section it belongs to.
    section: String,
    /// The comment's command line, as written.
    command: String,
    /// The commands, each as its arguments (`kiai` first).
    commands: Vec<Vec<String>>,
    /// Expected exit status of the last command.
    exit: i32,
    /// Compare with the first line of this file instead of stdout.
    jsonl: Option<String>,
    /// The documented output.
    json: Value,
}

impl Example {
    /// The subcommand of the last command (`run` in `kiai run ...`).
    fn subcommand(&self) -> &str {
        self.commands
            .last()
            .and_then(|c| c.get(1))
            .map_or("", String::as_str)
    }
}

/// Splits a command line into words; `'...'` and `"..."` quote. Returns each
/// word with whether it was quoted (a quoted `&&` or `#` is a plain word).
fn words(line: &str) -> Result<Vec<(String, bool)>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(&first) = chars.peek() else {
            return Ok(out);
        };
        let mut word = String::new();
        let mut quoted = false;
        if first == '\'' || first == '"' {
            chars.next();
            quoted = true;
            loop {
                match chars.next() {
                    Some(c) if c == first => break,
                    Some(c) => word.push(c),
                    None => return Err(format!("unterminated {first} in `{line}`")),
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                word.push(c);
            }
        }
        out.push((word, quoted));
    }
}

/// Parses a comment's command line into commands and notes.
fn parse_command(
    line: usize,
    section: &str,
    command: &str,
    json: Value,
) -> Result<Example, String> {
    let words = words(command)?;
    let (commands_part, notes_part) = match words.iter().position(|(w, q)| w == "#" && !q) {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let mut commands: Vec<Vec<String>> = vec![Vec::new()];
    for (w, quoted) in commands_part {
        if w == "&&" && !quoted {
            commands.push(Vec::new());
        } else if let Some(last) = commands.last_mut() {
            last.push(w.clone());
        }
    }
    if commands
        .iter()
        .any(|c| c.first().map(String::as_str) != Some("kiai"))
    {
        return Err(format!("every command must start with `kiai`: `{command}`"));
    }
    let notes: Vec<String> = notes_part
        .iter()
        .map(|(w, _)| w.as_str())
        .collect::<Vec<_>>()
        .join(" ")
        .split(',')
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    let mut example = Example {
        line,
        section: section.to_owned(),
        command: command.to_owned(),
        commands,
        exit: 0,
        jsonl: None,
        json,
    };
    for note in notes {
        match note.split_once(' ') {
            Some(("exit", n)) => {
                example.exit = n
                    .trim()
                    .parse()
                    .map_err(|_| format!("`# exit {n}`: not a number"))?;
            }
            Some(("jsonl", file)) => example.jsonl = Some(file.trim().to_owned()),
            _ => return Err(format!("unknown note `{note}` (exit N, jsonl FILE)")),
        }
    }
    Ok(example)
}

/// The page's sections and examples; problems (malformed examples) as
/// messages.
fn parse(doc: &str) -> (Vec<Section>, Vec<Example>, Vec<String>) {
    let lines: Vec<&str> = doc.lines().collect();
    let mut sections: Vec<Section> = Vec::new();
    let mut examples = Vec::new();
    let mut problems = Vec::new();
    let mut current: Option<usize> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(heading) = line.strip_prefix("## ") {
            let heading = heading.replace('`', "");
            current = heading.strip_prefix("kiai ").map(|name| {
                sections.push(Section {
                    name: name.trim().to_owned(),
                    text: String::new(),
                });
                sections.len() - 1
            });
        }
        if let Some(s) = current {
            sections[s].text.push_str(line);
            sections[s].text.push('\n');
        }
        let trimmed = line.trim();
        if let Some(body) = trimmed
            .strip_prefix("<!-- ")
            .and_then(|b| b.strip_suffix("-->"))
            .filter(|b| b.starts_with("kiai "))
        {
            let at = i + 1;
            let Some(s) = current else {
                problems.push(format!(
                    "line {at}: an example outside a `## kiai NAME` section"
                ));
                i += 1;
                continue;
            };
            if lines.get(i + 1).map(|l| l.trim()) != Some("```json") {
                problems.push(format!(
                    "line {at}: the example `{}` is not directly followed by a ```json block",
                    body.trim()
                ));
                i += 1;
                continue;
            }
            let Some(len) = lines[i + 2..].iter().position(|l| l.trim() == "```") else {
                problems.push(format!("line {at}: the ```json block never ends"));
                break;
            };
            let block = lines[i + 2..i + 2 + len].join("\n");
            match serde_json::from_str::<Value>(&block) {
                Ok(json) => match parse_command(at, &sections[s].name, body.trim(), json) {
                    Ok(e) => examples.push(e),
                    Err(e) => problems.push(format!("line {at}: {e}")),
                },
                Err(e) => problems.push(format!("line {at}: the ```json block is not JSON: {e}")),
            }
            i += 2 + len;
        }
        i += 1;
    }
    (sections, examples, problems)
}

/// JSON type names; integers and floats differ (serde_json always writes a
/// float with a `.` or an exponent).
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a float",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `v` as short text for messages.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(57).collect::<String>())
    } else {
        s
    }
}

/// Every difference in shape between the documented and the real value.
fn compare(path: &str, documented: &Value, real: &Value, out: &mut Vec<String>) {
    if kind(documented) != kind(real) {
        out.push(format!(
            "{path}: documented as {} ({}), but the output has {} ({})",
            kind(documented),
            short(documented),
            kind(real),
            short(real)
        ));
        return;
    }
    match (documented, real) {
        (Value::Object(d), Value::Object(r)) => {
            for key in d.keys().filter(|k| !r.contains_key(*k)) {
                out.push(format!("{path}.{key}: documented, but not in the output"));
            }
            for key in r.keys().filter(|k| !d.contains_key(*k)) {
                out.push(format!(
                    "{path}.{key}: in the output ({}), but not documented",
                    short(&r[key])
                ));
            }
            for (key, dv) in d {
                if let Some(rv) = r.get(key) {
                    compare(&format!("{path}.{key}"), dv, rv, out);
                }
            }
        }
        (Value::Array(d), Value::Array(r)) => match (d.first(), r.first()) {
            (Some(dv), Some(rv)) => compare(&format!("{path}[0]"), dv, rv, out),
            (None, None) => {}
            (None, Some(rv)) => out.push(format!(
                "{path}: documented as empty, but the output has elements (show one: {})",
                short(rv)
            )),
            (Some(_), None) => out.push(format!(
                "{path}: documented with elements, but the output's list is empty"
            )),
        },
        _ => {}
    }
}

/// Copies the directory `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// What running an example gave.
enum Outcome {
    /// The output's shape matches (or not: the differences).
    Checked(Vec<String>),
    /// The last command failed with this stderr (for the bench skip).
    Failed(String),
}

/// Runs `example` in a fresh directory and compares its output's shape.
fn run_example(example: &Example) -> Outcome {
    run_example_with(example, kiai_exe())
}

/// [`run_example`] with the `kiai` binary at `exe`.
fn run_example_with(example: &Example, exe: &Path) -> Outcome {
    let problem = |m: String| Outcome::Checked(vec![m]);
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => return problem(format!("cannot make a temporary directory: {e}")),
    };
    for fixture in FIXTURES {
        if let Err(e) = copy_dir(&root().join(fixture), &dir.path().join(fixture)) {
            return problem(format!("cannot copy {fixture}: {e}"));
        }
    }
    let mut stdout = String::new();
    for (k, command) in example.commands.iter().enumerate() {
        let last = k + 1 == example.commands.len();
        let out = match Command::new(exe)
            .args(&command[1..])
            .current_dir(dir.path())
            .output()
        {
            Ok(o) => o,
            Err(e) => return problem(format!("cannot run kiai: {e}")),
        };
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let want = if last { example.exit } else { 0 };
        if out.status.code() != Some(want) {
            if last {
                return Outcome::Failed(format!(
                    "`{}` exited with {}, not {want}: {stderr}",
                    command.join(" "),
                    out.status
                ));
            }
            return problem(format!(
                "`{}` exited with {}: {stderr}",
                command.join(" "),
                out.status
            ));
        }
        stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    }
    let text = match &example.jsonl {
        Some(file) => match std::fs::read_to_string(dir.path().join(file)) {
            Ok(t) => t.lines().next().unwrap_or_default().to_owned(),
            Err(e) => return problem(format!("the command did not write {file}: {e}")),
        },
        None => {
            if stdout.lines().count() != 1 {
                return problem(format!(
                    "stdout is not one line of JSON: {}",
                    short(&Value::String(stdout))
                ));
            }
            stdout
        }
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(real) => {
            let mut diffs = Vec::new();
            compare("$", &example.json, &real, &mut diffs);
            Outcome::Checked(diffs)
        }
        Err(e) => problem(format!("the output is not JSON ({e}): {text}")),
    }
}

/// Runs the examples in parallel; returns every problem, by example.
fn check_examples(examples: &[Example]) -> Vec<String> {
    let outcomes: Vec<(Example, Outcome)> = std::thread::scope(|scope| {
        let handles: Vec<_> = examples
            .iter()
            .map(|e| scope.spawn(move || (e.clone(), run_example(e))))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| panic!("an example's thread panicked"))
            })
            .collect()
    });
    let mut problems = Vec::new();
    for (e, outcome) in outcomes {
        let diffs = match outcome {
            Outcome::Checked(d) => d,
            Outcome::Failed(stderr) => vec![stderr],
        };
        for d in diffs {
            problems.push(format!("docs/cli.md:{}: `{}`: {d}", e.line, e.command));
        }
    }
    problems
}

/// The subcommands `kiai --help` lists (without `help`).
fn subcommands() -> Vec<String> {
    let text = help(&["--help"]);
    text.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A command's line starts two spaces in; a wrapped description goes
        // on further in.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The long options `kiai ARGS` (a `--help`) lists, without help and version.
fn options(args: &[&str]) -> Vec<String> {
    help(args)
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .filter_map(|l| {
            l.split(|c: char| c.is_whitespace() || c == ',')
                .find(|w| w.starts_with("--"))
        })
        .filter(|o| *o != "--help" && *o != "--version")
        .map(str::to_owned)
        .collect()
}

fn help(args: &[&str]) -> String {
    let out = Command::new(kiai_exe())
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run kiai: {e}"));
    assert!(out.status.success(), "kiai {args:?} failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn report(what: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{what}: {} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_command_and_option_is_documented() {
    let (sections, examples, mut problems) = parse(&doc());
    let commands = subcommands();
    assert!(commands.len() >= 9, "kiai --help lists {commands:?}");
    for name in &commands {
        let Some(section) = sections.iter().find(|s| &s.name == name) else {
            problems.push(format!("`kiai {name}` has no section ## `kiai {name}`"));
            continue;
        };
        if !examples.iter().any(|e| &e.section == name) {
            problems.push(format!("`kiai {name}` has no example"));
        }
        for option in options(&[name, "--help"]) {
            if !section.text.contains(&format!("`{option}")) {
                problems.push(format!(
                    "`kiai {name} {option}` is not mentioned in its section"
                ));
            }
        }
    }
    for s in sections.iter().filter(|s| !commands.contains(&s.name)) {
        problems.push(format!(
            "## `kiai {}` documents a command kiai --help does not list",
            s.name
        ));
    }
    for e in &examples {
        if e.subcommand() != e.section {
            problems.push(format!(
                "docs/cli.md:{}: `{}` is an example of `kiai {}`, but stands in ## `kiai {}`",
                e.line,
                e.command,
                e.subcommand(),
                e.section
            ));
        }
    }
    report("docs/cli.md", &problems);
}

#[test]
fn documented_examples_match_the_real_output() {
    let (_, examples, problems) = parse(&doc());
    report("docs/cli.md's examples", &problems);
    let examples: Vec<Example> = examples
        .into_iter()
        .filter(|e| !SLOW.contains(&e.subcommand()))
        .collect();
    assert!(examples.len() >= 9, "only {} examples", examples.len());
    report("docs/cli.md's examples", &check_examples(&examples));
}

#[test]
fn documented_bench_examples_match_the_real_output() {
    let (_, examples, _) = parse(&doc());
    let bench: Vec<Example> = examples
        .into_iter()
        .filter(|e| SLOW.contains(&e.subcommand()))
        .collect();
    assert!(!bench.is_empty(), "docs/cli.md has no `kiai bench` example");
    // Benchmarks of a debug build take minutes and mean nothing: a debug
    // test run checks the examples against the release binaries beside it.
    let kiai = if cfg!(debug_assertions) {
        let release = kiai_exe().parent().and_then(Path::parent).map(|target| {
            target
                .join("release")
                .join(kiai_exe().file_name().unwrap_or_default())
        });
        match release.filter(|r| r.exists()) {
            Some(r) => r,
            None => {
                println!(
                    "skipping docs/cli.md's bench examples: they are checked with release \
                     binaries (cargo build --release -p kiai-cli -p kiai-bench)"
                );
                return;
            }
        }
    } else {
        kiai_exe().to_path_buf()
    };
    let exe = kiai.with_file_name(format!("kiai-bench{}", std::env::consts::EXE_SUFFIX));
    let mut problems = Vec::new();
    for e in &bench {
        match run_example_with(e, &kiai) {
            Outcome::Checked(diffs) => problems.extend(
                diffs
                    .into_iter()
                    .map(|d| format!("docs/cli.md:{}: `{}`: {d}", e.line, e.command)),
            ),
            Outcome::Failed(stderr) if !exe.exists() => {
                println!(
                    "skipping docs/cli.md:{} `{}`: it failed and {} is not built \
                     (cargo build -p kiai-bench builds it): {stderr}",
                    e.line,
                    e.command,
                    exe.display()
                );
            }
            Outcome::Failed(stderr) => {
                problems.push(format!("docs/cli.md:{}: `{}`: {stderr}", e.line, e.command));
            }
        }
    }
    report("docs/cli.md's bench examples", &problems);
}
