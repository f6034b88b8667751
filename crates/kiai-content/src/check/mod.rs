//! Layer 1, checking (beside reading): the rules parsed definitions must
//! keep, all reported at once as diagnostics. [`rules`] holds the value
//! rules that text and packs share; [`validate`] adds the checks on names
//! and references; [`lint`] warns about legal but suspicious content.
//! Imports only the format layer.

use crate::format::def::ContentDef;
use crate::format::diag::Diagnostic;
use crate::format::limits;
use crate::format::locate::SpanIndex;

pub(crate) mod lint;
mod lod;
pub(crate) mod rules;
pub(crate) mod validate;

/// Every check on parsed content: limits, validation, lints.
pub(crate) fn content(def: &ContentDef, spans: &SpanIndex, file: &str) -> Vec<Diagnostic> {
    let mut out = limits::check(def, spans, file);
    if out.is_empty() {
        out = validate::validate(def, spans, file);
        // Lints assume the references resolve: run them on error-free
        // content only (an unknown name would also read as "never used").
        if !out.iter().any(Diagnostic::is_error) {
            out.extend(lint::warnings(def, spans, file));
        }
    }
    out.sort_by_key(|d| (d.line, d.column));
    out
}
