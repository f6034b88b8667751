//! What the run shows on the map: fog of war, this tick's sounds, routes
//! and next waypoints, velocity vectors, missiles' heading against the
//! line to their target, and the selected agent's percepts (lines to what
//! it senses and hears, remembered positions fading with age).

use eframe::egui::{self, Color32, Pos2, Rect};
use kiai_core::glam::Vec3;

use crate::model::Overlays;
use crate::model::sim::Sim;
use crate::views::canvas::paint::{Paint, to_scene};

fn p2(v: Vec3) -> Pos2 {
    to_scene(v.x, v.z)
}

/// What a fog texture shows: (tick, overlay faction choice).
pub type FogKey = (u64, Option<Option<u8>>);

/// The fog-of-war texture and what it shows.
pub type FogTexture = Option<(FogKey, egui::TextureHandle)>;

/// Fog of war for `choice` (`None`: all factions), one texture per tick.
pub fn fog(p: &mut Paint<'_>, sim: &Sim, choice: Option<Option<u8>>, cache: &mut FogTexture) {
    let Some(choice) = choice else { return };
    let Some(fog) = sim.world().fog() else { return };
    let grid = fog.grid();
    let spec = *grid.spec();
    let key = (sim.tick(), Some(choice));
    if cache.as_ref().is_none_or(|(k, _)| *k != key) {
        let (w, h) = (spec.width as usize, spec.height as usize);
        let want = |mask: kiai_core::fog::FactionMask| match choice {
            Some(f) => mask.0 & (1 << f) != 0,
            None => mask.0 != 0,
        };
        let [explored, unknown] = p.palette.fog;
        let pixels = grid
            .visible_masks()
            .zip(grid.explored_masks())
            .map(|(v, e)| {
                if want(v) {
                    Color32::TRANSPARENT
                } else if want(e) {
                    explored
                } else {
                    unknown
                }
            })
            .collect();
        let image = egui::ColorImage::new([w, h], pixels);
        let texture =
            p.painter
                .ctx()
                .load_texture("kiai-fog", image, egui::TextureOptions::NEAREST);
        *cache = Some((key, texture));
    }
    if let Some((_, texture)) = cache {
        // Tile rows grow with z; the scene's y is -z, so flip vertically.
        let min = to_scene(
            spec.origin[0],
            spec.origin[1] + spec.height as f32 * spec.tile_size,
        );
        let max = to_scene(
            spec.origin[0] + spec.width as f32 * spec.tile_size,
            spec.origin[1],
        );
        p.painter.image(
            texture.id(),
            Rect::from_min_max(min, max),
            Rect::from_min_max(egui::pos2(0.0, 1.0), egui::pos2(1.0, 0.0)),
            Color32::WHITE,
        );
    }
}

/// Sounds, routes, steering and missiles (under the agents).
pub fn motion(p: &mut Paint<'_>, sim: &Sim, o: &Overlays, selected: Option<usize>) {
    let world = sim.world();
    let agents = world.agents();
    let positions = agents.positions();
    if o.sounds {
        for sound in world.percepts().sounds() {
            let r = sound.volume.max(0.0).sqrt();
            p.painter.circle_stroke(
                p2(sound.position),
                r.max(0.5),
                p.stroke(1.5, p.palette.sound),
            );
        }
    }
    if o.paths
        && let Some(nav) = world.nav()
    {
        let wp = |w| nav.pos(w).map(p2);
        for (i, state) in world.nav_states().iter().enumerate() {
            let shown = selected.is_none_or(|s| s == i);
            if !shown || !agents.alive().get(i).copied().unwrap_or(false) {
                continue;
            }
            let mut pts = vec![p2(positions[i])];
            pts.extend(state.next.and_then(wp));
            // The route keeps its first hop last.
            pts.extend(state.route.iter().rev().filter_map(|w| wp(*w)));
            if pts.len() >= 2 {
                p.painter.add(egui::epaint::PathShape::line(
                    pts,
                    p.stroke(2.0, p.palette.route),
                ));
            }
        }
    }
    let cull = p.cull(20.0);
    for i in 0..agents.len() {
        let at = p2(positions[i]);
        if !agents.alive()[i] || !cull.contains(at) {
            continue;
        }
        if o.steering {
            let v = agents.velocities()[i];
            p.painter.line_segment(
                [at, at + egui::vec2(v.x, -v.z)],
                p.stroke(1.0, p.palette.steering),
            );
        }
        if o.missiles
            && let Some(m) = &agents.missiles()[i]
            && let Some(target) = agents.decisions()[i].target
            && world.is_alive(target)
        {
            let f = agents.facings()[i];
            let t = p2(positions[target.index()]);
            p.painter
                .line_segment([at, t], p.stroke(1.0, p.palette.missile[1]));
            p.painter.line_segment(
                [at, at + egui::vec2(f.x, -f.z) * m.speed.max(1.0) * 2.0],
                p.stroke(2.0, p.palette.missile[0]),
            );
        }
    }
}

/// Lines from the selected agent to what it senses and hears now, and to
/// where it remembers agents (fading with age).
pub fn percepts(p: &mut Paint<'_>, sim: &Sim, selected: usize) {
    let world = sim.world();
    let agents = world.agents();
    let Some(id) = agents.id(selected).filter(|id| world.is_alive(*id)) else {
        return;
    };
    let eye = p2(agents.positions()[selected]);
    let archetype = &world.archetypes()[agents.archetypes()[selected].index()];
    for k in 0..archetype.senses.len() {
        for other in world.percepts().sensed(id, k) {
            p.painter.line_segment(
                [eye, p2(agents.positions()[other.index()])],
                p.stroke(1.5, p.palette.percept_seen),
            );
        }
        for h in world.percepts().heard(id, k) {
            if let Some(sound) = world.percepts().sounds().get(h.sound) {
                p.painter.line_segment(
                    [eye, p2(sound.position)],
                    p.stroke(1.0, p.palette.percept_heard),
                );
            }
        }
    }
    for m in world.memory(id) {
        let age = world.tick().saturating_sub(m.tick) as f32;
        let fade = (1.0 - age / 100.0).clamp(0.2, 1.0);
        let c = p.palette.percept_memory.gamma_multiply(fade);
        let at = p2(m.position);
        p.painter.circle_stroke(at, 5.0 * p.px, p.stroke(1.5, c));
        p.painter.line_segment([eye, at], p.stroke(1.0, c));
    }
}
