//! The fog stage: sighted agents re-stamp the tile fog of war
//! ([`kiai_fog`]) where they moved.

use crate::world::{World, fog_pose};

/// Moves every sighted agent's fog unit to its new pose; the grid re-stamps
/// only those that changed tile or direction bucket. Sequential, in agent
/// order, so events come out the same at any thread count.
pub(crate) fn run(world: &mut World) {
    let Some(fog) = &mut world.fog else {
        return;
    };
    fog.events.clear();
    let a = &world.agents;
    for i in 0..a.len() {
        let unit = kiai_fog::UnitId(i as u32);
        let Some(desc) = fog.grid.unit(unit) else {
            continue;
        };
        let pose = fog_pose(desc.shape, a.position[i], a.facing[i]);
        // The unit exists, so the only error (unknown unit) cannot occur.
        let _ = fog.grid.set_pose(unit, pose);
    }
    fog.grid.drain_events_into(&mut fog.events);
}
