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
