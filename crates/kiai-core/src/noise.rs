//! The noise stage: agents whose archetype makes noise emit a sound where
//! they stand, heard at the next sense stage.

use crate::data::Sound;
use crate::world::World;

/// Agents whose archetype makes noise emit a sound where they stand, louder
/// the faster they move (volume × speed / max speed), heard next tick.
pub(crate) fn run(world: &mut World) {
    let a = &world.agents;
    for i in 0..a.len() {
        if !a.alive[i] {
            continue;
        }
        let archetype = &world.archetypes[a.archetype[i].index()];
        let Some(volume) = archetype.noise else {
            continue;
        };
        let max = archetype.movement.max_speed();
        let speed = a.velocity[i].length();
        if speed > 0.0 && max > 0.0 {
            world.pending_sounds.push(Sound {
                position: a.position[i],
                volume: volume * (speed / max).min(1.0),
                source: i as u32,
                tag: 0,
            });
        }
    }
}
