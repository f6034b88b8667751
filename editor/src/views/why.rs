//! The Why tab: why the selected agent does what it does at the tick the
//! transport bar shows: the decision and who made it, in words, the
//! options and rolls, what each sense reports, what it remembers, a strip
//! of its states over the last 200 ticks, and why the run stopped when a
//! breakpoint or "next event" stopped it.

use eframe::egui::{self, RichText, Ui};

use super::{Out, ViewCtx};
use crate::model::breakpoints::state_words;
use crate::model::sim::Sim;
use crate::model::{files, units};

/// A `kiai run --trace` `decided_by` name in words.
pub fn decided_by_words(name: &str) -> &'static str {
    match name {
        "no_option" => "nothing to chase or evade, so it walks at random",
        "fixed_rule" => "the fixed rule (the profile was not used this time): evade beats chase",
        "single_option" => "only one option was possible",
        "weights" => "its profile's weights (both were possible)",
        "kept" => "it kept its last contested decision",
        "plugin" => "a decider the game registered",
        _ => "an unknown decider",
    }
}

/// A roll's purpose in words.
fn roll_words(name: &str) -> &'static str {
    match name {
        "use_profile" => "use the profile",
        "keep_decision" => "keep the last decision",
        "weights" => "chase or evade",
        _ => "roll",
    }
}

fn name(sim: &Sim, id: Option<kiai_core::AgentId>) -> Option<String> {
    id.and_then(|id| sim.world().agents().names().get(id.index()).cloned())
}

/// Draws the tab.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, _out: &mut Out) {
    let m = ctx.model;
    let Some(sim) = &m.sim else {
        ui.label(
            RichText::new("Press Play (Space) or Step (.) to run the map, then select an agent.")
                .weak(),
        );
        return;
    };
    if let Some(hit) = &sim.hit {
        let by = hit
            .breakpoint
            .and_then(|k| m.breakpoints.0.get(k))
            .map_or_else(
                || "next event of the selected agent".to_owned(),
                |b| format!("breakpoint: {}", b.describe()),
            );
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(
                RichText::new(format!(
                    "Stopped at tick {}: {} — {}",
                    hit.tick, hit.name, hit.cause
                ))
                .strong()
                .color(ctx.palette.status[1]),
            );
            ui.label(RichText::new(by).weak());
        });
    }
    let Some(agent) = m.selection.agent() else {
        ui.label(RichText::new("Select an agent on the map.").weak());
        return;
    };
    let world = sim.world();
    let agents = world.agents();
    if agent >= agents.len() {
        return;
    }
    ui.heading(&agents.names()[agent]);
    if world.tick() == 0 {
        ui.label(RichText::new("Not simulated yet: Step (.) runs the first tick.").weak());
        return;
    }
    if !agents.alive()[agent] {
        ui.label(RichText::new("It has left the world.").weak());
        return;
    }
    decision(ctx, sim, agent, ui);
    ui.separator();
    percepts(sim, agent, ui);
    ui.separator();
    strip(ctx, sim, agent, ui);
}

fn decision(ctx: &ViewCtx<'_>, sim: &Sim, agent: usize, ui: &mut Ui) {
    let agents = sim.world().agents();
    let tick = sim.tick();
    let d = agents.decisions()[agent];
    let target = match (name(sim, d.target), d.goal) {
        (Some(t), _) => t,
        (None, Some(g)) => format!("toward {}", units::point(g.x, g.z)),
        (None, None) => "(no target)".to_owned(),
    };
    ui.label(RichText::new(format!("tick {tick}: {} {target}", state_words(d.state))).strong());
    if let Some(held) = super::lod::held_words(sim.world(), agent) {
        ui.label(RichText::new(held).color(ctx.palette.status[1]));
    }
    if let Some(label) = sim.run().script_label(agent) {
        ui.label(format!("its script calls it: {label}"));
    }
    match sim.run().trace(agent) {
        Some(t) => {
            ui.label(format!(
                "decided by: {}",
                decided_by_words(t.decided_by.name())
            ));
            let yes_no = |b: bool| if b { "yes" } else { "no" };
            ui.label(format!(
                "could chase: {} · could evade: {} · chased last tick: {}",
                name(sim, t.chase_option).unwrap_or_else(|| "nobody".into()),
                name(sim, t.evade_option).unwrap_or_else(|| "nobody".into()),
                yes_no(t.chased)
            ));
            ui.label(format!(
                "weights: chase {:.2}, evade {:.2}",
                t.weights[0], t.weights[1]
            ));
            for r in t.rolls.iter() {
                ui.label(format!(
                    "roll to {}: {:.2} against {:.2}",
                    roll_words(r.kind.name()),
                    r.value,
                    r.threshold
                ));
            }
            if let Some(o) = t.outcome {
                ui.label(format!("learning saw: {o:?}"));
            }
        }
        None => match sim.run().script_of(agent) {
            Some(path) => {
                ui.label(format!(
                    "decided by the Lua script {}",
                    files::tidy(&path).display()
                ));
            }
            None => {
                ui.label(RichText::new("no trace for this tick").weak());
            }
        },
    }
    if let Some(trace) = &ctx.model.trace_file {
        let key = (tick - 1, agents.names()[agent].clone());
        match trace.get(&key) {
            Some(t) => {
                let same = t.state == d.state.name()
                    && t.target.as_deref() == name(sim, d.target).as_deref();
                let colour = if same {
                    ctx.palette.status[2]
                } else {
                    ctx.palette.status[0]
                };
                ui.colored_label(
                    colour,
                    format!(
                        "trace file: {} {} ({}){}",
                        t.state.replace('_', " "),
                        t.target.as_deref().unwrap_or("(no target)"),
                        t.decided_by.replace('_', " "),
                        if same { "" } else { "  DIFFERS" }
                    ),
                );
            }
            None => {
                ui.label(RichText::new("trace file: no line for this tick").weak());
            }
        }
    }
}

fn percepts(sim: &Sim, agent: usize, ui: &mut Ui) {
    let world = sim.world();
    let agents = world.agents();
    let Some(id) = agents.id(agent) else { return };
    ui.label(RichText::new("What it senses").strong());
    let archetype = &world.archetypes()[agents.archetypes()[agent].index()];
    for (k, sense) in archetype.senses.iter().enumerate() {
        let seen: Vec<String> = world
            .percepts()
            .sensed(id, k)
            .iter()
            .map(|o| agents.names()[o.index()].clone())
            .collect();
        let heard: Vec<String> = world
            .percepts()
            .heard(id, k)
            .iter()
            .map(|h| {
                let from = world
                    .percepts()
                    .sounds()
                    .get(h.sound)
                    .map_or_else(String::new, |s| {
                        format!(" at {}", units::point(s.position.x, s.position.z))
                    });
                format!("a sound{from}, loudness {}", units::loudness(h.loudness))
            })
            .collect();
        let threshold = match sense.shape {
            kiai_core::Shape::Hearing { threshold, .. } => Some(threshold),
            _ => None,
        };
        let text = match (heard.is_empty(), threshold) {
            (false, Some(t)) => format!(
                "heard {} (it hears from loudness {}: volume over distance²)",
                heard.join("; "),
                units::loudness(t)
            ),
            (false, None) => format!("heard {}", heard.join("; ")),
            (true, _) if seen.is_empty() => "nobody".to_owned(),
            (true, _) => seen.join(", "),
        };
        ui.label(format!("{}: {text}", sense.name));
    }
    let memory = world.memory(id);
    if !memory.is_empty() {
        ui.label(RichText::new("What it remembers").strong());
        for mem in memory {
            ui.label(format!(
                "{} via {} at {}, {} ago",
                agents
                    .names()
                    .get(mem.target.index())
                    .map_or("?", String::as_str),
                archetype
                    .senses
                    .get(mem.sense as usize)
                    .map_or("?", |s| s.name.as_str()),
                units::point(mem.position.x, mem.position.z),
                units::ticks(world.tick().saturating_sub(mem.tick))
            ));
        }
    }
}

fn strip(ctx: &ViewCtx<'_>, sim: &Sim, agent: usize, ui: &mut Ui) {
    ui.label(RichText::new("Its states over the last 200 ticks").strong());
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(ui.available_width(), 14.0), egui::Sense::hover());
    let n = 200u64;
    let end = sim.tick();
    let start = end.saturating_sub(n);
    let w = rect.width() / n as f32;
    let mut present = Vec::new();
    for t in start..end {
        if let Some(k) = sim.timeline().state_at(t + 1, agent) {
            let x = rect.left() + (t - start) as f32 * w;
            ui.painter().rect_filled(
                egui::Rect::from_min_size(
                    egui::pos2(x, rect.top()),
                    egui::vec2(w.max(1.0), rect.height()),
                ),
                0.0,
                ctx.palette.state(k),
            );
            if !present.contains(&k) {
                present.push(k);
            }
        }
    }
    present.sort_unstable();
    ui.horizontal_wrapped(|ui| {
        for k in present {
            let (r, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 2.0, ctx.palette.state(k));
            ui.label(
                sim.timeline()
                    .state_names()
                    .get(k)
                    .cloned()
                    .unwrap_or_default(),
            );
        }
    });
}
