//! `kiai run --watch` as a user sees it: with real files, each effective
//! edit of a script gives exactly one line on stderr — `reloaded` for the
//! script that changed, or its load error once, at the right tick — and
//! nothing while the files stay as they are.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long lines are counted after each edit.
const WINDOW: Duration = Duration::from_millis(2500);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The guards demo (content/demo/guards.ron and scripts/) copied into
/// `dir`; returns the content file.
fn copy_guards(dir: &Path) -> PathBuf {
    let content = dir.join("content/demo");
    std::fs::create_dir_all(&content).unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::copy(
        root().join("content/demo/guards.ron"),
        content.join("guards.ron"),
    )
    .unwrap();
    for f in std::fs::read_dir(root().join("scripts")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join("scripts").join(f.file_name().unwrap())).unwrap();
    }
    content.join("guards.ron")
}

/// `kiai run FILE --watch` for (practically) ever; its stderr, line by line.
struct Watching {
    child: Child,
    lines: Receiver<String>,
}

impl Watching {
    fn start(file: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kiai"))
            .args(["run", file.to_str().unwrap(), "--ticks", "100000000"])
            .args(["--watch", "--json"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let w = Self { child, lines: rx };
        // The run says when its watcher is armed.
        let first = w.lines.recv_timeout(Duration::from_secs(30));
        assert_eq!(
            first.as_deref(),
            Ok("watching 4 script files for changes"),
            "{first:?}"
        );
        w
    }

    /// The lines printed during the next [`WINDOW`].
    fn window(&self) -> Vec<String> {
        let end = Instant::now() + WINDOW;
        let mut out = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => out.push(line),
                Err(_) => break,
            }
        }
        out
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn reloads(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("reloaded "))
        .collect()
}

/// The tick in `reloaded FILE before tick N`.
fn reload_tick(line: &str) -> u64 {
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

#[test]
fn each_edit_reloads_once_and_errors_are_reported_once_at_their_tick() {
    let dir = tempfile::tempdir().unwrap();
    let level = copy_guards(dir.path());
    let guard = dir.path().join("scripts/guard.lua");
    let good = std::fs::read(&guard).unwrap();
    let run = Watching::start(&level);
    assert_eq!(
        run.window(),
        Vec::<String>::new(),
        "nothing happens unedited"
    );

    // One appended line: one reload, of that script only.
    append(&guard, "-- a comment\n");
    let lines = run.window();
    let reloaded = reloads(&lines);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert_eq!(reloaded.len(), 1, "{lines:#?}");
    assert!(reloaded[0].contains("guard.lua before tick "), "{lines:#?}");
    let reloaded_at = reload_tick(reloaded[0]);

    // Saving the same bytes again changes nothing.
    std::fs::write(&guard, [good.as_slice(), b"-- a comment\n"].concat()).unwrap();
    let lines = run.window();
    assert_eq!(lines, Vec::<String>::new());

    // A syntax error: one line, with the tick it was found at.
    std::fs::write(&guard, "function decide(agent, ctx)\n  return (\nend\n").unwrap();
    let lines = run.window();
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let (tick, error) = lines[0]
        .strip_prefix("tick ")
        .and_then(|l| l.split_once(": "))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    let tick: u64 = tick.parse().unwrap();
    assert!(tick > reloaded_at, "{tick} after {reloaded_at}: {lines:#?}");
    assert!(
        error.ends_with("guard.lua:3: unexpected symbol near 'end'"),
        "{error}"
    );
    // It is not reported again while the file stays broken, even when it
    // is saved again unchanged.
    std::fs::write(&guard, "function decide(agent, ctx)\n  return (\nend\n").unwrap();
    assert_eq!(run.window(), Vec::<String>::new());

    // Restored: one reload, no more errors.
    std::fs::write(&guard, &good).unwrap();
    let lines = run.window();
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let reloaded = reloads(&lines);
    assert!(
        reloaded.len() == 1 && reloaded[0].contains("guard.lua"),
        "{lines:#?}"
    );
    assert!(reload_tick(reloaded[0]) > tick, "{lines:#?}");
    assert_eq!(run.window(), Vec::<String>::new());
}

#[test]
fn a_change_to_one_script_reloads_only_that_script() {
    let dir = tempfile::tempdir().unwrap();
    let level = copy_guards(dir.path());
    let run = Watching::start(&level);
    for name in ["captain.lua", "coward.lua"] {
        append(&dir.path().join("scripts").join(name), "\n-- edited\n");
        let lines = run.window();
        assert_eq!(lines.len(), 1, "{lines:#?}");
        assert!(
            lines[0].starts_with("reloaded ") && lines[0].contains(name),
            "{lines:#?}"
        );
    }
}
