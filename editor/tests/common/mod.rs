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
    editor_sized(file, screenshot, egui::Vec2::new(1400.0, 900.0))
}

/// An editor on `file` in a window of `size` points.
pub(crate) fn editor_sized(
    file: &Path,
    screenshot: bool,
    size: egui::Vec2,
) -> Harness<'static, EditorApp> {
    let file = file.to_path_buf();
    let mut h = Harness::builder()
        .with_size(size)
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

/// A rendered frame: RGBA pixels, row by row.
pub(crate) struct Shot {
    /// Width in pixels.
    pub(crate) width: u32,
    /// Height in pixels.
    pub(crate) height: u32,
    rgba: Vec<u8>,
}

/// The editor drawn on the CPU, one pixel per point.
pub(crate) fn render(h: &mut Harness<'_, EditorApp>) -> Shot {
    let image = h.render().expect("renders on the CPU");
    Shot {
        width: image.width(),
        height: image.height(),
        rgba: image.into_raw(),
    }
}

/// The colour of the pixel at screen point `p` (clamped into the image).
pub(crate) fn pixel(image: &Shot, p: Pos2) -> [u8; 3] {
    let x = (p.x.round().max(0.0) as u32).min(image.width - 1) as usize;
    let y = (p.y.round().max(0.0) as u32).min(image.height - 1) as usize;
    let at = (y * image.width as usize + x) * 4;
    [image.rgba[at], image.rgba[at + 1], image.rgba[at + 2]]
}

/// WCAG relative luminance of an sRGB colour.
pub(crate) fn luminance(c: [u8; 3]) -> f32 {
    let lin = |v: u8| {
        let v = f32::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG contrast ratio of two colours (1 to 21).
pub(crate) fn contrast(a: [u8; 3], b: [u8; 3]) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Euclidean distance of two colours in RGB.
pub(crate) fn colour_distance(a: [u8; 3], b: [u8; 3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (f32::from(*x) - f32::from(y)).powi(2))
        .sum::<f32>()
        .sqrt()
}

/// Plays (Space) as a designer does until at least `tick` ticks ran, then
/// pauses (Space again); playing overshoots by a frame's ticks.
pub(crate) fn play_until(h: &mut Harness<'_, EditorApp>, tick: u64) {
    h.key_press(Key::Space);
    let start = std::time::Instant::now();
    while h.state().model.sim.as_ref().map_or(0, |s| s.tick()) < tick {
        h.step();
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "playing stalled"
        );
    }
    h.key_press(Key::Space);
    h.step();
}

/// Pauses the run at tick `tick`: Step (.) builds the run, then the
/// recording is simulated to that tick.
pub(crate) fn run_to(h: &mut Harness<'_, EditorApp>, tick: u64) {
    if h.state().model.sim.is_none() {
        h.key_press(Key::Period);
        h.run_steps(2);
    }
    let sim = h.state_mut().model.sim.as_mut().expect("the run is built");
    sim.playing = false;
    sim.seek(tick).expect("the run simulates");
    h.run_steps(3);
}

/// The guards demo and its scripts copied into `dir` as the repository
/// lays them out (`content/demo/guards.ron`, `scripts/*.lua`); returns the
/// content file.
/// The validation panel's findings, one diagnostic line each.
pub(crate) fn findings(h: &Harness<'_, EditorApp>) -> Vec<String> {
    h.state()
        .model
        .validation
        .findings
        .1
        .iter()
        .map(|f| f.diagnostic.to_string())
        .collect()
}

/// The index of archetype `name` in the document.
pub(crate) fn archetype(h: &Harness<'_, EditorApp>, name: &str) -> usize {
    h.state()
        .doc()
        .def()
        .archetypes
        .position(name)
        .unwrap_or_else(|| panic!("no archetype {name}"))
}

pub(crate) fn copy_guards(dir: &Path) -> PathBuf {
    let content = dir.join("content/demo");
    std::fs::create_dir_all(&content).unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::copy(
        root().join("content/demo/guards.ron"),
        content.join("guards.ron"),
    )
    .unwrap();
    for f in std::fs::read_dir(root().join("scripts")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join("scripts").join(f.file_name().unwrap())).unwrap();
    }
    content.join("guards.ron")
}

/// `kiai` (the CLI, built by cargo into this test's target directory) with
/// `args`, run from the repository's root: its exit status and output.
pub(crate) fn kiai_cli(args: &[&str]) -> std::process::Output {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let target = tmp.parent().unwrap_or(tmp);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    std::process::Command::new(cargo)
        .current_dir(root())
        .args(["run", "-q", "-p", "kiai-cli", "--target-dir"])
        .arg(target)
        .arg("--")
        .args(args)
        .output()
        .unwrap()
}

/// The state hash `kiai run FILE --ticks TICKS` prints.
pub(crate) fn kiai_hash(file: &Path, ticks: u64) -> String {
    let out = kiai_cli(&[
        "run",
        file.to_str().unwrap(),
        "--ticks",
        &ticks.to_string(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "kiai run: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["state_hash"].as_str().unwrap().to_owned()
}

/// The transport bar's "tick T | state HASH" text.
pub(crate) fn tick_status(h: &Harness<'_, EditorApp>) -> String {
    use egui_kittest::kittest::{NodeT, Queryable};
    let text = |n: &egui_kittest::kittest::AccessKitNode<'_>| n.label().or_else(|| n.value());
    let node = h
        .query_all_by(|n| {
            text(n).is_some_and(|l| l.starts_with("tick ") && l.contains(" | state "))
        })
        .next()
        .expect("the tick and hash are on screen");
    text(&node.accesskit_node()).unwrap_or_default()
}

/// Scrubs the timeline to `tick` as a designer drags the slider.
pub(crate) fn scrub(h: &mut Harness<'_, EditorApp>, tick: u64) {
    use egui_kittest::kittest::Queryable;
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "tick")
        .set_value_accesskit(tick as f64);
    h.run_steps(2);
}

/// Types `text` as a keyboard does: each letter's key goes down, its
/// character is entered, the key comes up; one frame per letter.
pub(crate) fn type_keys(h: &mut Harness<'_, EditorApp>, text: &str) {
    for c in text.chars() {
        let key = Key::from_name(&c.to_ascii_uppercase().to_string());
        let event = |pressed| egui::Event::Key {
            key: key.unwrap_or(Key::Space),
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: Modifiers::NONE,
        };
        if key.is_some() {
            h.event(event(true));
        }
        h.event(egui::Event::Text(c.to_string()));
        if key.is_some() {
            h.event(event(false));
        }
        h.step();
    }
}
