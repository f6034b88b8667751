//! Converting validated content into a runtime [`World`].

use kiai_core::glam::Vec3;
use kiai_core::{
    Aabb, AgentSpawn, Archetype, ArchetypeId, FactionId, Movement, Sense, SenseFilter, Shape,
    World, WorldConfig, WorldError,
};

use crate::def::{ContentDef, FilterDef, MovementDef, ShapeDef, Vec3Def};
use crate::load::Content;

fn v3(v: Vec3Def) -> Vec3 {
    Vec3::new(v.0, v.1, v.2)
}

/// Converts a definition to the runtime shape.
pub fn shape(def: &ShapeDef) -> Shape {
    match *def {
        ShapeDef::Sphere { radius } => Shape::Sphere { radius },
        ShapeDef::Cone { range, fov_deg } => Shape::Cone { range, fov_deg },
        ShapeDef::Sector {
            range,
            fov_deg,
            max_height_diff,
        } => Shape::Sector {
            range,
            fov_deg,
            max_height_diff,
        },
        ShapeDef::Ellipse { a, b, center_ahead } => Shape::Ellipse { a, b, center_ahead },
    }
}

fn movement(def: &MovementDef) -> Movement {
    match *def {
        MovementDef::Static => Movement::Static,
        MovementDef::Walker {
            min_speed,
            max_speed,
            direction_change_factor,
            planar,
        } => Movement::Walker {
            min_speed,
            max_speed,
            direction_change_factor,
            planar,
        },
    }
}

/// Builds the runtime world `def` describes, with `seed` overriding the
/// file's seed when given.
///
/// Expects validated content (see [`Content`]); on unvalidated input it
/// returns an error rather than panicking.
pub fn build_world(def: &ContentDef, seed: Option<u64>) -> Result<World, WorldError> {
    let mut world = World::new(WorldConfig {
        seed: seed.unwrap_or(def.seed),
        tick_seconds: def.tick_seconds,
        bounds: def.bounds.map(|b| Aabb {
            min: v3(b.min),
            max: v3(b.max),
        }),
    });
    let unknown = |what: &str, name: &str| WorldError::UnknownHandle(format!("{what} `{name}`"));
    for f in &def.factions {
        world
            .factions_mut()
            .add(f.name.clone())
            .map_err(|_| WorldError::Full("factions"))?;
    }
    for f in &def.factions {
        let from = world
            .factions()
            .find(&f.name)
            .ok_or_else(|| unknown("faction", &f.name))?;
        for h in &f.hostile {
            let to = world
                .factions()
                .find(h)
                .ok_or_else(|| unknown("faction", h))?;
            world.factions_mut().set_hostile(from, to);
        }
    }
    for (name, a) in def.archetypes.iter() {
        world.add_archetype(Archetype {
            name: name.to_owned(),
            senses: a
                .senses
                .iter()
                .map(|s| Sense {
                    name: s.name.clone(),
                    shape: shape(&s.shape),
                    filter: match s.filter {
                        FilterDef::All => SenseFilter::All,
                        FilterDef::Hostile => SenseFilter::Hostile,
                        FilterDef::Friendly => SenseFilter::Friendly,
                    },
                })
                .collect(),
            movement: movement(&a.movement),
        })?;
    }
    for a in &def.agents {
        let archetype = def
            .archetypes
            .position(&a.archetype)
            .map(ArchetypeId::from_index)
            .ok_or_else(|| unknown("archetype", &a.archetype))?;
        let faction: FactionId = world
            .factions()
            .find(&a.faction)
            .ok_or_else(|| unknown("faction", &a.faction))?;
        world.spawn(AgentSpawn {
            name: a.name.clone(),
            archetype,
            faction,
            position: v3(a.pos),
            facing: v3(a.facing),
        })?;
    }
    Ok(world)
}

impl Content {
    /// The runtime world this content describes; `seed` overrides the file's.
    pub fn world(&self, seed: Option<u64>) -> Result<World, WorldError> {
        build_world(&self.def, seed)
    }
}
