//! How the per-agent stages split their work over threads.

/// Fewest agents per parallel work item of the per-agent stages: below it
/// the split costs more than it saves. Results never depend on it.
pub(crate) const PAR_MIN: usize = 1024;

/// Fewest agents per parallel work item of passes that cost a few
/// nanoseconds per agent. The tick keeps the pool's threads awake
/// (`awake.rs`), so a second thread joins such a pass at once; what is left
/// to pay is moving the agents' data between the cores' caches, which
/// items of a few thousand agents outweigh.
pub(crate) const PAR_MIN_LIGHT: usize = PAR_MIN * 4;
