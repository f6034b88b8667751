//! `kiai run --positions`: where every agent is after each tick, one JSON
//! object per live agent and tick (JSON Lines), for plotting and tests.

use std::io::Write;

use kiai_core::World;
use serde_json::json;

/// Writes one line per live agent of `world` as the last tick left it:
/// `{"tick": t, "agent": "name", "pos": [x, y, z], "vel": [x, y, z]}`,
/// `t` counting ticks from 0 (the first tick's result is tick 0),
/// positions in world units and velocities in world units per second,
/// agents in slot order.
pub(crate) fn write_positions(out: &mut impl Write, world: &World) -> anyhow::Result<()> {
    let a = world.agents();
    let tick = world.tick().saturating_sub(1);
    for id in a.ids() {
        let i = id.index();
        let (p, v) = (a.positions()[i], a.velocities()[i]);
        let line = json!({
            "tick": tick,
            "agent": a.names()[i],
            "pos": [p.x, p.y, p.z],
            "vel": [v.x, v.y, v.z],
        });
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
