//! Hover tooltips and right-click menus on map objects: what is under the
//! pointer (a link's length and cost, an agent's state), and what can be
//! done with it.

use eframe::egui::{self, Pos2, Response, Ui};

use super::paint::to_world;
use super::pick;
use crate::model::breakpoints::{Breakpoint, Trigger, Who};
use crate::model::units;
use crate::model::{
    AddCommand, BreakpointCommand, Command, Edit, EditCommand, Item, Model, RunCommand, Sel,
    SelectCommand, SettingsCommand, Tool,
};
use crate::views::{Out, Pane, UiIntent, ViewCtx};

/// What a right click was on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    /// An object.
    Object(Sel),
    /// Empty map at world `(x, z)`.
    Empty((f32, f32)),
}

/// The right-click menu's target, kept while the menu is open.
#[derive(Debug, Default)]
pub struct MenuState {
    target: Option<Target>,
}

/// The object under scene point `at`: the run's agents while it is live
/// (then the document's other objects), else the document's objects.
pub fn hit(model: &Model, at: Pos2, r: f32) -> Option<Sel> {
    let def = model.doc.def();
    if model.is_live() {
        let (x, z) = to_world(at);
        model
            .scene()
            .pick(x, z, r)
            .map(Sel::Agent)
            .or_else(|| pick::pick_objects(def, at, r))
    } else {
        pick::pick(def, at, r)
    }
}

impl MenuState {
    /// Tooltip for the object under the pointer and the right-click menu.
    pub fn ui(
        &mut self,
        ctx: &ViewCtx<'_>,
        r: &Response,
        cursor: Option<Pos2>,
        pick_r: f32,
        out: &mut Out,
    ) {
        let model = ctx.model;
        let under = cursor.and_then(|c| hit(model, c, pick_r));
        if let Some(sel) = under
            && !r.dragged()
        {
            r.clone().on_hover_ui_at_pointer(|ui| {
                ui.set_max_width(340.0);
                for line in describe(model, sel) {
                    ui.label(line);
                }
            });
        }
        if r.secondary_clicked() {
            self.target = match (under, cursor) {
                (Some(sel), _) => Some(Target::Object(sel)),
                (None, Some(c)) => Some(Target::Empty(to_world(c))),
                (None, None) => None,
            };
        }
        let target = self.target;
        r.context_menu(|ui| {
            if let Some(t) = target {
                menu(model, t, ui, out);
            }
        });
    }
}

/// Lines describing `sel` for its tooltip.
pub fn describe(model: &Model, sel: Sel) -> Vec<String> {
    let def = model.doc.def();
    match sel {
        Sel::Waypoint(i) => {
            let Some(w) = def.waypoints.get(i) else {
                return Vec::new();
            };
            let links = def
                .links
                .iter()
                .filter(|l| l.from == w.id || l.to == w.id)
                .count();
            let mut head = format!("waypoint {}", w.id);
            if let Some(n) = &w.name {
                head.push_str(&format!(" “{n}”"));
            }
            let mut lines = vec![
                head,
                format!(
                    "{} · {} · at {}",
                    if w.active {
                        "active"
                    } else {
                        "inactive: never entered (T switches)"
                    },
                    crate::model::ops::count(links, "link", "links"),
                    units::point(w.pos.0, w.pos.2)
                ),
            ];
            if !w.tags.is_empty() {
                lines.push(format!("tags: {}", w.tags.join(", ")));
            }
            lines
        }
        Sel::Link(i) => link_lines(model, i),
        Sel::Wall(i) => {
            let Some(w) = def.walls.get(i) else {
                return Vec::new();
            };
            let name = w
                .name
                .as_ref()
                .map_or_else(String::new, |n| format!(" “{n}”"));
            let kind = match (w.door, w.open) {
                (true, true) => "door, open",
                (true, false) => "door, closed",
                _ => "wall",
            };
            vec![format!(
                "wall {i}{name}: {kind}, {} high",
                units::distance(w.height)
            )]
        }
        Sel::Region(i) => {
            let Some(r) = def.regions.get(i) else {
                return Vec::new();
            };
            let sees = match &r.sees {
                Some(list) if list.is_empty() => "sees no other region".to_owned(),
                Some(list) => format!("sees {}", list.join(", ")),
                None => "what it sees is computed when the map loads".to_owned(),
            };
            vec![
                format!("region {} · {} corners", r.name, r.polygon.len()),
                sees,
            ]
        }
        Sel::Agent(i) => agent_lines(model, i),
        Sel::Archetype(_) | Sel::Profile(_) | Sel::Faction(_) => Vec::new(),
    }
}

fn link_lines(model: &Model, i: usize) -> Vec<String> {
    let def = model.doc.def();
    let Some(l) = def.links.get(i) else {
        return Vec::new();
    };
    let pos = |id: u32| def.waypoints.iter().find(|w| w.id == id).map(|w| w.pos);
    let length = match (pos(l.from), pos(l.to)) {
        (Some(a), Some(b)) => {
            ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2) + (a.2 - b.2).powi(2)).sqrt()
        }
        _ => 0.0,
    };
    let arrow = if l.two_way { "↔" } else { "->" };
    let mut lines = vec![format!(
        "link {} {arrow} {} · {} long",
        l.from,
        l.to,
        units::distance(length)
    )];
    let current = model.current_list();
    for list in model.doc.cost_list_names() {
        let m = l.costs.get(&list).copied().unwrap_or(1.0);
        let mark = if list == current { "• " } else { "  " };
        lines.push(format!(
            "{mark}{list}: {} -> cost {:.1}",
            units::multiplier(m),
            length * m
        ));
    }
    lines
}

fn agent_lines(model: &Model, i: usize) -> Vec<String> {
    let scene = model.scene();
    let mut lines = vec![scene.name(i).to_owned()];
    let archetype = scene.archetype(i).map_or("?", |(n, _)| n);
    let faction = scene
        .def()
        .factions
        .get(scene.faction(i))
        .map_or("?", |f| f.name.as_str());
    lines.push(format!("{archetype} · {faction}"));
    let p = scene.pos(i);
    match scene {
        crate::model::Scene::Live(sim) => {
            let target = sim
                .world()
                .agents()
                .decisions()
                .get(i)
                .and_then(|d| d.target)
                .and_then(|t| sim.world().agents().names().get(t.index()).cloned());
            let state = sim.run().state_name(i);
            lines.push(match target {
                Some(t) => format!("{state} {t}"),
                None => state,
            });
            lines.push(format!(
                "at {} (tick {})",
                units::position(p.x, p.y, p.z),
                sim.tick()
            ));
        }
        crate::model::Scene::Start(_) => {
            lines.push(format!("starts at {}", units::position(p.x, p.y, p.z)));
        }
    }
    lines
}

/// A menu button that runs `what` when clicked, then closes the menu.
fn button(ui: &mut Ui, out: &mut Out, label: &str, what: impl FnOnce(&mut Out)) {
    if ui.button(label).clicked() {
        what(out);
        ui.close();
    }
}

/// The right-click menu of `target`.
fn menu(model: &Model, target: Target, ui: &mut Ui, out: &mut Out) {
    match target {
        Target::Empty(at) => {
            button(ui, out, "Add a waypoint here", |o| {
                o.push(Command::Add(AddCommand::Waypoint(at)))
            });
            button(ui, out, "Add an agent here", |o| {
                o.push(Command::Add(AddCommand::Agent(at)))
            });
            ui.separator();
            button(ui, out, "Frame everything (F)", |o| o.ui(UiIntent::Fit));
            if !model.selection.is_empty() {
                button(ui, out, "Select nothing (Esc)", |o| {
                    o.push(Command::Select(SelectCommand::Clear))
                });
            }
        }
        Target::Object(sel) => {
            let name = describe(model, sel).into_iter().next().unwrap_or_default();
            ui.label(egui::RichText::new(name).strong());
            button(ui, out, "Select and inspect", |o| {
                o.push(Command::Select(SelectCommand::Set(vec![sel])));
                o.ui(UiIntent::Focus(Pane::Inspector));
            });
            object_items(model, sel, ui, out);
            if !(model.is_live() && matches!(sel, Sel::Agent(_))) {
                ui.separator();
                button(ui, out, "Delete", |o| {
                    o.push(Command::Select(SelectCommand::Set(vec![sel])));
                    o.push(Command::Edit(EditCommand::Delete));
                });
            }
        }
    }
}

fn object_items(model: &Model, sel: Sel, ui: &mut Ui, out: &mut Out) {
    match sel {
        Sel::Waypoint(i) => waypoint_items(model, i, ui, out),
        Sel::Link(i) => link_items(model, i, ui, out),
        Sel::Wall(i) => wall_items(model, i, ui, out),
        Sel::Region(_) => act(
            ui,
            out,
            "Compute what regions see (PVS)",
            vec![Command::Edit(EditCommand::ComputePvs)],
        ),
        Sel::Agent(i) => agent_items(model, i, ui, out),
        Sel::Archetype(_) | Sel::Profile(_) | Sel::Faction(_) => {}
    }
}

/// A menu button that asks for `what` and closes the menu.
fn act(ui: &mut Ui, out: &mut Out, label: &str, what: Vec<Command>) {
    if ui.button(label).clicked() {
        for c in what {
            out.push(c);
        }
        ui.close();
    }
}

fn waypoint_items(model: &Model, i: usize, ui: &mut Ui, out: &mut Out) {
    let Some(w) = model.doc.def().waypoints.get(i) else {
        return;
    };
    let toggle = if w.active {
        "Switch off (T)"
    } else {
        "Switch on (T)"
    };
    act(
        ui,
        out,
        toggle,
        vec![
            Command::Select(SelectCommand::Set(vec![Sel::Waypoint(i)])),
            Command::Edit(EditCommand::ToggleActive),
        ],
    );
    let mut tools = model.tools.clone();
    tools.path_pick = (Some(w.id), None);
    tools.tool = Tool::Path;
    act(
        ui,
        out,
        "Route from here (path tool)",
        vec![Command::Settings(SettingsCommand::Tools(Box::new(tools)))],
    );
    if let (Some(start), None) = model.tools.path_pick {
        let mut tools = model.tools.clone();
        tools.path_pick = (Some(start), Some(w.id));
        act(
            ui,
            out,
            "Route to here",
            vec![Command::Settings(SettingsCommand::Tools(Box::new(tools)))],
        );
    }
}

fn link_items(model: &Model, i: usize, ui: &mut Ui, out: &mut Out) {
    let Some(l) = model.doc.def().links.get(i) else {
        return;
    };
    let mut flipped = l.clone();
    flipped.two_way = !l.two_way;
    let label = if l.two_way {
        "Make one-way"
    } else {
        "Make two-way"
    };
    let set = |new| {
        Command::Edit(EditCommand::Apply(Edit::Set {
            index: i,
            old: Item::Link(l.clone()),
            new: Item::Link(new),
        }))
    };
    act(ui, out, label, vec![set(flipped)]);
    let list = model.current_list();
    let now = l
        .costs
        .0
        .iter()
        .find(|(k, _)| *k == list)
        .map_or(1.0, |(_, v)| *v);
    let mut painted = l.clone();
    painted.costs.0.retain(|(k, _)| *k != list);
    let reset = set(painted.clone());
    let brush = model.tools.brush_value;
    painted.costs.0.push((list.clone(), brush));
    // Only the costs it does not have already.
    if brush != now {
        act(
            ui,
            out,
            &format!("Cost {} in `{list}`", units::multiplier(brush)),
            vec![set(painted)],
        );
    }
    if now != 1.0 {
        act(ui, out, &format!("Cost ×1 in `{list}`"), vec![reset]);
    }
}

fn wall_items(model: &Model, i: usize, ui: &mut Ui, out: &mut Out) {
    let Some(w) = model.doc.def().walls.get(i) else {
        return;
    };
    let set = |new| {
        Command::Edit(EditCommand::Apply(Edit::Set {
            index: i,
            old: Item::Wall(w.clone()),
            new: Item::Wall(new),
        }))
    };
    let mut door = w.clone();
    door.door = !w.door;
    act(
        ui,
        out,
        if w.door {
            "Make a plain wall"
        } else {
            "Make a door"
        },
        vec![set(door)],
    );
    if w.door {
        let mut open = w.clone();
        open.open = !w.open;
        act(
            ui,
            out,
            if w.open { "Start closed" } else { "Start open" },
            vec![set(open)],
        );
    }
}

fn agent_items(model: &Model, i: usize, ui: &mut Ui, out: &mut Out) {
    let scene = model.scene();
    let name = scene.name(i).to_owned();
    let archetype = scene.archetype(i).map(|(n, _)| n.to_owned());
    let mut act = |ui: &mut Ui, label: &str, what: Vec<Command>, intents: Vec<UiIntent>| {
        if ui.button(label).clicked() {
            for c in what {
                out.push(c);
            }
            for t in intents {
                out.ui(t);
            }
            ui.close();
        }
    };
    act(
        ui,
        "Why did it do that?",
        vec![Command::Select(SelectCommand::Set(vec![Sel::Agent(i)]))],
        vec![UiIntent::Focus(Pane::Why)],
    );
    act(
        ui,
        "Step to its next event",
        vec![
            Command::Select(SelectCommand::Set(vec![Sel::Agent(i)])),
            Command::Run(RunCommand::StepToEvent),
        ],
        vec![UiIntent::Focus(Pane::Why)],
    );
    let bp = |who: Who, on: &[Trigger]| {
        Command::Breakpoint(BreakpointCommand::Add(Breakpoint::new(
            who,
            on.iter().copied(),
        )))
    };
    act(
        ui,
        &format!("Break when {name}'s decision changes"),
        vec![bp(Who::Agent(name.clone()), &[Trigger::Decision])],
        vec![],
    );
    act(
        ui,
        &format!("Break on anything {name} senses or does"),
        vec![bp(Who::Agent(name.clone()), &Trigger::ALL)],
        vec![],
    );
    if let Some(a) = archetype {
        act(
            ui,
            &format!("Break when any {a} changes decision"),
            vec![bp(Who::Archetype(a), &[Trigger::Decision])],
            vec![],
        );
    }
}
