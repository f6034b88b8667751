//! How the per-agent stages split their work over threads.

/// Fewest agents per parallel work item of the per-agent stages: below it
/// the split costs more than it saves. Results never depend on it.
pub(crate) const PAR_MIN: usize = 1024;

/// Fewest agents per parallel work item of passes that cost a few
/// nanoseconds per agent: below a few tens of thousands of agents, waking
/// a second thread costs more than it saves.
pub(crate) const PAR_MIN_LIGHT: usize = PAR_MIN * 32;
