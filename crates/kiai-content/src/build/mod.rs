//! Layer 4, building: what loaded content becomes. A runtime [`World`]
//! from definitions (here) or straight from a pack's indices
//! (`pack_world.rs`), the navigation graph (`nav.rs`), and a
//! self-contained pack for export (`export.rs`).

use kiai_core::glam::Vec3;
use kiai_core::{
    Aabb, AgentSpawn, Archetype, ArchetypeId, Avoidance, FactionId, Movement, Sense, SenseFilter,
    Shape, World, WorldConfig, WorldError,
};

use kiai_core::Occluders;
use kiai_core::glam::Vec2;
use kiai_core::navigate::RouteMode;
use kiai_core::perception::hearing::{NO_SOURCE, Sound};
use kiai_core::perception::occlusion::{RayScratch, Wall, Walls};
use kiai_core::perception::pvs::{Pvs, Region};
use kiai_core::plugins::Plugins;
use kiai_core::steering::missile::{ControlMode, Guidance};
use kiai_core::{BodyMode, FogSettings, Learning, Profile, Sight};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

use crate::check::rules::ArchetypeValues;
use crate::format::def::{
    BodyDef, BoundsDef, ContentDef, ControlDef, FilterDef, FogDef, GuidanceDef, LodTierDef,
    MovementDef, PerceptionBudgetDef, ProfileDef, RouteDef, ShapeDef, SightDef, Vec3Def, WallDef,
    lod_tiers,
};
use crate::load::{Content, Source};

pub(crate) mod export;
mod lod;
pub(crate) mod nav;
mod pack_world;

pub(crate) fn v3(v: Vec3Def) -> Vec3 {
    Vec3::new(v.0, v.1, v.2)
}

/// The runtime shape of a definition: the same value, since content's
/// [`ShapeDef`] is kiai-core's [`Shape`].
pub fn shape(def: &ShapeDef) -> Shape {
    *def
}

fn movement(def: &MovementDef, plugins: &Plugins) -> Result<Movement, WorldError> {
    Ok(match *def {
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
        MovementDef::Missile {
            speed,
            turn_rate_deg,
            guidance,
            control,
            arrival_distance,
            precision,
        } => Movement::Missile {
            speed,
            turn_rate: turn_rate_deg.to_radians(),
            control: match control {
                ControlDef::SeedTwoAxis => ControlMode::SeedTwoAxis,
                ControlDef::MaxRate => ControlMode::MaxRate,
            },
            guidance: match guidance {
                GuidanceDef::PurePursuit => Guidance::PurePursuit,
                GuidanceDef::ProportionalNavigation { n } => Guidance::ProportionalNavigation { n },
            },
            arrival_distance,
            precision,
        },
        MovementDef::WaypointWalker {
            speed,
            route,
            arrive_radius,
            jitter,
            smooth,
        } => Movement::WaypointWalker {
            speed,
            route: match route {
                RouteDef::Select => RouteMode::Select,
                RouteDef::AStar => RouteMode::AStar,
            },
            arrive_radius,
            jitter,
            smooth,
        },
        MovementDef::Wander { speed, turn_deg } => Movement::Wander { speed, turn_deg },
        MovementDef::Custom {
            ref name,
            max_speed,
        } => Movement::Custom {
            behaviour: plugins.steering_index(name).ok_or_else(|| {
                WorldError::UnknownHandle(format!(
                    "steering behaviour `{name}` (registered: {})",
                    list(plugins.steering_names())
                ))
            })?,
            max_speed,
        },
    })
}

fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    if names.is_empty() {
        "none; register it with kiai_core::plugins::Plugins".to_owned()
    } else {
        names.join(", ")
    }
}

/// Converts a profile definition (either weight form) to the runtime profile.
pub fn profile(def: &ProfileDef) -> Profile {
    let (chase, evade) = match &def.entries {
        Some(entries) => Profile::from_entries(entries),
        None => (def.chase.unwrap_or(0.0), def.evade.unwrap_or(0.0)),
    };
    Profile {
        chase,
        evade,
        use_profile: def.use_profile,
        keep_decision: def.keep_decision,
        learning: def.learning.map(|l| Learning {
            rate: l.rate,
            min_weight: l.min_weight,
            max_weight: l.max_weight,
            catch_distance: l.catch_distance,
        }),
    }
}

/// Sample rays per region when a potentially visible set is computed.
const PVS_SAMPLES: usize = 64;
/// Eye height of the sample rays, world units.
const PVS_EYE_HEIGHT: f32 = 1.5;

/// The walls and regions of `def`, or `None` when it has neither. A region
/// set with a `sees` list everywhere is taken as authored; otherwise it is
/// computed by sample rays against the walls, seeded by `seed`.
pub fn occluders(def: &ContentDef, seed: u64) -> Option<Occluders> {
    let authored = def.regions.iter().all(|r| r.sees.is_some()).then(|| {
        let index = |name: &String| def.regions.iter().position(|r| &r.name == name);
        def.regions
            .iter()
            .map(|r| r.sees.iter().flatten().filter_map(index).collect())
            .collect()
    });
    occluders_of(
        &def.walls,
        def.regions.iter().map(|r| r.polygon.as_slice()),
        authored,
        seed,
    )
}

/// Walls and regions (polygons on X-Z) as the runtime's occluders, or `None`
/// when there are neither. `authored` holds, per region, the indices of the
/// regions it sees; without it the potentially visible set is computed by
/// sample rays against the walls, seeded by `seed`.
pub(crate) fn occluders_of<'a>(
    walls: &[WallDef],
    polygons: impl ExactSizeIterator<Item = &'a [(f32, f32)]>,
    authored: Option<Vec<Vec<usize>>>,
    seed: u64,
) -> Option<Occluders> {
    if walls.is_empty() && polygons.len() == 0 {
        return None;
    }
    let wall = |w: &WallDef| {
        Wall::new(
            Vec2::new(w.from.0, w.from.1),
            Vec2::new(w.to.0, w.to.1),
            w.height,
        )
    };
    // Walls that can open (doors, and walls that start open) do not hide
    // regions from each other: the sets stay conservative however they move.
    let fixed = Walls::build(
        walls
            .iter()
            .filter(|w| !w.door && !w.open)
            .map(wall)
            .collect(),
        None,
    );
    let mut standing = Walls::build(walls.iter().map(wall).collect(), None);
    for (i, w) in walls.iter().enumerate() {
        if w.open {
            standing.set_enabled(i, false);
        }
    }
    let regions: Vec<Region> = polygons
        .map(|p| Region {
            polygon: p.iter().map(|&(x, z)| Vec2::new(x, z)).collect(),
        })
        .collect();
    let pvs = if regions.is_empty() {
        None
    } else if let Some(lists) = authored {
        Pvs::from_lists(regions, &lists).ok()
    } else {
        let mut scratch = RayScratch::new();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Some(Pvs::compute(
            regions,
            PVS_SAMPLES,
            PVS_EYE_HEIGHT,
            |a, b| fixed.blocks(a, b, &mut scratch),
            || rng.random_range(0.0f32..1.0),
        ))
    };
    Some(Occluders {
        walls: standing,
        pvs,
    })
}

/// Gives `world` its walls and regions, and its walls their names and
/// doors (a closed door blocks the waypoint links it crosses, so this comes
/// after the waypoint graph).
pub(crate) fn set_occluders(world: &mut World, occluders: Occluders, walls: &[WallDef]) {
    world.set_occluders(occluders);
    for (i, w) in walls.iter().enumerate() {
        // Every index names one of the walls just set.
        if w.name.is_some() {
            let _ = world.set_wall_name(i, w.name.clone());
        }
        if w.door {
            let _ = world.set_door(i, true);
        }
    }
}

fn sight(def: &SightDef) -> Sight {
    match *def {
        SightDef::Circle { radius } => Sight {
            radius,
            flashlight_fov_deg: None,
        },
        SightDef::Flashlight { radius, fov_deg } => Sight {
            radius,
            flashlight_fov_deg: Some(fov_deg),
        },
    }
}

/// Builds the runtime world `def` describes, with `seed` overriding the
/// file's seed when given.
///
/// Expects validated content (see [`Content`]); on unvalidated input it
/// returns an error rather than panicking.
pub fn build_world(def: &ContentDef, seed: Option<u64>) -> Result<World, WorldError> {
    build_world_with(def, seed, Arc::default())
}

/// [`build_world`] with a game's registered deciders and steering behaviours,
/// which archetypes name in `decider` and `movement: Custom(name: ...)`. An
/// unregistered name is an error.
pub fn build_world_with(
    def: &ContentDef,
    seed: Option<u64>,
    plugins: Arc<Plugins>,
) -> Result<World, WorldError> {
    let mut world = World::new(world_config(
        seed.unwrap_or(def.seed),
        def.tick_seconds,
        def.bounds,
    ));
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
        let resolved = ResolvedArchetype {
            name,
            values: a.into(),
            profile: a.profile.as_ref().and_then(|p| def.profiles.get(p)),
            cost_list: a
                .cost_list
                .as_ref()
                .and_then(|l| def.cost_lists.iter().position(|n| n == l)),
            lod: &a.lod,
        };
        world.add_archetype(archetype(&resolved, &plugins)?)?;
    }
    let mut interest = Vec::new();
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
        let id = world.spawn(AgentSpawn {
            name: a.name.clone(),
            archetype,
            faction,
            position: v3(a.pos),
            facing: v3(a.facing),
        })?;
        world.set_goal(id, a.goal.map(v3))?;
        if a.interest {
            interest.push(id);
        }
    }
    lod::set_interest(&mut world, &def.interest, interest)?;
    world.set_plugins(plugins);
    if !def.waypoints.is_empty() {
        let nav = nav::build_nav(def).map_err(|e| WorldError::UnknownHandle(e.to_string()))?;
        world.set_nav(nav.graph.freeze());
    }
    if let Some(occluders) = occluders(def, world.config().seed) {
        set_occluders(&mut world, occluders, &def.walls);
    }
    set_budget(&mut world, def.perception_budget);
    world.set_route_budget(def.nav.budget);
    for snd in &def.sounds {
        let source = snd
            .source
            .as_ref()
            .and_then(|name| world.agents().find(name))
            .map_or(NO_SOURCE, |a| a.slot());
        schedule_sound(&mut world, snd.tick, (snd.pos, snd.volume), source, snd.tag);
    }
    enable_fog(&mut world, def.fog.as_ref(), def.bounds)?;
    Ok(world)
}

/// The world's settings; `seed` is the one to use.
pub(crate) fn world_config(seed: u64, tick_seconds: f32, bounds: Option<BoundsDef>) -> WorldConfig {
    WorldConfig {
        seed,
        tick_seconds,
        bounds: bounds.map(|b| Aabb {
            min: v3(b.min),
            max: v3(b.max),
        }),
    }
}

/// An archetype with its references resolved, whichever form it came in.
pub(crate) struct ResolvedArchetype<'a> {
    /// Its name.
    pub(crate) name: &'a str,
    /// Senses, movement, sight and the other values.
    pub(crate) values: ArchetypeValues<'a>,
    /// The profile it uses.
    pub(crate) profile: Option<&'a ProfileDef>,
    /// Index of its waypoint walkers' cost list.
    pub(crate) cost_list: Option<usize>,
    /// Its tick level of detail tiers (empty: none).
    pub(crate) lod: &'a [LodTierDef],
}

/// The runtime archetype; a decider or steering behaviour that `plugins`
/// lacks is an error.
pub(crate) fn archetype(
    a: &ResolvedArchetype<'_>,
    plugins: &Plugins,
) -> Result<Archetype, WorldError> {
    let v = &a.values;
    Ok(Archetype {
        name: a.name.to_owned(),
        body: match v.body {
            BodyDef::Simulated => BodyMode::Simulated,
            BodyDef::Driven => BodyMode::Driven,
            BodyDef::Kinematic => BodyMode::Kinematic,
        },
        senses: v
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
                occluded: s.occluded,
                lose_range: s.lose_range,
                memory_ticks: s.memory_ticks,
            })
            .collect(),
        movement: movement(v.movement, plugins)?,
        sight: v.sight.as_ref().map(sight),
        profile: a.profile.map(profile),
        noise: v.noise,
        separation: v.separation,
        radius: v.radius.unwrap_or(Archetype::DEFAULT_RADIUS),
        avoidance: v.avoidance.map(|a| Avoidance {
            time_horizon: a.time_horizon,
            wall_time_horizon: a.wall_time_horizon,
            max_neighbours: a.max_neighbours,
            priority: a.priority,
        }),
        cost_list: a.cost_list.map(|k| kiai_core::nav::CostListId(k as u16)),
        lod: lod_tiers(a.lod),
        decider: match v.decider {
            None => None,
            Some(name) => Some(plugins.decider_index(name).ok_or_else(|| {
                WorldError::UnknownHandle(format!(
                    "decider `{name}` (registered: {})",
                    list(plugins.decider_names())
                ))
            })?),
        },
    })
}

/// Caps the occlusion rays per tick, or lifts the cap.
pub(crate) fn set_budget(world: &mut World, budget: Option<PerceptionBudgetDef>) {
    world.set_perception_budget(budget.map(|b| kiai_core::PerceptionBudget {
        max_rays_per_tick: b.max_rays_per_tick,
    }));
}

/// Schedules a sound of `(position, volume)` made by agent index `source`
/// (or [`NO_SOURCE`]) for `tick`.
pub(crate) fn schedule_sound(
    world: &mut World,
    tick: u64,
    (pos, volume): (Vec3Def, f32),
    source: u32,
    tag: u32,
) {
    world.schedule_sound(
        tick,
        Sound {
            position: v3(pos),
            volume,
            source,
            tag,
        },
    );
}

/// Turns on the fog of war when there is a fog section and bounds.
pub(crate) fn enable_fog(
    world: &mut World,
    fog: Option<&FogDef>,
    bounds: Option<BoundsDef>,
) -> Result<(), WorldError> {
    if let (Some(fog), Some(bounds)) = (fog, bounds) {
        let grid = fog
            .grid(bounds)
            .ok_or_else(|| WorldError::UnknownHandle("fog grid `out of range`".to_owned()))?;
        world.enable_fog(&FogSettings {
            grid,
            directions: fog.directions,
            occlusion: fog.occlusion,
            blocking: fog.blocking.clone(),
        })?;
    }
    Ok(())
}

impl Content {
    /// The runtime world this content describes; `seed` overrides the file's.
    pub fn world(&self, seed: Option<u64>) -> Result<World, WorldError> {
        self.world_with(seed, Arc::default())
    }

    /// [`Content::world`] with the game's registered plugins. A pack builds
    /// its world straight from its indices.
    pub fn world_with(
        &self,
        seed: Option<u64>,
        plugins: Arc<Plugins>,
    ) -> Result<World, WorldError> {
        match &self.source {
            Source::Text(def) => build_world_with(def, seed, plugins),
            Source::Pack(pack) => pack_world::build_world(pack, seed, plugins),
        }
    }
}
