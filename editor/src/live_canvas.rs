//! The map while the simulation runs: agents where the world has them,
//! and the overlays (states, senses, percepts, memory, routes, steering,
//! missiles, fog of war, sounds).

use eframe::egui::{self, Color32, Mesh, Pos2, Rect, Shape, Stroke, Vec2};
use kiai_core::AgentId;

use crate::app::State;
use crate::canvas::{draw_senses, faction_colour, label, to_scene};
use crate::doc::Sel;
use crate::live::state_colour;

fn p2(v: kiai_core::glam::Vec3) -> Pos2 {
    to_scene(v.x, v.z)
}

fn xz(v: kiai_core::glam::Vec3) -> Vec2 {
    let f = Vec2::new(v.x, v.z);
    if f.length_sq() > 0.0 {
        f.normalized()
    } else {
        Vec2::X
    }
}

/// Draws the live world and the overlays that are on.
pub(crate) fn draw(s: &mut State, painter: &egui::Painter, visible: Rect, px: f32) {
    if s.overlays.fog.is_some() {
        draw_fog(s, painter);
    }
    let selected = s.selected_agent();
    let Some(sim) = &s.sim else { return };
    let world = sim.world();
    let def = sim.def();
    let agents = world.agents();
    let positions = agents.positions();
    let o = s.overlays.clone();
    let in_layer = s.view.crowd_in_layer;
    let labels = &mut s.view.labels;
    // Senses: the selected agent's, or everyone's.
    for (i, pos) in positions.iter().enumerate() {
        if !(o.senses_all || Some(i) == selected) {
            continue;
        }
        let archetype = &world.archetypes()[agents.archetypes()[i].index()];
        if let Some(a) = def.archetypes.get(&archetype.name) {
            let eye = Vec2::new(pos.x, pos.z);
            draw_senses(a, eye, xz(agents.facings()[i]), painter, px, labels);
        }
    }
    // Sounds of this tick.
    if o.sounds {
        for sound in world.percepts().sounds() {
            let r = sound.volume.max(0.0).sqrt();
            painter.circle_stroke(
                p2(sound.position),
                r.max(0.5),
                Stroke::new(
                    1.5 * px,
                    Color32::from_rgba_unmultiplied(255, 230, 120, 160),
                ),
            );
        }
    }
    // Routes and next waypoints.
    if o.paths
        && let Some(nav) = world.nav()
    {
        let wp = |w| nav.pos(w).map(p2);
        for (i, state) in world.nav_states().iter().enumerate() {
            if !(selected.is_none() || Some(i) == selected) {
                continue;
            }
            let mut pts = vec![p2(positions[i])];
            pts.extend(state.next.and_then(wp));
            pts.extend(state.route.iter().filter_map(|w| wp(*w)));
            if pts.len() >= 2 {
                painter.add(egui::epaint::PathShape::line(
                    pts,
                    Stroke::new(2.0 * px, Color32::from_rgba_unmultiplied(90, 230, 130, 170)),
                ));
            }
        }
    }
    // Agents.
    let cull = visible.expand(20.0 * px);
    let mut mesh = Mesh::default();
    for i in 0..agents.len() {
        let p = p2(positions[i]);
        if !cull.contains(p) {
            continue;
        }
        let d = agents.decisions()[i];
        let colour = if o.states {
            state_colour(d.state)
        } else {
            faction_colour(agents.factions()[i].index())
        };
        let f = xz(agents.facings()[i]);
        let fd = Vec2::new(f.x, -f.y);
        let n = Vec2::new(-fd.y, fd.x);
        if !in_layer {
            let idx = mesh.vertices.len() as u32;
            mesh.colored_vertex(p + fd * 8.0 * px, colour);
            mesh.colored_vertex(p - fd * 5.0 * px + n * 5.0 * px, colour);
            mesh.colored_vertex(p - fd * 5.0 * px - n * 5.0 * px, colour);
            mesh.add_triangle(idx, idx + 1, idx + 2);
        }
        if o.steering {
            let v = agents.velocities()[i];
            painter.line_segment(
                [p, p + Vec2::new(v.x, -v.z)],
                Stroke::new(1.0 * px, Color32::from_rgb(255, 255, 120)),
            );
        }
        if o.missiles
            && let Some(m) = &agents.missiles()[i]
            && let Some(target) = d.target
        {
            // Actual heading (facing) vs the line to the target.
            let t = p2(positions[target.index()]);
            painter.line_segment(
                [p, t],
                Stroke::new(1.0 * px, Color32::from_rgba_unmultiplied(255, 120, 60, 120)),
            );
            painter.line_segment(
                [p, p + fd * m.speed.max(1.0) * 2.0],
                Stroke::new(2.0 * px, Color32::from_rgb(255, 200, 60)),
            );
        }
        if agents.len() <= 300 && px < 0.5 {
            let name = sim.script_label(i).map_or_else(
                || agents.names()[i].clone(),
                |l| format!("{} ({l})", agents.names()[i]),
            );
            label(
                labels,
                p + Vec2::new(0.0, 13.0 * px),
                &name,
                Color32::from_gray(200),
            );
        }
        if s.selection.contains(&Sel::Agent(i)) {
            painter.circle_stroke(p, 9.0 * px, Stroke::new(2.0 * px, Color32::WHITE));
        }
    }
    painter.add(Shape::mesh(mesh));
    // Percept lines of the selected agent.
    if o.percepts
        && let Some(i) = selected.filter(|&i| i < agents.len())
    {
        let id = AgentId::from_index(i);
        let eye = p2(positions[i]);
        let archetype = &world.archetypes()[agents.archetypes()[i].index()];
        for k in 0..archetype.senses.len() {
            for other in world.percepts().sensed(id, k) {
                painter.line_segment(
                    [eye, p2(positions[other.index()])],
                    Stroke::new(1.5 * px, Color32::from_rgb(90, 240, 120)),
                );
            }
            for h in world.percepts().heard(id, k) {
                if let Some(sound) = world.percepts().sounds().get(h.sound) {
                    painter.line_segment(
                        [eye, p2(sound.position)],
                        Stroke::new(1.0 * px, Color32::from_rgb(255, 220, 90)),
                    );
                }
            }
        }
        // Remembered positions fade with age.
        for m in world.memory(id) {
            let age = world.tick().saturating_sub(m.tick) as f32;
            let alpha = (220.0 * (1.0 - age / 100.0)).clamp(40.0, 220.0) as u8;
            let c = Color32::from_rgba_unmultiplied(200, 120, 255, alpha);
            let at = p2(m.position);
            painter.circle_stroke(at, 5.0 * px, Stroke::new(1.5 * px, c));
            painter.line_segment([eye, at], Stroke::new(1.0 * px, c));
        }
    }
}

fn draw_fog(s: &mut State, painter: &egui::Painter) {
    let Some(sim) = &s.sim else { return };
    let Some(fog) = sim.world().fog() else { return };
    let grid = fog.grid();
    let spec = *grid.spec();
    let key = (sim.tick(), s.overlays.fog);
    let stale = s.fog_texture.as_ref().is_none_or(|(k, _)| *k != key);
    if stale {
        let (w, h) = (spec.width as usize, spec.height as usize);
        let want = |mask: kiai_core::fog::FactionMask| match s.overlays.fog {
            Some(Some(f)) => mask.0 & (1 << f) != 0,
            _ => mask.0 != 0,
        };
        let mut pixels = Vec::with_capacity(w * h);
        for (v, e) in grid.visible_masks().zip(grid.explored_masks()) {
            pixels.push(if want(v) {
                Color32::TRANSPARENT
            } else if want(e) {
                Color32::from_black_alpha(110)
            } else {
                Color32::from_black_alpha(200)
            });
        }
        let image = egui::ColorImage::new([w, h], pixels);
        let texture = painter
            .ctx()
            .load_texture("kiai-fog", image, egui::TextureOptions::NEAREST);
        s.fog_texture = Some((key, texture));
    }
    if let Some((_, texture)) = &s.fog_texture {
        // Tile rows grow with z; the scene's y is -z, so flip vertically.
        let min = to_scene(
            spec.origin[0],
            spec.origin[1] + spec.height as f32 * spec.tile_size,
        );
        let max = to_scene(
            spec.origin[0] + spec.width as f32 * spec.tile_size,
            spec.origin[1],
        );
        painter.image(
            texture.id(),
            Rect::from_min_max(min, max),
            Rect::from_min_max(egui::pos2(0.0, 1.0), egui::pos2(1.0, 0.0)),
            Color32::WHITE,
        );
    }
}
