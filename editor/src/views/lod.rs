//! The tick level of detail in words, for the Why tab and the Inspector:
//! an agent's tier and how often it thinks, and whether the decision the
//! run shows is a held one from an earlier tick.
//!
//! Ticks are counted as the transport bar counts them: the decision shown
//! at tick N was made while the run went from tick N - 1 to N, so a
//! decision made in the runtime's tick `t` ([`kiai_core::World::thought_at`])
//! is the one shown from tick `t + 1`.

use kiai_core::World;

/// "tier 2, thinks every 4 ticks" for agent slot `i`; `None` when the
/// level of detail is off or its archetype has no tiers.
pub fn tier_words(world: &World, i: usize) -> Option<String> {
    let id = world.agents().id(i)?;
    let tier = world.lod_tier(id)?;
    let def = world.lod_tier_def(id)?;
    let often = match def.every {
        1 => "thinks every tick".to_owned(),
        k => format!("thinks every {k} ticks"),
    };
    let avoid = if def.avoidance { "" } else { ", no avoidance" };
    Some(format!("tier {tier}, {often}{avoid}"))
}

/// "held since tick 5 — tier 2, thinks every 4 ticks" when agent slot `i`
/// did not sense or decide in the last tick (its decision is the one it
/// made then); `None` when it did, or without level of detail.
pub fn held_words(world: &World, i: usize) -> Option<String> {
    let id = world.agents().id(i)?;
    if world.thinks(id) {
        return None;
    }
    let since = world.thought_at(id)? + 1;
    let tier = tier_words(world, i)?;
    Some(format!("held since tick {since} — {tier}"))
}

/// The Inspector's line for agent slot `i`: its tier, and when it last
/// decided if that was before the last tick.
pub fn inspector_words(world: &World, i: usize) -> Option<String> {
    let tier = tier_words(world, i)?;
    let id = world.agents().id(i)?;
    Some(match world.thinks(id) {
        true => format!("LOD {tier}; decided this tick"),
        false => {
            let since = world.thought_at(id).map_or(0, |t| t + 1);
            format!("LOD {tier}; decision held since tick {since}")
        }
    })
}
