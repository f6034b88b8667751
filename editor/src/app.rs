//! The editor application: state, panels, menus, shortcuts, files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers};
use kiai_content::def::ContentDef;

use crate::analysis::{self, Finding, PathPreview, Sight};
use crate::canvas::{self, View};
use crate::doc::{Document, Edit, Sel};
use crate::{live, panels};

/// What a fog texture shows: (tick, overlay faction choice).
pub type FogKey = (u64, Option<Option<u8>>);

/// Decision shares per situation and state (see
/// [`analysis::decision_shares`]).
pub type Shares = [[f32; 3]; 3];

/// How often unsaved changes are written to the recovery file.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(60);

/// The canvas tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Tool {
    /// Select, move, box-select, drag handles.
    Select,
    /// Click to place a waypoint.
    Waypoint,
    /// Click (or drag) from one waypoint to another to link or unlink them.
    Link,
    /// Paint the current cost list's multiplier onto links under the brush.
    Paint,
    /// Click two points to draw a wall.
    Wall,
    /// Click corners of a PVS region; Enter or double-click closes it.
    Region,
    /// Click to place an agent.
    Agent,
    /// Pick two waypoints to preview the route between them.
    Path,
}

impl Tool {
    /// Every tool, in tool-bar order.
    pub const ALL: [Tool; 8] = [
        Tool::Select,
        Tool::Waypoint,
        Tool::Link,
        Tool::Paint,
        Tool::Wall,
        Tool::Region,
        Tool::Agent,
        Tool::Path,
    ];

    /// The tool-bar label.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Waypoint => "Waypoint",
            Tool::Link => "Link",
            Tool::Paint => "Paint cost",
            Tool::Wall => "Wall",
            Tool::Region => "Region",
            Tool::Agent => "Agent",
            Tool::Path => "Path",
        }
    }

    /// The key that picks the tool.
    pub fn key(self) -> Key {
        match self {
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

    /// What the tool does, for its tooltip and the status bar.
    pub fn help(self) -> &'static str {
        match self {
            Tool::Select => {
                "Click to select, Shift+click to add, drag empty space to box-select; drag waypoints, agents, wall ends, region corners and sense handles"
            }
            Tool::Waypoint => "Click to place a waypoint (snaps to the grid when snapping is on)",
            Tool::Link => {
                "Click or drag from a waypoint to another: links them (two-way per the tool bar); again on a linked pair unlinks"
            }
            Tool::Paint => {
                "Drag over links to set their multiplier in the current cost list; Shift+drag resets to 1"
            }
            Tool::Wall => "Click the two ends of a wall",
            Tool::Region => {
                "Click the corners of a region; Enter or double-click closes it, Esc cancels"
            }
            Tool::Agent => "Click to place an agent of the tool bar's archetype and faction",
            Tool::Path => {
                "Click the start waypoint, then the goal: A* and the seed-001 greedy walk"
            }
        }
    }
}

/// A panel of the dock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Pane {
    /// The top-down map.
    Canvas,
    /// Properties of the selection.
    Inspector,
    /// Every object by collection.
    Outliner,
    /// Diagnostics of kiai-content.
    Validation,
    /// Behaviour profiles and their decision chart.
    Profiles,
    /// Cost lists: create, rename, delete, pick the painted one.
    CostLists,
    /// Why the selected agent did what it did (live).
    Why,
    /// Lua console (live).
    Console,
    /// Per-stage timings (live).
    Timings,
    /// Side elevation: heights.
    Elevation,
}

impl Pane {
    fn title(self) -> &'static str {
        match self {
            Pane::Canvas => "Map",
            Pane::Inspector => "Inspector",
            Pane::Outliner => "Outliner",
            Pane::Validation => "Validation",
            Pane::Profiles => "Profiles",
            Pane::CostLists => "Cost lists",
            Pane::Why => "Why",
            Pane::Console => "Console",
            Pane::Timings => "Timings",
            Pane::Elevation => "Elevation",
        }
    }
}

/// A modal question on screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    /// Unsaved changes and the window is closing.
    ConfirmClose,
    /// Unsaved changes and another file is about to be opened.
    ConfirmOpen(PathBuf),
    /// A recovery file newer than the document was found at start.
    Recover(PathBuf),
    /// The editor's own file prompt, used when the system has no file
    /// dialog (on Linux, rfd needs an xdg-desktop-portal): the path typed
    /// so far and what it is for.
    Path(PathFor, String),
}

/// What a file asked for is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathFor {
    /// Open content (`.ron`).
    Open,
    /// Save the document under a new name.
    SaveAs,
    /// Export the runtime pack (`.kiaipack`).
    ExportAs,
    /// Save the recorded run (`.kiairec`).
    SaveRecording,
    /// Open a recorded run.
    OpenRecording,
    /// Open a `kiai run --trace` file (`.jsonl`).
    OpenTrace,
}

impl PathFor {
    /// Prompt title, file-type label and extension.
    fn describe(self) -> (&'static str, &'static str, &'static str) {
        match self {
            PathFor::Open => ("Open", "kiai content", "ron"),
            PathFor::SaveAs => ("Save as", "kiai content", "ron"),
            PathFor::ExportAs => ("Export pack as", "kiai pack", "kiaipack"),
            PathFor::SaveRecording => ("Save recording as", "kiai recording", "kiairec"),
            PathFor::OpenRecording => ("Open recording", "kiai recording", "kiairec"),
            PathFor::OpenTrace => ("Open trace", "kiai trace", "jsonl"),
        }
    }

    fn saves(self) -> bool {
        matches!(
            self,
            PathFor::SaveAs | PathFor::ExportAs | PathFor::SaveRecording
        )
    }
}

/// A system file dialog that returns nothing faster than this was not
/// shown (nobody cancels a dialog that fast): the editor then uses its own
/// prompt.
const NO_DIALOG: std::time::Duration = std::time::Duration::from_millis(250);

/// Editor state other than the dock layout.
pub struct State {
    /// The open document.
    pub doc: Document,
    /// The active canvas tool.
    pub tool: Tool,
    /// Selected objects.
    pub selection: BTreeSet<Sel>,
    /// Canvas view and in-progress gestures.
    pub view: View,
    /// Index into the cost-list names of the list painted and previewed.
    pub cost_list: usize,
    /// Multiplier the paint tool writes, >= 0.
    pub brush_value: f32,
    /// Brush radius in screen points.
    pub brush_radius: f32,
    /// Links made by the link tool and auto-connect are two-way.
    pub two_way: bool,
    /// Auto-connect range, world units.
    pub connect_range: f32,
    /// Snap placed and dragged points to the grid.
    pub snap: bool,
    /// Grid spacing, world units.
    pub grid_step: f32,
    /// Colour links by the current list's multiplier.
    pub heat_map: bool,
    /// Show what the selected agent senses.
    pub show_sight: bool,
    /// Archetype name the agent tool places.
    pub place_archetype: String,
    /// Faction name the agent tool places.
    pub place_faction: String,
    /// Waypoint ids picked by the path tool: start, goal.
    pub path_pick: (Option<u32>, Option<u32>),
    /// Cached route preview for (revision, pick, list).
    pub path: Option<((u64, u32, u32, String), PathPreview)>,
    /// Cached sight of the selected agent, by (revision, agent).
    pub sight: Option<((u64, usize), Sight)>,
    occluders: Option<(u64, Option<kiai_core::Occluders>)>,
    /// Latest diagnostics and the revision they describe.
    pub findings: (u64, Vec<Finding>),
    validation_rx: Option<mpsc::Receiver<(u64, Vec<Finding>)>>,
    validation_wanted: u64,
    /// The profile shown in the profile panel (index into `profiles`).
    pub profile: usize,
    /// Cached decision shares by (revision, profile).
    pub shares: Option<((u64, usize), Shares)>,
    /// Message in the status bar and when it was set.
    pub status: Option<(String, Instant)>,
    /// A modal question.
    pub dialog: Option<Dialog>,
    /// Close was confirmed: let the window close.
    pub allow_close: bool,
    /// Whether to try the system's file dialogs (false once one failed to
    /// appear, or for tests): otherwise the editor's own prompt asks.
    pub system_dialogs: bool,
    last_autosave: Instant,
    /// How often unsaved changes go to the recovery file.
    pub autosave_every: Duration,
    /// Frame-time readout: smoothed time of the app's own update (ms) and
    /// the smoothed interval between frames (ms).
    pub frame_ms: (f32, f32),
    /// Text of the rename field of the cost-list panel.
    pub rename: String,
    title: String,
    /// The live simulation, once played or stepped.
    pub sim: Option<crate::sim::Sim>,
    /// Why the simulation could not be built.
    pub sim_error: Option<String>,
    /// Seed of the next reset.
    pub live_seed: u64,
    /// Live overlays.
    pub overlays: crate::live::Overlays,
    /// A `kiai run --trace` file opened for comparison.
    pub trace_file: Option<std::collections::BTreeMap<(u64, String), crate::sim::TraceLine>>,
    /// The Lua console's REPL line.
    pub repl: String,
    /// The fog-of-war texture and what it shows (tick, faction).
    pub fog_texture: Option<(FogKey, egui::TextureHandle)>,
}

impl State {
    fn new(doc: Document) -> Self {
        let def = doc.def();
        let place_archetype = def
            .archetypes
            .0
            .first()
            .map(|(n, _)| n.clone())
            .unwrap_or_default();
        let place_faction = def
            .factions
            .first()
            .map(|f| f.name.clone())
            .unwrap_or_default();
        let view = View::fit(def);
        let live_seed = def.seed;
        Self {
            doc,
            tool: Tool::Select,
            selection: BTreeSet::new(),
            view,
            cost_list: 0,
            brush_value: 3.0,
            brush_radius: 24.0,
            two_way: true,
            connect_range: 12.0,
            snap: false,
            grid_step: 1.0,
            heat_map: true,
            show_sight: true,
            place_archetype,
            place_faction,
            path_pick: (None, None),
            path: None,
            sight: None,
            occluders: None,
            findings: (0, Vec::new()),
            validation_rx: None,
            validation_wanted: 0,
            profile: 0,
            shares: None,
            status: None,
            dialog: None,
            allow_close: false,
            system_dialogs: true,
            last_autosave: Instant::now(),
            autosave_every: AUTOSAVE_INTERVAL,
            frame_ms: (0.0, 0.0),
            rename: String::new(),
            title: String::new(),
            sim: None,
            sim_error: None,
            live_seed,
            overlays: Default::default(),
            trace_file: None,
            repl: String::new(),
            fog_texture: None,
        }
    }

    /// The name of the cost list being painted and previewed.
    pub fn current_list(&self) -> String {
        let names = self.doc.cost_list_names();
        names
            .get(self.cost_list)
            .or(names.first())
            .cloned()
            .unwrap_or_default()
    }

    /// Applies an edit as one undo step and reports failures in the status
    /// bar.
    pub fn edit(&mut self, edit: Edit) {
        let structural = edit.is_structural();
        if let Err(e) = self.doc.apply(edit) {
            self.say(format!("edit refused: {e}"));
        }
        if structural {
            self.prune_selection();
        }
    }

    /// Shows `message` in the status bar for a few seconds.
    pub fn say(&mut self, message: impl Into<String>) {
        self.status = Some((message.into(), Instant::now()));
    }

    /// Drops selected objects that no longer exist.
    pub fn prune_selection(&mut self) {
        let def = self.doc.def();
        self.selection.retain(|s| s.exists(def));
    }

    /// Undoes one step.
    pub fn undo(&mut self) {
        if self.doc.undo() {
            self.prune_selection();
            self.say("undone");
        }
    }

    /// Redoes one step.
    pub fn redo(&mut self) {
        if self.doc.redo() {
            self.prune_selection();
            self.say("redone");
        }
    }

    /// The single selected agent, if exactly one agent is selected.
    pub fn selected_agent(&self) -> Option<usize> {
        let mut agents = self.selection.iter().filter_map(|s| match s {
            Sel::Agent(i) => Some(*i),
            _ => None,
        });
        let first = agents.next();
        if agents.next().is_some() { None } else { first }
    }

    /// Selected waypoint indices.
    pub fn selected_waypoints(&self) -> Vec<usize> {
        self.selection
            .iter()
            .filter_map(|s| match s {
                Sel::Waypoint(i) => Some(*i),
                _ => None,
            })
            .collect()
    }

    /// The walls and regions of the document as the runtime builds them,
    /// cached per revision.
    pub fn occluders(&mut self) -> Option<&kiai_core::Occluders> {
        let revision = self.doc.revision();
        if self.occluders.as_ref().is_none_or(|(r, _)| *r != revision) {
            let def = self.doc.def();
            let cached = self.occluders.take().and_then(|(_, o)| o);
            // Rebuilding walls is cheap but the sample-ray PVS is not: keep
            // the old set while walls and regions are unchanged.
            let o = match cached {
                Some(o) if same_occluders(&o, def) => Some(o),
                _ => kiai_content::occluders(def, def.seed),
            };
            self.occluders = Some((revision, o));
        }
        self.occluders.as_ref().and_then(|(_, o)| o.as_ref())
    }

    /// Runs `f` on the content and its occluders (cached per revision).
    pub fn with_occluders<R>(
        &mut self,
        f: impl FnOnce(&ContentDef, Option<&kiai_core::Occluders>) -> R,
    ) -> R {
        self.occluders();
        let occluders = self.occluders.as_ref().and_then(|(_, o)| o.as_ref());
        f(self.doc.def(), occluders)
    }

    /// What the selected agent senses, cached per revision.
    pub fn sight(&mut self) -> Option<&Sight> {
        let agent = self.selected_agent()?;
        let key = (self.doc.revision(), agent);
        if self.sight.as_ref().is_none_or(|(k, _)| *k != key) {
            let tile = self
                .doc
                .def()
                .fog
                .as_ref()
                .map_or(1.0, |f| f.tile_size.max(0.05));
            self.occluders();
            let occluders = self.occluders.as_ref().and_then(|(_, o)| o.as_ref());
            let sight = analysis::sight(self.doc.def(), agent, occluders, tile);
            self.sight = Some((key, sight));
        }
        self.sight.as_ref().map(|(_, s)| s)
    }

    /// The route preview between the two picked waypoints, cached.
    pub fn path_preview(&mut self) -> Option<&PathPreview> {
        let (Some(a), Some(b)) = self.path_pick else {
            return None;
        };
        let key = (self.doc.revision(), a, b, self.current_list());
        if self.path.as_ref().is_none_or(|(k, _)| *k != key) {
            let p = analysis::path_preview(self.doc.def(), a, b, &key.3);
            self.path = Some((key, p));
        }
        self.path.as_ref().map(|(_, p)| p)
    }

    /// Starts a background check of the document when it changed and no
    /// check is running; collects a finished one.
    fn poll_validation(&mut self, ctx: &egui::Context) {
        if let Some(rx) = &self.validation_rx {
            match rx.try_recv() {
                Ok(result) => {
                    self.findings = result;
                    self.validation_rx = None;
                }
                Err(mpsc::TryRecvError::Empty) => {
                    ctx.request_repaint_after(Duration::from_millis(50));
                    return;
                }
                Err(mpsc::TryRecvError::Disconnected) => self.validation_rx = None,
            }
        }
        let revision = self.doc.revision();
        if self.findings.0 == revision || self.validation_wanted == revision {
            return;
        }
        self.validation_wanted = revision;
        let def = self.doc.def().clone();
        let file = self.file_name();
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("kiai-validate".into())
            .spawn(move || {
                let findings = analysis::check_def(&def, &file);
                let _ = tx.send((revision, findings));
            });
        if spawned.is_ok() {
            self.validation_rx = Some(rx);
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    /// Waits for the document's diagnostics to be current (tests and
    /// export use it).
    pub fn validate_now(&mut self) -> &[Finding] {
        let revision = self.doc.revision();
        if self.findings.0 != revision {
            self.findings = (
                revision,
                analysis::check_def(self.doc.def(), &self.file_name()),
            );
            self.validation_rx = None;
        }
        &self.findings.1
    }

    /// The document's file name for diagnostics (`untitled.ron` before the
    /// first save).
    pub fn file_name(&self) -> String {
        self.doc
            .path()
            .map_or_else(|| "untitled.ron".to_owned(), |p| p.display().to_string())
    }

    /// Saves to the document's path, or asks for one. Returns whether the
    /// content was written.
    pub fn save(&mut self) -> bool {
        match self.doc.path().map(Path::to_path_buf) {
            Some(path) => self.save_to(&path),
            None => self.save_as(),
        }
    }

    /// Asks for a path and saves there. False when nothing was saved (yet:
    /// the editor's own prompt saves when it is confirmed).
    pub fn save_as(&mut self) -> bool {
        let name = self.doc.path().and_then(Path::file_name).map_or_else(
            || "level.ron".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        );
        match self.ask_path(PathFor::SaveAs, &name) {
            Some(path) => self.save_to(&path),
            None => false,
        }
    }

    /// This state, asking for files as `other` does (a new document keeps
    /// the editor's own prompt once the system's dialog was found missing).
    fn with_dialogs_of(mut self, other: &State) -> Self {
        self.system_dialogs = other.system_dialogs;
        self
    }

    /// Asks for a file: the system's dialog when there is one (its answer
    /// is returned), else the editor's own prompt, which runs the action
    /// when confirmed ([`State::path_chosen`]); `name` is the suggested
    /// file name.
    pub fn ask_path(&mut self, what: PathFor, name: &str) -> Option<PathBuf> {
        if self.system_dialogs {
            let (_, label, ext) = what.describe();
            let dialog = rfd::FileDialog::new().add_filter(label, &[ext]);
            let started = Instant::now();
            let picked = if what.saves() {
                dialog.set_file_name(name).save_file()
            } else {
                dialog.pick_file()
            };
            if picked.is_some() || started.elapsed() >= NO_DIALOG {
                return picked;
            }
            self.system_dialogs = false;
            self.say("no system file dialog here (it needs xdg-desktop-portal): type the path");
        }
        let dir = self
            .doc
            .path()
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let text = if what.saves() {
            dir.join(name)
        } else {
            dir.join("")
        };
        self.dialog = Some(Dialog::Path(what, text.display().to_string()));
        None
    }

    /// Runs what `what` asked a path for.
    pub fn path_chosen(&mut self, what: PathFor, path: &Path) {
        match what {
            PathFor::Open => {
                if self.doc.is_dirty() {
                    self.dialog = Some(Dialog::ConfirmOpen(path.to_path_buf()));
                } else {
                    open_now(self, path);
                }
            }
            PathFor::SaveAs => {
                self.save_to(path);
            }
            PathFor::ExportAs => self.export_report(path),
            PathFor::SaveRecording => save_recording_to(self, path),
            PathFor::OpenRecording => {
                if let Err(e) = open_recording(self, path) {
                    self.say(e);
                }
            }
            PathFor::OpenTrace => open_trace(self, path),
        }
    }

    /// Saves atomically to `path` (the previous file becomes `path.bak`),
    /// makes it the document's path and removes the recovery file. The
    /// file's text is kept but for what changed (comments, layout, fields
    /// left out); "save as" keeps the text of the file the document came
    /// from, and an untitled document is written in the readable layout.
    pub fn save_to(&mut self, path: &Path) -> bool {
        let base = match self.doc.path() {
            Some(own) if own == path => None,
            Some(source) => Some(std::fs::read_to_string(source).unwrap_or_default()),
            None => Some(String::new()),
        };
        match kiai_content::save_preserving(path, base.as_deref(), self.doc.def()) {
            Ok(_) => {
                let old_recovery = recovery_path(self.doc.path());
                self.doc.set_path(path.to_path_buf());
                self.doc.mark_saved();
                let _ = std::fs::remove_file(old_recovery);
                let _ = std::fs::remove_file(recovery_path(Some(path)));
                self.say(format!("saved {}", path.display()));
                true
            }
            Err(e) => {
                self.say(format!(
                    "cannot save {}: {e} (the previous file is untouched)",
                    path.display()
                ));
                false
            }
        }
    }

    /// Exports the runtime pack to `path`. Content with errors is refused
    /// with the first error.
    pub fn export_to(&mut self, path: &Path) -> Result<usize, String> {
        let text = kiai_content::to_ron(self.doc.def()).map_err(|e| e.to_string())?;
        let content = kiai_content::Content::from_str(&text, &self.file_name()).map_err(|d| {
            let first = d.0.iter().find(|d| d.is_error()).map(ToString::to_string);
            format!(
                "the content has errors; fix them first: {}",
                first.unwrap_or_default()
            )
        })?;
        let pack = content.to_pack().map_err(|e| e.to_string())?;
        let bytes = pack.encode().map_err(|e| e.to_string())?;
        kiai_content::write_atomic(path, &bytes, false)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(bytes.len())
    }

    /// Where "export" writes the pack: next to the document, `level.ron`
    /// → `level.kiaipack`.
    pub fn pack_path(&self) -> Option<PathBuf> {
        self.doc.path().map(|p| p.with_extension("kiaipack"))
    }

    /// Exports next to the document (asks for a path when it is untitled).
    pub fn export(&mut self) {
        match self.pack_path() {
            Some(path) => self.export_report(&path),
            None => self.export_as(),
        }
    }

    /// Asks for a path and exports the pack there.
    pub fn export_as(&mut self) {
        let stem = self
            .doc
            .path()
            .and_then(|p| p.file_stem())
            .map_or_else(|| "level".to_owned(), |s| s.to_string_lossy().into_owned());
        if let Some(path) = self.ask_path(PathFor::ExportAs, &format!("{stem}.kiaipack")) {
            self.export_report(&path);
        }
    }

    fn export_report(&mut self, path: &Path) {
        match self.export_to(path) {
            Ok(bytes) => self.say(format!("exported {} ({bytes} bytes)", path.display())),
            Err(e) => self.say(e),
        }
    }

    fn autosave(&mut self) {
        if self.last_autosave.elapsed() >= self.autosave_every {
            self.autosave_now();
        }
    }

    /// Writes unsaved changes to the recovery file now (the editor does it
    /// every [`AUTOSAVE_INTERVAL`]).
    pub fn autosave_now(&mut self) {
        self.last_autosave = Instant::now();
        if !self.doc.is_dirty() {
            return;
        }
        let path = recovery_path(self.doc.path());
        let result = kiai_content::to_ron(self.doc.def())
            .map_err(std::io::Error::other)
            .and_then(|text| {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                kiai_content::write_atomic(&path, text.as_bytes(), false)
            });
        match result {
            Ok(()) => self.say(format!("autosaved to {}", path.display())),
            Err(e) => self.say(format!("autosave failed: {e}")),
        }
    }
}

fn same_occluders(o: &kiai_core::Occluders, def: &ContentDef) -> bool {
    o.walls.walls().len() == def.walls.len()
        && o.walls.walls().iter().zip(&def.walls).all(|(w, d)| {
            w.from.x == d.from.0
                && w.from.y == d.from.1
                && w.to.x == d.to.0
                && w.to.y == d.to.1
                && w.height == d.height
        })
        && o.pvs.as_ref().map_or(0, |p| p.regions().len()) == def.regions.len()
        && o.pvs.as_ref().is_none_or(|p| {
            p.regions().iter().zip(&def.regions).all(|(r, d)| {
                r.polygon.len() == d.polygon.len()
                    && r.polygon
                        .iter()
                        .zip(&d.polygon)
                        .all(|(a, b)| a.x == b.0 && a.y == b.1)
            })
        })
        && def.regions.iter().all(|r| r.sees.is_none())
}

/// Where unsaved changes of the document at `path` are autosaved:
/// `level.ron` → `level.ron.recovery`; an untitled document's go to the
/// editor's data directory.
pub fn recovery_path(path: Option<&Path>) -> PathBuf {
    match path {
        Some(p) => {
            let mut name = p.as_os_str().to_owned();
            name.push(".recovery");
            PathBuf::from(name)
        }
        None => eframe::storage_dir("kiai-editor")
            .unwrap_or_else(std::env::temp_dir)
            .join("untitled.ron.recovery"),
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The kiai editor, an [`eframe::App`].
pub struct EditorApp {
    /// Everything but the layout.
    pub state: State,
    tree: egui_tiles::Tree<Pane>,
    frames_left: Option<(u32, Vec<f32>, Vec<f32>)>,
    last_frame: Option<Instant>,
    screenshot: bool,
}

/// How the editor starts.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The content file to open (none: an untitled document).
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
}

fn default_tree() -> egui_tiles::Tree<Pane> {
    let mut tiles = egui_tiles::Tiles::default();
    let outliner = tiles.insert_pane(Pane::Outliner);
    let canvas = tiles.insert_pane(Pane::Canvas);
    let validation = tiles.insert_pane(Pane::Validation);
    let inspector = tiles.insert_pane(Pane::Inspector);
    let profiles = tiles.insert_pane(Pane::Profiles);
    let costs = tiles.insert_pane(Pane::CostLists);
    let why = tiles.insert_pane(Pane::Why);
    let console = tiles.insert_pane(Pane::Console);
    let timings = tiles.insert_pane(Pane::Timings);
    let elevation = tiles.insert_pane(Pane::Elevation);
    let right = tiles.insert_tab_tile(vec![inspector, why, profiles, costs]);
    let bottom = tiles.insert_tab_tile(vec![validation, console, timings, elevation]);
    let middle = tiles.insert_vertical_tile(vec![canvas, bottom]);
    if let Some(egui_tiles::Tile::Container(egui_tiles::Container::Linear(lin))) =
        tiles.get_mut(middle)
    {
        lin.shares.set_share(canvas, 3.0);
        lin.shares.set_share(bottom, 1.0);
    }
    let root = tiles.insert_horizontal_tile(vec![outliner, middle, right]);
    if let Some(egui_tiles::Tile::Container(egui_tiles::Container::Linear(lin))) =
        tiles.get_mut(root)
    {
        lin.shares.set_share(outliner, 1.0);
        lin.shares.set_share(middle, 4.0);
        lin.shares.set_share(right, 1.6);
    }
    egui_tiles::Tree::new(egui::Id::unique("kiai-editor-dock"), root, tiles)
}

/// Opens `path`: content that parses opens even with validation errors
/// (they are listed); content that does not parse opens an untitled empty
/// document and lists why.
pub fn open_document(path: &Path) -> (Document, Vec<Finding>) {
    let file = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A new file: start empty, save creates it.
            return (
                Document::new(crate::doc::empty_def(), Some(path.into())),
                Vec::new(),
            );
        }
        Err(e) => {
            let d = kiai_content::Diagnostic::error(
                &file,
                kiai_content::Pos { line: 1, column: 1 },
                format!("cannot read the file: {e}"),
            );
            return (
                Document::untitled(),
                vec![Finding {
                    diagnostic: d,
                    target: None,
                }],
            );
        }
    };
    let findings = analysis::check_text(&text, &file);
    match kiai_content::parse(&text, &file) {
        Ok(def) => (Document::new(def, Some(path.into())), findings),
        Err(_) => (Document::untitled(), findings),
    }
}

impl EditorApp {
    /// The editor on `options.file`, restoring the remembered layout from
    /// `storage` when there is one.
    pub fn new(options: Options, storage: Option<&dyn eframe::Storage>) -> Self {
        let (doc, findings) = match &options.file {
            Some(path) => open_document(path),
            None => (Document::untitled(), Vec::new()),
        };
        let revision = doc.revision();
        let mut state = State::new(doc);
        if !findings.is_empty() {
            state.findings = (revision, findings);
            state.validation_wanted = revision;
        }
        let recovery = recovery_path(state.doc.path());
        if recovery.exists() {
            let newer = match state.doc.path().and_then(modified) {
                Some(saved) => modified(&recovery).is_some_and(|r| r > saved),
                None => true,
            };
            if newer {
                state.dialog = Some(Dialog::Recover(recovery));
            }
        }
        if options.play {
            live::toggle_play(&mut state);
        }
        let tree = (!options.reset_layout)
            .then(|| storage.and_then(|s| eframe::get_value::<egui_tiles::Tree<Pane>>(s, "layout")))
            .flatten()
            .filter(|t| t.tiles.tiles().count() > 0)
            .unwrap_or_else(default_tree);
        if let Some(s) = storage
            && let Some(snap) = eframe::get_value::<bool>(s, "snap")
        {
            state.snap = snap;
        }
        Self {
            state,
            tree,
            frames_left: options.measure_frames.map(|n| (n, Vec::new(), Vec::new())),
            last_frame: None,
            screenshot: options.screenshot,
        }
    }

    /// The open document.
    pub fn doc(&self) -> &Document {
        &self.state.doc
    }

    /// Where a world point `(x, z)` was drawn on screen in the last frame.
    pub fn world_to_screen(&self, x: f32, z: f32) -> egui::Pos2 {
        self.state.view.world_to_screen(x, z)
    }

    /// Resets the dock layout to the default.
    pub fn reset_layout(&mut self) {
        self.tree = default_tree();
    }

    fn title(&self) -> String {
        let name = self
            .state
            .doc
            .path()
            .and_then(|p| p.file_name())
            .map_or_else(
                || "untitled".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            );
        let dirty = if self.state.doc.is_dirty() { "*" } else { "" };
        format!("{name}{dirty} — kiai editor")
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let s = &mut self.state;
        // A modal question takes the keys (Escape, Enter, typed paths).
        if s.dialog.is_some() {
            return;
        }
        let cmd = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
        let cmd_shift = |key| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, key);
        let pressed = |sc: KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(&sc));
        if pressed(cmd_shift(Key::Z)) || pressed(cmd(Key::Y)) {
            s.redo();
        }
        if pressed(cmd(Key::Z)) {
            s.undo();
        }
        if pressed(cmd_shift(Key::S)) {
            s.save_as();
        }
        if pressed(cmd(Key::S)) {
            s.save();
        }
        if pressed(cmd(Key::O)) {
            open_dialog(s);
        }
        if pressed(cmd(Key::E)) {
            s.export();
        }
        if pressed(cmd(Key::N)) {
            *s = State::new(Document::untitled()).with_dialogs_of(s);
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        if pressed(cmd(Key::A)) {
            s.selection = (0..s.doc.def().waypoints.len())
                .map(Sel::Waypoint)
                .collect();
        }
        let plain = |key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key));
        for tool in Tool::ALL {
            if plain(tool.key()) {
                s.tool = tool;
                s.view.cancel();
            }
        }
        if plain(Key::Space) {
            live::toggle_play(s);
        }
        if plain(Key::Period) {
            live::step_once(s);
        }
        if pressed(cmd(Key::R)) {
            live::reset(s);
        }
        if plain(Key::G) {
            s.snap = !s.snap;
            s.say(if s.snap {
                "snapping on"
            } else {
                "snapping off"
            });
        }
        if plain(Key::F) {
            s.view.request_fit();
        }
        if plain(Key::T) {
            panels::toggle_active(s);
        }
        if plain(Key::J) {
            panels::auto_connect(s);
        }
        if plain(Key::M) {
            s.heat_map = !s.heat_map;
        }
        if plain(Key::Delete) || plain(Key::Backspace) {
            panels::delete_selection(s);
        }
        if plain(Key::Escape) {
            if s.view.is_busy() {
                s.view.cancel();
            } else {
                s.selection.clear();
            }
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let s = &mut self.state;
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui
                    .add(egui::Button::new("New").shortcut_text("Ctrl+N"))
                    .clicked()
                {
                    *s = State::new(Document::untitled()).with_dialogs_of(s);
                }
                if ui
                    .add(egui::Button::new("Open...").shortcut_text("Ctrl+O"))
                    .clicked()
                {
                    open_dialog(s);
                }
                if ui
                    .add(egui::Button::new("Save").shortcut_text("Ctrl+S"))
                    .clicked()
                {
                    s.save();
                }
                if ui
                    .add(egui::Button::new("Save as...").shortcut_text("Ctrl+Shift+S"))
                    .clicked()
                {
                    s.save_as();
                }
                let export = match s.pack_path() {
                    Some(p) => format!(
                        "Export {}",
                        p.file_name()
                            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                    ),
                    None => "Export pack...".to_owned(),
                };
                if ui
                    .add(egui::Button::new(export).shortcut_text("Ctrl+E"))
                    .on_hover_text("The validated runtime pack, next to the content file")
                    .clicked()
                {
                    s.export();
                }
                if ui.button("Export pack as...").clicked() {
                    s.export_as();
                }
                ui.separator();
                if ui.button("Save recording...").clicked() {
                    save_recording_dialog(s);
                }
                if ui.button("Open recording...").clicked() {
                    open_recording_dialog(s);
                }
                if ui.button("Open trace (kiai run --trace)...").clicked() {
                    open_trace_dialog(s);
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Edit", |ui| {
                let undo = egui::Button::new(format!("Undo ({})", s.doc.undo_len()))
                    .shortcut_text("Ctrl+Z");
                if ui.add_enabled(s.doc.undo_len() > 0, undo).clicked() {
                    s.undo();
                }
                let redo = egui::Button::new(format!("Redo ({})", s.doc.redo_len()))
                    .shortcut_text("Ctrl+Shift+Z");
                if ui.add_enabled(s.doc.redo_len() > 0, redo).clicked() {
                    s.redo();
                }
                ui.separator();
                if ui
                    .add(egui::Button::new("Delete selection").shortcut_text("Del"))
                    .clicked()
                {
                    panels::delete_selection(s);
                }
                if ui
                    .add(egui::Button::new("Select all waypoints").shortcut_text("Ctrl+A"))
                    .clicked()
                {
                    s.selection = (0..s.doc.def().waypoints.len())
                        .map(Sel::Waypoint)
                        .collect();
                }
                if ui
                    .add(egui::Button::new("Toggle active").shortcut_text("T"))
                    .clicked()
                {
                    panels::toggle_active(s);
                }
                if ui
                    .add(egui::Button::new("Auto-connect").shortcut_text("J"))
                    .clicked()
                {
                    panels::auto_connect(s);
                }
                if ui.button("Compute PVS").clicked() {
                    panels::compute_pvs(s);
                }
            });
            let mut reset = false;
            ui.menu_button("View", |ui| {
                if ui
                    .add(egui::Button::new("Fit map").shortcut_text("F"))
                    .clicked()
                {
                    s.view.request_fit();
                }
                ui.checkbox(&mut s.heat_map, "Cost heat map (M)");
                ui.checkbox(&mut s.show_sight, "What the selected agent senses");
                ui.checkbox(&mut s.snap, "Snap to grid (G)");
                if ui.button("Reset layout").clicked() {
                    reset = true;
                }
                ui.separator();
                ui.label("Live overlays");
                live::overlay_menu(s, ui);
            });
            if reset {
                self.tree = default_tree();
            }
        });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        let screenshot = self.screenshot;
        let s = &mut self.state;
        ui.horizontal(|ui| {
            let def = s.doc.def();
            ui.label(format!(
                "{} waypoints · {} links · {} agents",
                def.waypoints.len(),
                def.links.len(),
                def.agents.len()
            ));
            ui.separator();
            if let Some((x, z)) = s.view.cursor_world() {
                ui.label(format!("x {x:.2}  z {z:.2}"));
                ui.separator();
            }
            let errors = s
                .findings
                .1
                .iter()
                .filter(|f| f.diagnostic.is_error())
                .count();
            let warnings = s.findings.1.len() - errors;
            ui.label(format!("{errors} errors, {warnings} warnings"));
            ui.separator();
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let readout = if screenshot {
                    "frame - ms | update - ms".to_owned()
                } else {
                    format!(
                        "frame {:.1} ms | update {:.1} ms",
                        s.frame_ms.1, s.frame_ms.0
                    )
                };
                ui.label(readout).on_hover_text(
                    "Interval between frames and the editor's own update time, smoothed",
                );
                ui.separator();
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    if let Some((message, at)) = &s.status
                        && at.elapsed() < Duration::from_secs(6)
                    {
                        ui.add(egui::Label::new(message.clone()).truncate());
                    } else {
                        ui.add(
                            egui::Label::new(egui::RichText::new(s.tool.help()).weak()).truncate(),
                        );
                    }
                });
            });
        });
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.state.dialog.clone() else {
            return;
        };
        let s = &mut self.state;
        egui::Modal::new(egui::Id::unique("kiai-dialog")).show(ctx, |ui| match dialog {
            Dialog::Path(what, mut text) => {
                let (title, label, ext) = what.describe();
                ui.heading(title);
                ui.label(format!("Path of the {label} file (.{ext}):"));
                let edit = ui.add(
                    egui::TextEdit::singleline(&mut text)
                        .desired_width(480.0)
                        .id_salt("kiai-path-prompt"),
                );
                if !edit.has_focus() && !edit.lost_focus() {
                    edit.request_focus();
                }
                let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
                let mut done = None;
                ui.horizontal(|ui| {
                    if ui.button("OK").clicked() || enter {
                        done = Some(true);
                    }
                    if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(Key::Escape)) {
                        done = Some(false);
                    }
                });
                match done {
                    Some(true) if !text.trim().is_empty() => {
                        s.dialog = None;
                        s.path_chosen(what, Path::new(text.trim()));
                    }
                    Some(true) => {}
                    Some(false) => s.dialog = None,
                    None => s.dialog = Some(Dialog::Path(what, text)),
                }
            }
            Dialog::ConfirmClose | Dialog::ConfirmOpen(_) => {
                ui.heading("Unsaved changes");
                ui.label(format!("Save the changes to {}?", s.file_name()));
                ui.horizontal(|ui| {
                    let proceed = |s: &mut State| match &dialog {
                        Dialog::ConfirmClose => {
                            s.allow_close = true;
                            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                        }
                        Dialog::ConfirmOpen(path) => {
                            let path = path.clone();
                            open_now(s, &path);
                        }
                        Dialog::Recover(_) | Dialog::Path(..) => {}
                    };
                    if ui.button("Save").clicked() {
                        s.dialog = None;
                        if s.save() {
                            proceed(s);
                        }
                    }
                    if ui.button("Discard").clicked() {
                        s.dialog = None;
                        proceed(s);
                    }
                    if ui.button("Cancel").clicked() {
                        s.dialog = None;
                    }
                });
            }
            Dialog::Recover(path) => {
                ui.heading("Recover unsaved changes?");
                ui.label(format!(
                    "{} holds changes autosaved after the last save.",
                    path.display()
                ));
                ui.horizontal(|ui| {
                    if ui.button("Recover").clicked() {
                        s.dialog = None;
                        match std::fs::read_to_string(&path)
                            .map_err(|e| e.to_string())
                            .and_then(|t| {
                                kiai_content::parse(&t, &path.display().to_string())
                                    .map_err(|d| d.to_string())
                            }) {
                            Ok(def) => {
                                let edits = replace_all(s.doc.def(), def);
                                s.edit(edits);
                                s.say("recovered; save to keep it");
                            }
                            Err(e) => s.say(format!("cannot recover: {e}")),
                        }
                    }
                    if ui.button("Discard").clicked() {
                        s.dialog = None;
                        let _ = std::fs::remove_file(&path);
                    }
                });
            }
        });
    }
}

/// One edit replacing every collection of `old` by `new`'s (recovery).
fn replace_all(old: &ContentDef, new: ContentDef) -> Edit {
    use crate::doc::Item;
    let mut edits = Vec::new();
    macro_rules! swap {
        ($($field:tt).+, $wrap:expr) => {
            for (i, item) in old.$($field).+.iter().enumerate().rev() {
                edits.push(Edit::Remove {
                    index: i,
                    item: $wrap(item.clone()),
                });
            }
            for (i, item) in new.$($field).+.iter().enumerate() {
                edits.push(Edit::Insert {
                    index: i,
                    item: $wrap(item.clone()),
                });
            }
        };
    }
    swap!(links, Item::Link);
    swap!(waypoints, Item::Waypoint);
    swap!(walls, Item::Wall);
    swap!(regions, Item::Region);
    swap!(agents, Item::Agent);
    swap!(factions, Item::Faction);
    swap!(cost_lists, Item::CostList);
    swap!(archetypes.0, |(n, a)| Item::archetype(n, a));
    swap!(profiles.0, |(n, p)| Item::profile(n, p));
    edits.push(Edit::Set {
        index: 0,
        old: Item::Bounds(old.bounds),
        new: Item::Bounds(new.bounds),
    });
    Edit::Batch(edits)
}

fn save_recording_dialog(s: &mut State) {
    if s.sim.is_none() {
        s.say("nothing recorded yet: play first");
        return;
    }
    if let Some(path) = s.ask_path(PathFor::SaveRecording, "run.kiairec") {
        save_recording_to(s, &path);
    }
}

fn save_recording_to(s: &mut State, path: &Path) {
    let Some(sim) = &s.sim else {
        s.say("nothing recorded yet: play first");
        return;
    };
    let recording = sim.recording();
    match crate::sim::save_recording(path, &recording) {
        Ok(()) => s.say(format!(
            "saved {} ticks to {}",
            recording.hashes.len(),
            path.display()
        )),
        Err(e) => s.say(format!("cannot save the recording: {e}")),
    }
}

fn open_recording_dialog(s: &mut State) {
    if let Some(path) = s.ask_path(PathFor::OpenRecording, "")
        && let Err(e) = open_recording(s, &path)
    {
        s.say(e);
    }
}

/// Opens a recorded run: the simulation replays it (checking every state
/// hash) and the timeline spans it.
pub fn open_recording(s: &mut State, path: &Path) -> Result<(), String> {
    let recording = crate::sim::load_recording(path)?;
    let dir = s
        .doc
        .path()
        .and_then(Path::parent)
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let sim = crate::sim::Sim::from_recording(&recording, &dir)?;
    s.live_seed = recording.seed;
    s.sim = Some(sim);
    s.say(format!(
        "opened {} ({} ticks); scrub the timeline to replay",
        path.display(),
        recording.hashes.len()
    ));
    Ok(())
}

fn open_trace_dialog(s: &mut State) {
    if let Some(path) = s.ask_path(PathFor::OpenTrace, "") {
        open_trace(s, &path);
    }
}

fn open_trace(s: &mut State, path: &Path) {
    match crate::sim::load_trace(path) {
        Ok(t) => {
            s.say(format!(
                "opened trace {} ({} lines)",
                path.display(),
                t.len()
            ));
            s.trace_file = Some(t);
        }
        Err(e) => s.say(e),
    }
}

fn open_dialog(s: &mut State) {
    if let Some(path) = s.ask_path(PathFor::Open, "") {
        s.path_chosen(PathFor::Open, &path);
    }
}

fn open_now(s: &mut State, path: &Path) {
    let (doc, findings) = open_document(path);
    let revision = doc.revision();
    *s = State::new(doc).with_dialogs_of(s);
    s.findings = (revision, findings);
    s.validation_wanted = revision;
    s.say(format!("opened {}", path.display()));
}

struct Behavior<'a> {
    state: &'a mut State,
}

impl egui_tiles::Behavior<Pane> for Behavior<'_> {
    fn pane_ui(
        &mut self,
        ui: &mut egui::Ui,
        _tile_id: egui_tiles::TileId,
        pane: &mut Pane,
    ) -> egui_tiles::UiResponse {
        let s = &mut *self.state;
        match pane {
            Pane::Canvas => canvas::ui(s, ui),
            Pane::Inspector => panel_frame(ui, |ui| panels::inspector(s, ui)),
            Pane::Outliner => panel_frame(ui, |ui| panels::outliner(s, ui)),
            Pane::Validation => {
                egui::Frame::new()
                    .inner_margin(egui::Margin::same(6))
                    .show(ui, |ui| panels::validation(s, ui));
            }
            Pane::Profiles => panel_frame(ui, |ui| panels::profiles(s, ui)),
            Pane::CostLists => panel_frame(ui, |ui| panels::cost_lists(s, ui)),
            Pane::Why => panel_frame(ui, |ui| live::why(s, ui)),
            Pane::Console => panel_frame(ui, |ui| live::console(s, ui)),
            Pane::Timings => live::timings(s, ui),
            Pane::Elevation => live::elevation(s, ui),
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

fn panel_frame(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::new()
        .inner_margin(egui::Margin::same(6))
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, add);
        });
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let started = Instant::now();
        let ctx = ui.ctx().clone();
        if let Some(prev) = self.last_frame.replace(started) {
            let dt = prev.elapsed().as_secs_f32() * 1e3;
            self.state.frame_ms.1 = if self.state.frame_ms.1 == 0.0 {
                dt
            } else {
                self.state.frame_ms.1 * 0.9 + dt * 0.1
            };
            if let Some((_, intervals, _)) = &mut self.frames_left {
                intervals.push(dt);
            }
        }
        self.state
            .doc
            .set_gesture(ctx.input(|i| i.pointer.any_down()));
        self.shortcuts(&ctx);
        self.state.poll_validation(&ctx);
        self.state.autosave();

        if ctx.input(|i| i.viewport().close_requested())
            && self.state.doc.is_dirty()
            && !self.state.allow_close
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.state.dialog = Some(Dialog::ConfirmClose);
        }
        let title = self.title();
        if title != self.state.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.state.title = title;
        }

        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::top("tools").show(ui, |ui| panels::tool_bar(&mut self.state, ui));
        egui::Panel::top("transport").show(ui, |ui| live::transport(&mut self.state, ui));
        live::advance(&mut self.state, &ctx);
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let mut behavior = Behavior {
                state: &mut self.state,
            };
            self.tree.ui(&mut behavior, ui);
        });
        self.dialogs(&ctx);

        let update = started.elapsed().as_secs_f32() * 1e3;
        self.state.frame_ms.0 = if self.state.frame_ms.0 == 0.0 {
            update
        } else {
            self.state.frame_ms.0 * 0.9 + update * 0.1
        };
        if let Some((left, _, updates)) = &mut self.frames_left {
            updates.push(update);
            *left = left.saturating_sub(1);
            if *left == 0 {
                if let Some((_, intervals, updates)) = self.frames_left.take() {
                    report_frames(&intervals, &updates);
                }
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                ctx.request_repaint();
            }
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, "layout", &self.tree);
        eframe::set_value(storage, "snap", &self.state.snap);
    }
}

fn percentile(values: &[f32], p: f32) -> f32 {
    let mut v = values.to_vec();
    v.sort_by(f32::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    v[((v.len() - 1) as f32 * p).round() as usize]
}

fn report_frames(intervals: &[f32], updates: &[f32]) {
    // Skip the first frames: fonts and textures upload then.
    let skip = |v: &[f32]| v[v.len().min(10)..].to_vec();
    let (intervals, updates) = (skip(intervals), skip(updates));
    println!(
        "frames {}: interval p50 {:.2} ms p99 {:.2} ms; update p50 {:.2} ms p99 {:.2} ms",
        intervals.len(),
        percentile(&intervals, 0.5),
        percentile(&intervals, 0.99),
        percentile(&updates, 0.5),
        percentile(&updates, 0.99),
    );
}
