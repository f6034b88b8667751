//! The model layer: the document and everything the editor knows about it
//! (selection, tool settings, the run, breakpoints, diagnostics), changed
//! only through [`Command`]s applied by [`Model::apply`]. Nothing here
//! draws or reads input: no egui (`tests/modules.rs` checks it).

pub mod analysis;
mod apply;
pub mod breakpoints;
pub mod command;
pub mod doc;
pub mod files;
pub mod memory;
pub mod navgen;
pub mod ops;
pub mod scene;
pub mod selection;
pub mod settings;
pub mod sim;
pub mod trace;
pub mod units;
pub mod validation;
pub mod what_if;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use command::{
    AddCommand, BreakpointCommand, Command, ConsoleCommand, EditCommand, NavGenCommand, RunCommand,
    SelectCommand, SettingsCommand, WhatIfCommand,
};
pub use doc::{Document, Edit, Item};
pub use scene::Scene;
pub use selection::{Sel, Selection};
pub use settings::{Overlays, Theme, Tool, ToolSettings};

use analysis::{Finding, PathPreview, Sight};
use breakpoints::Breakpoints;
use sim::Sim;
use validation::Validation;

/// How often unsaved changes are written to the recovery file.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(60);

/// How long "step to the next event" may run, ticks and wall time.
pub const STEP_TO_EVENT: (u64, Duration) = (100_000, Duration::from_secs(3));

/// The trace file opened for comparison: (tick, agent) → line.
pub type TraceFile = std::collections::BTreeMap<(u64, String), trace::TraceLine>;

/// Everything the editor knows but the dock layout and the views' own
/// state.
pub struct Model {
    /// The open document.
    pub doc: Document,
    /// Selected objects (agents by slot: the same index before and while
    /// the run plays).
    pub selection: Selection,
    /// The canvas tool and its options.
    pub tools: ToolSettings,
    /// Live overlays.
    pub overlays: Overlays,
    /// The live run, once played or stepped.
    pub sim: Option<Sim>,
    /// Why the run could not be built.
    pub sim_error: Option<String>,
    /// Seed of the next reset.
    pub live_seed: u64,
    /// Breakpoints, checked after every tick played.
    pub breakpoints: Breakpoints,
    /// The open "What if…", if any: the document's edits are its changes.
    pub what_if: Option<what_if::WhatIf>,
    /// A `kiai run --trace` file opened for comparison.
    pub trace_file: Option<TraceFile>,
    /// kiai-content's diagnostics of the document.
    pub validation: Validation,
    /// The Generate waypoints panel and its preview.
    pub navgen: navgen::NavGen,
    /// Message in the status bar and when it was set.
    pub status: Option<(String, Instant)>,
    /// Recently opened files.
    pub recent: files::Recent,
    /// How often unsaved changes go to the recovery file.
    pub autosave_every: Duration,
    /// Where an untitled document's recovery file goes.
    pub data_dir: PathBuf,
    last_autosave: Instant,
    /// Whether this session wrote the recovery file (and it is still
    /// there).
    recovery_written: bool,
    occluders: Option<(u64, Option<kiai_core::Occluders>)>,
    sight: Option<((u64, usize, u64), Sight)>,
    path: Option<((u64, u32, u32, String), PathPreview)>,
    differs: Option<((u64, u64), bool)>,
    memory: Option<((u64, u64, usize), memory::Memory)>,
}

impl Model {
    /// A model of `doc` with the diagnostics found when it was read.
    pub fn new(doc: Document, findings: Vec<Finding>, data_dir: PathBuf) -> Self {
        let def = doc.def();
        let tools = ToolSettings {
            place_archetype: def
                .archetypes
                .0
                .first()
                .map(|(n, _)| n.clone())
                .unwrap_or_default(),
            place_faction: def
                .factions
                .first()
                .map(|f| f.name.clone())
                .unwrap_or_default(),
            ..ToolSettings::default()
        };
        let live_seed = def.seed;
        let revision = doc.revision();
        let validation = if findings.is_empty() {
            Validation::default()
        } else {
            Validation::known(revision, findings)
        };
        Self {
            doc,
            selection: Selection::default(),
            tools,
            overlays: Overlays::default(),
            sim: None,
            sim_error: None,
            live_seed,
            breakpoints: Breakpoints::default(),
            what_if: None,
            trace_file: None,
            validation,
            navgen: navgen::NavGen::default(),
            status: None,
            recent: files::Recent::default(),
            autosave_every: AUTOSAVE_INTERVAL,
            data_dir,
            last_autosave: Instant::now(),
            recovery_written: false,
            occluders: None,
            sight: None,
            path: None,
            differs: None,
            memory: None,
        }
    }

    /// A model of another document keeping the session: tool settings,
    /// overlays, breakpoints, recent files, autosave interval.
    pub fn reopen(&self, doc: Document, findings: Vec<Finding>) -> Self {
        let mut next = Model::new(doc, findings, self.data_dir.clone());
        next.tools = ToolSettings {
            tool: self.tools.tool,
            snap: self.tools.snap,
            grid_step: self.tools.grid_step,
            brush_value: self.tools.brush_value,
            brush_radius: self.tools.brush_radius,
            two_way: self.tools.two_way,
            connect_range: self.tools.connect_range,
            heat_map: self.tools.heat_map,
            show_sight: self.tools.show_sight,
            ..next.tools
        };
        next.overlays = self.overlays.clone();
        next.breakpoints = self.breakpoints.clone();
        next.recent = self.recent.clone();
        next.autosave_every = self.autosave_every;
        if let Some(p) = next.doc.path().map(Path::to_path_buf) {
            next.recent.touch(&p);
        }
        next
    }

    /// Shows `message` in the status bar for a few seconds.
    pub fn say(&mut self, message: impl Into<String>) {
        self.status = Some((message.into(), Instant::now()));
    }

    /// The name of the cost list being painted and previewed.
    pub fn current_list(&self) -> String {
        let names = self.doc.cost_list_names();
        names
            .get(self.tools.cost_list)
            .or(names.first())
            .cloned()
            .unwrap_or_default()
    }

    /// Whether the run is past tick 0 (or playing): the map shows it.
    pub fn is_live(&self) -> bool {
        self.sim.as_ref().is_some_and(|s| s.tick() > 0 || s.playing)
    }

    /// The agents as the views show them (see [`Scene`]).
    pub fn scene(&self) -> Scene<'_> {
        match &self.sim {
            Some(sim) if sim.tick() > 0 => Scene::Live(sim),
            _ => Scene::Start(self.doc.def()),
        }
    }

    /// The document's file name for diagnostics (`untitled.ron` before the
    /// first save).
    pub fn file_name(&self) -> String {
        self.doc
            .path()
            .map_or_else(|| "untitled.ron".to_owned(), |p| p.display().to_string())
    }

    /// The run, built from the document first if there is none, or if
    /// the run is at tick 0 and the map or a script changed since it was
    /// built (Play always runs the map as shown; a run opened from a
    /// recording, or while What if… is open, is kept).
    pub fn sim_mut(&mut self) -> Option<&mut Sim> {
        let stale = match &self.sim {
            None => true,
            Some(sim) => {
                sim.tick() == 0
                    && sim.from_map()
                    && self.what_if.is_none()
                    && sim.is_stale(self.doc.def())
            }
        };
        if stale {
            self.reset();
        }
        self.sim.as_mut()
    }

    /// Whether the run on screen, past tick 0, is not of the map as it is
    /// now (edited since the run was built), as of the last
    /// [`Model::prepare`]: the transport bar offers to restart from the
    /// map. A recording opened, or a what-if's branches, never differ.
    pub fn map_differs(&self) -> bool {
        self.what_if.is_none()
            && self
                .sim
                .as_ref()
                .is_some_and(|s| s.tick() > 0 && s.from_map())
            && self.differs.is_some_and(|(_, d)| d)
    }

    fn prepare_differs(&mut self) {
        let Some(sim) = &self.sim else {
            self.differs = None;
            return;
        };
        let key = (self.doc.revision(), sim.id());
        if self.differs.is_some_and(|(k, _)| k == key) {
            return;
        }
        self.differs = Some((key, sim.run().def() != self.doc.def()));
    }

    /// (Re)builds the run from the document as it is now and the seed,
    /// keeping the play state, speed and console.
    pub fn reset(&mut self) {
        let (playing, speed, earlier) = match &mut self.sim {
            Some(sim) => (sim.playing, sim.speed, sim.console.take_lines()),
            None => (false, 1.0, Vec::new()),
        };
        let dir = self.dir();
        match Sim::new(self.doc.def(), &dir, self.live_seed) {
            Ok(mut sim) => {
                sim.playing = playing;
                sim.speed = speed;
                sim.console.put_before(earlier);
                self.sim = Some(sim);
                self.sim_error = None;
            }
            Err(e) => {
                self.sim = None;
                // The runtime's "unknown handle faction `x`" in a designer's
                // words: "unknown faction `x`".
                let e = e.replace("unknown handle ", "unknown ");
                self.sim_error = Some(format!(
                    "the map does not run yet: {e} (the Validation panel lists what to fix)"
                ));
            }
        }
    }

    /// The document's folder (scripts are named relative to it).
    pub fn dir(&self) -> PathBuf {
        self.doc
            .path()
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    }

    /// Collects a finished fork and follows the what-if's changes to the
    /// document. Returns whether a fork is running.
    pub fn poll_what_if(&mut self) -> bool {
        let Some(w) = &mut self.what_if else {
            return false;
        };
        w.refresh(&self.doc);
        let running = w.poll();
        what_if::follow_edits(self);
        running
    }

    /// The refusal of saving or exporting while a what-if is open.
    fn what_if_blocks(&mut self, what: &str) -> bool {
        if self.what_if.is_none() {
            return false;
        }
        self.say(format!(
            "What if… is open and its edits are not the map's: Cancel (or Keep changes) in its \
             bar, then {what}"
        ));
        true
    }

    /// Runs the simulation for `dt` seconds of real time (time-boxed to
    /// `budget`), stopping at breakpoints. Returns whether it is playing.
    pub fn advance(&mut self, dt: f32, budget: Duration) -> bool {
        let Some(sim) = &mut self.sim else {
            return false;
        };
        if !sim.playing {
            return false;
        }
        sim.advance(dt, budget, &self.breakpoints);
        if let Some(hit) = &sim.hit {
            let message = format!("stopped at tick {}: {} — {}", hit.tick, hit.name, hit.cause);
            let agent = hit.agent;
            self.selection.set([Sel::Agent(agent)]);
            self.say(message);
        }
        self.sim.as_ref().is_some_and(|s| s.playing)
    }

    /// The walls and regions of the document as the runtime builds them,
    /// cached per revision.
    pub fn occluders(&mut self) -> Option<&kiai_core::Occluders> {
        let revision = self.doc.revision();
        if self.occluders.as_ref().is_none_or(|(r, _)| *r != revision) {
            let def = self.doc.def();
            let o = kiai_content::occluders(def, def.seed);
            self.occluders = Some((revision, o));
        }
        self.occluders.as_ref().and_then(|(_, o)| o.as_ref())
    }

    /// Refreshes what views read but the model computes lazily: the
    /// selected agent's sight and the route preview. Call once per frame
    /// before the views run.
    pub fn prepare(&mut self) {
        self.prepare_sight();
        self.prepare_path();
        self.prepare_differs();
        self.prepare_memory();
        self.navgen.prepare(self.doc.def(), self.doc.revision());
    }

    /// Reads the selected agent's `agent.memory` when the tick, the agent
    /// or the run changed (scripted agents only).
    fn prepare_memory(&mut self) {
        let (Some(agent), Some(sim)) = (self.selection.agent(), self.sim.as_mut()) else {
            self.memory = None;
            return;
        };
        if sim.run().script_id(agent).is_none() {
            self.memory = None;
            return;
        }
        let key = (sim.id(), sim.tick(), agent);
        if self.memory.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let before = self.memory.take().map(|(_, m)| m);
        let tick = sim.tick();
        let read = match sim.memory_text(agent, "agent.memory") {
            Ok(text) => memory::Memory::read(agent, tick, &text, before.as_ref()),
            Err(e) => memory::Memory {
                agent,
                tick,
                error: Some(e),
                ..Default::default()
            },
        };
        self.memory = Some((key, read));
    }

    /// The selected agent's `agent.memory` as of the last
    /// [`Model::prepare`], when a script decides it and the run is built.
    pub fn memory(&self) -> Option<&memory::Memory> {
        self.memory.as_ref().map(|(_, m)| m)
    }

    fn prepare_sight(&mut self) {
        let Some(agent) = self.selection.agent() else {
            self.sight = None;
            return;
        };
        let live_tick = match &self.sim {
            Some(sim) if sim.tick() > 0 => sim.tick(),
            _ => u64::MAX,
        };
        let key = (self.doc.revision(), agent, live_tick);
        if self.sight.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let tile = self
            .doc
            .def()
            .fog
            .as_ref()
            .map_or(1.0, |f| f.tile_size.max(0.05));
        let sight = if live_tick == u64::MAX {
            self.occluders();
            let occluders = self.occluders.as_ref().and_then(|(_, o)| o.as_ref());
            analysis::sight(self.doc.def(), agent, occluders, tile)
        } else {
            live_sight(self.sim.as_ref(), agent, tile)
        };
        self.sight = Some((key, sight));
    }

    fn prepare_path(&mut self) {
        let (Some(a), Some(b)) = self.tools.path_pick else {
            self.path = None;
            return;
        };
        let key = (self.doc.revision(), a, b, self.current_list());
        if self.path.as_ref().is_none_or(|(k, _)| *k != key) {
            let p = analysis::path_preview(self.doc.def(), a, b, &key.3);
            self.path = Some((key, p));
        }
    }

    /// What the selected agent senses, as of the last [`Model::prepare`]:
    /// at its start position while editing, where it is in the run once
    /// the run ticked.
    pub fn sight(&self) -> Option<&Sight> {
        self.sight.as_ref().map(|(_, s)| s)
    }

    /// The route preview between the picked waypoints, as of the last
    /// [`Model::prepare`].
    pub fn path_preview(&self) -> Option<&PathPreview> {
        self.path.as_ref().map(|(_, p)| p)
    }

    /// Saves to `path` through kiai-content's preserving writer
    /// (atomically, the previous file kept as `.bak`); the file's text is
    /// kept but for what changed. Makes `path` the document's and removes
    /// the recovery file. Returns whether it was written (never while a
    /// what-if is open: its edits are not the map's).
    pub fn save_to(&mut self, path: &Path) -> bool {
        if self.what_if_blocks("save") {
            return false;
        }
        let base = match self.doc.path() {
            Some(own) if own == path => None,
            Some(source) => Some(std::fs::read_to_string(source).unwrap_or_default()),
            None => Some(String::new()),
        };
        match kiai_content::save_preserving(path, base.as_deref(), self.doc.def()) {
            Ok(_) => {
                let old_recovery = self.recovery_path();
                self.doc.set_path(path.to_path_buf());
                self.doc.mark_saved();
                let _ = std::fs::remove_file(old_recovery);
                let _ = std::fs::remove_file(self.recovery_path());
                self.recovery_written = false;
                self.recent.touch(path);
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
    /// with the first error, and so is exporting while a what-if is open.
    pub fn export_to(&mut self, path: &Path) -> Result<usize, String> {
        if self.what_if.is_some() {
            return Err(
                "What if… is open and its edits are not the map's: Cancel (or Keep \
                        changes) in its bar, then export"
                    .to_owned(),
            );
        }
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

    /// Where unsaved changes of this document are autosaved.
    pub fn recovery_path(&self) -> PathBuf {
        files::recovery_path(self.doc.path(), &self.data_dir)
    }

    /// When the next autosave is due (now or in the past when it is late);
    /// `None` while there is nothing to autosave (or a what-if is open:
    /// its edits are not the map's).
    pub fn autosave_due(&self) -> Option<Instant> {
        (self.doc.is_dirty() && self.what_if.is_none())
            .then(|| self.last_autosave + self.autosave_every)
    }

    /// Writes unsaved changes to the recovery file when the interval has
    /// passed; removes the recovery file written earlier once the
    /// document is back to its saved state (undone, saved).
    pub fn autosave(&mut self) {
        if !self.doc.is_dirty() && self.what_if.is_none() {
            self.drop_recovery();
        }
        if self.last_autosave.elapsed() >= self.autosave_every {
            self.autosave_now();
        }
    }

    /// Removes the recovery file this session wrote, if any: the editor
    /// quits cleanly, or the document is back to its saved state.
    pub fn drop_recovery(&mut self) {
        if std::mem::take(&mut self.recovery_written) {
            let _ = std::fs::remove_file(self.recovery_path());
        }
    }

    /// Writes unsaved changes to the recovery file now.
    pub fn autosave_now(&mut self) {
        self.last_autosave = Instant::now();
        if !self.doc.is_dirty() || self.what_if.is_some() {
            return;
        }
        let path = self.recovery_path();
        let result = kiai_content::to_ron(self.doc.def())
            .map_err(std::io::Error::other)
            .and_then(|text| {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                kiai_content::write_atomic(&path, text.as_bytes(), false)
            });
        match result {
            Ok(()) => {
                self.recovery_written = true;
                self.say(format!("autosaved to {}", path.display()));
            }
            Err(e) => self.say(format!("autosave failed: {e}")),
        }
    }

    /// Replaces the document's content by the recovery file's.
    pub fn recover(&mut self, path: &Path) {
        let read = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| {
                kiai_content::parse(&t, &path.display().to_string()).map_err(|d| d.to_string())
            });
        match read {
            Ok(def) => {
                let edits = ops::replace_all(self.doc.def(), def);
                self.edit(edits);
                self.say("recovered; save to keep it");
            }
            Err(e) => self.say(format!("cannot recover: {e}")),
        }
    }

    /// Collects a finished check of the document and starts one when it
    /// or one of its script files changed. Returns whether a check is
    /// running.
    pub fn poll_validation(&mut self) -> bool {
        let (file, dir) = (self.file_name(), self.dir());
        let subject = validation::Subject {
            revision: self.doc.revision(),
            def: self.doc.def(),
            path: self.doc.path(),
            file: &file,
            dir: &dir,
        };
        self.validation.poll(&subject)
    }

    /// Checks the document now unless the diagnostics are current.
    pub fn validate_now(&mut self) -> &[Finding] {
        let (file, dir) = (self.file_name(), self.dir());
        let subject = validation::Subject {
            revision: self.doc.revision(),
            def: self.doc.def(),
            path: self.doc.path(),
            file: &file,
            dir: &dir,
        };
        self.validation.now(&subject)
    }
}

/// What the agent in `slot` senses in the run now: the runtime's own
/// percepts, and the tiles its senses cover where it is.
fn live_sight(sim: Option<&Sim>, slot: usize, tile: f32) -> Sight {
    let Some(sim) = sim else {
        return Sight::default();
    };
    let world = sim.world();
    let agents = world.agents();
    let mut out = Sight {
        agents: vec![Vec::new(); agents.len()],
        tiles: Vec::new(),
        tile,
    };
    let (Some(id), Some(archetype)) = (agents.id(slot), agents.archetypes().get(slot)) else {
        return out;
    };
    let Some(runtime) = world.archetypes().get(archetype.index()) else {
        return out;
    };
    for k in 0..runtime.senses.len() {
        for other in world.percepts().sensed(id, k) {
            if let Some(v) = out.agents.get_mut(other.index())
                && !v.contains(&k)
            {
                v.push(k);
            }
        }
    }
    if let Some(def) = sim.run().def_now().archetypes.get(&runtime.name) {
        let eye = agents.positions()[slot];
        let facing = agents.facings()[slot];
        let (tiles, side) = analysis::sight_tiles(def, eye, facing, world.occluders(), tile);
        out.tiles = tiles;
        out.tile = side;
    }
    out
}
