//! The transport bar: play, pause, step, step to the selected agent's
//! next event, reset, seed, speed, "What if…", and the timeline (as wide
//! as the bar allows), the tick and the state hash, and why the run
//! stopped.

use eframe::egui::{self, RichText, Ui};

use super::{Out, ViewCtx, icons};
use crate::model::sim::SPEEDS;
use crate::model::{Command, RunCommand, WhatIfCommand};

/// Draws the transport bar.
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let m = ctx.model;
    // Wraps in a narrow window rather than cutting off the timeline.
    ui.horizontal_wrapped(|ui| {
        let playing = m.sim.as_ref().is_some_and(|x| x.playing);
        let play = if playing {
            format!("{} Pause", icons::PAUSE)
        } else {
            format!("{} Play", icons::PLAY)
        };
        if ui
            .button(play)
            .on_hover_text("Play or pause the simulation (Space)")
            .clicked()
        {
            out.push(Command::Run(RunCommand::TogglePlay));
        }
        if ui
            .button(format!("{} Step", icons::STEP))
            .on_hover_text("One tick (.)")
            .clicked()
        {
            out.push(Command::Run(RunCommand::Step));
        }
        let event = ui.add_enabled(
            m.selection.agent().is_some(),
            egui::Button::new(format!("{} Next event", icons::STEP_TO_EVENT)),
        );
        if event
            .on_hover_text("Run until the selected agent's decision changes, it senses or stops sensing someone, hears, gets a message or its script fails (Shift+.)")
            .on_disabled_hover_text("Select an agent first")
            .clicked()
        {
            out.push(Command::Run(RunCommand::StepToEvent));
        }
        if ui
            .add_enabled(
                m.what_if.is_none(),
                egui::Button::new(format!("{} Reset", icons::RESET)),
            )
            .on_hover_text("Rebuild the run from the map as edited and the seed (Ctrl+R)")
            .on_disabled_hover_text(
                "What if… is open: its edits are not the map's. Cancel or Keep changes first",
            )
            .clicked()
        {
            out.push(Command::Run(RunCommand::Reset));
        }
        ui.separator();
        let l = ui.label("seed");
        let mut seed = m.live_seed;
        if ui
            .add(egui::DragValue::new(&mut seed))
            .labelled_by(l.id)
            .on_hover_text("Seed of every random stream of the next reset")
            .changed()
        {
            out.push(Command::Run(RunCommand::Seed(seed)));
        }
        if let Some(sim) = &m.sim {
            timeline(ctx, sim, ui, out);
        } else if let Some(e) = &m.sim_error {
            ui.colored_label(ctx.palette.status[0], e);
        } else {
            ui.label(RichText::new("Press Play or Step to run the map").weak());
        }
    });
    if m.map_differs() {
        differs(ctx, ui, out);
    }
}

/// The map was edited since the run was built: say so, and offer to
/// restart from the map.
fn differs(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            ctx.palette.status[1],
            "The map and the run differ: the map was edited after the run started.",
        );
        if ui
            .button("Restart from the map")
            .on_hover_text("Rebuild the run from the map as edited, back at tick 0 (Ctrl+R)")
            .clicked()
        {
            out.push(Command::Run(RunCommand::Reset));
        }
    });
}

fn timeline(ctx: &ViewCtx<'_>, sim: &crate::model::sim::Sim, ui: &mut Ui, out: &mut Out) {
    let l = ui.label("speed");
    let mut speed = sim.speed;
    if ui
        .add(
            egui::Slider::new(&mut speed, SPEEDS)
                .logarithmic(true)
                .fixed_decimals(1)
                .suffix("×"),
        )
        .labelled_by(l.id)
        .on_hover_text("Play speed, × real time (0.1 to 8)")
        .changed()
    {
        out.push(Command::Run(RunCommand::Speed(speed)));
    }
    ui.separator();
    let hash = sim
        .tick()
        .checked_sub(1)
        .and_then(|t| sim.timeline().hashes().get(t as usize))
        .map_or_else(|| "-".to_owned(), |h| format!("{h:016x}"));
    let status = format!("tick {} | state {hash}", sim.tick());
    let status_width = 260.0;
    // A branch of a what-if spans the fork's ticks too (simulated when
    // scrubbed there).
    let report = ctx.model.what_if.as_ref().and_then(|w| w.report());
    let recorded = report.map_or(sim.timeline().recorded(), |r| {
        sim.timeline().recorded().max(r.ticks)
    });
    let mut tick = sim.tick();
    what_if_button(ctx, ui, out);
    let fork = crate::model::what_if::Branch::Fork;
    if ctx
        .model
        .what_if
        .as_ref()
        .is_some_and(|w| w.showing == fork)
    {
        ui.label(RichText::new("fork").strong().color(ctx.palette.status[1]))
            .on_hover_text(
                "The map and the timeline show the what-if's fork, not the recorded run",
            );
    }
    // What is left of this row (a wrapping row reports its full width).
    let left = ui.max_rect().right() - ui.cursor().min.x;
    if left < status_width + 60.0 + 160.0 {
        // Too narrow for a useful slider and the hash: the next row.
        ui.end_row();
    }
    let l = ui.label("tick");
    let left = ui.max_rect().right() - ui.cursor().min.x;
    let width = (left - status_width - 60.0).max(120.0);
    ui.spacing_mut().slider_width = width;
    let r = ui
        .add(egui::Slider::new(&mut tick, 0..=recorded.max(1)).show_value(true))
        .labelled_by(l.id)
        .on_hover_text("Scrub the recorded run: every tick replays exactly");
    if r.changed() && tick != sim.tick() {
        out.push(Command::Run(RunCommand::Seek(tick)));
    }
    ui.label(RichText::new(status).monospace()).on_hover_text(
        "Ticks run, and the state hash kiai run prints for the same content, seed and ticks",
    );
    if let Some(t) = sim.timeline().mismatch() {
        ui.colored_label(
            ctx.palette.status[0],
            format!("replay differs from the recording at tick {t}"),
        );
    }
}

/// "What if…": fork the run at the timeline's tick.
fn what_if_button(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let open = ctx.model.what_if.is_some();
    let why = crate::model::what_if::unavailable(ctx.model.sim.as_ref());
    let r = ui
        .add_enabled(
            !open && why.is_none(),
            egui::Button::new("What if…").selected(open),
        )
        .on_hover_text(
            "Fork the run at this tick: edit the map or the inspector, then run both branches \
             and compare them",
        );
    let r = match why {
        Some(why) if !open => r.on_disabled_hover_text(why),
        _ => r.on_disabled_hover_text("What if… is open: its bar is under the timeline"),
    };
    if r.clicked() {
        out.push(Command::WhatIf(WhatIfCommand::Open));
    }
}
