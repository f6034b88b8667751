//! Reading the files commands are given: content (`.ron` or an exported
//! pack) and events files, their problems printed to stderr as
//! `file:line:col: error: message`.

use std::path::Path;

use kiai_content::Content;
use kiai_content::events::Schedule;

use crate::output::print_diagnostics;

/// Loads content, printing diagnostics (errors and warnings) to stderr;
/// `None` when it has errors.
pub(crate) fn load(file: &Path) -> Option<Content> {
    match Content::load(file) {
        Ok(content) => {
            print_diagnostics(&content.warnings);
            Some(content)
        }
        Err(diagnostics) => {
            print_diagnostics(&diagnostics.0);
            None
        }
    }
}

/// The events file `events` names (`--events`), checked against `content`,
/// or an empty schedule; `None` when it has problems (printed like
/// content's).
pub(crate) fn schedule_of(events: Option<&Path>, content: &Content) -> Option<Schedule> {
    let Some(path) = events else {
        return Some(Schedule::default());
    };
    match Schedule::load(path, content) {
        Ok(s) => Some(s),
        Err(diagnostics) => {
            print_diagnostics(&diagnostics.0);
            None
        }
    }
}
