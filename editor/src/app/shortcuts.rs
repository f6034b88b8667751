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

/// What the canvas tells the shortcuts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MapState {
    /// Space was held to pan the map (releasing it then does not play or
    /// pause).
    pub space_panned: bool,
    /// A gesture is under way (Escape cancels it first).
    pub busy: bool,
    /// The map has the keyboard (the pointer is over it, or it was
    /// clicked last): only then do single letters pick tools and act on
    /// the map.
    pub letters: bool,
}

/// What the keys pressed this frame ask for. Returns whether the gesture
/// under way is cancelled.
pub(crate) fn keys(ctx: &egui::Context, model: &Model, map: MapState, out: &mut Out) -> bool {
    command_keys(ctx, out);
    if ctx.egui_wants_keyboard_input() {
        return false;
    }
    let picked_tool = run_and_tool_keys(ctx, map, out);
    let escaped = map_keys(ctx, model, map, out);
    picked_tool || escaped
}

/// Whether `key` was pressed without modifiers (consuming it).
fn plain(ctx: &egui::Context, key: Key) -> bool {
    ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key))
}

/// Whether `key` was pressed with Shift (consuming it).
fn shifted(ctx: &egui::Context, key: Key) -> bool {
    ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, key))
}

/// Ctrl (Cmd) shortcuts that act even while a text field has the
/// keyboard: undo, redo, files, quit.
fn command_keys(ctx: &egui::Context, out: &mut Out) {
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
}

/// Select all, reset, the tools' keys (when the map has the keyboard),
/// play and step. Returns whether a tool was picked (it cancels the
/// gesture under way).
fn run_and_tool_keys(ctx: &egui::Context, map: MapState, out: &mut Out) -> bool {
    let pressed = |key| {
        ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, key)))
    };
    if pressed(Key::A) {
        out.push(Command::Select(SelectCommand::AllWaypoints));
    }
    if pressed(Key::R) {
        out.push(Command::Run(RunCommand::Reset));
    }
    let mut picked = false;
    for tool in Tool::ALL {
        if map.letters && plain(ctx, tool_key(tool)) {
            out.push(Command::Settings(SettingsCommand::Tool(tool)));
            picked = true;
        }
    }
    // Space acts when released: held, it pans the map with the mouse.
    let _ = plain(ctx, Key::Space);
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
    if released_space && !map.space_panned {
        out.push(Command::Run(RunCommand::TogglePlay));
    }
    if shifted(ctx, Key::Period) {
        out.push(Command::Run(RunCommand::StepToEvent));
        out.ui(UiIntent::Focus(crate::views::Pane::Why));
    } else if plain(ctx, Key::Period) {
        out.push(Command::Run(RunCommand::Step));
    }
    picked
}

/// Snap, heat map, framing, waypoint switches (these when the map has
/// the keyboard), delete and Escape. Returns whether Escape cancels the
/// gesture under way.
fn map_keys(ctx: &egui::Context, model: &Model, map: MapState, out: &mut Out) -> bool {
    if map.letters {
        letter_keys(ctx, model, out);
    }
    if plain(ctx, Key::Delete) || plain(ctx, Key::Backspace) {
        out.push(Command::Edit(EditCommand::Delete));
    }
    // An open menu or popup takes Escape: it closes, nothing else.
    if !egui::Popup::is_any_open(ctx) && plain(ctx, Key::Escape) {
        if map.busy {
            return true;
        }
        out.push(Command::Select(SelectCommand::Clear));
    }
    false
}

/// The map's single-letter keys: snap, heat map, framing, waypoint
/// switches, auto-connect.
fn letter_keys(ctx: &egui::Context, model: &Model, out: &mut Out) {
    let mut tools = model.tools.clone();
    if plain(ctx, Key::G) {
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
    if plain(ctx, Key::M) {
        tools.heat_map = !tools.heat_map;
    }
    if tools != model.tools {
        out.push(Command::Settings(SettingsCommand::Tools(Box::new(tools))));
    }
    if shifted(ctx, Key::F) {
        out.ui(UiIntent::FitSelection);
    } else if plain(ctx, Key::F) {
        out.ui(UiIntent::Fit);
    }
    if plain(ctx, Key::T) {
        out.push(Command::Edit(EditCommand::ToggleActive));
    }
    if plain(ctx, Key::J) {
        out.push(Command::Edit(EditCommand::AutoConnect));
    }
}
