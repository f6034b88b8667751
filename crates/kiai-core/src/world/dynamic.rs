//! A world that changes while it runs: doors that open and close, walls
//! built and torn down, waypoints switched off and links blocked.
//!
//! Walls are updated in the occlusion grid in place. A wall marked as a
//! door ([`World::set_door`]) also blocks the waypoint links it crosses
//! while it is closed, so walkers route around a closed door and through an
//! open one. Every change to the waypoint graph makes the affected waypoint
//! walkers re-plan at the next navigate stage: a closed link or waypoint
//! those whose route uses it, an opened one every walker with a route (any
//! route may now be shorter).

use glam::Vec3;
use kiai_nav::WaypointId;

use crate::data::walls::{Wall, first_hit_brute};
use crate::data::{EventKind, Occluders, Walls};

use super::{World, WorldError};

/// Height above the waypoints at which a door is tested against the links
/// it may cross, world units (walls stand on y = 0).
const LINK_HEIGHT: f32 = 0.1;

/// What the world knows of its walls beyond their geometry: names, doors,
/// and the waypoint links each door crosses.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct WallInfo {
    /// Per wall, its name, if any.
    pub(crate) names: Vec<Option<String>>,
    /// Per wall, whether it is a door (blocks the links it crosses while
    /// closed).
    pub(crate) door: Vec<bool>,
    /// Per wall, the links it crosses (doors only).
    pub(crate) crossing: Vec<Vec<(WaypointId, WaypointId)>>,
    /// Links blocked through [`World::set_link_blocked`].
    pub(crate) blocked_links: std::collections::BTreeSet<(WaypointId, WaypointId)>,
    /// Walls, waypoints or links changed while the world ran (the state
    /// hash then covers their states).
    pub(crate) changed: bool,
}

impl World {
    /// The index of the wall called `name`.
    pub fn wall_index(&self, name: &str) -> Option<usize> {
        self.walls_info
            .names
            .iter()
            .position(|n| n.as_deref() == Some(name))
    }

    /// The name of wall `index`, if it has one.
    pub fn wall_name(&self, index: usize) -> Option<&str> {
        self.walls_info.names.get(index)?.as_deref()
    }

    /// Names wall `index` (`None` removes the name).
    pub fn set_wall_name(&mut self, index: usize, name: Option<String>) -> Result<(), WorldError> {
        self.wall_exists(index)?;
        self.walls_info.names[index] = name;
        Ok(())
    }

    /// Makes wall `index` a door (or an ordinary wall again): while a door
    /// is closed (enabled), the waypoint links it crosses are blocked.
    pub fn set_door(&mut self, index: usize, door: bool) -> Result<(), WorldError> {
        self.wall_exists(index)?;
        if self.walls_info.door[index] == door {
            return Ok(());
        }
        let closed = self
            .walls()
            .is_some_and(|w| w.is_enabled(index) == Some(true));
        if closed {
            self.block_crossing(index, false);
        }
        self.walls_info.door[index] = door;
        self.walls_info.crossing[index] = if door {
            self.links_crossing(index)
        } else {
            Vec::new()
        };
        if closed {
            self.block_crossing(index, true);
        }
        Ok(())
    }

    /// Whether wall `index` is a door.
    pub fn is_door(&self, index: usize) -> bool {
        self.walls_info.door.get(index).copied().unwrap_or(false)
    }

    /// Closes (`enabled`) or opens wall `index`: an open wall hides nothing
    /// and stops nobody; a door also opens the links it crosses. A
    /// `DoorChanged` event follows when the state changed.
    pub fn set_wall_enabled(&mut self, index: usize, enabled: bool) -> Result<(), WorldError> {
        self.wall_exists(index)?;
        let walls = self.walls_mut().ok_or_else(|| unknown_wall(index))?;
        let was = walls
            .set_enabled(index, enabled)
            .ok_or_else(|| unknown_wall(index))?;
        if was == enabled {
            return Ok(());
        }
        self.block_crossing(index, enabled);
        self.walls_info.changed = true;
        self.mark_clearance(index);
        self.push_event(EventKind::DoorChanged {
            wall: index as u32,
            open: !enabled,
        });
        Ok(())
    }

    /// Adds a standing wall (world units; see [`Wall`]) and returns its
    /// index. Perception sees it from the next sense stage.
    pub fn add_wall(&mut self, wall: Wall) -> usize {
        let occluders = self.occluders.get_or_insert_with(|| Occluders {
            walls: Walls::default(),
            pvs: None,
        });
        let index = occluders.walls.push(wall);
        self.stale_clearance.wall(&wall);
        let info = &mut self.walls_info;
        info.changed = true;
        info.names.resize(index + 1, None);
        info.door.resize(index + 1, false);
        info.crossing.resize(index + 1, Vec::new());
        index
    }

    /// Tears wall `index` down for good (its index stays taken). A computed
    /// potentially visible set may have counted on the wall, so it stops
    /// culling (every region sees every other) until a new one is set.
    pub fn remove_wall(&mut self, index: usize) -> Result<(), WorldError> {
        self.wall_exists(index)?;
        let closed = self
            .walls()
            .is_some_and(|w| w.is_enabled(index) == Some(true));
        if closed {
            self.block_crossing(index, false);
        }
        if let Some(o) = &mut self.occluders {
            o.walls.remove(index);
            if let Some(pvs) = &mut o.pvs {
                pvs.open_all();
            }
        }
        self.walls_info.door[index] = false;
        self.walls_info.crossing[index].clear();
        self.walls_info.changed = true;
        self.mark_clearance(index);
        Ok(())
    }

    /// Switches waypoint `id` on or off (walkers never enter an inactive
    /// waypoint); walkers re-plan as the module docs say.
    pub fn set_waypoint_active(&mut self, id: WaypointId, active: bool) -> Result<(), WorldError> {
        let nav = self
            .nav
            .as_mut()
            .ok_or_else(|| WorldError::UnknownWaypoint(format!("{id:?}")))?;
        let was = nav
            .set_active(id, active)
            .ok_or_else(|| WorldError::UnknownWaypoint(format!("{id:?}")))?;
        if was != active {
            self.walls_info.changed = true;
            if active {
                self.replan.all = true;
            } else {
                self.replan.waypoints.push(id);
            }
        }
        Ok(())
    }

    /// Blocks or unblocks the link `from -> to` (one direction; block both
    /// for a two-way path); walkers re-plan as the module docs say. A link
    /// is walkable when neither this nor a closed door blocks it.
    pub fn set_link_blocked(
        &mut self,
        from: WaypointId,
        to: WaypointId,
        blocked: bool,
    ) -> Result<(), WorldError> {
        let missing = || WorldError::UnknownWaypoint(format!("{from:?} -> {to:?}"));
        let nav = self.nav.as_ref().ok_or_else(missing)?;
        nav.is_link_blocked(from, to).ok_or_else(missing)?;
        let set = &mut self.walls_info.blocked_links;
        let changed = if blocked {
            set.insert((from, to))
        } else {
            set.remove(&(from, to))
        };
        if changed {
            self.walls_info.changed = true;
            self.change_link(from, to, blocked);
        }
        Ok(())
    }

    /// Whether the link `from -> to` is blocked (by the API or a closed
    /// door); `None` when it does not exist.
    pub fn is_link_blocked(&self, from: WaypointId, to: WaypointId) -> Option<bool> {
        self.nav.as_ref()?.is_link_blocked(from, to)
    }

    /// Marks the links near wall `index` for measuring again.
    fn mark_clearance(&mut self, index: usize) {
        if let Some(wall) = self.walls().and_then(|w| w.walls().get(index)) {
            let wall = *wall;
            self.stale_clearance.wall(&wall);
        }
    }

    fn walls(&self) -> Option<&Walls> {
        self.occluders.as_ref().map(|o| &o.walls)
    }

    fn walls_mut(&mut self) -> Option<&mut Walls> {
        self.occluders.as_mut().map(|o| &mut o.walls)
    }

    fn wall_exists(&mut self, index: usize) -> Result<(), WorldError> {
        let count = self.walls().map_or(0, |w| w.walls().len());
        if index >= count {
            return Err(unknown_wall(index));
        }
        let info = &mut self.walls_info;
        info.names.resize(count, None);
        info.door.resize(count, false);
        info.crossing.resize(count, Vec::new());
        Ok(())
    }

    /// Adds (`block`) or removes the blocks door `index` holds on the links
    /// it crosses.
    fn block_crossing(&mut self, index: usize, block: bool) {
        if !self.walls_info.door.get(index).copied().unwrap_or(false) {
            return;
        }
        let links = std::mem::take(&mut self.walls_info.crossing[index]);
        for &(from, to) in &links {
            self.change_link(from, to, block);
        }
        self.walls_info.crossing[index] = links;
    }

    /// Adds or removes one block on a link and asks walkers to re-plan.
    fn change_link(&mut self, from: WaypointId, to: WaypointId, block: bool) {
        let Some(nav) = &mut self.nav else {
            return;
        };
        let done = if block {
            nav.block_link(from, to)
        } else {
            nav.unblock_link(from, to)
        };
        if done.is_none() {
            return;
        }
        if block {
            self.replan.links.push((from, to));
        } else {
            self.replan.all = true;
        }
    }

    /// The waypoint links wall `index` crosses (on X-Z, at waypoint height
    /// plus [`LINK_HEIGHT`]): the ones a door there closes.
    fn links_crossing(&self, index: usize) -> Vec<(WaypointId, WaypointId)> {
        let (Some(nav), Some(walls)) = (&self.nav, self.walls()) else {
            return Vec::new();
        };
        let Some(wall) = walls.walls().get(index) else {
            return Vec::new();
        };
        let lift = Vec3::Y * LINK_HEIGHT;
        let mut out = Vec::new();
        for from in nav.waypoint_ids() {
            let Some(p) = nav.pos(from) else { continue };
            for (_, to) in nav.links_from(from) {
                let Some(q) = nav.pos(to) else { continue };
                if first_hit_brute(std::slice::from_ref(wall), p + lift, q + lift).is_some() {
                    out.push((from, to));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Recomputes which links every door crosses (after the waypoint graph
    /// or the walls were replaced) and blocks those of closed doors.
    pub(crate) fn relink_doors(&mut self) {
        let doors: Vec<usize> = (0..self.walls_info.door.len())
            .filter(|&i| self.walls_info.door[i])
            .collect();
        for index in doors {
            self.walls_info.door[index] = false;
            // Re-marking computes the crossings against the current graph.
            let _ = self.set_door(index, true);
        }
    }
}

fn unknown_wall(index: usize) -> WorldError {
    WorldError::UnknownWall(format!("#{index}"))
}
