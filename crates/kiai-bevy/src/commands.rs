//! Navigation edits from any system, as commands applied before the next
//! tick: block a link, switch a waypoint, open a wall by name. Walkers
//! whose route crossed the change re-plan in that tick.

use bevy_ecs::prelude::*;
use kiai::core::nav::WaypointId;

use crate::runtime::Kiai;

/// kiai's world edits as [`Commands`].
pub trait KiaiCommandsExt {
    /// Blocks or unblocks the link `from -> to` (content waypoint ids; one
    /// direction: block both for a two-way path).
    fn kiai_block_link(&mut self, from: u32, to: u32, blocked: bool);
    /// Switches waypoint `id` on or off (walkers never enter an inactive
    /// one).
    fn kiai_set_waypoint_active(&mut self, id: u32, active: bool);
    /// Enables or disables the wall named `name` (a closed or open door);
    /// the same as changing a [`crate::KiaiWall`].
    fn kiai_set_wall_enabled(&mut self, name: &str, enabled: bool);
}

impl KiaiCommandsExt for Commands<'_, '_> {
    fn kiai_block_link(&mut self, from: u32, to: u32, blocked: bool) {
        edit(self, move |w| {
            w.set_link_blocked(WaypointId(from), WaypointId(to), blocked)
        });
    }

    fn kiai_set_waypoint_active(&mut self, id: u32, active: bool) {
        edit(self, move |w| w.set_waypoint_active(WaypointId(id), active));
    }

    fn kiai_set_wall_enabled(&mut self, name: &str, enabled: bool) {
        let name = name.to_owned();
        edit(self, move |w| {
            let index = w
                .wall_index(&name)
                .ok_or_else(|| kiai::core::WorldError::UnknownWall(name.clone()))?;
            w.set_wall_enabled(index, enabled)
        });
    }
}

/// Queues `change` to the kiai world; a change that fails (an unknown
/// waypoint, link or wall) is logged as a problem, never a panic.
fn edit<F>(commands: &mut Commands, change: F)
where
    F: FnOnce(&mut kiai::core::World) -> Result<(), kiai::core::WorldError> + Send + 'static,
{
    commands.queue(move |world: &mut World| {
        let Some(mut kiai) = world.get_resource_mut::<Kiai>() else {
            return;
        };
        let Some(w) = kiai.world_mut() else {
            kiai.problem("a kiai edit came before the level loaded; it was dropped".to_owned());
            return;
        };
        if let Err(e) = change(w) {
            kiai.problem(format!("kiai edit refused: {e:?}"));
        }
    });
}
