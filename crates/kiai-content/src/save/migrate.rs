//! Migrating a file's text to the newest format (`kiai migrate`): the
//! content is loaded (and so migrated and validated), then written back
//! through the format-preserving writer so comments and layout survive.

use crate::format::def::{ContentDef, FORMAT_VERSION};
use crate::format::diag::{Diagnostic, Diagnostics};
use crate::format::locate::Pos;
use crate::load::Content;
use crate::read::migrate::Change;
use crate::write::{Layout, to_ron_preserving};

/// A text rewritten to the newest format.
#[derive(Clone, Debug)]
pub struct TextMigration {
    /// The version the text had.
    pub from: u32,
    /// The rewritten text (equal to the input when `from` is the newest).
    pub text: String,
    /// The definitions the rewritten text parses to.
    pub def: ContentDef,
    /// What changed.
    pub changes: Vec<Change>,
    /// Whether comments and layout were kept (only the changed values were
    /// rewritten); otherwise the whole file was written anew.
    pub kept_layout: bool,
}

/// Migrates content text to the newest format, keeping comments and layout:
/// the format-preserving writer ([`to_ron_preserving`]) rewrites
/// only the values that changed (`format`, positional `costs`), writes no
/// defaults the file did not have, and checks that the result parses to
/// exactly the migrated definitions (if the edits cannot be placed it
/// rewrites the changed items, sections, or at last the whole file).
/// Fails with the diagnostics of an unreadable or invalid file.
pub fn migrate_text(text: &str, file: &str) -> Result<TextMigration, Diagnostics> {
    let mut content = Content::from_str(text, file)?;
    let from = content.migrated_from.unwrap_or(FORMAT_VERSION);
    let migrated = content.migrated_from.is_some();
    let changes = std::mem::take(&mut content.changes);
    let def = content.into_def();
    if !migrated {
        return Ok(TextMigration {
            from,
            text: text.to_owned(),
            def,
            changes: Vec::new(),
            kept_layout: true,
        });
    }
    let written = to_ron_preserving(text, &def).map_err(|e| {
        Diagnostics(vec![Diagnostic::error(
            file,
            Pos { line: 1, column: 1 },
            format!("cannot write the migrated content: {e}"),
        )])
    })?;
    Ok(TextMigration {
        from,
        text: written.text,
        def,
        changes,
        kept_layout: written.layout == Layout::Kept,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positional_costs_become_named() -> Result<(), Diagnostics> {
        let text = "(\n    format: 1, // old\n    cost_lists: [\"a\", \"b\"],\n    waypoints: [(id: 0, pos: (0.0, 0.0, 0.0)), (id: 1, pos: (1.0, 0.0, 0.0))],\n    links: [(from: 0, to: 1, costs: [1.0, 2.5]), (from: 1, to: 0)],\n)";
        let m = migrate_text(text, "t.ron")?;
        assert_eq!(m.from, 1);
        assert!(m.kept_layout);
        assert!(m.text.contains("format: 2, // old"), "{}", m.text);
        assert!(
            m.text.contains("costs: {\"a\": 1.0, \"b\": 2.5}"),
            "{}",
            m.text
        );
        assert_eq!(m.changes.len(), 2);
        let again = migrate_text(&m.text, "t.ron")?;
        assert!(again.changes.is_empty());
        assert_eq!(again.text, m.text);
        Ok(())
    }
}
