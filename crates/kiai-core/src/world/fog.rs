//! The world's tile fog of war: its settings, the grid with the last tick's
//! events, and the agents that are its units.

use glam::Vec3;
use kiai_fog::{FogConfig, FogEvent, FogGrid, GridSpec, Pose, SightShape, UnitDesc, UnitId};

use super::{World, WorldError};

/// Settings of a world's tile fog of war; see [`World::enable_fog`].
#[derive(Clone, Debug, PartialEq)]
pub struct FogSettings {
    /// The tile grid on the X-Z plane (size, tile size, origin).
    pub grid: GridSpec,
    /// Direction buckets for flashlight sights, 1..=1024.
    pub directions: u16,
    /// Whether blocking tiles cast shadows.
    pub occlusion: bool,
    /// Tiles that block sight, `(x, z)` in tiles.
    pub blocking: Vec<(u32, u32)>,
}

/// The fog of war of a world: the grid plus the events of the last tick.
#[derive(Clone, Debug)]
pub struct Fog {
    pub(crate) grid: FogGrid,
    pub(crate) events: Vec<FogEvent>,
}

impl Fog {
    /// The tile grid: visibility per faction, explored state, counters.
    /// Faction ids are the world's [`FactionId`] indices.
    pub fn grid(&self) -> &FogGrid {
        &self.grid
    }

    /// Spotted / lost events of the last tick, sorted by agent then faction
    /// (the fog's `UnitId` is the agent's index).
    pub fn events(&self) -> &[FogEvent] {
        &self.events
    }
}

/// The fog pose of an agent whose sight has `shape`: X-Z position, facing
/// angle from +X toward +Z. A circle sees the same tiles whichever way it
/// faces, so it gets no angle (an arctangent per agent and tick was a
/// third of the fog stage).
pub(crate) fn fog_pose(shape: SightShape, position: Vec3, facing: Vec3) -> Pose {
    let angle = match shape {
        SightShape::Circle => 0.0,
        SightShape::Flashlight { .. } => facing.z.atan2(facing.x),
    };
    Pose::new([position.x, position.z], angle)
}

impl World {
    /// Turns on the tile fog of war. Every agent whose archetype has a
    /// [`Sight`](crate::Sight) (and every one spawned later) reveals tiles for
    /// its faction; the fog stage of each tick updates it. Needs at most
    /// [`kiai_fog::MAX_FACTIONS`] factions.
    pub fn enable_fog(&mut self, settings: &FogSettings) -> Result<(), WorldError> {
        // The grid itself rejects more than kiai_fog::MAX_FACTIONS.
        let factions = u8::try_from(self.factions.len().max(1)).unwrap_or(u8::MAX);
        let mut grid = FogGrid::new(
            settings.grid,
            FogConfig {
                factions,
                direction_buckets: settings.directions,
                occlusion: settings.occlusion,
            },
        )?;
        for &(x, z) in &settings.blocking {
            grid.set_blocking(kiai_fog::TilePos::new(x, z), true);
        }
        self.fog = Some(Fog {
            grid,
            events: Vec::new(),
        });
        for i in 0..self.agents.len() {
            self.add_fog_unit(i)?;
        }
        if let Some(fog) = &mut self.fog {
            fog.grid.drain_events_into(&mut fog.events);
        }
        Ok(())
    }

    pub(super) fn add_fog_unit(&mut self, index: usize) -> Result<(), WorldError> {
        let Some(fog) = &mut self.fog else {
            return Ok(());
        };
        let a = &self.agents;
        let Some(sight) = self.archetypes[a.archetype[index].index()].sight else {
            return Ok(());
        };
        let desc = UnitDesc {
            faction: kiai_fog::FactionId(a.faction[index].0 as u8),
            sight_radius: sight.radius / fog.grid.spec().tile_size,
            shape: match sight.flashlight_fov_deg {
                None => SightShape::Circle,
                Some(fov_deg) => SightShape::Flashlight { fov_deg },
            },
        };
        fog.grid.add_unit(
            UnitId(index as u32),
            desc,
            fog_pose(desc.shape, a.position[index], a.facing[index]),
        )?;
        Ok(())
    }
}
