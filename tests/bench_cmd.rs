//! `kiai bench` runs the `kiai-bench` binary next to the `kiai` executable:
//! arguments go through, its output and exit code come back, and a missing
//! binary is explained with the command that builds it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A copy of the `kiai` binary in a fresh temporary directory (so nothing
/// else sits next to it).
fn lone_kiai() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let exe = dir
        .path()
        .join(format!("kiai{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(env!("CARGO_BIN_EXE_kiai"), &exe).unwrap_or_else(|e| panic!("{e}"));
    (dir, exe)
}

/// Runs `exe ARGS` from `dir`, retrying while the file is busy: another test
/// thread forking while a just-written executable was open for writing
/// makes `exec` fail with ETXTBSY for a moment.
fn run(exe: &Path, dir: &Path, args: &[&str]) -> Output {
    const TEXT_FILE_BUSY: i32 = 26;
    for _ in 0..50 {
        match Command::new(exe).args(args).current_dir(dir).output() {
            Ok(out) => return out,
            Err(e) if e.raw_os_error() == Some(TEXT_FILE_BUSY) => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => panic!("cannot run {}: {e}", exe.display()),
        }
    }
    panic!("{} stayed busy", exe.display())
}

#[test]
fn a_missing_benchmark_binary_is_explained_with_the_command_that_builds_it() {
    let (dir, kiai) = lone_kiai();
    let out = run(&kiai, dir.path(), &["bench", "--quick", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "no JSON when nothing ran");
    let err = String::from_utf8_lossy(&out.stderr);
    let expected = dir
        .path()
        .join(format!("kiai-bench{}", std::env::consts::EXE_SUFFIX));
    assert!(
        err.contains(&format!("({} does not exist)", expected.display())),
        "{err}"
    );
    assert!(
        err.contains("Build it with `cargo build --release -p kiai-bench`"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[cfg(unix)]
#[test]
fn kiai_bench_runs_its_neighbour_with_the_arguments_and_returns_its_exit_code() {
    use std::os::unix::fs::PermissionsExt;

    let (dir, kiai) = lone_kiai();
    let fake = dir.path().join("kiai-bench");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho \"kiai-bench got: $*\"\necho \"to stderr\" >&2\nexit 3\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("{e}"));
    for (args, passed) in [
        (vec!["bench", "--quick", "--json"], "--quick --json"),
        (vec!["bench", "--json"], "--json"),
        (vec!["bench"], ""),
    ] {
        let out = run(&kiai, dir.path(), &args);
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("kiai-bench got: {passed}\n"),
            "{args:?}"
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "to stderr\n");
    }
}
