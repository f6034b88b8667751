//! Tool bar, inspector, outliner, validation, profiles and cost lists.

use eframe::egui::{self, Color32, DragValue, RichText};
use kiai_content::def::{
    AgentDef, ArchetypeDef, BodyDef, FactionDef, FilterDef, LearningDef, LinkDef, MovementDef,
    ProfileDef, SenseDef, ShapeDef, WallDef, WaypointDef,
};

use crate::analysis;
use crate::app::{State, Tool};
use crate::doc::{Edit, Item, Sel};

/// The archetype new documents get: a short all-round sphere and a long
/// forward cone, walking at random.
pub fn default_archetype() -> ArchetypeDef {
    ArchetypeDef {
        senses: vec![
            SenseDef {
                name: "near".into(),
                shape: ShapeDef::Sphere { radius: 4.0 },
                filter: FilterDef::All,
                occluded: false,
                lose_range: None,
                memory_ticks: 0,
            },
            SenseDef {
                name: "eyes".into(),
                shape: ShapeDef::Cone {
                    range: 15.0,
                    fov_deg: 90.0,
                },
                filter: FilterDef::Hostile,
                occluded: true,
                lose_range: None,
                memory_ticks: 0,
            },
        ],
        movement: MovementDef::Walker {
            min_speed: 0.5,
            max_speed: 1.5,
            direction_change_factor: 20,
            planar: true,
        },
        body: BodyDef::Simulated,
        sight: None,
        profile: None,
        noise: None,
        decider: None,
        cost_list: None,
        separation: None,
        radius: None,
        avoidance: None,
        script: None,
    }
}

fn default_profile() -> ProfileDef {
    ProfileDef {
        chase: Some(1.0),
        evade: Some(1.0),
        entries: None,
        use_profile: 100.0,
        keep_decision: 0.0,
        learning: None,
    }
}

/// The tool bar: tools, snapping and each tool's options.
pub fn tool_bar(s: &mut State, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        for tool in Tool::ALL {
            let key = format!("{:?}", tool.key());
            let r = ui
                .selectable_label(s.tool == tool, tool.label())
                .on_hover_text(format!("{} ({key})", tool.help()));
            if r.clicked() {
                s.tool = tool;
                s.view.cancel();
            }
        }
        ui.separator();
        ui.checkbox(&mut s.snap, "Snap")
            .on_hover_text("Snap placed and dragged points to the grid (G)");
        ui.add(
            DragValue::new(&mut s.grid_step)
                .range(0.01..=1000.0)
                .speed(0.05)
                .prefix("grid "),
        )
        .on_hover_text("Grid spacing, world units");
        ui.separator();
        match s.tool {
            Tool::Link => {
                ui.checkbox(&mut s.two_way, "Two-way")
                    .on_hover_text("New links go both ways");
                auto_connect_controls(s, ui);
            }
            Tool::Waypoint | Tool::Select => auto_connect_controls(s, ui),
            Tool::Paint | Tool::Path => {
                cost_list_combo(s, ui);
                if s.tool == Tool::Paint {
                    ui.add(
                        DragValue::new(&mut s.brush_value)
                            .range(0.0..=100.0)
                            .speed(0.05)
                            .prefix("× "),
                    )
                    .on_hover_text("Multiplier painted (0 = free, 1 = length only)");
                    ui.add(
                        egui::Slider::new(&mut s.brush_radius, 4.0..=120.0)
                            .text("brush px"),
                    );
                }
                ui.checkbox(&mut s.heat_map, "Heat map");
            }
            Tool::Agent => {
                let def = s.doc.def();
                let archetypes: Vec<String> = def.archetypes.0.iter().map(|(n, _)| n.clone()).collect();
                let factions: Vec<String> = def.factions.iter().map(|f| f.name.clone()).collect();
                combo(ui, "archetype", &mut s.place_archetype, &archetypes);
                combo(ui, "faction", &mut s.place_faction, &factions);
            }
            Tool::Wall | Tool::Region => {
                if ui.button("Compute PVS").on_hover_text("Cast sample rays between regions against the walls and store what each sees").clicked() {
                    compute_pvs(s);
                }
            }
        }
    });
}

fn auto_connect_controls(s: &mut State, ui: &mut egui::Ui) {
    ui.add(
        DragValue::new(&mut s.connect_range)
            .range(0.1..=10_000.0)
            .speed(0.1)
            .prefix("range "),
    )
    .on_hover_text("Auto-connect range, world units");
    if ui
        .button("Auto-connect")
        .on_hover_text("Link selected waypoints (all when none is selected) within range that walls do not separate (J)")
        .clicked()
    {
        auto_connect(s);
    }
}

fn combo(ui: &mut egui::Ui, label: &str, value: &mut String, options: &[String]) {
    egui::ComboBox::from_label(label)
        .selected_text(value.as_str())
        .show_ui(ui, |ui| {
            for o in options {
                ui.selectable_value(value, o.clone(), o);
            }
        });
}

fn cost_list_combo(s: &mut State, ui: &mut egui::Ui) {
    let names = s.doc.cost_list_names();
    let current = s.current_list();
    egui::ComboBox::from_label("cost list")
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (i, n) in names.iter().enumerate() {
                ui.selectable_value(&mut s.cost_list, i, n);
            }
        });
}

/// Flips `active` of the selected waypoints (one step).
pub fn toggle_active(s: &mut State) {
    let def = s.doc.def();
    let edits: Vec<Edit> = s
        .selected_waypoints()
        .into_iter()
        .filter_map(|i| {
            let old = def.waypoints.get(i)?.clone();
            let mut new = old.clone();
            new.active = !new.active;
            Some(Edit::Set {
                index: i,
                old: Item::Waypoint(old),
                new: Item::Waypoint(new),
            })
        })
        .collect();
    if edits.is_empty() {
        s.say("select waypoints to toggle");
    } else {
        let n = edits.len();
        s.edit(Edit::Batch(edits));
        s.say(format!("toggled {n} waypoints"));
    }
}

/// Links waypoints within range that walls do not separate (the selected
/// ones, or all), one step.
pub fn auto_connect(s: &mut State) {
    let selected = s.selected_waypoints();
    let range = s.connect_range;
    let two_way = s.two_way;
    let result =
        s.with_occluders(|def, o| analysis::auto_connect(def, &selected, range, two_way, o));
    match result {
        Ok(links) => {
            let start = s.doc.def().links.len();
            let n = links.len();
            let edits = links
                .into_iter()
                .enumerate()
                .map(|(k, l)| Edit::Insert {
                    index: start + k,
                    item: Item::Link(l),
                })
                .collect();
            s.edit(Edit::Batch(edits));
            s.say(format!("auto-connect added {n} links within {range}"));
        }
        Err(e) => s.say(format!("auto-connect failed: {e}")),
    }
}

/// Fills every region's `sees` with sample-ray visibility, one step.
pub fn compute_pvs(s: &mut State) {
    let lists = analysis::compute_pvs(s.doc.def());
    let def = s.doc.def();
    let edits: Vec<Edit> = def
        .regions
        .iter()
        .zip(lists)
        .enumerate()
        .map(|(i, (r, sees))| {
            let mut new = r.clone();
            new.sees = Some(sees);
            Edit::Set {
                index: i,
                old: Item::Region(r.clone()),
                new: Item::Region(new),
            }
        })
        .collect();
    let n = edits.len();
    s.edit(Edit::Batch(edits));
    s.say(format!("computed the PVS of {n} regions"));
}

/// Deletes the selection (waypoints with their links), one step.
pub fn delete_selection(s: &mut State) {
    let def = s.doc.def();
    let mut edits = Vec::new();
    let waypoints = s.selected_waypoints();
    let mut links: Vec<usize> = s
        .selection
        .iter()
        .filter_map(|x| match x {
            Sel::Link(i) => Some(*i),
            _ => None,
        })
        .collect();
    // Links removed with their waypoints are not removed twice.
    let dying: std::collections::HashSet<u32> = waypoints
        .iter()
        .filter_map(|&i| def.waypoints.get(i).map(|w| w.id))
        .collect();
    links.retain(|&i| {
        def.links
            .get(i)
            .is_some_and(|l| !dying.contains(&l.from) && !dying.contains(&l.to))
    });
    links.sort_unstable();
    for &i in links.iter().rev() {
        edits.push(Edit::Remove {
            index: i,
            item: Item::Link(def.links[i].clone()),
        });
    }
    // The link indices shift after the removals above: compute the
    // waypoint edit on the content as it will be.
    let mut after = def.clone();
    for e in &edits {
        let _ = e.apply(&mut after);
    }
    let tmp = crate::doc::Document::new(after, None);
    if !waypoints.is_empty() {
        edits.push(tmp.remove_waypoints_edit(&waypoints));
    }
    let mut rest: Vec<Sel> = s
        .selection
        .iter()
        .copied()
        .filter(|x| !matches!(x, Sel::Waypoint(_) | Sel::Link(_)))
        .collect();
    rest.sort();
    for sel in rest.into_iter().rev() {
        let e = match sel {
            Sel::Wall(i) => def.walls.get(i).map(|w| (i, Item::Wall(w.clone()))),
            Sel::Region(i) => def.regions.get(i).map(|r| (i, Item::Region(r.clone()))),
            Sel::Agent(i) => def.agents.get(i).map(|a| (i, Item::Agent(a.clone()))),
            Sel::Archetype(i) => def
                .archetypes
                .0
                .get(i)
                .map(|(n, a)| (i, Item::archetype(n.clone(), a.clone()))),
            Sel::Profile(i) => def
                .profiles
                .0
                .get(i)
                .map(|(n, p)| (i, Item::profile(n.clone(), p.clone()))),
            Sel::Faction(i) => def.factions.get(i).map(|f| (i, Item::Faction(f.clone()))),
            Sel::Waypoint(_) | Sel::Link(_) => None,
        };
        if let Some((index, item)) = e {
            edits.push(Edit::Remove { index, item });
        }
    }
    if edits.is_empty() {
        return;
    }
    s.edit(Edit::Batch(edits));
    s.selection.clear();
    s.say("deleted");
}

/// Edits `value` (a copy of item `index`) with `add`; when it changed,
/// applies a `Set` (merged while the pointer is held).
fn edit_item<T: Clone + PartialEq>(
    s: &mut State,
    index: usize,
    old: &T,
    wrap: impl Fn(T) -> Item,
    add: impl FnOnce(&mut State, &mut T),
) {
    let mut value = old.clone();
    add(s, &mut value);
    if &value != old {
        s.edit(Edit::Set {
            index,
            old: wrap(old.clone()),
            new: wrap(value),
        });
    }
}

fn xyz(ui: &mut egui::Ui, v: &mut (f32, f32, f32), label: &str) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(DragValue::new(&mut v.0).speed(0.1).prefix("x "))
            .labelled_by(l.id);
        ui.add(DragValue::new(&mut v.1).speed(0.1).prefix("y "));
        ui.add(DragValue::new(&mut v.2).speed(0.1).prefix("z "));
    });
}

fn xz(ui: &mut egui::Ui, v: &mut (f32, f32), label: &str) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(DragValue::new(&mut v.0).speed(0.1).prefix("x "))
            .labelled_by(l.id);
        ui.add(DragValue::new(&mut v.1).speed(0.1).prefix("z "));
    });
}

/// Properties of the selection.
pub fn inspector(s: &mut State, ui: &mut egui::Ui) {
    let selection: Vec<Sel> = s.selection.iter().copied().collect();
    if selection.is_empty() {
        ui.weak("Nothing selected. Click an object on the map or in the outliner.");
        document_settings(s, ui);
        return;
    }
    if selection.len() > 1 {
        ui.label(format!("{} objects selected", selection.len()));
        let waypoints = s.selected_waypoints();
        if !waypoints.is_empty() {
            ui.horizontal(|ui| {
                if ui.button("Toggle active (T)").clicked() {
                    toggle_active(s);
                }
                if ui.button("Auto-connect (J)").clicked() {
                    auto_connect(s);
                }
            });
        }
        if ui.button("Delete (Del)").clicked() {
            delete_selection(s);
        }
        return;
    }
    let sel = selection[0];
    let def = light_clone(s.doc.def(), sel);
    match sel {
        Sel::Waypoint(i) => {
            let Some(w) = def.waypoints.get(i) else {
                return;
            };
            ui.heading(format!("Waypoint {}", w.id));
            edit_item(s, i, w, Item::Waypoint, |_, w: &mut WaypointDef| {
                xyz(ui, &mut w.pos, "pos");
                ui.checkbox(&mut w.active, "active")
                    .on_hover_text("Inactive waypoints are never entered (T)");
                let mut name = w.name.clone().unwrap_or_default();
                ui.horizontal(|ui| {
                    let l = ui.label("name");
                    ui.text_edit_singleline(&mut name).labelled_by(l.id);
                });
                w.name = (!name.is_empty()).then_some(name);
                let mut tags = w.tags.join(", ");
                ui.horizontal(|ui| {
                    let l = ui.label("tags");
                    ui.text_edit_singleline(&mut tags).labelled_by(l.id);
                });
                w.tags = tags
                    .split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(str::to_owned)
                    .collect();
            });
            ui.separator();
            ui.label("Links");
            let lists = s.doc.cost_list_names();
            for (li, l) in def.links.iter().enumerate() {
                if l.from == w.id || l.to == w.id {
                    let arrow = if l.two_way { "<->" } else { "->" };
                    let costs: Vec<String> = lists
                        .iter()
                        .map(|n| format!("{n} ×{}", l.costs.get(n).copied().unwrap_or(1.0)))
                        .collect();
                    if ui
                        .link(format!(
                            "{} {arrow} {}   {}",
                            l.from,
                            l.to,
                            costs.join(", ")
                        ))
                        .clicked()
                    {
                        s.selection.clear();
                        s.selection.insert(Sel::Link(li));
                    }
                }
            }
        }
        Sel::Link(i) => {
            let Some(l) = def.links.get(i) else { return };
            ui.heading(format!("Link {} -> {}", l.from, l.to));
            let lists = s.doc.cost_list_names();
            edit_item(s, i, l, Item::Link, |_, l: &mut LinkDef| {
                ui.checkbox(&mut l.two_way, "two-way");
                ui.label("Multipliers of the length, per cost list:");
                for n in &lists {
                    let mut m = l.costs.get(n).copied().unwrap_or(1.0);
                    ui.horizontal(|ui| {
                        let l = ui.label(n);
                        ui.add(DragValue::new(&mut m).range(0.0..=1000.0).speed(0.05))
                            .labelled_by(l.id);
                    });
                    l.costs.0.retain(|(k, _)| k != n);
                    if m != 1.0 {
                        l.costs.0.push((n.clone(), m));
                    }
                }
            });
        }
        Sel::Wall(i) => {
            let Some(w) = def.walls.get(i) else { return };
            ui.heading(format!("Wall {i}"));
            edit_item(s, i, w, Item::Wall, |_, w: &mut WallDef| {
                xz(ui, &mut w.from, "from");
                xz(ui, &mut w.to, "to");
                ui.horizontal(|ui| {
                    let l = ui.label("height");
                    ui.add(
                        DragValue::new(&mut w.height)
                            .range(0.01..=1000.0)
                            .speed(0.05),
                    )
                    .labelled_by(l.id);
                });
            });
        }
        Sel::Region(i) => {
            let Some(r) = def.regions.get(i) else { return };
            ui.heading(format!("Region {}", r.name));
            let names: Vec<String> = def.regions.iter().map(|r| r.name.clone()).collect();
            edit_item(s, i, r, Item::Region, |_, r| {
                ui.horizontal(|ui| {
                    let l = ui.label("name");
                    ui.text_edit_singleline(&mut r.name).labelled_by(l.id);
                });
                ui.label(format!(
                    "{} corners (drag them on the map)",
                    r.polygon.len()
                ));
                let mut authored = r.sees.is_some();
                ui.checkbox(&mut authored, "authored `sees` list")
                    .on_hover_text("Off: computed by sample rays at load");
                if authored {
                    let mut sees = r.sees.clone().unwrap_or_default();
                    for n in &names {
                        if *n == r.name {
                            continue;
                        }
                        let mut on = sees.contains(n);
                        if ui.checkbox(&mut on, format!("sees {n}")).changed() {
                            if on {
                                sees.push(n.clone());
                            } else {
                                sees.retain(|x| x != n);
                            }
                        }
                    }
                    r.sees = Some(sees);
                } else {
                    r.sees = None;
                }
            });
        }
        Sel::Agent(i) => {
            let Some(a) = def.agents.get(i) else { return };
            ui.heading(format!("Agent {}", a.name));
            let archetypes: Vec<String> = def.archetypes.0.iter().map(|(n, _)| n.clone()).collect();
            let factions: Vec<String> = def.factions.iter().map(|f| f.name.clone()).collect();
            edit_item(s, i, a, Item::Agent, |_, a: &mut AgentDef| {
                ui.horizontal(|ui| {
                    let l = ui.label("name");
                    ui.text_edit_singleline(&mut a.name).labelled_by(l.id);
                });
                combo(ui, "archetype", &mut a.archetype, &archetypes);
                combo(ui, "faction", &mut a.faction, &factions);
                xyz(ui, &mut a.pos, "pos");
                let mut angle = a.facing.2.atan2(a.facing.0).to_degrees();
                ui.horizontal(|ui| {
                    let l = ui.label("facing");
                    if ui
                        .add(DragValue::new(&mut angle).speed(1.0).suffix(" deg"))
                        .labelled_by(l.id)
                        .on_hover_text("Degrees from +X toward +Z; or drag the white handle")
                        .changed()
                    {
                        let r = angle.to_radians();
                        a.facing = (r.cos(), 0.0, r.sin());
                    }
                });
            });
            if let Some(ai) = def.archetypes.position(&a.archetype) {
                ui.separator();
                archetype_editor(s, ui, ai);
            }
            if let Some(sight) = s.sight() {
                let seen = sight.agents.iter().filter(|v| !v.is_empty()).count();
                ui.separator();
                ui.label(format!(
                    "Senses {seen} agents now ({} tiles in view).",
                    sight.tiles.len()
                ));
            }
        }
        Sel::Archetype(i) => archetype_editor(s, ui, i),
        Sel::Profile(i) => {
            s.profile = i;
            profiles(s, ui);
        }
        Sel::Faction(i) => {
            let Some(f) = def.factions.get(i) else { return };
            ui.heading(format!("Faction {}", f.name));
            let names: Vec<String> = def.factions.iter().map(|f| f.name.clone()).collect();
            edit_item(s, i, f, Item::Faction, |_, f: &mut FactionDef| {
                ui.horizontal(|ui| {
                    let l = ui.label("name");
                    ui.text_edit_singleline(&mut f.name).labelled_by(l.id);
                });
                for n in &names {
                    if *n == f.name {
                        continue;
                    }
                    let mut on = f.hostile.contains(n);
                    if ui.checkbox(&mut on, format!("hostile to {n}")).changed() {
                        if on {
                            f.hostile.push(n.clone());
                        } else {
                            f.hostile.retain(|x| x != n);
                        }
                    }
                }
            });
        }
    }
}

/// The document's top-level settings, copied for editing.
struct DocHead {
    name: String,
    seed: u64,
    tick_seconds: f32,
    bounds: Option<kiai_content::def::BoundsDef>,
    format: u32,
}

/// A copy of `def` for the inspector of `sel`: the large collections
/// (waypoints, links, agents) only when that inspector reads them.
fn light_clone(def: &kiai_content::def::ContentDef, sel: Sel) -> kiai_content::def::ContentDef {
    let (waypoints, links, agents) = match sel {
        Sel::Waypoint(_) => (true, true, false),
        Sel::Link(_) => (false, true, false),
        Sel::Agent(_) => (false, false, true),
        _ => (false, false, false),
    };
    let pick = |on: bool, v: &Vec<_>| if on { v.clone() } else { Vec::new() };
    kiai_content::def::ContentDef {
        name: def.name.clone(),
        seed: def.seed,
        tick_seconds: def.tick_seconds,
        bounds: def.bounds,
        factions: def.factions.clone(),
        cost_lists: def.cost_lists.clone(),
        waypoints: if waypoints {
            def.waypoints.clone()
        } else {
            Vec::new()
        },
        links: if links { def.links.clone() } else { Vec::new() },
        walls: def.walls.clone(),
        regions: def.regions.clone(),
        sounds: Vec::new(),
        fog: def.fog.clone(),
        perception_budget: def.perception_budget,
        profiles: def.profiles.clone(),
        archetypes: def.archetypes.clone(),
        agents: pick(agents, &def.agents),
        format: def.format,
    }
}

fn document_settings(s: &mut State, ui: &mut egui::Ui) {
    ui.separator();
    ui.heading("Document");
    let def = s.doc.def();
    let (old_name, old_seed, tick_seconds, old_bounds, format) = (
        def.name.clone(),
        def.seed,
        def.tick_seconds,
        def.bounds,
        def.format,
    );
    let def = DocHead {
        name: old_name,
        seed: old_seed,
        tick_seconds,
        bounds: old_bounds,
        format,
    };
    ui.label(format!("format {}", def.format));
    let mut name = def.name.clone();
    let mut seed = def.seed;
    ui.horizontal(|ui| {
        let l = ui.label("name");
        ui.text_edit_singleline(&mut name).labelled_by(l.id);
    });
    ui.horizontal(|ui| {
        let l = ui.label("seed");
        ui.add(DragValue::new(&mut seed)).labelled_by(l.id);
    });
    if name != def.name || seed != def.seed {
        s.edit(Edit::Set {
            index: 0,
            old: Item::Meta(def.name.clone(), def.seed, def.tick_seconds),
            new: Item::Meta(name, seed, def.tick_seconds),
        });
    }
    let mut bounds = def.bounds;
    let mut on = bounds.is_some();
    ui.checkbox(&mut on, "bounds");
    if on {
        let b = bounds.get_or_insert(kiai_content::def::BoundsDef {
            min: (-50.0, -10.0, -50.0),
            max: (50.0, 10.0, 50.0),
        });
        xyz(ui, &mut b.min, "min");
        xyz(ui, &mut b.max, "max");
    } else {
        bounds = None;
    }
    if bounds != def.bounds {
        s.edit(Edit::Set {
            index: 0,
            old: Item::Bounds(def.bounds),
            new: Item::Bounds(bounds),
        });
    }
}

fn shape_name(shape: &ShapeDef) -> &'static str {
    match shape {
        ShapeDef::Sphere { .. } => "Sphere",
        ShapeDef::Cone { .. } => "Cone",
        ShapeDef::Sector { .. } => "Sector",
        ShapeDef::Ellipse { .. } => "Ellipse",
        ShapeDef::Hearing { .. } => "Hearing",
    }
}

fn archetype_editor(s: &mut State, ui: &mut egui::Ui, index: usize) {
    let def = s.doc.def();
    let profiles: Vec<String> = def.profiles.0.iter().map(|(n, _)| n.clone()).collect();
    let Some((name, arch)) = def.archetypes.0.get(index).cloned() else {
        return;
    };
    let (name, arch) = (&name, &arch);
    ui.heading(format!("Archetype {name}"));
    let lists = s.doc.cost_list_names();
    let old = (name.clone(), arch.clone());
    edit_item(
        s,
        index,
        &old,
        |(n, a)| Item::archetype(n, a),
        |_, (name, a)| {
            ui.horizontal(|ui| {
                let l = ui.label("name");
                ui.text_edit_singleline(name).labelled_by(l.id);
            });
            let mut profile = a.profile.clone().unwrap_or_default();
            let mut options = vec![String::new()];
            options.extend(profiles.iter().cloned());
            combo(ui, "profile", &mut profile, &options);
            a.profile = (!profile.is_empty()).then_some(profile);
            let mut list = a.cost_list.clone().unwrap_or_default();
            let mut options = vec![String::new()];
            options.extend(lists.iter().cloned());
            combo(ui, "cost list", &mut list, &options);
            a.cost_list = (!list.is_empty()).then_some(list);
            ui.label(RichText::new("Senses").strong());
            let mut remove = None;
            for (k, sense) in a.senses.iter_mut().enumerate() {
                egui::CollapsingHeader::new(format!(
                    "{} ({})",
                    sense.name,
                    shape_name(&sense.shape)
                ))
                .id_salt(("sense", k))
                .default_open(true)
                .show(ui, |ui| {
                    sense_editor(ui, sense);
                    if ui.small_button("remove sense").clicked() {
                        remove = Some(k);
                    }
                });
            }
            if let Some(k) = remove {
                a.senses.remove(k);
            }
            ui.horizontal(|ui| {
                for (label, shape) in [
                    ("+ sphere", ShapeDef::Sphere { radius: 5.0 }),
                    (
                        "+ cone",
                        ShapeDef::Cone {
                            range: 15.0,
                            fov_deg: 90.0,
                        },
                    ),
                    (
                        "+ sector",
                        ShapeDef::Sector {
                            range: 15.0,
                            fov_deg: 90.0,
                            max_height_diff: 2.0,
                        },
                    ),
                    (
                        "+ ellipse",
                        ShapeDef::Ellipse {
                            a: 10.0,
                            b: 4.0,
                            center_ahead: 6.0,
                        },
                    ),
                    (
                        "+ hearing",
                        ShapeDef::Hearing {
                            threshold: 1.0,
                            falloff: Default::default(),
                        },
                    ),
                ] {
                    if ui.small_button(label).clicked() {
                        let n = crate::doc::unique_name(
                            |n| a.senses.iter().any(|s| s.name == n),
                            "sense",
                        );
                        a.senses.push(SenseDef {
                            name: n,
                            shape,
                            filter: FilterDef::All,
                            occluded: false,
                            lose_range: None,
                            memory_ticks: 0,
                        });
                    }
                }
            });
        },
    );
}

fn sense_editor(ui: &mut egui::Ui, sense: &mut SenseDef) {
    ui.horizontal(|ui| {
        let l = ui.label("name");
        ui.text_edit_singleline(&mut sense.name).labelled_by(l.id);
    });
    let dv = |ui: &mut egui::Ui, v: &mut f32, label: &str, max: f32| {
        ui.horizontal(|ui| {
            let l = ui.label(label);
            ui.add(DragValue::new(v).range(0.0..=max).speed(0.05))
                .labelled_by(l.id);
        });
    };
    match &mut sense.shape {
        ShapeDef::Sphere { radius } => dv(ui, radius, "radius", 1e4),
        ShapeDef::Cone { range, fov_deg } => {
            dv(ui, range, "range", 1e4);
            dv(ui, fov_deg, "fov (deg)", 360.0);
        }
        ShapeDef::Sector {
            range,
            fov_deg,
            max_height_diff,
        } => {
            dv(ui, range, "range", 1e4);
            dv(ui, fov_deg, "fov (deg)", 360.0);
            dv(ui, max_height_diff, "max height diff", 1e4);
        }
        ShapeDef::Ellipse { a, b, center_ahead } => {
            dv(ui, a, "a", 1e4);
            dv(ui, b, "b", 1e4);
            ui.horizontal(|ui| {
                let l = ui.label("centre ahead");
                ui.add(DragValue::new(center_ahead).speed(0.05))
                    .labelled_by(l.id);
            });
        }
        ShapeDef::Hearing { threshold, .. } => dv(ui, threshold, "threshold", 1e6),
    }
    egui::ComboBox::from_id_salt(("filter", sense.name.as_str()))
        .selected_text(format!("{:?}", sense.filter))
        .show_ui(ui, |ui| {
            for f in [FilterDef::All, FilterDef::Hostile, FilterDef::Friendly] {
                ui.selectable_value(&mut sense.filter, f, format!("{f:?}"));
            }
        });
    ui.checkbox(&mut sense.occluded, "occluded by walls");
    let mut lose = sense.lose_range.is_some();
    ui.horizontal(|ui| {
        ui.checkbox(&mut lose, "lose range");
        if lose {
            let v = sense.lose_range.get_or_insert(0.0);
            ui.add(DragValue::new(v).range(0.0..=1e4).speed(0.05));
        } else {
            sense.lose_range = None;
        }
    });
    ui.horizontal(|ui| {
        let l = ui.label("memory ticks");
        ui.add(DragValue::new(&mut sense.memory_ticks))
            .labelled_by(l.id);
    });
}

/// Every object by collection; click to select.
pub fn outliner(s: &mut State, ui: &mut egui::Ui) {
    let mut clicked = None;
    {
        let def = s.doc.def();
        let row_h = ui.text_style_height(&egui::TextStyle::Body);
        let mut list = |ui: &mut egui::Ui,
                        title: &str,
                        n: usize,
                        label: &dyn Fn(usize) -> String,
                        sel: fn(usize) -> Sel,
                        selection: &std::collections::BTreeSet<Sel>| {
            egui::CollapsingHeader::new(format!("{title} ({n})"))
                .id_salt(title)
                .default_open(n > 0 && n <= 50)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt(title)
                        .max_height(240.0)
                        .show_rows(ui, row_h, n, |ui, rows| {
                            for i in rows {
                                if ui
                                    .selectable_label(selection.contains(&sel(i)), label(i))
                                    .clicked()
                                {
                                    clicked = Some(sel(i));
                                }
                            }
                        });
                });
        };
        let selection = &s.selection;
        list(
            ui,
            "Waypoints",
            def.waypoints.len(),
            &|i| {
                let w = &def.waypoints[i];
                format!("{} {}", w.id, w.name.as_deref().unwrap_or(""))
            },
            Sel::Waypoint,
            selection,
        );
        list(
            ui,
            "Links",
            def.links.len(),
            &|i| {
                let l = &def.links[i];
                format!(
                    "{} {} {}",
                    l.from,
                    if l.two_way { "<->" } else { "->" },
                    l.to
                )
            },
            Sel::Link,
            selection,
        );
        list(
            ui,
            "Walls",
            def.walls.len(),
            &|i| format!("wall {i}"),
            Sel::Wall,
            selection,
        );
        list(
            ui,
            "Regions",
            def.regions.len(),
            &|i| def.regions[i].name.clone(),
            Sel::Region,
            selection,
        );
        list(
            ui,
            "Agents",
            def.agents.len(),
            &|i| {
                let a = &def.agents[i];
                format!("{} ({}, {})", a.name, a.archetype, a.faction)
            },
            Sel::Agent,
            selection,
        );
        list(
            ui,
            "Archetypes",
            def.archetypes.len(),
            &|i| def.archetypes.0[i].0.clone(),
            Sel::Archetype,
            selection,
        );
        list(
            ui,
            "Profiles",
            def.profiles.len(),
            &|i| def.profiles.0[i].0.clone(),
            Sel::Profile,
            selection,
        );
        list(
            ui,
            "Factions",
            def.factions.len(),
            &|i| def.factions[i].name.clone(),
            Sel::Faction,
            selection,
        );
    }
    let lists = s.doc.cost_list_names();
    egui::CollapsingHeader::new(format!("Cost lists ({})", lists.len()))
        .id_salt("Cost lists outliner")
        .default_open(true)
        .show(ui, |ui| {
            for (i, n) in lists.iter().enumerate() {
                if ui
                    .selectable_label(s.cost_list == i, n)
                    .on_hover_text("Paint and preview this list")
                    .clicked()
                {
                    s.cost_list = i;
                }
            }
        });
    if let Some(sel) = clicked {
        if ui.input(|i| i.modifiers.shift) {
            if !s.selection.remove(&sel) {
                s.selection.insert(sel);
            }
        } else {
            s.selection.clear();
            s.selection.insert(sel);
        }
    }
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        if ui.button("+ archetype").clicked() {
            let def = s.doc.def();
            let name = crate::doc::unique_name(|n| def.archetypes.get(n).is_some(), "archetype");
            let index = def.archetypes.len();
            s.edit(Edit::Insert {
                index,
                item: Item::archetype(name, default_archetype()),
            });
            s.selection.clear();
            s.selection.insert(Sel::Archetype(index));
        }
        if ui.button("+ profile").clicked() {
            let def = s.doc.def();
            let name = crate::doc::unique_name(|n| def.profiles.get(n).is_some(), "profile");
            let index = def.profiles.len();
            s.edit(Edit::Insert {
                index,
                item: Item::profile(name, default_profile()),
            });
            s.profile = index;
        }
        if ui.button("+ faction").clicked() {
            let def = s.doc.def();
            let name =
                crate::doc::unique_name(|n| def.factions.iter().any(|f| f.name == n), "faction");
            let index = def.factions.len();
            s.edit(Edit::Insert {
                index,
                item: Item::Faction(FactionDef {
                    name,
                    hostile: Vec::new(),
                }),
            });
        }
    });
}

/// kiai-content's diagnostics; click one to select its object.
pub fn validation(s: &mut State, ui: &mut egui::Ui) {
    if s.findings.1.is_empty() {
        ui.label(RichText::new("No problems").color(Color32::from_rgb(120, 200, 120)));
        return;
    }
    let errors = s
        .findings
        .1
        .iter()
        .filter(|f| f.diagnostic.is_error())
        .count();
    ui.label(format!(
        "{errors} errors, {} warnings{}",
        s.findings.1.len() - errors,
        if s.findings.0 != s.doc.revision() {
            " (checking...)"
        } else {
            ""
        }
    ));
    // Only the visible rows are laid out: a map can have 100k warnings.
    let row = ui.text_style_height(&egui::TextStyle::Monospace) + ui.spacing().item_spacing.y;
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(
            ui,
            row - ui.spacing().item_spacing.y,
            s.findings.1.len(),
            |ui, rows| {
                for f in &s.findings.1[rows] {
                    let colour = if f.diagnostic.is_error() {
                        Color32::from_rgb(240, 110, 100)
                    } else {
                        Color32::from_rgb(230, 190, 90)
                    };
                    let text = RichText::new(f.diagnostic.to_string())
                        .color(colour)
                        .monospace();
                    let r = ui.add(egui::Label::new(text).sense(egui::Sense::click()));
                    let r = match f.target {
                        Some(t) => r.on_hover_text(format!("select {t:?}")),
                        None => r,
                    };
                    if r.clicked() {
                        clicked = f.target;
                    }
                }
            },
        );
    if let Some(t) = clicked
        && t.exists(s.doc.def())
    {
        s.selection.clear();
        s.selection.insert(t);
    }
}

/// Profile sliders and the chart of the decisions they produce.
pub fn profiles(s: &mut State, ui: &mut egui::Ui) {
    let def = kiai_content::def::ContentDef {
        profiles: s.doc.def().profiles.clone(),
        ..crate::doc::empty_def()
    };
    if def.profiles.is_empty() {
        ui.weak("No profiles. Add one in the outliner (+ profile).");
        return;
    }
    s.profile = s.profile.min(def.profiles.len() - 1);
    let names: Vec<String> = def.profiles.0.iter().map(|(n, _)| n.clone()).collect();
    egui::ComboBox::from_label("profile")
        .selected_text(names[s.profile].as_str())
        .show_ui(ui, |ui| {
            for (i, n) in names.iter().enumerate() {
                ui.selectable_value(&mut s.profile, i, n);
            }
        });
    let index = s.profile;
    let (name, profile) = def.profiles.0[index].clone();
    let old = (name, profile);
    edit_item(
        s,
        index,
        &old,
        |(n, p)| Item::profile(n, p),
        |_, (name, p)| {
            ui.horizontal(|ui| {
                let l = ui.label("name");
                ui.text_edit_singleline(name).labelled_by(l.id);
            });
            let mut chase = p.chase.unwrap_or(1.0);
            let mut evade = p.evade.unwrap_or(1.0);
            if p.entries.is_none() {
                ui.add(egui::Slider::new(&mut chase, 0.0..=100.0).text("chase weight"));
                ui.add(egui::Slider::new(&mut evade, 0.0..=100.0).text("evade weight"));
                p.chase = Some(chase);
                p.evade = Some(evade);
            } else {
                ui.label("weights from the seed's entries table");
            }
            ui.add(egui::Slider::new(&mut p.use_profile, 0.0..=100.0).text("use profile %"))
                .on_hover_text("Otherwise the fixed rule: evade beats chase");
            ui.add(egui::Slider::new(&mut p.keep_decision, 0.0..=100.0).text("keep decision %"))
                .on_hover_text("Chance to keep the last contested decision");
            let mut learn = p.learning.is_some();
            ui.checkbox(&mut learn, "learning");
            if learn {
                let l = p.learning.get_or_insert(LearningDef {
                    rate: 0.1,
                    min_weight: 0.1,
                    max_weight: 100.0,
                    catch_distance: 1.0,
                });
                ui.add(egui::Slider::new(&mut l.rate, 0.0..=1.0).text("rate"));
                ui.add(egui::Slider::new(&mut l.min_weight, 0.0..=100.0).text("min weight"));
                ui.add(egui::Slider::new(&mut l.max_weight, 0.0..=1000.0).text("max weight"));
                ui.add(
                    egui::Slider::new(&mut l.catch_distance, 0.0..=100.0).text("catch distance"),
                );
            } else {
                p.learning = None;
            }
        },
    );
    let key = (s.doc.revision(), index);
    if s.shares.as_ref().is_none_or(|(k, _)| *k != key)
        && let Some((_, p)) = s.doc.def().profiles.0.get(index)
    {
        s.shares = Some((key, analysis::decision_shares(p, 4000, 7)));
    }
    let Some((_, shares)) = s.shares else {
        return;
    };
    ui.separator();
    ui.label("Decisions, sampled from the runtime's decider (4,000 per situation):");
    let colours = [
        Color32::from_rgb(150, 150, 150),
        Color32::from_rgb(230, 90, 80),
        Color32::from_rgb(90, 150, 240),
    ];
    let situations = ["can chase", "can evade", "can both"];
    let states = ["random walk", "chase", "evade"];
    egui_plot::Plot::new("decision-shares")
        .height(180.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(1.0)
        .legend(egui_plot::Legend::default())
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && (0.0..3.0).contains(&i) {
                situations[i as usize].to_owned()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            for (k, state) in states.iter().enumerate() {
                let bars = (0..3)
                    .map(|row| {
                        egui_plot::Bar::new(
                            row as f64 + (k as f64 - 1.0) * 0.25,
                            shares[row][k] as f64,
                        )
                        .width(0.22)
                    })
                    .collect();
                plot.bar_chart(egui_plot::BarChart::new(*state, bars).color(colours[k]));
            }
        });
    ui.label(format!(
        "can both: chase {:.0} %, evade {:.0} %",
        shares[2][1] * 100.0,
        shares[2][2] * 100.0
    ));
}

/// Cost lists: pick, add, rename, delete; the heat map and path preview.
pub fn cost_lists(s: &mut State, ui: &mut egui::Ui) {
    let names = s.doc.cost_list_names();
    let declared = !s.doc.def().cost_lists.is_empty();
    for (i, n) in names.iter().enumerate() {
        if ui.radio(s.cost_list == i, n).clicked() {
            s.cost_list = i;
            s.rename = n.clone();
        }
    }
    ui.checkbox(&mut s.heat_map, "heat map of the current list (M)");
    ui.horizontal(|ui| {
        let l = ui.label("list");
        ui.text_edit_singleline(&mut s.rename).labelled_by(l.id);
        let name = s.rename.trim().to_owned();
        let valid = !name.is_empty() && !names.contains(&name);
        if ui.add_enabled(valid, egui::Button::new("Add")).clicked() {
            add_list(s, &name, declared);
        }
        if ui
            .add_enabled(valid && declared, egui::Button::new("Rename"))
            .on_hover_text("Renames the current list and every reference to it")
            .clicked()
        {
            rename_list(s, &name);
        }
    });
    if ui
        .add_enabled(
            declared && names.len() > 1,
            egui::Button::new("Delete current list"),
        )
        .clicked()
    {
        delete_list(s);
    }
    ui.separator();
    ui.label(RichText::new("Path preview").strong());
    ui.weak("Path tool (H): click a start and a goal waypoint.");
    let list = s.current_list();
    if let Some(p) = s.path_preview().cloned() {
        if let Some(e) = &p.error {
            ui.label(e);
        }
        match p.astar_cost {
            Some(c) => ui.label(
                RichText::new(format!(
                    "A* ({list}): cost {c:.2}, {} waypoints",
                    p.astar.len()
                ))
                .color(Color32::from_rgb(80, 230, 120)),
            ),
            None => ui.label("A*: no route"),
        };
        ui.label(
            RichText::new(format!(
                "greedy walk: {} waypoints, {}",
                p.greedy.len(),
                if p.greedy_arrived { "arrives" } else { "stuck" }
            ))
            .color(Color32::from_rgb(255, 160, 40)),
        );
    }
}

/// Adds the cost list `name`. When no list was declared yet and costs
/// were painted on the implicit `default` list, `default` is declared
/// first so those costs keep their meaning.
pub fn add_list(s: &mut State, name: &str, declared: bool) {
    let mut edits = Vec::new();
    let mut index = s.doc.def().cost_lists.len();
    let default_used = s
        .doc
        .def()
        .links
        .iter()
        .any(|l| l.costs.get(kiai_content::DEFAULT_COST_LIST).is_some());
    if !declared && default_used {
        edits.push(Edit::Insert {
            index: 0,
            item: Item::CostList(kiai_content::DEFAULT_COST_LIST.to_owned()),
        });
        index = 1;
    }
    edits.push(Edit::Insert {
        index,
        item: Item::CostList(name.to_owned()),
    });
    s.edit(Edit::Batch(edits));
    s.cost_list = index;
    s.say(format!("added cost list `{name}`"));
}

/// Renames the current list in `cost_lists`, every link's costs and every
/// archetype's `cost_list`, one step.
pub fn rename_list(s: &mut State, new: &str) {
    let old = s.current_list();
    let def = s.doc.def();
    let Some(li) = def.cost_lists.iter().position(|n| *n == old) else {
        return;
    };
    let mut edits = vec![Edit::Set {
        index: li,
        old: Item::CostList(old.clone()),
        new: Item::CostList(new.to_owned()),
    }];
    for (i, l) in def.links.iter().enumerate() {
        if l.costs.get(&old).is_some() {
            let mut n = l.clone();
            for (k, _) in &mut n.costs.0 {
                if *k == old {
                    *k = new.to_owned();
                }
            }
            edits.push(Edit::Set {
                index: i,
                old: Item::Link(l.clone()),
                new: Item::Link(n),
            });
        }
    }
    for (i, (name, a)) in def.archetypes.0.iter().enumerate() {
        if a.cost_list.as_deref() == Some(old.as_str()) {
            let mut n = a.clone();
            n.cost_list = Some(new.to_owned());
            edits.push(Edit::Set {
                index: i,
                old: Item::archetype(name.clone(), a.clone()),
                new: Item::archetype(name.clone(), n),
            });
        }
    }
    s.edit(Edit::Batch(edits));
    s.say(format!("renamed `{old}` to `{new}`"));
}

/// Deletes the current list with its costs; archetypes using it fall back
/// to the first list. One step.
pub fn delete_list(s: &mut State) {
    let old = s.current_list();
    let def = s.doc.def();
    let Some(li) = def.cost_lists.iter().position(|n| *n == old) else {
        return;
    };
    let mut edits = Vec::new();
    for (i, l) in def.links.iter().enumerate() {
        if l.costs.get(&old).is_some() {
            let mut n = l.clone();
            n.costs.0.retain(|(k, _)| *k != old);
            edits.push(Edit::Set {
                index: i,
                old: Item::Link(l.clone()),
                new: Item::Link(n),
            });
        }
    }
    for (i, (name, a)) in def.archetypes.0.iter().enumerate() {
        if a.cost_list.as_deref() == Some(old.as_str()) {
            let mut n = a.clone();
            n.cost_list = None;
            edits.push(Edit::Set {
                index: i,
                old: Item::archetype(name.clone(), a.clone()),
                new: Item::archetype(name.clone(), n),
            });
        }
    }
    edits.push(Edit::Remove {
        index: li,
        item: Item::CostList(old.clone()),
    });
    s.edit(Edit::Batch(edits));
    s.cost_list = 0;
    s.say(format!("deleted cost list `{old}`"));
}
