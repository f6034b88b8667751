//! The unit half of [`FogGrid`]'s API: registering, moving and removing units, and what
//! the grid knows about each (description, tile, who sees it, how many tiles it sees).

use super::FogGrid;
use crate::error::FogError;
use crate::faction::FactionMask;
use crate::fog::FogEvent;
use crate::grid::TilePos;
use crate::occupancy::NONE;
use crate::shadows::visible_spans;
use crate::template::{MAX_SIGHT_RADIUS, direction_bucket};
use crate::unit::{MAX_UNITS_PER_FACTION, Pose, SightShape, Unit, UnitDesc, UnitId, UnitTables};

impl FogGrid {
    /// Registers a unit at `pose` and stamps its sight at once.
    pub fn add_unit(&mut self, id: UnitId, desc: UnitDesc, pose: Pose) -> Result<(), FogError> {
        self.check_new_unit(id, &desc)?;
        self.faction_units[usize::from(desc.faction.0)] += 1;
        let t = self.spec.tile_at_clamped(pose.pos);
        let tile = (t.x as i32, t.z as i32);
        let (bucket, bucket_templates) = match desc.shape {
            SightShape::Circle => (0, Vec::new()),
            SightShape::Flashlight { .. } => (
                direction_bucket(pose.facing, self.config.direction_buckets),
                vec![NONE; usize::from(self.config.direction_buckets)],
            ),
        };
        let unit = Unit {
            id,
            desc,
            alive: true,
            tile,
            bucket,
            template: NONE,
            full: false,
            reported: 0,
        };
        let tables = UnitTables {
            bucket_templates,
            spans: Vec::new(),
        };
        let slot = self.take_slot(unit, tables);
        self.by_id.insert(id, slot);
        self.units[slot as usize].template = self.template_for(slot, bucket);
        self.occ.link(slot, self.spec.index(t));
        self.occ.mark(slot);
        let tile = self.units[slot as usize].tile;
        self.restamp(slot, tile, NONE);
        Ok(())
    }

    /// Why unit `id` with `desc` cannot be added, if it cannot (checked in this order:
    /// faction, radius, field of view, duplicate id, faction full).
    fn check_new_unit(&self, id: UnitId, desc: &UnitDesc) -> Result<(), FogError> {
        if desc.faction.0 >= self.config.factions {
            return Err(FogError::UnknownFaction(desc.faction, self.config.factions));
        }
        if !desc.sight_radius.is_finite() || !(0.0..=MAX_SIGHT_RADIUS).contains(&desc.sight_radius)
        {
            return Err(FogError::InvalidRadius(desc.sight_radius));
        }
        if let SightShape::Flashlight { fov_deg } = desc.shape
            && !(fov_deg.is_finite() && fov_deg > 0.0 && fov_deg <= 360.0)
        {
            return Err(FogError::InvalidFov(fov_deg));
        }
        if self.by_id.get(id).is_some() {
            return Err(FogError::DuplicateUnit(id));
        }
        if self.faction_units[usize::from(desc.faction.0)] >= MAX_UNITS_PER_FACTION {
            return Err(FogError::FactionFull(desc.faction));
        }
        Ok(())
    }

    /// Stores `unit` and its `tables` in a free slot (the most recently freed one) or a new
    /// one; returns the slot.
    fn take_slot(&mut self, unit: Unit, tables: UnitTables) -> u32 {
        match self.free.pop() {
            Some(s) => {
                self.units[s as usize] = unit;
                self.tables[s as usize] = tables;
                s
            }
            None => {
                self.units.push(unit);
                self.tables.push(tables);
                self.occ.push_slot();
                (self.units.len() - 1) as u32
            }
        }
    }

    /// Unregisters a unit, removing its sight at once. Factions that saw it get a `Lost`
    /// event at the next drain. Returns the unit's description, or `None` if unknown.
    pub fn remove_unit(&mut self, id: UnitId) -> Option<UnitDesc> {
        let slot = self.by_id.remove(id)?;
        self.unstamp(slot);
        let unit = &mut self.units[slot as usize];
        let f = usize::from(unit.desc.faction.0);
        let tile = unit.tile.1 as usize * self.planes.width + unit.tile.0 as usize;
        self.occ.unlink(slot, tile);
        for by in FactionMask(unit.reported).iter() {
            self.pending.push(FogEvent::Lost { unit: id, by });
        }
        unit.alive = false;
        unit.reported = 0;
        self.faction_units[f] -= 1;
        self.free.push(slot);
        Some(unit.desc)
    }

    /// Moves and turns a unit. Only a unit that changed tile (or, for flashlights, direction
    /// bucket) is re-stamped, and then only the tiles entering or leaving its sight are touched.
    pub fn set_pose(&mut self, id: UnitId, pose: Pose) -> Result<(), FogError> {
        let slot = self.by_id.get(id).ok_or(FogError::UnknownUnit(id))?;
        let s = slot as usize;
        let t = self.spec.tile_at_clamped(pose.pos);
        let tile = (t.x as i32, t.z as i32);
        let unit = &self.units[s];
        let bucket = match unit.desc.shape {
            SightShape::Circle => 0,
            SightShape::Flashlight { .. } => {
                direction_bucket(pose.facing, self.config.direction_buckets)
            }
        };
        if tile == unit.tile && bucket == unit.bucket {
            return Ok(());
        }
        if tile != unit.tile {
            let old = unit.tile.1 as usize * self.planes.width + unit.tile.0 as usize;
            self.occ.unlink(slot, old);
            self.occ.link(slot, self.spec.index(t));
            self.occ.mark(slot);
        }
        let (old_tile, old_template) = (unit.tile, unit.template);
        if bucket != unit.bucket {
            let template = self.template_for(slot, bucket);
            self.units[s].template = template;
        }
        let unit = &mut self.units[s];
        unit.tile = tile;
        unit.bucket = bucket;
        self.restamp(slot, old_tile, old_template);
        Ok(())
    }

    /// Number of registered units.
    pub fn unit_count(&self) -> usize {
        self.by_id.len()
    }

    /// True when `id` is registered.
    pub fn contains_unit(&self, id: UnitId) -> bool {
        self.by_id.get(id).is_some()
    }

    /// The registered unit ids, in increasing order.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.by_id.ids()
    }

    /// A unit's description.
    pub fn unit(&self, id: UnitId) -> Option<&UnitDesc> {
        self.by_id.get(id).map(|s| &self.units[s as usize].desc)
    }

    /// The tile a unit stands on.
    pub fn unit_tile(&self, id: UnitId) -> Option<TilePos> {
        let u = &self.units[self.by_id.get(id)? as usize];
        Some(TilePos::new(u.tile.0 as u32, u.tile.1 as u32))
    }

    /// The other factions that see a unit now (its tile's mask minus its own faction).
    pub fn unit_seen_by(&self, id: UnitId) -> Option<FactionMask> {
        let u = &self.units[self.by_id.get(id)? as usize];
        let i = self.planes.slot(u.tile.0 as usize, u.tile.1 as usize);
        Some(FactionMask(self.planes.mask(i)) & !u.desc.faction.mask())
    }

    /// Number of tiles a unit currently sees (after clipping and occlusion).
    pub fn unit_visible_tile_count(&self, id: UnitId) -> Option<u32> {
        let slot = self.by_id.get(id)? as usize;
        let u = &self.units[slot];
        let mut full = Vec::new();
        let spans = if u.full {
            let t = &self.templates[u.template as usize].template;
            visible_spans(&self.spec, t, u.tile, None, &mut full);
            &full
        } else {
            &self.tables[slot].spans
        };
        Some(spans.iter().map(|s| (s.x1 - s.x0 + 1) as u32).sum())
    }
}
