//! A `kiai run --trace` file, opened to compare the editor's decisions
//! with a run outside it (the Why tab says whether each agrees).

use std::path::Path;

/// One line of `kiai run --trace`: why one agent decided what it did.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct TraceLine {
    /// The tick decided (0-based: the first tick is 0).
    pub tick: u64,
    /// Agent name.
    pub agent: String,
    /// Chosen state name.
    pub state: String,
    /// Target agent name.
    pub target: Option<String>,
    /// Who decided.
    pub decided_by: String,
}

/// Reads a `kiai run --trace` file: (tick, agent) → line.
pub fn load_trace(
    path: &Path,
) -> Result<std::collections::BTreeMap<(u64, String), TraceLine>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::collections::BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let t: TraceLine =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        out.insert((t.tick, t.agent.clone()), t);
    }
    Ok(out)
}
