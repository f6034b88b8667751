//! The "What if…" bar under the timeline: the fork's tick and changes
//! with Run, Cancel and Keep changes; once run, the two branches'
//! timelines (base and fork) with the ticks where they differ
//! highlighted, and the differences, each a link to its tick and agent.

use eframe::egui::{self, Color32, RichText, Role, Sense, Stroke, Ui, WidgetInfo};
use kiai::fork::{Branch, Difference, Report};

use super::{Out, ViewCtx};
use crate::model::what_if::{self, Outcome, WhatIf};
use crate::model::{Command, RunCommand, Sel, SelectCommand, WhatIfCommand, ops::count};

/// Height of one timeline row, points.
const ROW: f32 = 12.0;

/// Height of the difference list before it scrolls, points (about five
/// lines).
const LIST_HEIGHT: f32 = 110.0;

/// Draws the bar (nothing when no what-if is open).
pub fn ui(ctx: &ViewCtx<'_>, ui: &mut Ui, out: &mut Out) {
    let Some(w) = &ctx.model.what_if else { return };
    banner(ctx, w, ui, out);
    changes(ctx, w, ui);
    match &w.outcome {
        Outcome::Idle => {}
        Outcome::Running {
            started, request, ..
        } => {
            ui.horizontal(|ui| {
                ui.spinner();
                let end = what_if::base(ctx.model).map_or(0, |s| s.timeline().recorded());
                ui.label(format!(
                    "running both branches from tick {} to tick {end}… ({:.1} s)",
                    request.at,
                    started.elapsed().as_secs_f32()
                ));
            });
        }
        Outcome::Failed(e) => {
            ui.colored_label(ctx.palette.status[0], e);
        }
        Outcome::Done { report, .. } => result(ctx, w, report, ui, out),
    }
}

/// "What if… at tick T: N changes — Run / Cancel / Keep changes", and the
/// fork's tick.
fn banner(ctx: &ViewCtx<'_>, w: &WhatIf, ui: &mut Ui, out: &mut Out) {
    let recorded = what_if::base(ctx.model).map_or(0, |s| s.timeline().recorded());
    let n = w.changes().map_or(0, <[String]>::len);
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(format!(
                "What if… at tick {}: {}",
                w.at,
                count(n, "change", "changes")
            ))
            .strong(),
        );
        let running = matches!(w.outcome, Outcome::Running { .. });
        let runnable = w.at < recorded && w.changes().is_ok() && !running;
        let run = ui
            .add_enabled(
                runnable,
                egui::Button::new(format!("{} Run", super::icons::PLAY)),
            )
            .on_hover_text(format!(
                "Replay the recording to tick {} twice, change one branch there and run both to \
                 tick {recorded}, comparing them after every tick",
                w.at
            ));
        if running {
            run.on_disabled_hover_text("The fork is running");
        } else if run
            .on_disabled_hover_text(format!(
                "The recording ends at tick {recorded}: set the fork's tick earlier"
            ))
            .clicked()
        {
            out.push(Command::WhatIf(WhatIfCommand::Run));
        }
        if ui
            .button("Cancel")
            .on_hover_text("Leave What if… and put the map back as it was: its edits are dropped")
            .clicked()
        {
            out.push(Command::WhatIf(WhatIfCommand::Leave { keep: false }));
        }
        if ui
            .button("Keep changes")
            .on_hover_text(
                "Leave What if… with its edits made to the map (not saved; Ctrl+Z undoes them)",
            )
            .clicked()
        {
            out.push(Command::WhatIf(WhatIfCommand::Leave { keep: true }));
        }
        ui.separator();
        let l = ui.label("fork at tick");
        let mut at = w.at;
        let end = recorded.saturating_sub(1);
        if ui
            .add(
                egui::DragValue::new(&mut at)
                    .range(0..=end)
                    .clamp_existing_to_range(false),
            )
            .labelled_by(l.id)
            .on_hover_text("The tick the fork changes the world at (after this many ticks ran)")
            .changed()
        {
            out.push(Command::WhatIf(WhatIfCommand::At(at)));
        }
    });
}

/// The changes as `PATH=VALUE`, or what to do to make some.
fn changes(ctx: &ViewCtx<'_>, w: &WhatIf, ui: &mut Ui) {
    let recorded = what_if::base(ctx.model).map_or(0, |s| s.timeline().recorded());
    let weak = |text: String| RichText::new(text).weak();
    match w.changes() {
        Err(e) => {
            ui.colored_label(ctx.palette.status[0], e);
        }
        Ok([]) => {
            ui.label(weak(format!(
                "Edit the inspector or drag a sense's handles: the edits are the fork's changes \
                 at tick {}, not the map's. Run with none shows that the branches stay alike.",
                w.at
            )));
        }
        Ok(list) => {
            ui.label(
                RichText::new(list.join("   "))
                    .monospace()
                    .color(ctx.palette.text_weak),
            );
        }
    }
    if w.at >= recorded {
        ui.colored_label(
            ctx.palette.status[1],
            format!(
                "Tick {} is the end of the recording: nothing after it to compare. Set the fork's \
                 tick earlier, or play on first.",
                w.at
            ),
        );
    }
    if !w.run_matches {
        ui.colored_label(
            ctx.palette.status[1],
            "The run started before the map's last edits: those are in neither branch (Cancel, \
             reset with Ctrl+R and open What if… again to include them).",
        );
    }
}

/// The comparison: a summary, both timelines, the differences.
fn result(ctx: &ViewCtx<'_>, w: &WhatIf, report: &Report, ui: &mut Ui, out: &mut Out) {
    if !w.is_current() {
        ui.colored_label(
            ctx.palette.status[1],
            "Edited since this result (or the tick moved): Run again to compare.",
        );
    }
    let changed = match report.changed.as_slice() {
        [] => String::new(),
        what => format!(
            " (the fork changed {} at tick {})",
            what.join(", "),
            report.at
        ),
    };
    let (summary, colour) = match report.first_divergent_tick {
        None => (
            format!(
                "no divergence: identical hashes to tick {} (state {:016x}){changed}",
                report.ticks, report.hashes.0
            ),
            ctx.palette.status[2],
        ),
        Some(t) => (
            format!(
                "first divergent tick {t}, {} after the fork{changed}",
                count(t.saturating_sub(report.at) as usize, "tick", "ticks"),
            ),
            ctx.palette.text,
        ),
    };
    ui.label(RichText::new(summary).color(colour))
        .on_hover_text(format!(
            "State hashes at tick {}: base {:016x}, fork {:016x}",
            report.ticks, report.hashes.0, report.hashes.1
        ));
    if let Some(t) = report.replay_mismatch {
        ui.colored_label(
            ctx.palette.status[1],
            format!("the replay differs from the recording from tick {t} on"),
        );
    }
    timelines(ctx, report, ui, out);
    differences(ctx, report, ui, out);
}

/// Where a tick is drawn in `rect`, which spans ticks 0 to `end`.
fn x_of(rect: egui::Rect, end: u64, tick: u64) -> f32 {
    rect.left() + rect.width() * (tick.min(end) as f32 / end.max(1) as f32)
}

/// The base and fork rows, one above the other, on one tick axis (0 to
/// the end of the recording) with the fork's tick and the ends marked
/// under them; clicking a row goes to that tick.
fn timelines(ctx: &ViewCtx<'_>, report: &Report, ui: &mut Ui, out: &mut Out) {
    let end = ctx
        .model
        .sim
        .as_ref()
        .map_or(report.ticks, |s| s.timeline().recorded().max(report.ticks));
    let fork = match report.first_divergent_tick {
        Some(t) => format!(
            "fork timeline: forked at tick {}, differs from tick {t} to {}",
            report.at, report.ticks
        ),
        None => format!(
            "fork timeline: forked at tick {}, identical to the base",
            report.at
        ),
    };
    let base = format!(
        "base timeline: the recorded run, ticks 0 to {}",
        report.ticks
    );
    let mut axis = egui::Rect::NOTHING;
    let showing = ctx.model.what_if.as_ref().map(|w| w.showing);
    for (branch, label) in [(Branch::Base, base), (Branch::Fork, fork)] {
        ui.horizontal(|ui| {
            let name = ui
                .add_sized(
                    [LABEL_WIDTH, ROW + 4.0],
                    egui::Button::selectable(showing == Some(branch), branch.name()).small(),
                )
                .on_hover_text(format!(
                    "Show the {} on the map: scrub it, select agents, ask the Why tab",
                    match branch {
                        Branch::Base => "recorded run",
                        Branch::Fork => "fork's run",
                    }
                ));
            if name.clicked() {
                out.push(Command::WhatIf(WhatIfCommand::Show(branch)));
            }
            let width = ui.available_width().max(120.0);
            let (rect, response) = ui.allocate_exact_size(egui::vec2(width, ROW), Sense::click());
            response.widget_info(|| WidgetInfo::labeled(Role::Image, true, label.clone()));
            row(ctx, ui, rect, end, report, branch == Branch::Fork);
            axis = rect;
            let tick_at = |x: f32| {
                let t = ((x - rect.left()) / rect.width() * end as f32).round();
                t.clamp(0.0, end as f32) as u64
            };
            if let Some(p) = response.interact_pointer_pos()
                && response.clicked()
            {
                out.push(Command::Run(RunCommand::Seek(tick_at(p.x))));
            }
            let hovered = response.hover_pos().map(|p| tick_at(p.x));
            if let Some(t) = hovered {
                response.on_hover_text(format!("{label}\ntick {t}: click to go there"));
            }
        });
    }
    ticks_under(ctx, ui, axis, end, report);
}

/// Width of the rows' names, points.
const LABEL_WIDTH: f32 = 44.0;

/// Tick numbers under the rows: 0, the fork's tick, the end.
fn ticks_under(ctx: &ViewCtx<'_>, ui: &mut Ui, rect: egui::Rect, end: u64, report: &Report) {
    let (line, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), 14.0), Sense::hover());
    let p = ui.painter_at(line);
    let font = egui::FontId::proportional(11.0);
    let colour = ctx.palette.text_weak;
    let y = line.center().y;
    let put = |x: f32, align: egui::Align2, text: String, colour: Color32| {
        p.text(egui::pos2(x, y), align, text, font.clone(), colour);
    };
    put(rect.left(), egui::Align2::LEFT_CENTER, "0".into(), colour);
    put(
        rect.right(),
        egui::Align2::RIGHT_CENTER,
        end.to_string(),
        colour,
    );
    let at = x_of(rect, end, report.at);
    if at - rect.left() > 30.0 && rect.right() - at > 60.0 {
        let c = ctx.palette.selected;
        let tip = [
            egui::pos2(at, line.top()),
            egui::pos2(at - 4.0, line.top() + 6.0),
            egui::pos2(at + 4.0, line.top() + 6.0),
        ];
        p.add(egui::Shape::convex_polygon(tip.to_vec(), c, Stroke::NONE));
        put(
            at + 6.0,
            egui::Align2::LEFT_CENTER,
            format!("fork at {}", report.at),
            c,
        );
    }
}

/// One row: the branch's span, the highlighted ticks where the fork
/// differs, marks at the differences, the fork's tick and the tick shown.
fn row(ctx: &ViewCtx<'_>, ui: &Ui, rect: egui::Rect, end: u64, report: &Report, fork: bool) {
    let p = ui.painter_at(rect.expand(2.0));
    let pal = ctx.palette;
    p.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let span = |from: u64, to: u64, colour: Color32| {
        let (a, b) = (x_of(rect, end, from), x_of(rect, end, to));
        let r = egui::Rect::from_x_y_ranges(a..=b.max(a + 3.0), rect.y_range());
        p.rect_filled(r, 2.0, colour);
    };
    let alike = pal.text_weak.gamma_multiply(0.45);
    span(0, report.ticks, alike);
    if fork {
        match report.first_divergent_tick {
            Some(t) => span(t, report.ticks, pal.status[1]),
            None => span(report.at, report.ticks, pal.status[2].gamma_multiply(0.7)),
        }
    }
    let mark = Stroke::new(1.5, pal.text);
    for d in &report.differences {
        let (tick, on_fork, on_base) = match d {
            Difference::State { tick, .. } => (*tick, true, true),
            Difference::Sees { tick, branch, .. } => {
                let f = *branch == Branch::Fork;
                (*tick, f, !f)
            }
            Difference::Count { .. } => continue,
        };
        if (fork && on_fork) || (!fork && on_base) {
            let x = x_of(rect, end, tick);
            p.line_segment(
                [
                    egui::pos2(x, rect.top() + 2.0),
                    egui::pos2(x, rect.bottom() - 2.0),
                ],
                mark,
            );
        }
    }
    let at = x_of(rect, end, report.at);
    p.line_segment(
        [
            egui::pos2(at, rect.top() - 2.0),
            egui::pos2(at, rect.bottom() + 2.0),
        ],
        Stroke::new(2.0, pal.selected),
    );
    if let Some(now) = ctx.model.sim.as_ref().map(|s| s.tick()) {
        let x = x_of(rect, end, now);
        p.line_segment(
            [
                egui::pos2(x, rect.top() - 2.0),
                egui::pos2(x, rect.bottom() + 2.0),
            ],
            Stroke::new(2.0, pal.text),
        );
    }
}

/// The differences, one per line; a line with a tick goes there and
/// selects its agent.
fn differences(ctx: &ViewCtx<'_>, report: &Report, ui: &mut Ui, out: &mut Out) {
    if report.differences.is_empty() {
        if report.first_divergent_tick.is_some() {
            // The hashes part, but no agent changed state or sensed
            // someone new: only positions, headings or inner state moved.
            ui.label(
                RichText::new(
                    "no agent changes state or senses anyone new: the branches differ in \
                     positions and inner state only (play the fork to watch them)",
                )
                .weak(),
            );
        }
        return;
    }
    let mut lines: Vec<what_if::Line> = report.differences.iter().map(what_if::line).collect();
    // In the order they happened; the counts at the end last.
    lines.sort_by_key(|l| l.tick.unwrap_or(u64::MAX));
    egui::CollapsingHeader::new(
        RichText::new(format!(
            "{} (click one to go to its tick)",
            count(lines.len(), "difference", "differences")
        ))
        .weak(),
    )
    .id_salt("what-if-differences")
    .default_open(true)
    .show(ui, |ui| difference_list(ctx, &lines, ui, out));
}

/// The differences, one line each, in a list that scrolls past
/// [`LIST_HEIGHT`] (less in a short window).
fn difference_list(ctx: &ViewCtx<'_>, lines: &[what_if::Line], ui: &mut Ui, out: &mut Out) {
    let list_height = LIST_HEIGHT.min(ui.ctx().content_rect().height() * 0.2);
    let height = ui.text_style_height(&egui::TextStyle::Monospace) + ui.spacing().item_spacing.y;
    // At least the lines that fit: a panel sized by last frame's content
    // would otherwise never let the list grow.
    let shown = (height * lines.len() as f32).min(list_height);
    egui::ScrollArea::vertical()
        .max_height(list_height)
        .min_scrolled_height(shown)
        .auto_shrink([false, true])
        .show_rows(ui, height, lines.len(), |ui, range| {
            for line in &lines[range] {
                let text = match line.tick {
                    Some(t) => format!("tick {t:<6} {}", line.text),
                    None => format!("at end      {}", line.text),
                };
                let r = ui.selectable_label(false, RichText::new(text).monospace());
                if let (Some(t), true) = (line.tick, r.clicked()) {
                    out.push(Command::Run(RunCommand::Seek(t)));
                    let slot = line.agent.as_deref().and_then(|a| {
                        ctx.model
                            .sim
                            .as_ref()
                            .and_then(|s| s.world().agents().find(a))
                            .map(|id| id.index())
                    });
                    if let Some(slot) = slot {
                        out.push(Command::Select(SelectCommand::Set(vec![Sel::Agent(slot)])));
                    }
                }
            }
        });
}
