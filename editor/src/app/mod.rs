//! The one owner: [`EditorApp`] holds the model, the views and the dock.
//! Each frame the views draw from a read-only context and say what they
//! want; the app then applies the model commands and handles the UI
//! requests (files, dialogs, focusing panes, the theme).

mod dock;
mod files;
mod frames;
mod shortcuts;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use eframe::egui;

pub use self::files::open_recording;
pub use crate::views::PathFor;
pub use crate::views::dialogs::Dialog;

use self::frames::FrameClock;
use crate::model::{Command, Model, RunCommand, Sel, SettingsCommand, Theme, files as model_files};
use crate::theme::Palette;
use crate::views::canvas::CanvasView;
use crate::views::{self, Out, Pane, UiIntent, ViewCtx};

/// How the editor starts.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The content file to open (none: an untitled document; a path that
    /// does not exist yet: an empty document that saves there).
    pub file: Option<PathBuf>,
    /// Measure this many frames, print frame-time statistics and quit.
    pub measure_frames: Option<u32>,
    /// Ignore the remembered layout.
    pub reset_layout: bool,
    /// Hide what changes from run to run (the frame-time readout), for
    /// screenshots that must be reproducible.
    pub screenshot: bool,
    /// Start playing the simulation at once (1x).
    pub play: bool,
    /// The theme (default: the remembered one, else dark).
    pub theme: Option<Theme>,
}

/// Every view's own state.
pub struct Views {
    /// The map.
    pub canvas: CanvasView,
    /// The inspector.
    pub inspector: views::inspector::InspectorView,
    /// The Profiles tab.
    pub profiles: views::profiles::ProfilesView,
    /// The Cost lists tab.
    pub cost_lists: views::cost_lists::CostListsView,
    /// The console.
    pub console: views::console::ConsoleView,
    /// The Breakpoints tab.
    pub breakpoints: views::breakpoints::BreakpointsView,
    /// Modal questions.
    pub dialogs: views::dialogs::DialogsView,
}

impl Views {
    fn new(def: &kiai_content::def::ContentDef) -> Self {
        Self {
            canvas: CanvasView::fit(def),
            inspector: Default::default(),
            profiles: Default::default(),
            cost_lists: Default::default(),
            console: Default::default(),
            breakpoints: Default::default(),
            dialogs: Default::default(),
        }
    }

    /// Fresh views for another document (questions on screen stay).
    fn reset(&mut self, def: &kiai_content::def::ContentDef) {
        let dialogs = std::mem::take(&mut self.dialogs);
        *self = Views::new(def);
        self.dialogs = dialogs;
    }
}

/// The kiai editor, an [`eframe::App`].
pub struct EditorApp {
    /// The model: the document and everything known about it.
    pub model: Model,
    /// The views' own state.
    pub views: Views,
    tree: egui_tiles::Tree<Pane>,
    theme: Theme,
    applied_theme: Option<Theme>,
    clock: FrameClock,
    screenshot: bool,
    title: String,
    allow_close: bool,
    /// The window is closing: nothing more is autosaved.
    closing: bool,
    /// The layout is the default one, not yet fitted to the window's
    /// width (a narrow window gets the compact layout).
    layout_fresh: bool,
    /// Script errors the console had when the app last looked.
    console_errors: usize,
    /// Whether to try the system's file dialogs (false once one failed to
    /// appear, or for tests): otherwise the editor's own prompt asks.
    pub system_dialogs: bool,
    /// The program that opens a script file clicked in the console
    /// (`xdg-open`, `open` on macOS, `explorer` on Windows).
    pub opener: String,
    /// What the opener said, when it failed after it started.
    opened: Option<std::sync::mpsc::Receiver<String>>,
}

/// Where unsaved changes of the document at `path` are autosaved:
/// `level.ron` → `level.ron.recovery`; an untitled document's go to the
/// editor's data directory.
pub fn recovery_path(path: Option<&Path>) -> PathBuf {
    model_files::recovery_path(path, &data_dir())
}

fn data_dir() -> PathBuf {
    eframe::storage_dir("kiai-editor").unwrap_or_else(std::env::temp_dir)
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

impl EditorApp {
    /// The editor on `options.file`, restoring the remembered layout,
    /// theme and recent files from `storage` when there is one.
    pub fn new(options: Options, storage: Option<&dyn eframe::Storage>) -> Self {
        let (doc, findings) = match &options.file {
            Some(path) => model_files::open_document(path),
            None => (crate::model::Document::untitled(), Vec::new()),
        };
        let mut model = Model::new(doc, findings, data_dir());
        if let Some(recent) = storage.and_then(|s| eframe::get_value(s, "recent")) {
            model.recent = recent;
        }
        if let Some(path) = model
            .doc
            .path()
            .filter(|p| p.exists())
            .map(Path::to_path_buf)
        {
            model.recent.touch(&path);
        }
        if let Some(snap) = storage.and_then(|s| eframe::get_value::<bool>(s, "snap")) {
            model.tools.snap = snap;
        }
        let views = Views::new(model.doc.def());
        let mut app = Self {
            model,
            views,
            tree: dock::default_tree(),
            theme: options
                .theme
                .or_else(|| storage.and_then(|s| eframe::get_value(s, "theme")))
                .unwrap_or_default(),
            applied_theme: None,
            clock: FrameClock::new(options.measure_frames),
            screenshot: options.screenshot,
            title: String::new(),
            allow_close: false,
            closing: false,
            layout_fresh: true,
            console_errors: 0,
            system_dialogs: true,
            opener: files::default_opener().to_owned(),
            opened: None,
        };
        if !options.reset_layout
            && let Some(tree) = storage
                .and_then(|s| eframe::get_value::<egui_tiles::Tree<Pane>>(s, dock::LAYOUT_KEY))
                .filter(|t| t.tiles.tiles().count() > 0)
        {
            app.tree = tree;
            app.layout_fresh = false;
        }
        let recovery = app.model.recovery_path();
        if recovery.exists() {
            let newer = match app.model.doc.path().and_then(modified) {
                Some(saved) => modified(&recovery).is_some_and(|r| r > saved),
                None => true,
            };
            if newer {
                app.views.dialogs.ask(Dialog::Recover(recovery));
            }
        }
        if options.play {
            app.model.apply(Command::Run(RunCommand::TogglePlay));
        }
        app
    }

    /// The open document.
    pub fn doc(&self) -> &crate::model::Document {
        &self.model.doc
    }

    /// Where a world point `(x, z)` was drawn on screen in the last frame.
    pub fn world_to_screen(&self, x: f32, z: f32) -> egui::Pos2 {
        self.views.canvas.world_to_screen(x, z)
    }

    /// The single selected agent, if exactly one agent is selected.
    pub fn selected_agent(&self) -> Option<usize> {
        self.model.selection.agent()
    }

    /// The question on screen, if any.
    pub fn dialog(&self) -> Option<&Dialog> {
        self.views.dialogs.dialog.as_ref()
    }

    /// Puts `dialog` on screen (tests type paths through it).
    pub fn set_dialog(&mut self, dialog: Dialog) {
        self.views.dialogs.ask(dialog);
    }

    /// The map labels drawn in the last frame: screen rectangle and text.
    pub fn drawn_labels(&self) -> &[(egui::Rect, String)] {
        &self.views.canvas.drawn_labels
    }

    /// Whether `pane`'s tab is in front.
    pub fn is_shown(&self, pane: Pane) -> bool {
        dock::is_shown(&self.tree, pane)
    }

    /// Brings `pane`'s tab to the front.
    pub fn focus(&mut self, pane: Pane) {
        dock::focus(&mut self.tree, pane);
    }

    /// Resets the dock layout to the default.
    pub fn reset_layout(&mut self) {
        self.tree = dock::default_tree();
        self.layout_fresh = true;
    }

    fn title(&self) -> String {
        let name = self
            .model
            .doc
            .path()
            .and_then(|p| p.file_name())
            .map_or_else(
                || "untitled".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            );
        // A what-if's edits are not the map's: the star is the map's.
        let (dirty, what_if) = match &self.model.what_if {
            Some(w) => (w.was_dirty, " (What if…)"),
            None => (self.model.doc.is_dirty(), ""),
        };
        let dirty = if dirty { "*" } else { "" };
        format!("{name}{dirty}{what_if} — kiai editor")
    }

    /// The panels and the dock, drawn from the model.
    fn draw(&mut self, ui: &mut egui::Ui, out: &mut Out) {
        let palette = Palette::of(self.theme);
        let ctx = ViewCtx {
            model: &self.model,
            palette: &palette,
            screenshot: self.screenshot,
        };
        egui::Panel::top("menu").show(ui, |ui| views::menus::ui(&ctx, ui, out));
        egui::Panel::top("tools").show(ui, |ui| views::toolbar::ui(&ctx, ui, out));
        egui::Panel::top("transport").show(ui, |ui| views::transport::ui(&ctx, ui, out));
        if self.model.navgen.open {
            egui::Panel::top("navgen").show(ui, |ui| views::navgen::ui(&ctx, ui, out));
        }
        if self.model.what_if.is_some() {
            egui::Panel::top("what_if").show(ui, |ui| views::what_if::ui(&ctx, ui, out));
        }
        let cursor = self.views.canvas.cursor_world();
        let frames = self.clock.readout();
        egui::Panel::bottom("status").show(ui, |ui| views::status::ui(&ctx, ui, cursor, frames));
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let mut behavior = Behavior {
                views: &mut self.views,
                ctx: &ctx,
                out,
            };
            self.tree.ui(&mut behavior, ui);
        });
        self.views.dialogs.ui(&ctx, ui.ctx(), out);
    }

    /// Whether the run is paused where a breakpoint or "next event" stopped
    /// it.
    fn stopped_at_a_hit(&self) -> bool {
        self.model
            .sim
            .as_ref()
            .is_some_and(|s| !s.playing && s.hit.is_some())
    }

    /// Applies what the views asked for: model commands first, then the
    /// UI requests. A new selection brings the inspector forward (the Why
    /// tab stays in front for an agent of a running map).
    fn apply(&mut self, ctx: &egui::Context, out: Out) {
        let before = self.model.selection.clone();
        let mut busy_cancel = false;
        let mut step_to_event = false;
        for command in out.commands {
            if matches!(command, Command::Settings(SettingsCommand::Tool(_))) {
                busy_cancel = true;
            }
            step_to_event |= matches!(command, Command::Run(RunCommand::StepToEvent));
            self.model.apply(command);
        }
        if step_to_event && self.stopped_at_a_hit() {
            dock::focus(&mut self.tree, Pane::Why);
        }
        if busy_cancel {
            self.views.canvas.gesture.cancel();
        }
        let selection = &self.model.selection;
        if *selection != before && !selection.is_empty() {
            let why = self.model.is_live()
                && selection.agent().is_some()
                && dock::is_shown(&self.tree, Pane::Why);
            if !why && !dock::is_shown(&self.tree, Pane::Inspector) {
                dock::focus(&mut self.tree, Pane::Inspector);
            }
        }
        for intent in out.intents {
            self.handle(ctx, intent);
        }
    }

    fn handle(&mut self, ctx: &egui::Context, intent: UiIntent) {
        match intent {
            UiIntent::Focus(pane) => dock::focus(&mut self.tree, pane),
            UiIntent::Fit => self.views.canvas.request_fit(),
            UiIntent::FitSelection => self.fit_selection(),
            UiIntent::Ask(what) => self.ask(what),
            UiIntent::Chosen(what, path) => self.chosen(what, &path),
            UiIntent::New => self.new_document(false),
            UiIntent::NewNow => self.new_document(true),
            UiIntent::Open(path) => self.open(path),
            UiIntent::OpenNow(path) => self.open_now(&path),
            UiIntent::Save => {
                self.save();
            }
            UiIntent::SaveThen(then) => {
                if self.save() {
                    self.handle(ctx, *then);
                }
            }
            UiIntent::Export => self.export(),
            UiIntent::Recover(path) => {
                self.leave_what_if();
                self.model.recover(&path);
            }
            UiIntent::DiscardRecovery(path) => {
                let _ = std::fs::remove_file(path);
            }
            UiIntent::Quit => {
                self.leave_what_if();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            UiIntent::CloseNow => {
                self.allow_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            UiIntent::OpenFile(path, line) => self.open_file(ctx, &path, line),
            UiIntent::Theme(theme) => self.theme = theme,
            UiIntent::ResetLayout => self.reset_layout(),
        }
    }

    /// Brings the console forward when a script reported a new error.
    fn show_new_script_errors(&mut self) {
        let errors = self.model.sim.as_ref().map_or(0, |s| {
            s.console
                .lines()
                .iter()
                .filter(|l| l.kind == crate::model::sim::LineKind::Error)
                .count()
        });
        if errors > self.console_errors {
            dock::focus(&mut self.tree, Pane::Console);
        }
        self.console_errors = errors;
    }

    /// Frames the selected objects on the map (everything when nothing on
    /// the map is selected).
    fn fit_selection(&mut self) {
        let scene = self.model.scene();
        let def = self.model.doc.def();
        let mut points: Vec<(f32, f32)> = Vec::new();
        for sel in self.model.selection.iter() {
            match sel {
                Sel::Agent(i) if scene.alive(i) => {
                    let p = scene.pos(i);
                    points.push((p.x, p.z));
                }
                Sel::Waypoint(i) => points.extend(def.waypoints.get(i).map(|w| (w.pos.0, w.pos.2))),
                Sel::Wall(i) => {
                    if let Some(w) = def.walls.get(i) {
                        points.extend([w.from, w.to]);
                    }
                }
                Sel::Region(i) => points.extend(
                    def.regions
                        .get(i)
                        .into_iter()
                        .flat_map(|r| r.polygon.iter().copied()),
                ),
                _ => {}
            }
        }
        if points.is_empty() {
            self.views.canvas.request_fit();
            return;
        }
        let min = points
            .iter()
            .fold((f32::MAX, f32::MAX), |a, p| (a.0.min(p.0), a.1.min(p.1)));
        let max = points
            .iter()
            .fold((f32::MIN, f32::MIN), |a, p| (a.0.max(p.0), a.1.max(p.1)));
        self.views.canvas.request_frame(min, max);
    }
}

struct Behavior<'a, 'b> {
    views: &'a mut Views,
    ctx: &'a ViewCtx<'b>,
    out: &'a mut Out,
}

fn panel(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::new()
        .inner_margin(egui::Margin::same(8))
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, add);
        });
}

fn plain(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::new()
        .inner_margin(egui::Margin::same(8))
        .show(ui, add);
}

impl egui_tiles::Behavior<Pane> for Behavior<'_, '_> {
    fn pane_ui(
        &mut self,
        ui: &mut egui::Ui,
        _tile_id: egui_tiles::TileId,
        pane: &mut Pane,
    ) -> egui_tiles::UiResponse {
        let (v, c, out) = (&mut *self.views, self.ctx, &mut *self.out);
        if *pane != Pane::Canvas {
            // The window is cleared to the map's colour (see
            // `clear_color`); the other panes sit on the panel colour.
            let fill = ui.visuals().panel_fill;
            ui.painter().rect_filled(ui.max_rect(), 0.0, fill);
        }
        match pane {
            Pane::Canvas => v.canvas.ui(c, ui, out),
            Pane::Inspector => panel(ui, |ui| v.inspector.ui(c, ui, out)),
            Pane::Outliner => panel(ui, |ui| views::outliner::ui(c, ui, out)),
            Pane::Validation => plain(ui, |ui| views::validation::ui(c, ui, out)),
            Pane::Profiles => panel(ui, |ui| v.profiles.ui(c, ui, out)),
            Pane::CostLists => panel(ui, |ui| v.cost_lists.ui(c, ui, out)),
            Pane::Why => panel(ui, |ui| views::why::ui(c, ui, out)),
            Pane::Console => plain(ui, |ui| v.console.ui(c, ui, out)),
            Pane::Timings => plain(ui, |ui| views::timings::ui(c, ui, out)),
            Pane::Elevation => plain(ui, |ui| views::elevation::ui(c, ui, out)),
            Pane::Layers => panel(ui, |ui| views::layers::ui(c, ui, out)),
            Pane::Breakpoints => panel(ui, |ui| v.breakpoints.ui(c, ui, out)),
        }
        egui_tiles::UiResponse::None
    }

    fn tab_title_for_pane(&mut self, pane: &Pane) -> egui::WidgetText {
        pane.title().into()
    }

    fn simplification_options(&self) -> egui_tiles::SimplificationOptions {
        egui_tiles::SimplificationOptions {
            all_panes_must_have_tabs: true,
            ..Default::default()
        }
    }
}

impl eframe::App for EditorApp {
    /// The map's background: the map pane draws no fill of its own (on
    /// software OpenGL a full-canvas layer costs milliseconds a frame).
    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        Palette::of(self.theme).canvas.to_normalized_gamma_f32()
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let started = self.clock.begin();
        let ctx = ui.ctx().clone();
        if std::mem::take(&mut self.layout_fresh)
            && ctx.content_rect().width() < dock::COMPACT_BELOW
        {
            self.tree = dock::compact_tree();
        }
        if self.applied_theme != Some(self.theme) {
            crate::theme::apply(&ctx, self.theme);
            self.applied_theme = Some(self.theme);
        }
        self.model
            .doc
            .set_gesture(ctx.input(|i| i.pointer.any_down()));
        let mut out = Out::default();
        if self.views.dialogs.dialog.is_none() {
            let canvas = &mut self.views.canvas;
            let map = shortcuts::MapState {
                space_panned: canvas.space.1,
                busy: canvas.gesture.is_busy(),
                letters: canvas.has_keys(&ctx),
            };
            let cancel = shortcuts::keys(&ctx, &self.model, map, &mut out);
            if cancel {
                canvas.gesture.cancel();
            }
        }
        if self.model.poll_validation() {
            ctx.request_repaint_after(Duration::from_millis(50));
        } else if self.model.validation.watches_scripts() {
            // A script saved on disk is checked again without input.
            ctx.request_repaint_after(Duration::from_millis(500));
        }
        if self.model.poll_what_if() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        if !self.closing {
            self.model.autosave();
        }
        if let Some(due) = self.model.autosave_due() {
            // Wake up for the next autosave even if nobody touches the
            // editor (eframe draws only when asked).
            ctx.request_repaint_after(due.saturating_duration_since(Instant::now()));
        }
        if ctx.input(|i| i.viewport().close_requested()) {
            self.leave_what_if();
        }
        if ctx.input(|i| i.viewport().close_requested()) {
            if self.model.doc.is_dirty() && !self.allow_close {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                self.views.dialogs.ask(Dialog::ConfirmClose);
            } else {
                // A clean quit (nothing unsaved, or the changes discarded):
                // nothing is left to recover.
                self.model.drop_recovery();
                self.closing = true;
            }
        }
        let title = self.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        let dt = ctx.input(|i| i.stable_dt).min(0.25);
        let was_playing = self.model.sim.as_ref().is_some_and(|s| s.playing);
        if self.model.advance(dt, crate::model::sim::FRAME_BUDGET) {
            ctx.request_repaint();
        }
        if was_playing && self.stopped_at_a_hit() {
            // A breakpoint stopped the run: the Why tab says why.
            dock::focus(&mut self.tree, Pane::Why);
        }
        self.show_new_script_errors();
        self.poll_opener();
        self.model.prepare();
        self.draw(ui, &mut out);
        self.apply(&ctx, out);
        if let Some((_, at)) = &self.model.status {
            let left = Duration::from_secs(6).saturating_sub(at.elapsed());
            if !left.is_zero() {
                ctx.request_repaint_after(left);
            }
        }
        self.clock.end(&ctx, started);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, dock::LAYOUT_KEY, &self.tree);
        eframe::set_value(storage, "snap", &self.model.tools.snap);
        eframe::set_value(storage, "theme", &self.theme);
        eframe::set_value(storage, "recent", &self.model.recent);
    }
}
