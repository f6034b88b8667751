//! The fog stage: sighted agents re-stamp the tile fog of war
//! ([`kiai_fog`]) where they moved.

use kiai_fog::{Pose, SightShape};

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
        // A circle sees the same tiles whichever way it faces: its angle
        // (an arctangent per agent, a third of this stage) is not needed.
        let pose = match desc.shape {
            SightShape::Circle => Pose::new([a.position[i].x, a.position[i].z], 0.0),
            SightShape::Flashlight { .. } => fog_pose(a.position[i], a.facing[i]),
        };
        // The unit exists, so the only error (unknown unit) cannot occur.
        let _ = fog.grid.set_pose(unit, pose);
    }
    fog.grid.drain_events_into(&mut fog.events);
}
