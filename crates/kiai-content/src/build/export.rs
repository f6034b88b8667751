//! Export: valid content to a self-contained runtime pack.

use crate::load::{Content, Source};
use crate::pack::{Pack, PackScript};

/// Why content could not be exported.
#[derive(Debug)]
pub enum ExportError {
    /// The content does not resolve into a pack.
    Pack(crate::pack::PackError),
    /// A script an archetype names could not be read.
    Script {
        /// The script file, resolved against the content's directory.
        path: std::path::PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Pack(e) => write!(f, "cannot resolve the content: {e}"),
            ExportError::Script { path, source } => {
                write!(f, "cannot read the script {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for ExportError {}

impl From<crate::pack::PackError> for ExportError {
    fn from(e: crate::pack::PackError) -> Self {
        ExportError::Pack(e)
    }
}

impl Content {
    /// The runtime pack of this content, with every script an archetype
    /// names bundled (read from disk, next to the content file), so the pack
    /// needs no other file. Content loaded from a pack gives that pack.
    pub fn to_pack(&self) -> Result<Pack, ExportError> {
        let def = match &self.source {
            Source::Text(def) => def,
            Source::Pack(pack) => return Ok(pack.clone()),
        };
        let mut pack = Pack::from_def(def)?;
        for script in self.scripts() {
            let Some(path) = def
                .archetypes
                .0
                .get(script.index)
                .and_then(|(_, a)| a.script.clone())
            else {
                continue;
            };
            if pack.scripts.iter().any(|s| s.path == path) {
                continue;
            }
            let text =
                std::fs::read_to_string(&script.path).map_err(|source| ExportError::Script {
                    path: script.path.clone(),
                    source,
                })?;
            pack.scripts.push(PackScript { path, text });
        }
        Ok(pack)
    }
}
