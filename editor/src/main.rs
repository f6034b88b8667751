//! `kiai-editor [FILE]`: the kiai editor.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// The kiai editor: waypoint maps, cost lists, walls, regions, agents,
/// senses and profiles.
#[derive(Parser, Debug)]
#[command(name = "kiai-editor", version, about, long_about = None)]
struct Args {
    /// Content file to open (RON). A path that does not exist yet starts
    /// an empty document that saves there.
    file: Option<PathBuf>,
    /// Render this many frames continuously, print frame-time statistics
    /// (interval between frames and the editor's own update time, p50 and
    /// p99) and quit.
    #[arg(long, value_name = "N")]
    measure_frames: Option<u32>,
    /// Present frames as soon as they are drawn instead of waiting for the
    /// display's refresh (implied by --measure-frames, which measures what
    /// a frame costs, not the refresh rate).
    #[arg(long)]
    no_vsync: bool,
    /// Graphics backend: `glow` (OpenGL; several times faster than wgpu on
    /// software renderers such as Mesa's llvmpipe) or `wgpu` (Vulkan,
    /// Metal, DX12 or GL through wgpu).
    #[arg(long, default_value = "glow", value_parser = ["glow", "wgpu"])]
    renderer: String,
    /// Start playing the simulation at once (1x).
    #[arg(long)]
    play: bool,
    /// Start with the default panel layout instead of the remembered one.
    #[arg(long)]
    reset_layout: bool,
    /// Colours: `dark` or `light` (default: the last one used, else dark).
    #[arg(long, value_parser = ["dark", "light"])]
    theme: Option<String>,
    /// Window size in points, `WIDTHxHEIGHT` (default 1440x900, or the
    /// size remembered from the last session unless --reset-layout).
    #[arg(long, value_parser = parse_size)]
    size: Option<(f32, f32)>,
}

fn parse_size(s: &str) -> Result<(f32, f32), String> {
    let (w, h) = s
        .split_once('x')
        .ok_or_else(|| format!("`{s}` is not WIDTHxHEIGHT"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 200.0)
            .ok_or_else(|| format!("`{v}` is not a size of at least 200"))
    };
    Ok((parse(w)?, parse(h)?))
}

fn main() -> ExitCode {
    let args = Args::parse();
    let options = kiai_editor::Options {
        file: args.file,
        measure_frames: args.measure_frames,
        reset_layout: args.reset_layout,
        screenshot: false,
        play: args.play,
        theme: args.theme.map(|t| {
            if t == "light" {
                kiai_editor::model::Theme::Light
            } else {
                kiai_editor::model::Theme::Dark
            }
        }),
    };
    let (size, remembered) = kiai_editor::window_size(args.size, args.reset_layout);
    let mut native = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default()
            .with_inner_size([size.0, size.1])
            .with_title("kiai editor"),
        // A size asked for wins over the one remembered.
        persist_window: remembered,
        ..Default::default()
    };
    // The editor draws flat colours: no gradients to dither, and dithering
    // costs every pixel on software renderers.
    native.dithering = false;
    native.renderer = if args.renderer == "glow" {
        eframe::Renderer::Glow
    } else {
        eframe::Renderer::Wgpu
    };
    if args.measure_frames.is_some() {
        // Measure at the asked size, not the remembered one.
        native.persist_window = false;
    }
    if args.no_vsync || args.measure_frames.is_some() {
        native.wgpu_options.surface.present_mode =
            eframe::egui_wgpu::wgpu::PresentMode::AutoNoVsync;
    }
    let result = eframe::run_native(
        "kiai-editor",
        native,
        Box::new(move |cc| Ok(Box::new(kiai_editor::EditorApp::new(options, cc.storage)))),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kiai-editor: {e}");
            ExitCode::FAILURE
        }
    }
}
