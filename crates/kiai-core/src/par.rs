//! How the per-agent stages split their work over threads.

/// Fewest agents per parallel work item of the per-agent stages: below it
/// the split costs more than it saves. Results never depend on it.
pub(crate) const PAR_MIN: usize = 1024;
