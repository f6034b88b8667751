//! `kiai run --trace`: why every agent decided what it did, one JSON
//! object per live agent and tick (JSON Lines): the options, the rolls
//! with their thresholds, who decided, the weights, the target and the
//! steering.

use std::io::Write;

use kiai_content::Content;
use kiai_core::{BehaviourState, Decision, DefaultDecider, Movement, World};
use serde_json::{Value, json};

/// Appends one JSON line per live agent: why it decided what it did in
/// the tick `world` last ran (`decider`'s traces).
pub(crate) fn write_trace(
    out: &mut impl Write,
    content: &Content,
    world: &World,
    decider: &DefaultDecider,
) -> anyhow::Result<()> {
    let a = world.agents();
    let names = a.names();
    let name = |id: Option<kiai_core::AgentId>| id.map(|id| names[id.index()].as_str());
    for (i, t) in decider.traces().iter().enumerate() {
        if !a.alive()[i] {
            continue;
        }
        let d = a.decisions()[i];
        let archetype = &world.archetypes()[a.archetypes()[i].index()];
        let profile = content.archetype_profile(a.archetypes()[i].index());
        let rolls: Vec<Value> = t
            .rolls
            .iter()
            .map(|r| json!({ "kind": r.kind.name(), "value": r.value, "threshold": r.threshold }))
            .collect();
        let mut line = json!({
            "tick": world.tick() - 1,
            "agent": names[i],
            "state": d.state.name(),
            "target": name(d.target),
            "options": { "chase": name(t.chase_option), "evade": name(t.evade_option) },
            "chased": t.chased,
            "rolls": rolls,
            "decided_by": t.decided_by.name(),
            "profile": profile,
            "weights": { "chase": t.weights[0], "evade": t.weights[1] },
            "outcome": t.outcome.map(|o| format!("{o:?}").to_lowercase()),
            "steering": steering(archetype.movement, d),
        });
        let lod = a
            .id(i)
            .and_then(|id| crate::lod::trace_fields(world, id, t.held));
        if let (Some(lod), Some(map)) = (lod, line.as_object_mut()) {
            map.insert("lod".to_owned(), lod);
        }
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// How an agent that moves by `movement` steers after deciding `d`.
fn steering(movement: Movement, d: Decision) -> &'static str {
    match (movement, d.state, d.target.is_some()) {
        (Movement::Static, ..) => "static",
        (Movement::Missile { .. }, BehaviourState::Chase, true) => "missile_guidance",
        (Movement::Missile { .. }, ..) => "missile_straight",
        (Movement::WaypointWalker { .. }, ..) => "waypoints",
        (Movement::Custom { .. }, ..) => "custom",
        (_, BehaviourState::Chase, true) => "pursue",
        (_, BehaviourState::Evade, true) => "evade",
        _ => "random_walk",
    }
}
