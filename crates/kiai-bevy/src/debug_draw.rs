//! Gizmo overlays, the editor's for a running game: walls (open doors
//! dashed off), each agent's senses (sphere, cone, sector, ellipse,
//! hearing ring), lines to what it senses, waypoint walkers' routes, a
//! disc in its state's colour, and the fog of war of one faction. Add
//! [`KiaiDebugPlugin`] (it needs Bevy's gizmos) and switch the overlays
//! with the [`KiaiDebug`] resource.

use bevy_app::{App, Plugin, PostUpdate};
use bevy_color::{Alpha, Color, Srgba};
use bevy_ecs::prelude::*;
use bevy_gizmos::prelude::Gizmos;
use kiai::core::glam::{Vec2, Vec3};
use kiai::core::{BehaviourState, Shape, World};

use crate::coords::Plane;
use crate::runtime::Kiai;

/// Draws kiai's overlays with gizmos (see the module docs).
#[derive(Default)]
pub struct KiaiDebugPlugin;

impl Plugin for KiaiDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<KiaiDebug>()
            .add_systems(PostUpdate, draw);
    }
}

/// Which overlays are drawn.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct KiaiDebug {
    /// Draw anything at all.
    pub enabled: bool,
    /// Walls: standing ones solid, open doors faint.
    pub walls: bool,
    /// Every agent's sense outlines.
    pub senses: bool,
    /// A line from each agent to each agent it senses.
    pub percepts: bool,
    /// Waypoint walkers' routes ahead of them.
    pub routes: bool,
    /// A disc per agent in its state's colour (random walk grey, chase
    /// vermillion, evade sky blue).
    pub states: bool,
    /// The fog of war seen by this faction (its name): tiles it does not
    /// see crossed, tiles it never saw crossed twice.
    pub fog_faction: Option<String>,
    /// The Bevy `z` of the overlays on [`Plane::Xy`] (above the game's
    /// sprites), world units.
    pub layer: f32,
}

impl Default for KiaiDebug {
    fn default() -> Self {
        Self {
            enabled: true,
            walls: true,
            senses: true,
            percepts: true,
            routes: true,
            states: true,
            fog_faction: None,
            layer: 10.0,
        }
    }
}

/// The Okabe-Ito colours the editor uses.
mod palette {
    use bevy_color::Srgba;
    pub(super) const GREY: Srgba = Srgba::rgb(0.59, 0.59, 0.59);
    pub(super) const VERMILLION: Srgba = Srgba::rgb(0.835, 0.369, 0.0);
    pub(super) const SKY_BLUE: Srgba = Srgba::rgb(0.337, 0.706, 0.914);
    pub(super) const BLUISH_GREEN: Srgba = Srgba::rgb(0.0, 0.62, 0.451);
    pub(super) const REDDISH_PURPLE: Srgba = Srgba::rgb(0.8, 0.475, 0.655);
    pub(super) const ORANGE: Srgba = Srgba::rgb(0.902, 0.624, 0.0);
    pub(super) const SENSES: [Srgba; 3] = [ORANGE, BLUISH_GREEN, REDDISH_PURPLE];
}

/// The colour of a state: the editor's state fills.
pub fn state_colour(state: BehaviourState) -> Color {
    Color::Srgba(match state {
        BehaviourState::RandomWalk => palette::GREY,
        BehaviourState::Chase => palette::VERMILLION,
        BehaviourState::Evade => palette::SKY_BLUE,
    })
}

/// Lines in kiai's space, drawn on the app's plane.
struct Pen<'a, 'w, 's> {
    gizmos: &'a mut Gizmos<'w, 's>,
    plane: Plane,
    layer: f32,
}

impl Pen<'_, '_, '_> {
    fn strip(&mut self, points: impl IntoIterator<Item = Vec3>, colour: impl Into<Color>) {
        let (plane, layer) = (self.plane, self.layer);
        self.gizmos
            .linestrip(points.into_iter().map(|p| plane.to_bevy(p, layer)), colour);
    }

    fn line(&mut self, a: Vec3, b: Vec3, colour: impl Into<Color>) {
        self.strip([a, b], colour);
    }

    /// A ring of radius `r` about `c` on the X-Z plane: a sphere's outline.
    fn ring(&mut self, c: Vec3, r: f32, colour: impl Into<Color>) {
        let ring = Shape::Sphere { radius: r }.outline(Vec2::new(c.x, c.z), Vec2::X, 48);
        let points = ring.points.into_iter().map(|p| Vec3::new(p.x, c.y, p.y));
        self.strip(points, colour);
    }
}

/// Draws the overlays [`KiaiDebug`] switches on.
fn draw(kiai: Res<Kiai>, debug: Res<KiaiDebug>, mut gizmos: Gizmos) {
    let Some(world) = kiai.world() else { return };
    if !debug.enabled {
        return;
    }
    let mut pen = Pen {
        gizmos: &mut gizmos,
        plane: kiai.plane(),
        layer: debug.layer,
    };
    if debug.walls {
        walls(&mut pen, world);
    }
    if let Some(faction) = &debug.fog_faction {
        fog(&mut pen, world, faction);
    }
    agents(&mut pen, world, &debug);
}

/// Standing walls solid, open ones faint.
fn walls(pen: &mut Pen, world: &World) {
    let Some(occluders) = world.occluders() else {
        return;
    };
    let w = &occluders.walls;
    for (i, wall) in w.walls().iter().enumerate() {
        let colour = if w.is_enabled(i) == Some(true) {
            Srgba::rgb(0.85, 0.85, 0.85)
        } else {
            Srgba::new(0.85, 0.85, 0.85, 0.25)
        };
        let (a, b) = (wall.from, wall.to);
        pen.line(Vec3::new(a.x, 0.0, a.y), Vec3::new(b.x, 0.0, b.y), colour);
    }
}

/// Each agent's senses, percept lines, route and state disc.
fn agents(pen: &mut Pen, world: &World, debug: &KiaiDebug) {
    let a = world.agents();
    for id in a.ids() {
        let i = id.index();
        let eye = a.positions()[i];
        let Some(archetype) = world.archetype(a.archetypes()[i]) else {
            continue;
        };
        let facing = a.facings()[i];
        let f = Vec2::new(facing.x, facing.z)
            .try_normalize()
            .unwrap_or(Vec2::X);
        for (k, sense) in archetype.senses.iter().enumerate() {
            let colour = palette::SENSES[k % palette::SENSES.len()];
            if debug.senses {
                outline(pen, &sense.shape, eye, f, colour);
            }
            if debug.percepts {
                for &target in world.percepts().sensed(id, k) {
                    if let Some(&p) = a.positions().get(target.index()) {
                        pen.line(eye, p, colour.with_alpha(0.6));
                    }
                }
            }
        }
        if debug.routes {
            route(pen, world, i, eye);
        }
        if debug.states {
            let state = a.decisions()[i].state;
            pen.ring(eye, 0.6, state_colour(state));
            pen.line(eye, eye + facing * 0.9, state_colour(state));
        }
    }
}

/// The outline of one sense for an agent at `eye` facing the unit X-Z
/// direction `f`: kiai-core's [`Outline`](kiai::core::Outline), the one the
/// editor draws too (a cone closed back to the eye, hearing fainter).
fn outline(pen: &mut Pen, shape: &Shape, eye: Vec3, f: Vec2, colour: Srgba) {
    let o = shape.outline(Vec2::new(eye.x, eye.z), f, 48);
    let at = |p: Vec2| Vec3::new(p.x, eye.y, p.y);
    let closing = match shape {
        Shape::Cone { .. } | Shape::Sector { .. } => Some(eye),
        _ => None,
    };
    let colour = if o.fill_from.is_none() {
        colour.with_alpha(0.5)
    } else {
        colour
    };
    if !o.points.is_empty() {
        pen.strip(o.points.into_iter().map(at).chain(closing), colour);
    }
}

/// A waypoint walker's way ahead: where it heads now, then its route.
fn route(pen: &mut Pen, world: &World, i: usize, eye: Vec3) {
    let Some(nav) = world.nav() else { return };
    let state = &world.nav_states()[i];
    let Some(head) = state.heading_point(nav) else {
        return;
    };
    let rest = state.route.iter().rev().filter_map(|&w| nav.pos(w));
    let points: Vec<Vec3> = [eye, head].into_iter().chain(rest).collect();
    pen.strip(points, palette::BLUISH_GREEN.with_alpha(0.8));
}

/// Crosses on the tiles `faction` does not see (two for never seen).
fn fog(pen: &mut Pen, world: &World, faction: &str) {
    let (Some(fog), Some(id)) = (world.fog(), world.factions().find(faction)) else {
        return;
    };
    let grid = fog.grid();
    let spec = grid.spec();
    let fid = kiai::core::fog::FactionId(id.index() as u8);
    for index in 0..spec.tile_count() {
        let tile = spec.tile_of_index(index);
        if grid.is_visible(tile, fid) {
            continue;
        }
        let [x, z] = spec.tile_centre(tile);
        let h = spec.tile_size * 0.3;
        let colour = Srgba::new(0.3, 0.3, 0.4, 0.5);
        pen.line(
            Vec3::new(x - h, 0.0, z - h),
            Vec3::new(x + h, 0.0, z + h),
            colour,
        );
        if !grid.is_explored(tile, fid) {
            pen.line(
                Vec3::new(x - h, 0.0, z + h),
                Vec3::new(x + h, 0.0, z - h),
                colour,
            );
        }
    }
}
