//! How the per-agent stages split their work over threads.

pub(crate) mod concat;

use std::cell::Cell;

/// Fewest agents per parallel work item of the per-agent stages: below it
/// the split costs more than it saves. Results never depend on it.
pub(crate) const PAR_MIN: usize = 1024;

/// Whether work handed to another thread runs beside the calling thread
/// in a world of `agents` agents: the pool has more than one thread and
/// the world at least [`PAR_MIN`] (1,024) agents (below that, waking a
/// thread costs more than it saves, and no per-agent stage splits).
pub fn works_ahead(agents: usize) -> bool {
    rayon::current_num_threads() > 1 && agents >= PAR_MIN
}

/// Fewest agents per parallel work item of passes that cost a few
/// nanoseconds per agent, on the calling thread now. While the tick keeps
/// another thread awake (`awake.rs`), it joins such a pass at once, and
/// what is left to pay is moving the agents' data between the cores'
/// caches, which items of a few thousand agents outweigh; otherwise the
/// other thread must be woken first, which below a few tens of thousands
/// of agents costs more than it saves. Results never depend on it.
pub(crate) fn light_min_len() -> usize {
    if KEPT_AWAKE.get() {
        PAR_MIN * 4
    } else {
        PAR_MIN * 32
    }
}

/// Makes `to` a copy of `from`, by every thread of the pool when there are
/// enough elements ([`concat::extend`], with `from` as the one part; at
/// 100k agents, a whole-world array of 32-byte entries took 0.45 ms on one
/// thread).
pub(crate) fn copy_into<T: Copy + Send + Sync>(from: &[T], to: &mut Vec<T>) {
    to.clear();
    concat::extend(to, &[from], &mut Vec::new());
}

thread_local! {
    /// Whether the tick running on this thread keeps another thread of
    /// its pool awake.
    static KEPT_AWAKE: Cell<bool> = const { Cell::new(false) };
}

/// Records whether the tick on this thread keeps another thread awake;
/// returns what was recorded before.
pub(crate) fn set_kept_awake(kept: bool) -> bool {
    KEPT_AWAKE.replace(kept)
}
