//! What the editor's UI tests share: an editor on a file in a kittest
//! harness, and pointer and key input in world coordinates.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // each test file uses some

use std::path::{Path, PathBuf};

use eframe::egui::{self, Key, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use kiai_editor::{EditorApp, Options};

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub(crate) fn editor(file: &Path) -> Harness<'static, EditorApp> {
    editor_with(file, false)
}

pub(crate) fn editor_with(file: &Path, screenshot: bool) -> Harness<'static, EditorApp> {
    let file = file.to_path_buf();
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1400.0, 900.0))
        .with_max_steps(12)
        .build_eframe(move |_cc| {
            EditorApp::new(
                Options {
                    file: Some(file),
                    reset_layout: true,
                    screenshot,
                    ..Default::default()
                },
                None,
            )
        });
    // The first frames lay out the dock and frame the map.
    h.run_steps(3);
    h
}

pub(crate) fn screen(h: &Harness<'_, EditorApp>, x: f32, z: f32) -> Pos2 {
    h.state().world_to_screen(x, z)
}

pub(crate) fn press(
    h: &mut Harness<'_, EditorApp>,
    pos: Pos2,
    pressed: bool,
    modifiers: Modifiers,
) {
    h.event(egui::Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers,
    });
}

pub(crate) fn click(h: &mut Harness<'_, EditorApp>, pos: Pos2) {
    h.hover_at(pos);
    h.step();
    press(h, pos, true, Modifiers::NONE);
    h.step();
    press(h, pos, false, Modifiers::NONE);
    h.step();
    h.step();
}

/// A drag in small moves, as a hand does, with `modifiers` held.
pub(crate) fn drag(h: &mut Harness<'_, EditorApp>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.step();
    press(h, from, true, Modifiers::NONE);
    h.step();
    for k in 1..=8 {
        let t = k as f32 / 8.0;
        h.hover_at(from + (to - from) * t);
        h.step();
    }
    press(h, to, false, Modifiers::NONE);
    h.step();
    h.step();
}

pub(crate) fn key(h: &mut Harness<'_, EditorApp>, key: Key) {
    h.key_press(key);
    h.step();
}
