//! Reading script files, and telling whether a file holds the version of a
//! script that was last read from it.

use std::hash::{DefaultHasher, Hasher};
use std::path::Path;

use crate::ScriptError;

/// What was last read from a script's file: its bytes (hashed), or why it
/// could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Version {
    /// A hash of the bytes.
    Bytes(u64),
    /// The read failed with this message.
    Unreadable(String),
}

impl Version {
    /// The version of script text `source`.
    pub(crate) fn of(source: &str) -> Self {
        Self::Bytes(hash(source.as_bytes()))
    }
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    h.write(bytes);
    h.finish()
}

/// Reads the script at `path`: the version read and its text, or the error
/// (`file: cannot read: ...`, the path shown as given).
pub(crate) fn read(path: &Path) -> (Version, Result<String, ScriptError>) {
    let file = path.display().to_string();
    let cannot =
        |e: &dyn std::fmt::Display| ScriptError::plain(&file, None, format!("cannot read: {e}"));
    match std::fs::read(path) {
        Ok(bytes) => {
            let version = Version::Bytes(hash(&bytes));
            let text =
                String::from_utf8(bytes).map_err(|_| cannot(&"stream did not contain valid UTF-8"));
            (version, text)
        }
        Err(e) => (Version::Unreadable(e.to_string()), Err(cannot(&e))),
    }
}
