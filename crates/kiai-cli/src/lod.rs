//! The tick level of detail in what `kiai run` prints: agents per tier at
//! the last tick (a line, or the `lod` key of `--json`), and whether a
//! traced decision was a held one. Nothing is printed when no archetype
//! has tiers, so existing output does not change.

use kiai_core::World;
use serde_json::{Value, json};

/// `lod tiers  0: 120, 1: 2,300, 2: 97,580`: live agents per tier index at
/// the last tick; `None` when the level of detail is off.
pub(crate) fn tiers_line(world: &World) -> Option<String> {
    if !world.lod_active() {
        return None;
    }
    let tiers: Vec<String> = world
        .lod_counts()
        .iter()
        .enumerate()
        .map(|(k, &n)| format!("{k}: {}", grouped(n)))
        .collect();
    Some(format!("lod tiers   {}", tiers.join(", ")))
}

/// `{"tiers": [120, 2300, 97580]}` for `--json`; `None` when the level of
/// detail is off.
pub(crate) fn tiers_json(world: &World) -> Option<Value> {
    world
        .lod_active()
        .then(|| json!({ "tiers": world.lod_counts() }))
}

/// For `--trace`: `held` (the decision was kept from an earlier tick), the
/// tick the agent last thought and its tier; `None` when the level of
/// detail is off.
pub(crate) fn trace_fields(world: &World, agent: kiai_core::AgentId, held: bool) -> Option<Value> {
    if !world.lod_active() {
        return None;
    }
    Some(json!({
        "held": held,
        "thought_at": world.thought_at(agent),
        "tier": world.lod_tier(agent),
        "every": world.lod_tier_def(agent).map(|t| t.every),
    }))
}

/// `n` with a comma between groups of three digits: `97,580`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn counts_are_grouped_by_thousands() {
        let cases = [(0, "0"), (120, "120"), (2300, "2,300"), (97_580, "97,580")];
        for (n, text) in cases {
            assert_eq!(grouped(n), text);
        }
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}
