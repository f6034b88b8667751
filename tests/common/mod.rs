//! Helpers shared by the workspace-level tests that drive the `kiai` binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root (tests run with the owning crate's directory as cwd).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `kiai ARGS` from the workspace root.
pub(crate) fn kiai(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kiai"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run kiai: {e}"))
}

/// Runs `kiai ARGS`, asserts it succeeded, and returns its stdout.
#[allow(
    dead_code,
    reason = "each test binary uses its own subset of these helpers"
)]
pub(crate) fn stdout(args: &[&str]) -> String {
    let out = kiai(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `kiai ARGS`, asserts it succeeded, and parses its stdout as JSON.
#[allow(
    dead_code,
    reason = "each test binary uses its own subset of these helpers"
)]
pub(crate) fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

/// `kiai path FILE --from FROM --to TO --cost-list LIST --json`, parsed.
#[allow(
    dead_code,
    reason = "each test binary uses its own subset of these helpers"
)]
pub(crate) fn path_json(file: &str, from: &str, to: &str, list: &str) -> serde_json::Value {
    json(&[
        "path",
        file,
        "--from",
        from,
        "--to",
        to,
        "--cost-list",
        list,
        "--json",
    ])
}

/// A file's text; panics naming the file when it does not read.
#[allow(
    dead_code,
    reason = "each test binary uses its own subset of these helpers"
)]
pub(crate) fn read_text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A temporary path as a command-line argument.
#[allow(
    dead_code,
    reason = "each test binary uses its own subset of these helpers"
)]
pub(crate) fn path_str(p: &Path) -> &str {
    p.to_str().unwrap_or_else(|| panic!("non-UTF-8 temp path"))
}
