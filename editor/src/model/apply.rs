//! How each [`Command`] changes the model: one `match` per area, none
//! with a catch-all arm, so every command is applied somewhere and a new
//! one that is not does not compile. "What if…"'s commands are applied in
//! `what_if.rs`, beside the what-if they change.

use super::command::{
    AddCommand, BreakpointCommand, Command, ConsoleCommand, EditCommand, NavGenCommand, RunCommand,
    SelectCommand, SettingsCommand,
};
use super::doc::{Edit, Item};
use super::selection::Sel;
use super::{Model, STEP_TO_EVENT, navgen, ops, sim, what_if};

impl Model {
    /// Applies one command.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Edit(c) => self.apply_edit(c),
            Command::Add(c) => self.apply_add(c),
            Command::Select(c) => self.apply_select(c),
            Command::Settings(c) => self.apply_settings(c),
            Command::Run(c) => self.apply_run(c),
            Command::Breakpoint(c) => self.apply_breakpoint(c),
            Command::Console(c) => self.apply_console(c),
            Command::WhatIf(c) => what_if::apply(self, c),
            Command::NavGen(c) => self.apply_navgen(c),
            Command::Say(message) => self.say(message),
        }
    }

    /// Applies `edit` as one undo step; a refused edit is reported.
    pub fn edit(&mut self, edit: Edit) {
        let structural = edit.is_structural();
        if let Err(e) = self.doc.apply(edit) {
            self.say(format!("edit refused: {e}"));
        }
        if structural {
            self.selection.prune(self.doc.def());
        }
    }

    /// Applies an operation's edit and says its message, or says why it
    /// was refused. Returns whether it was applied.
    fn op(&mut self, op: Result<ops::Op, String>) -> bool {
        match op {
            Ok((edit, message)) => {
                self.edit(edit);
                self.say(message);
                true
            }
            Err(e) => {
                self.say(e);
                false
            }
        }
    }

    fn apply_edit(&mut self, command: EditCommand) {
        if !matches!(command, EditCommand::Preview(_) | EditCommand::Record(_)) {
            // A drag the net followed ended without being recorded.
            self.navgen.follow = None;
        }
        match command {
            EditCommand::Apply(e) => self.edit(e),
            EditCommand::Preview(e) => self.preview_edit(&e),
            EditCommand::Record(e) => match self.navgen.follow.take() {
                Some(follow) => {
                    let net = follow.edit(self.doc.def());
                    self.doc.record(Edit::Batch(vec![e, net]));
                    self.say(format!(
                        "the generated waypoints followed the wall (regenerated around it in {:.1} ms)",
                        follow.seconds * 1e3
                    ));
                }
                None => self.doc.record(e),
            },
            EditCommand::Undo => self.undo(),
            EditCommand::Redo => {
                if self.doc.redo() {
                    self.selection.prune(self.doc.def());
                    self.say("redone");
                }
            }
            EditCommand::Delete => {
                if self.op(ops::delete(self.doc.def(), &self.selection)) {
                    self.selection.clear();
                }
            }
            EditCommand::AutoConnect => self.auto_connect(),
            EditCommand::ComputePvs => {
                self.op(ops::compute_pvs(self.doc.def()));
            }
            EditCommand::GenerateWaypoints => self.generate_waypoints(),
            EditCommand::ToggleActive => {
                self.op(ops::toggle_active(
                    self.doc.def(),
                    &self.selection.waypoints(),
                ));
            }
            EditCommand::ToggleLink(a, b) => {
                if let Some(op) = ops::toggle_link(self.doc.def(), a, b, self.tools.two_way) {
                    self.op(Ok(op));
                }
            }
            EditCommand::AddCostList(name) => match ops::add_cost_list(self.doc.def(), &name) {
                Ok((op, index)) => {
                    self.op(Ok(op));
                    self.tools.cost_list = index;
                }
                Err(e) => self.say(e),
            },
            EditCommand::RenameCostList(name) => {
                self.op(ops::rename_cost_list(
                    self.doc.def(),
                    &self.current_list(),
                    &name,
                ));
            }
            EditCommand::DeleteCostList => {
                if self.op(ops::delete_cost_list(self.doc.def(), &self.current_list())) {
                    self.tools.cost_list = 0;
                }
            }
        }
    }

    /// A drag's live edit; a wall dragged on a map with generated
    /// waypoints takes the net along (regenerated around the wall).
    fn preview_edit(&mut self, e: &Edit) {
        let wall = match e {
            Edit::Set {
                old: Item::Wall(old),
                new: Item::Wall(new),
                ..
            } => Some((old.clone(), new.clone())),
            _ => None,
        };
        if wall.is_some() && self.navgen.follow.is_none() {
            self.navgen.follow = navgen::Follow::start(self.doc.def());
        }
        if let Err(err) = self.doc.preview_edit(e) {
            self.say(format!("edit refused: {err}"));
            return;
        }
        if let (Some((old, new)), Some(follow)) = (wall, self.navgen.follow.as_mut()) {
            self.doc.preview(|def| follow.update(def, (&old, &new)));
        }
    }

    fn apply_navgen(&mut self, command: NavGenCommand) {
        match command {
            NavGenCommand::Open => self.navgen.open(self.doc.def()),
            NavGenCommand::Params { radius, spacing } => {
                self.navgen.radius = radius;
                self.navgen.spacing = spacing;
            }
            NavGenCommand::Close => self.navgen.close(),
        }
    }

    /// Merges the panel's preview (made for this revision: the app
    /// prepares the model before the views run) and closes the panel.
    fn generate_waypoints(&mut self) {
        self.navgen.prepare(self.doc.def(), self.doc.revision());
        let op = match self.navgen.preview() {
            Some(Ok(preview)) => navgen::apply(self.doc.def(), preview),
            Some(Err(why)) => Err(format!("cannot generate waypoints: {why}")),
            None => Err("open Edit → Generate waypoints… first".into()),
        };
        if self.op(op) {
            self.navgen.close();
        }
    }

    fn undo(&mut self) {
        if self
            .what_if
            .as_ref()
            .is_some_and(|w| !w.may_undo(&self.doc))
        {
            self.say("undo stops where What if… began; Cancel leaves it");
        } else if self.doc.undo() {
            self.selection.prune(self.doc.def());
            self.say("undone");
        }
    }

    fn auto_connect(&mut self) {
        let selected = self.selection.waypoints();
        let (range, two_way) = (self.tools.connect_range, self.tools.two_way);
        self.occluders();
        let occluders = self.occluders.as_ref().and_then(|(_, o)| o.as_ref());
        let op = ops::auto_connect(self.doc.def(), &selected, range, two_way, occluders);
        self.op(op);
    }

    fn apply_add(&mut self, command: AddCommand) {
        let def = self.doc.def();
        match command {
            AddCommand::Waypoint(at) => {
                let (edit, message) = ops::place_waypoint(def, at);
                let index = def.waypoints.len();
                self.edit(edit);
                self.selection.set([Sel::Waypoint(index)]);
                self.say(message);
            }
            AddCommand::Agent(at) => {
                let index = def.agents.len();
                let (op, archetype, faction) = ops::place_agent(
                    def,
                    at,
                    &self.tools.place_archetype,
                    &self.tools.place_faction,
                );
                self.tools.place_archetype = archetype;
                self.tools.place_faction = faction;
                self.op(Ok(op));
                self.selection.set([Sel::Agent(index)]);
            }
            AddCommand::Wall(from, to) => {
                let index = def.walls.len();
                let op = navgen::with_net(def, ops::place_wall(def, from, to));
                self.op(Ok(op));
                self.selection.set([Sel::Wall(index)]);
            }
            AddCommand::Region(polygon) => {
                let index = def.regions.len();
                if self.op(ops::close_region(def, polygon)) {
                    self.selection.set([Sel::Region(index)]);
                }
            }
            AddCommand::Archetype => {
                let index = def.archetypes.len();
                self.op(Ok(ops::add_archetype(def)));
                self.selection.set([Sel::Archetype(index)]);
            }
            AddCommand::Profile => {
                let index = def.profiles.len();
                self.op(Ok(ops::add_profile(def)));
                self.selection.set([Sel::Profile(index)]);
            }
            AddCommand::Faction => {
                let index = def.factions.len();
                self.op(Ok(ops::add_faction(def)));
                self.selection.set([Sel::Faction(index)]);
            }
        }
    }

    fn apply_select(&mut self, command: SelectCommand) {
        match command {
            SelectCommand::Set(items) => self.selection.set(items),
            SelectCommand::Add(items) => self.selection.add(items),
            SelectCommand::Toggle(sel) => self.selection.toggle(sel),
            SelectCommand::AllWaypoints => self
                .selection
                .set((0..self.doc.def().waypoints.len()).map(Sel::Waypoint)),
            SelectCommand::Clear => self.selection.clear(),
        }
    }

    fn apply_settings(&mut self, command: SettingsCommand) {
        match command {
            SettingsCommand::Tool(tool) => self.tools.tool = tool,
            SettingsCommand::Tools(tools) => self.tools = *tools,
            SettingsCommand::Overlays(overlays) => self.overlays = overlays,
        }
    }

    fn apply_run(&mut self, command: RunCommand) {
        match command {
            RunCommand::TogglePlay => {
                if let Some(sim) = self.sim_mut() {
                    sim.playing = !sim.playing;
                    sim.hit = None;
                }
            }
            RunCommand::Step => {
                if let Some(sim) = self.sim_mut() {
                    sim.playing = false;
                    sim.hit = None;
                    sim.step();
                }
            }
            RunCommand::StepToEvent => self.step_to_event(),
            RunCommand::Reset if self.what_if.is_some() => {
                self.say("What if… is open: Cancel or Keep changes in its bar first, then reset")
            }
            RunCommand::Reset => self.reset(),
            RunCommand::Seek(tick) => {
                if let Some(sim) = &mut self.sim {
                    sim.playing = false;
                    if let Err(e) = sim.seek(tick) {
                        self.sim_error = Some(e);
                    }
                }
            }
            RunCommand::Speed(speed) => {
                if let Some(sim) = &mut self.sim {
                    sim.speed = speed.clamp(*sim::SPEEDS.start(), *sim::SPEEDS.end());
                }
            }
            RunCommand::Seed(seed) => self.live_seed = seed,
        }
    }

    fn step_to_event(&mut self) {
        let Some(agent) = self.selection.agent() else {
            self.say("select an agent first: the run steps to its next event");
            return;
        };
        let Some(sim) = self.sim_mut() else { return };
        let (ticks, budget) = STEP_TO_EVENT;
        let result = sim.step_to_event(agent, ticks, budget);
        match result {
            Ok(hit) => self.say(format!("tick {}: {} {}", hit.tick, hit.name, hit.cause)),
            Err(e) => self.say(e),
        }
    }

    fn apply_breakpoint(&mut self, command: BreakpointCommand) {
        match command {
            BreakpointCommand::Add(b) => {
                self.say(format!("breakpoint: {}", b.describe()));
                self.breakpoints.0.push(b);
            }
            BreakpointCommand::Set(i, b) => {
                if let Some(slot) = self.breakpoints.0.get_mut(i) {
                    *slot = b;
                }
            }
            BreakpointCommand::Remove(i) => {
                if i < self.breakpoints.0.len() {
                    self.breakpoints.0.remove(i);
                }
            }
        }
    }

    fn apply_console(&mut self, command: ConsoleCommand) {
        let Some(sim) = &mut self.sim else { return };
        match command {
            ConsoleCommand::Eval { agent, code } => {
                let _ = sim.eval(agent, &code);
            }
            ConsoleCommand::ReloadScripts => sim.reload_all(),
            ConsoleCommand::Clear => sim.console.clear(),
        }
    }
}
