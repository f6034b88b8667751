//! How commands print: lines and JSON objects on stdout (a closed pipe is
//! reported as an error, never a panic), diagnostics on stderr, and the
//! exit status of a failure already reported.

use std::process::ExitCode;

use kiai_content::Diagnostic;
use serde_json::Value;

/// The exit status of a failure already reported to the user (its
/// diagnostics printed).
pub(crate) const REPORTED: ExitCode = ExitCode::FAILURE;

/// Writes one line to stdout, reporting (not panicking on) a closed pipe.
pub(crate) fn outln(line: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")
}

/// Writes `value` to stdout as one line of JSON (the `--json` contract).
pub(crate) fn print_json(value: &Value) -> anyhow::Result<()> {
    outln(&serde_json::to_string(value)?)?;
    Ok(())
}

/// Prints diagnostics to stderr, one per line.
pub(crate) fn print_diagnostics(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        eprintln!("{d}");
    }
}

/// The plural ending for `n` things: `""` for one, `"s"` otherwise.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
