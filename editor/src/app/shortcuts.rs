//! Keyboard shortcuts as commands (Help lists them).

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers};

use crate::model::{Command, EditCommand, Model, RunCommand, SelectCommand, SettingsCommand, Tool};
use crate::views::{Out, PathFor, UiIntent};

/// The key that picks `tool`.
pub(crate) fn tool_key(tool: Tool) -> Key {
    match tool {
        Tool::Select => Key::V,
        Tool::Waypoint => Key::W,
        Tool::Link => Key::L,
        Tool::Paint => Key::C,
        Tool::Wall => Key::X,
        Tool::Region => Key::R,
        Tool::Agent => Key::A,
        Tool::Path => Key::H,
    }
}

/// What the keys pressed this frame ask for. `space_panned`: Space was
/// held to pan the map (releasing it then does not play or pause);
/// `busy`: a gesture is under way (Escape cancels it first).
pub(crate) fn keys(
    ctx: &egui::Context,
    model: &Model,
    space_panned: bool,
    busy: bool,
    out: &mut Out,
) -> bool {
    let cmd = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
    let cmd_shift = |key| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, key);
    let pressed = |sc: KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(&sc));
    if pressed(cmd_shift(Key::Z)) || pressed(cmd(Key::Y)) {
        out.push(Command::Edit(EditCommand::Redo));
    }
    if pressed(cmd(Key::Z)) {
        out.push(Command::Edit(EditCommand::Undo));
    }
    if pressed(cmd_shift(Key::S)) {
        out.ui(UiIntent::Ask(PathFor::SaveAs));
    }
    if pressed(cmd(Key::S)) {
        out.ui(UiIntent::Save);
    }
    if pressed(cmd(Key::O)) {
        out.ui(UiIntent::Ask(PathFor::Open));
    }
    if pressed(cmd(Key::E)) {
        out.ui(UiIntent::Export);
    }
    if pressed(cmd(Key::N)) {
        out.ui(UiIntent::New);
    }
    if pressed(cmd(Key::Q)) {
        out.ui(UiIntent::Quit);
    }
    if ctx.egui_wants_keyboard_input() {
        return false;
    }
    if pressed(cmd(Key::A)) {
        out.push(Command::Select(SelectCommand::AllWaypoints));
    }
    if pressed(cmd(Key::R)) {
        out.push(Command::Run(RunCommand::Reset));
    }
    let plain = |key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key));
    let shifted = |key| ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, key));
    let mut cancel = false;
    for tool in Tool::ALL {
        if plain(tool_key(tool)) {
            out.push(Command::Settings(SettingsCommand::Tool(tool)));
            cancel = true;
        }
    }
    // Space acts when released: held, it pans the map with the mouse.
    let _ = plain(Key::Space);
    let released_space = ctx.input(|i| {
        i.events.iter().any(|e| {
            matches!(
                e,
                egui::Event::Key {
                    key: Key::Space,
                    pressed: false,
                    modifiers,
                    ..
                } if modifiers.is_none()
            )
        })
    });
    if released_space && !space_panned {
        out.push(Command::Run(RunCommand::TogglePlay));
    }
    if shifted(Key::Period) {
        out.push(Command::Run(RunCommand::StepToEvent));
        out.ui(UiIntent::Focus(crate::views::Pane::Why));
    } else if plain(Key::Period) {
        out.push(Command::Run(RunCommand::Step));
    }
    let mut tools = model.tools.clone();
    if plain(Key::G) {
        tools.snap = !tools.snap;
        out.push(Command::Say(
            if tools.snap {
                "snapping on"
            } else {
                "snapping off"
            }
            .into(),
        ));
    }
    if plain(Key::M) {
        tools.heat_map = !tools.heat_map;
    }
    if tools != model.tools {
        out.push(Command::Settings(SettingsCommand::Tools(Box::new(tools))));
    }
    if shifted(Key::F) {
        out.ui(UiIntent::FitSelection);
    } else if plain(Key::F) {
        out.ui(UiIntent::Fit);
    }
    if plain(Key::T) {
        out.push(Command::Edit(EditCommand::ToggleActive));
    }
    if plain(Key::J) {
        out.push(Command::Edit(EditCommand::AutoConnect));
    }
    if plain(Key::Delete) || plain(Key::Backspace) {
        out.push(Command::Edit(EditCommand::Delete));
    }
    if plain(Key::Escape) {
        if busy {
            cancel = true;
        } else {
            out.push(Command::Select(SelectCommand::Clear));
        }
    }
    cancel
}
