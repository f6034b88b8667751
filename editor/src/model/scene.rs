//! The agents as the editor shows them: at their start positions while
//! editing (or paused at tick 0), where the run has them once it has
//! ticked. Every view reads agents through [`Scene`], so the map, the
//! shading, the inspector and the overlays never mix the two.

use kiai_content::def::{ArchetypeDef, ContentDef};
use kiai_core::glam::Vec3;

use super::sim::Sim;

/// Where agents are: the document's start positions or the live run.
#[derive(Clone, Copy)]
pub enum Scene<'a> {
    /// The document: agents at their start positions.
    Start(&'a ContentDef),
    /// The run, past tick 0.
    Live(&'a Sim),
}

fn unit(v: Vec3) -> Vec3 {
    let f = Vec3::new(v.x, 0.0, v.z);
    if f.length_squared() > 0.0 {
        f.normalize()
    } else {
        Vec3::X
    }
}

impl<'a> Scene<'a> {
    /// Whether these are the run's agents.
    pub fn is_live(&self) -> bool {
        matches!(self, Scene::Live(_))
    }

    /// The content the agents come from (the run's content while live: the
    /// archetypes the run actually has, a what-if fork's changes made).
    pub fn def(&self) -> &'a ContentDef {
        match self {
            Scene::Start(def) => def,
            Scene::Live(sim) => sim.run().def_now(),
        }
    }

    /// Number of agent slots.
    pub fn len(&self) -> usize {
        match self {
            Scene::Start(def) => def.agents.len(),
            Scene::Live(sim) => sim.world().agents().len(),
        }
    }

    /// Whether there are no agents.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether slot `i` holds an agent (live runs despawn agents).
    pub fn alive(&self, i: usize) -> bool {
        match self {
            Scene::Start(def) => i < def.agents.len(),
            Scene::Live(sim) => sim
                .world()
                .agents()
                .alive()
                .get(i)
                .copied()
                .unwrap_or(false),
        }
    }

    /// The agent's name.
    pub fn name(&self, i: usize) -> &'a str {
        match self {
            Scene::Start(def) => def.agents.get(i).map_or("", |a| a.name.as_str()),
            Scene::Live(sim) => sim
                .world()
                .agents()
                .names()
                .get(i)
                .map_or("", String::as_str),
        }
    }

    /// Position, world units.
    pub fn pos(&self, i: usize) -> Vec3 {
        match self {
            Scene::Start(def) => def
                .agents
                .get(i)
                .map_or(Vec3::ZERO, |a| Vec3::new(a.pos.0, a.pos.1, a.pos.2)),
            Scene::Live(sim) => sim
                .world()
                .agents()
                .positions()
                .get(i)
                .copied()
                .unwrap_or(Vec3::ZERO),
        }
    }

    /// Facing on the X-Z plane, unit length (+X when undefined).
    pub fn facing(&self, i: usize) -> Vec3 {
        match self {
            Scene::Start(def) => def.agents.get(i).map_or(Vec3::X, |a| {
                unit(Vec3::new(a.facing.0, a.facing.1, a.facing.2))
            }),
            Scene::Live(sim) => unit(
                sim.world()
                    .agents()
                    .facings()
                    .get(i)
                    .copied()
                    .unwrap_or(Vec3::X),
            ),
        }
    }

    /// Velocity, world units per second (zero at the start).
    pub fn velocity(&self, i: usize) -> Vec3 {
        match self {
            Scene::Start(_) => Vec3::ZERO,
            Scene::Live(sim) => sim
                .world()
                .agents()
                .velocities()
                .get(i)
                .copied()
                .unwrap_or(Vec3::ZERO),
        }
    }

    /// Index of the agent's faction in the content's `factions`.
    pub fn faction(&self, i: usize) -> usize {
        match self {
            Scene::Start(def) => def
                .agents
                .get(i)
                .and_then(|a| def.factions.iter().position(|f| f.name == a.faction))
                .unwrap_or(0),
            Scene::Live(sim) => sim
                .world()
                .agents()
                .factions()
                .get(i)
                .map_or(0, |f| f.index()),
        }
    }

    /// The agent's archetype: name and definition, when it has one.
    pub fn archetype(&self, i: usize) -> Option<(&'a str, &'a ArchetypeDef)> {
        let name: &'a str = match self {
            Scene::Start(def) => def.agents.get(i)?.archetype.as_str(),
            Scene::Live(sim) => {
                let world = sim.world();
                let a = world.agents().archetypes().get(i)?;
                world.archetypes().get(a.index())?.name.as_str()
            }
        };
        let def = self.def().archetypes.get(name)?;
        Some((name, def))
    }

    /// The agent's state in words (`chase`, a script's `investigate`), or
    /// `None` before the run.
    pub fn state(&self, i: usize) -> Option<String> {
        match self {
            Scene::Start(_) => None,
            Scene::Live(sim) => Some(sim.run().state_name(i)),
        }
    }

    /// The agent nearest world `(x, z)` within `r`, if any.
    pub fn pick(&self, x: f32, z: f32, r: f32) -> Option<usize> {
        (0..self.len())
            .filter(|&i| self.alive(i))
            .map(|i| {
                let p = self.pos(i);
                (i, (p.x - x).powi(2) + (p.z - z).powi(2))
            })
            .filter(|(_, d)| *d <= r * r)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}
