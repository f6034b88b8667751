//! Playing the simulation: the transport bar, the why-inspector, the Lua
//! console, the stage-timing plot, the side elevation and the live
//! overlays on the map.

use std::path::Path;
use std::time::Duration;

use eframe::egui::{self, Color32, RichText};
use kiai_core::{AgentId, BehaviourState};

use crate::app::State;
use crate::doc::Sel;
use crate::sim::{self, LineKind, Sim};

/// Wall-clock time the simulation may use per frame while playing.
pub const FRAME_BUDGET: Duration = Duration::from_millis(8);

/// Which live overlays the map draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlays {
    /// Sense shapes of every agent (the selected one's always show).
    pub senses_all: bool,
    /// Lines to what the selected agent sees, hears and remembers.
    pub percepts: bool,
    /// Agents coloured by behaviour state (else by faction).
    pub states: bool,
    /// Waypoint routes and next waypoints.
    pub paths: bool,
    /// Velocity vectors.
    pub steering: bool,
    /// Missiles' heading vs the direction to their target.
    pub missiles: bool,
    /// Fog of war: `None` off, `Some(None)` spectator (all factions),
    /// `Some(Some(f))` faction `f`.
    pub fog: Option<Option<u8>>,
    /// Rings of this tick's sounds.
    pub sounds: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Self {
            senses_all: false,
            percepts: true,
            states: true,
            paths: true,
            steering: false,
            missiles: true,
            fog: None,
            sounds: true,
        }
    }
}

/// The colour of a behaviour state.
pub fn state_colour(state: BehaviourState) -> Color32 {
    match state {
        BehaviourState::RandomWalk => Color32::from_rgb(170, 170, 170),
        BehaviourState::Chase => Color32::from_rgb(235, 80, 70),
        BehaviourState::Evade => Color32::from_rgb(80, 160, 245),
    }
}

/// The directory scripts resolve against: the document's.
fn doc_dir(s: &State) -> std::path::PathBuf {
    s.doc
        .path()
        .and_then(Path::parent)
        .map_or_else(|| std::path::PathBuf::from("."), Path::to_path_buf)
}

/// (Re)builds the run from the document as it is now and the seed field.
pub fn reset(s: &mut State) {
    let (playing, speed, console) = match &mut s.sim {
        Some(sim) => (sim.playing, sim.speed, std::mem::take(&mut sim.console)),
        None => (false, 1.0, Vec::new()),
    };
    match Sim::new(s.doc.def(), &doc_dir(s), s.live_seed) {
        Ok(mut sim) => {
            sim.playing = playing;
            sim.speed = speed;
            sim.console = console;
            s.sim = Some(sim);
            s.sim_error = None;
        }
        Err(e) => {
            s.sim = None;
            s.sim_error = Some(e);
        }
    }
}

fn sim_mut(s: &mut State) -> Option<&mut Sim> {
    if s.sim.is_none() {
        reset(s);
    }
    s.sim.as_mut()
}

/// Starts or pauses playing.
pub fn toggle_play(s: &mut State) {
    if let Some(sim) = sim_mut(s) {
        sim.playing = !sim.playing;
    }
}

/// Pauses and runs exactly one tick.
pub fn step_once(s: &mut State) {
    if let Some(sim) = sim_mut(s) {
        sim.playing = false;
        sim.step();
    }
}

/// Runs the simulation for this frame (time-boxed to [`FRAME_BUDGET`]).
pub fn advance(s: &mut State, ctx: &egui::Context) {
    let Some(sim) = &mut s.sim else { return };
    if sim.playing {
        let dt = ctx.input(|i| i.stable_dt).min(0.25);
        sim.advance(dt, FRAME_BUDGET);
        ctx.request_repaint();
    }
}

/// Play, pause, step, speed, reset, seed and the timeline.
pub fn transport(s: &mut State, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        let playing = s.sim.as_ref().is_some_and(|x| x.playing);
        if ui
            .button(if playing { "Pause" } else { "Play" })
            .on_hover_text("Play or pause the simulation (Space)")
            .clicked()
        {
            toggle_play(s);
        }
        if ui
            .button("Step")
            .on_hover_text("One tick (period)")
            .clicked()
        {
            step_once(s);
        }
        if ui
            .button("Reset")
            .on_hover_text("Rebuild the run from the map as edited and the seed (Ctrl+R)")
            .clicked()
        {
            reset(s);
        }
        let l = ui.label("seed");
        ui.add(egui::DragValue::new(&mut s.live_seed))
            .labelled_by(l.id)
            .on_hover_text("Seed of the next reset");
        if let Some(sim) = &mut s.sim {
            let l = ui.label("speed");
            ui.add(
                egui::Slider::new(&mut sim.speed, sim::SPEEDS)
                    .logarithmic(true)
                    .suffix("x"),
            )
            .labelled_by(l.id);
            let recorded = sim.recorded();
            let mut tick = sim.tick();
            let l = ui.label("tick");
            let r = ui
                .add(egui::Slider::new(&mut tick, 0..=recorded.max(1)))
                .labelled_by(l.id)
                .on_hover_text("Scrub the recorded run: every tick replays exactly");
            if r.changed() && tick != sim.tick() {
                sim.playing = false;
                if let Err(e) = sim.seek(tick) {
                    s.sim_error = Some(e);
                }
            }
            let hash = sim
                .tick()
                .checked_sub(1)
                .and_then(|t| sim.hashes.get(t as usize))
                .map_or_else(|| "-".to_owned(), |h| format!("{h:016x}"));
            ui.label(RichText::new(format!("tick {} | state {hash}", sim.tick())).monospace())
                .on_hover_text(
                    "The state hash kiai run prints for the same content, seed and ticks",
                );
            if let Some(t) = sim.mismatch {
                ui.colored_label(
                    Color32::RED,
                    format!("replay differs from the recording at tick {t}"),
                );
            }
        } else if let Some(e) = &s.sim_error {
            ui.colored_label(Color32::from_rgb(240, 110, 100), e);
        }
    });
}

fn name(sim: &Sim, id: Option<AgentId>) -> String {
    id.and_then(|id| sim.world().agents().names().get(id.index()).cloned())
        .unwrap_or_else(|| "-".to_owned())
}

/// The why-inspector: why the selected agent did what it did this tick.
pub fn why(s: &mut State, ui: &mut egui::Ui) {
    let Some(sim) = &s.sim else {
        ui.weak("Press Play (Space) or Step to run the simulation.");
        return;
    };
    let Some(agent) = s.selected_agent() else {
        ui.weak("Select an agent on the map.");
        return;
    };
    let world = sim.world();
    let agents = world.agents();
    if agent >= agents.len() {
        return;
    }
    let id = AgentId::from_index(agent);
    ui.heading(&agents.names()[agent]);
    if world.tick() == 0 {
        ui.weak("Not simulated yet.");
        return;
    }
    let tick = world.tick() - 1;
    let d = agents.decisions()[agent];
    ui.label(
        RichText::new(format!(
            "tick {tick} decision: {} -> {}",
            d.state.name(),
            name(sim, d.target)
        ))
        .strong(),
    );
    if let Some(label) = sim.script_label(agent) {
        ui.label(format!("script state: {label}"));
    }
    match sim.trace(agent) {
        Some(t) => {
            ui.label(format!("decided by: {}", t.decided_by.name()));
            ui.label(format!(
                "options: chase {} | evade {} | chased last tick: {}",
                name(sim, t.chase_option),
                name(sim, t.evade_option),
                t.chased
            ));
            ui.label(format!(
                "weights: chase {:.2}, evade {:.2}",
                t.weights[0], t.weights[1]
            ));
            for r in t.rolls.iter() {
                ui.label(format!(
                    "roll {}: {:.2} vs threshold {:.2}",
                    r.kind.name(),
                    r.value,
                    r.threshold
                ));
            }
            if let Some(o) = t.outcome {
                ui.label(format!("learning saw: {o:?}"));
            }
        }
        None => match sim.script_of(agent) {
            Some(path) => {
                ui.label(format!("decided by the Lua hook in {}", path.display()));
            }
            None => {
                ui.weak("no trace for this tick");
            }
        },
    }
    if let Some(trace) = &s.trace_file {
        let key = (tick, agents.names()[agent].clone());
        match trace.get(&key) {
            Some(t) => {
                let same = t.state == d.state.name()
                    && t.target.as_deref().unwrap_or("-") == name(sim, d.target);
                ui.colored_label(
                    if same {
                        Color32::from_rgb(120, 200, 120)
                    } else {
                        Color32::RED
                    },
                    format!(
                        "trace file: {} -> {} ({}){}",
                        t.state,
                        t.target.as_deref().unwrap_or("-"),
                        t.decided_by,
                        if same { "" } else { "  DIFFERS" }
                    ),
                );
            }
            None => {
                ui.weak("trace file: no line for this tick");
            }
        }
    }
    ui.separator();
    ui.label(RichText::new("Percepts").strong());
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
            .map(|h| format!("{:.2}", h.loudness))
            .collect();
        let text = if heard.is_empty() {
            seen.join(", ")
        } else {
            format!("heard loudness {}", heard.join(", "))
        };
        ui.label(format!(
            "{}: {}",
            sense.name,
            if text.is_empty() { "-" } else { &text }
        ));
    }
    let memory = world.memory(id);
    if !memory.is_empty() {
        ui.label(RichText::new("Memory").strong());
        for m in memory {
            ui.label(format!(
                "{} via {} at ({:.1}, {:.1}), {} ticks ago",
                agents
                    .names()
                    .get(m.target.index())
                    .map_or("?", String::as_str),
                archetype
                    .senses
                    .get(m.sense as usize)
                    .map_or("?", |s| s.name.as_str()),
                m.position.x,
                m.position.z,
                world.tick().saturating_sub(m.tick)
            ));
        }
    }
    ui.separator();
    ui.label(RichText::new("Timeline (last 200 ticks)").strong());
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(ui.available_width(), 14.0), egui::Sense::hover());
    let n = 200u64;
    let end = world.tick();
    let start = end.saturating_sub(n);
    let w = rect.width() / n as f32;
    for t in start..end {
        if let Some(state) = sim.state_at(t + 1, agent) {
            let x = rect.left() + (t - start) as f32 * w;
            ui.painter().rect_filled(
                egui::Rect::from_min_size(
                    egui::pos2(x, rect.top()),
                    egui::vec2(w.max(1.0), rect.height()),
                ),
                0.0,
                state_colour(state),
            );
        }
    }
    legend(ui);
}

/// The state colours.
pub fn legend(ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        for state in BehaviourState::ALL {
            let (r, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 2.0, state_colour(state));
            ui.label(state.name());
        }
    });
}

/// The Lua console: errors with file:line and traceback (click opens the
/// file), script prints, reloads.
pub fn console(s: &mut State, ui: &mut egui::Ui) {
    let Some(sim) = &mut s.sim else {
        ui.weak("Script errors and prints appear here while the simulation runs.");
        return;
    };
    let mut open = None;
    ui.horizontal(|ui| {
        if ui
            .button("Reload scripts")
            .on_hover_text("Scripts also reload by themselves when saved")
            .clicked()
        {
            sim.reload_all();
        }
        if ui.button("Clear").clicked() {
            sim.console.clear();
        }
        if !sim.has_scripts() {
            ui.weak("(no archetype has a script)");
        }
    });
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, true])
        .max_height(ui.available_height() - 28.0)
        .show(ui, |ui| {
            for line in sim.console.iter().rev().take(500).rev() {
                let colour = match line.kind {
                    LineKind::Error => Color32::from_rgb(240, 110, 100),
                    LineKind::Log => Color32::from_gray(210),
                    LineKind::Info => Color32::from_rgb(120, 200, 120),
                };
                let text = RichText::new(format!("[{}] {}", line.tick, line.text))
                    .color(colour)
                    .monospace();
                let r = ui.add(egui::Label::new(text).sense(egui::Sense::click()));
                if !line.traceback.is_empty() {
                    ui.label(RichText::new(&line.traceback).weak().monospace());
                }
                if let Some((path, _)) = &line.at
                    && r.on_hover_text(format!("open {}", path.display()))
                        .clicked()
                {
                    open = Some(path.clone());
                }
            }
        });
    // The REPL: Lua in the selected agent's script sandbox.
    let agent = s.selected_agent();
    ui.horizontal(|ui| {
        let l = ui.label("lua>");
        let r = ui.add(
            egui::TextEdit::singleline(&mut s.repl)
                .desired_width(f32::INFINITY)
                .hint_text("agent:position(), agent:sees(\"eyes\"), agent.memory ..."),
        );
        let r = r.labelled_by(l.id);
        if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            let code = std::mem::take(&mut s.repl);
            if let Some(sim) = &mut s.sim
                && !code.trim().is_empty()
            {
                match agent {
                    Some(a) => {
                        let _ = sim.eval(a, &code);
                    }
                    None => sim.console.push(sim::ConsoleLine {
                        tick: sim.tick(),
                        kind: LineKind::Error,
                        text: "select an agent to inspect".into(),
                        traceback: String::new(),
                        at: None,
                    }),
                }
            }
            r.request_focus();
        }
    });
    if let Some(path) = open {
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        ui.ctx()
            .open_url(egui::OpenUrl::new_tab(format!("file://{}", path.display())));
    }
}

/// Per-stage milliseconds of the last ticks.
pub fn timings(s: &mut State, ui: &mut egui::Ui) {
    let Some(sim) = &s.sim else {
        ui.weak("Stage timings appear while the simulation runs.");
        return;
    };
    let names = ["sense", "decide", "steer", "integrate", "fog"];
    if let Some((_, last)) = sim.timings.back() {
        ui.label(
            RichText::new(
                names
                    .iter()
                    .zip(last)
                    .map(|(n, v)| format!("{n} {v:.3}"))
                    .collect::<Vec<_>>()
                    .join(" | ")
                    + " ms",
            )
            .monospace(),
        );
    }
    egui_plot::Plot::new("stage-timings")
        .legend(egui_plot::Legend::default())
        .y_axis_label("ms")
        .include_y(0.0)
        .show(ui, |plot| {
            for (k, n) in names.iter().enumerate() {
                let points: Vec<[f64; 2]> = sim
                    .timings
                    .iter()
                    .map(|(t, ms)| [*t as f64, ms[k] as f64])
                    .collect();
                plot.line(egui_plot::Line::new(
                    *n,
                    egui_plot::PlotPoints::from(points),
                ));
            }
        });
}

/// Side elevation: height (y) over x, with the selected agent's sector
/// height limits and missiles' pitch.
pub fn elevation(s: &mut State, ui: &mut egui::Ui) {
    let selected = s.selected_agent();
    let (positions, velocities, senses) = match &s.sim {
        Some(sim) => {
            let w = sim.world();
            let senses = selected.and_then(|i| {
                let a = w.agents().archetypes().get(i)?;
                Some((
                    w.agents().positions()[i],
                    w.archetypes()[a.index()].senses.clone(),
                ))
            });
            (
                w.agents().positions().to_vec(),
                w.agents().velocities().to_vec(),
                senses,
            )
        }
        None => {
            let def = s.doc.def();
            let p = def
                .agents
                .iter()
                .map(|a| kiai_core::glam::Vec3::new(a.pos.0, a.pos.1, a.pos.2))
                .collect();
            (p, Vec::new(), None)
        }
    };
    ui.weak("Height (y) over x. Selected agent: its sector height limits.");
    egui_plot::Plot::new("elevation")
        .data_aspect(1.0)
        .show(ui, |plot| {
            let pts: Vec<[f64; 2]> = positions.iter().map(|p| [p.x as f64, p.y as f64]).collect();
            plot.points(egui_plot::Points::new("agents", pts).radius(2.5));
            for (p, v) in positions.iter().zip(&velocities) {
                if v.y.abs() > 1e-3 {
                    let tip = *p + *v;
                    plot.line(
                        egui_plot::Line::new(
                            "pitch",
                            egui_plot::PlotPoints::from(vec![
                                [p.x as f64, p.y as f64],
                                [tip.x as f64, tip.y as f64],
                            ]),
                        )
                        .color(Color32::from_rgb(255, 180, 60)),
                    );
                }
            }
            if let Some((eye, senses)) = &senses {
                for sense in senses {
                    if let kiai_core::Shape::Sector {
                        range,
                        max_height_diff,
                        ..
                    } = sense.shape
                    {
                        for dy in [max_height_diff, -max_height_diff] {
                            plot.line(
                                egui_plot::Line::new(
                                    format!("{} height limit", sense.name),
                                    egui_plot::PlotPoints::from(vec![
                                        [(eye.x - range) as f64, (eye.y + dy) as f64],
                                        [(eye.x + range) as f64, (eye.y + dy) as f64],
                                    ]),
                                )
                                .color(Color32::from_rgb(120, 200, 255)),
                            );
                        }
                    }
                }
                plot.points(
                    egui_plot::Points::new("selected", vec![[eye.x as f64, eye.y as f64]])
                        .radius(5.0)
                        .color(Color32::WHITE),
                );
            }
        });
}

/// Overlay switches (in the View menu and the live tool bar).
pub fn overlay_menu(s: &mut State, ui: &mut egui::Ui) {
    let o = &mut s.overlays;
    ui.checkbox(&mut o.states, "States as colours");
    ui.checkbox(&mut o.senses_all, "Senses of all agents");
    ui.checkbox(&mut o.percepts, "Percept lines (seen, heard, remembered)");
    ui.checkbox(&mut o.paths, "Routes and next waypoints");
    ui.checkbox(&mut o.steering, "Steering (velocity) vectors");
    ui.checkbox(&mut o.missiles, "Missiles: heading vs target");
    ui.checkbox(&mut o.sounds, "Sound rings");
    let factions: Vec<String> = s
        .doc
        .def()
        .factions
        .iter()
        .map(|f| f.name.clone())
        .collect();
    let current = match o.fog {
        None => "off".to_owned(),
        Some(None) => "spectator".to_owned(),
        Some(Some(f)) => factions.get(f as usize).cloned().unwrap_or_default(),
    };
    egui::ComboBox::from_label("fog of war")
        .selected_text(current)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut o.fog, None, "off");
            ui.selectable_value(&mut o.fog, Some(None), "spectator");
            for (i, f) in factions.iter().enumerate() {
                ui.selectable_value(&mut o.fog, Some(Some(i as u8)), f);
            }
        });
}

/// Selects the agent nearest world `(x, z)` within `r` in the live world.
pub fn pick_agent(sim: &Sim, x: f32, z: f32, r: f32) -> Option<Sel> {
    sim.world()
        .agents()
        .positions()
        .iter()
        .enumerate()
        .map(|(i, p)| (i, (p.x - x).powi(2) + (p.z - z).powi(2)))
        .filter(|(_, d)| *d <= r * r)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| Sel::Agent(i))
}
