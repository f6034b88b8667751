//! `kiai validate`: checks content files (and the Lua scripts they name)
//! and reports every problem as `file:line:col: severity: message`; exit
//! status 1 when there is an error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use kiai_content::{Content, Diagnostic, Severity};
use serde_json::{Value, json};

use crate::output::{REPORTED, outln, plural, print_json};

/// `kiai validate`'s flags.
#[derive(Args)]
pub(crate) struct ValidateArgs {
    /// Content files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object on stdout instead of diagnostic lines.
    #[arg(long)]
    json: bool,
}

/// Runs `kiai validate`: the diagnostics on stdout (or the JSON object),
/// the counts on stderr.
pub(crate) fn run(args: &ValidateArgs) -> anyhow::Result<ExitCode> {
    let all: Vec<Diagnostic> = args
        .files
        .iter()
        .map(PathBuf::as_path)
        .flat_map(diagnostics_of)
        .collect();
    let errors = all.iter().filter(|d| d.is_error()).count();
    let ok = errors == 0;
    if args.json {
        let diagnostics: Vec<Value> = all
            .iter()
            .map(|d| {
                json!({
                    "file": d.file,
                    "line": d.line,
                    "column": d.column,
                    "severity": d.severity.as_str(),
                    "message": d.message,
                })
            })
            .collect();
        print_json(&json!({ "ok": ok, "diagnostics": diagnostics }))?;
    } else {
        for d in &all {
            outln(&format!("{d}"))?;
        }
        eprintln!(
            "{} file{} checked: {errors} error{}, {} warning{}",
            args.files.len(),
            plural(args.files.len()),
            plural(errors),
            all.len() - errors,
            plural(all.len() - errors)
        );
    }
    Ok(if ok { ExitCode::SUCCESS } else { REPORTED })
}

/// Every problem of one content file: its errors, or the syntax errors
/// of its scripts and then its warnings.
fn diagnostics_of(file: &Path) -> Vec<Diagnostic> {
    match Content::load(file) {
        Ok(content) => {
            let mut all = script_errors(&content);
            all.extend(content.warnings);
            all
        }
        Err(d) => d.0,
    }
}

/// One error per script of `content` that does not compile (bundled
/// scripts checked from their text, the others from their files).
fn script_errors(content: &Content) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for script in content.scripts() {
        let checked = match &script.bundled {
            Some(text) => kiai_lua::check_syntax(&script.path.display().to_string(), text),
            None => kiai_lua::check_file(&script.path),
        };
        if let Err(e) = checked {
            out.push(Diagnostic {
                file: e.file.clone(),
                line: e.line.unwrap_or(1),
                column: 1,
                severity: Severity::Error,
                message: e.message.clone(),
            });
        }
    }
    out
}
