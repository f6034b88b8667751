//! The tools as a small state machine of clicks and drags: each step reads
//! the model and says what it wants as commands. Drags preview their
//! result live ([`EditCommand::Preview`]) and record one undo step at
//! release ([`EditCommand::Record`]).

use std::collections::BTreeMap;

use eframe::egui::{Pos2, Rect, Vec2};
use kiai_content::def::{
    AgentDef, ArchetypeDef, ContentDef, LinkDef, RegionDef, WallDef, WaypointDef,
};

use super::handles::{self, Handle};
use super::paint::{to_scene, to_world};
use super::pick;
use crate::model::{
    AddCommand, Command, Edit, EditCommand, Item, Model, Sel, SelectCommand, SettingsCommand, Tool,
};
use crate::views::Out;

/// A drag under way.
#[derive(Clone, Debug, Default)]
pub enum Drag {
    /// Nothing.
    #[default]
    None,
    /// A box selection from a scene point.
    Box {
        /// Where it started.
        from: Pos2,
    },
    /// Selected waypoints, from where they were.
    Waypoints {
        /// Index and original of each.
        start: Vec<(usize, WaypointDef)>,
        /// Where the pointer grabbed them.
        grab: Pos2,
    },
    /// One agent.
    Agent {
        /// Its index.
        index: usize,
        /// Where it was.
        old: AgentDef,
        /// Agent minus pointer, scene units.
        offset: Vec2,
    },
    /// One agent's facing handle.
    Facing {
        /// Its index.
        index: usize,
        /// How it was.
        old: AgentDef,
    },
    /// A sense handle of the agent's archetype.
    Sense {
        /// The archetype's index.
        archetype: usize,
        /// It before the drag.
        old: (String, ArchetypeDef),
        /// Which handle.
        handle: Handle,
        /// The agent's eye and facing, world X-Z.
        pose: (Vec2, Vec2),
    },
    /// One end of a wall.
    WallEnd {
        /// The wall.
        index: usize,
        /// 0: from, 1: to.
        end: usize,
        /// It before the drag.
        old: WallDef,
    },
    /// One corner of a region.
    RegionCorner {
        /// The region.
        index: usize,
        /// The corner.
        corner: usize,
        /// It before the drag.
        old: RegionDef,
    },
    /// The paint brush: each link touched, before and now.
    Paint {
        /// Link index → (original, painted).
        touched: BTreeMap<usize, (LinkDef, LinkDef)>,
    },
    /// A link from a waypoint (content id) to where the pointer is.
    Link {
        /// The waypoint linked from.
        from: u32,
    },
}

/// The tools' state between frames.
#[derive(Clone, Debug, Default)]
pub struct Gesture {
    /// The drag under way.
    pub drag: Drag,
    /// Corners placed so far by the wall and region tools, world `(x, z)`.
    pub pending: Vec<(f32, f32)>,
    /// The waypoint the link tool links from.
    pub link_from: Option<u32>,
}

impl Gesture {
    /// Whether a gesture (drag, wall, region, link) is under way.
    pub fn is_busy(&self) -> bool {
        !matches!(self.drag, Drag::None) || !self.pending.is_empty() || self.link_from.is_some()
    }

    /// Abandons any gesture under way.
    pub fn cancel(&mut self) {
        self.drag = Drag::None;
        self.pending.clear();
        self.link_from = None;
    }
}

/// What one input step knows: the model, the pointer, the pick radius.
pub struct Input<'a> {
    /// The model, read-only.
    pub model: &'a Model,
    /// The pointer, scene coordinates.
    pub at: Pos2,
    /// Pick radius, scene units.
    pub pick_r: f32,
    /// Shift is held.
    pub shift: bool,
    /// Screen points per scene unit.
    pub zoom: f32,
}

impl Input<'_> {
    fn def(&self) -> &ContentDef {
        self.model.doc.def()
    }

    /// World `(x, z)` of the pointer, snapped when snapping is on.
    pub fn snapped(&self, p: Pos2) -> (f32, f32) {
        let (x, z) = to_world(p);
        let t = &self.model.tools;
        if t.snap && t.grid_step > 0.0 {
            let g = t.grid_step;
            (snap_to(x, g), snap_to(z, g))
        } else {
            (x, z)
        }
    }
}

/// `v` rounded to the nearest multiple of `step`, never `-0.0` (a saved
/// file would otherwise read `(-0.0, 0.0, 10.0)` for a point snapped on an axis).
fn snap_to(v: f32, step: f32) -> f32 {
    let s = (v / step).round() * step;
    if s == 0.0 { 0.0 } else { s }
}

/// A click with the active tool.
pub fn click(g: &mut Gesture, i: &Input<'_>, out: &mut Out) {
    let world = i.snapped(i.at);
    let m = i.model;
    match m.tools.tool {
        Tool::Select => select_click(i, out),
        Tool::Waypoint => out.push(Command::Add(AddCommand::Waypoint(world))),
        Tool::Link => {
            let Some(w) = pick::waypoint_at(i.def(), i.at, i.pick_r) else {
                g.link_from = None;
                return;
            };
            let id = i.def().waypoints[w].id;
            match g.link_from {
                Some(from) if from != id => {
                    out.push(Command::Edit(EditCommand::ToggleLink(from, id)));
                    g.link_from = Some(id);
                }
                Some(_) => g.link_from = None,
                None => g.link_from = Some(id),
            }
        }
        Tool::Paint => {
            let mut touched = BTreeMap::new();
            paint(i, &mut touched, out);
            record_paint(touched, out);
        }
        Tool::Wall => {
            if let Some(&from) = g.pending.first() {
                g.pending.clear();
                out.push(Command::Add(AddCommand::Wall(from, world)));
            } else {
                g.pending.push(world);
            }
        }
        Tool::Region => g.pending.push(world),
        Tool::Agent => out.push(Command::Add(AddCommand::Agent(world))),
        Tool::Path => {
            let Some(w) = pick::waypoint_at(i.def(), i.at, i.pick_r) else {
                return;
            };
            let id = i.def().waypoints[w].id;
            let mut tools = m.tools.clone();
            tools.path_pick = match tools.path_pick {
                (Some(a), None) => (Some(a), Some(id)),
                _ => (Some(id), None),
            };
            out.push(Command::Settings(SettingsCommand::Tools(Box::new(tools))));
        }
    }
}

/// What the select tool's click hits: the run's agents while it is live
/// (then the document's waypoints, walls, links and regions), else the
/// document's objects.
fn select_click(i: &Input<'_>, out: &mut Out) {
    let hit = super::menu::hit(i.model, i.at, i.pick_r);
    match (hit, i.shift) {
        (Some(sel), true) => out.push(Command::Select(SelectCommand::Toggle(sel))),
        (Some(sel), false) => out.push(Command::Select(SelectCommand::Set(vec![sel]))),
        (None, false) => out.push(Command::Select(SelectCommand::Clear)),
        (None, true) => {}
    }
}

/// Closes the region under way (Enter or a double click).
pub fn close_region(g: &mut Gesture, out: &mut Out) {
    let polygon = std::mem::take(&mut g.pending);
    out.push(Command::Add(AddCommand::Region(polygon)));
}

/// Starts a drag at scene point `i.at` (where the press began).
pub fn start(g: &mut Gesture, i: &Input<'_>, out: &mut Out) {
    let def = i.def();
    g.drag = match i.model.tools.tool {
        Tool::Select if i.model.is_live() => live_drag(i, out),
        Tool::Select => {
            if let Some(d) = handle_drag(i) {
                d
            } else if let Some(d) = corner_drag(i) {
                d
            } else {
                object_drag(i, out)
            }
        }
        Tool::Paint => Drag::Paint {
            touched: BTreeMap::new(),
        },
        Tool::Link => match pick::waypoint_at(def, i.at, i.pick_r) {
            Some(w) => Drag::Link {
                from: def.waypoints[w].id,
            },
            None => Drag::None,
        },
        _ => Drag::None,
    };
}

/// While the run is live: a waypoint under the press (and no agent of
/// the run) is dragged as while editing (the map then differs from the
/// run, and the transport bar says so); anything else starts a box.
fn live_drag(i: &Input<'_>, out: &mut Out) -> Drag {
    match super::menu::hit(i.model, i.at, i.pick_r) {
        Some(Sel::Waypoint(k)) => waypoint_drag(i, k, out),
        _ => Drag::Box { from: i.at },
    }
}

fn object_drag(i: &Input<'_>, out: &mut Out) -> Drag {
    let def = i.def();
    match pick::pick(def, i.at, i.pick_r) {
        Some(Sel::Agent(k)) => {
            if i.shift {
                out.push(Command::Select(SelectCommand::Add(vec![Sel::Agent(k)])));
            } else {
                out.push(Command::Select(SelectCommand::Set(vec![Sel::Agent(k)])));
            }
            let a = &def.agents[k];
            Drag::Agent {
                index: k,
                old: a.clone(),
                offset: to_scene(a.pos.0, a.pos.2) - i.at,
            }
        }
        Some(Sel::Waypoint(k)) => waypoint_drag(i, k, out),
        _ => Drag::Box { from: i.at },
    }
}

/// Drags waypoint `k` and, when it is selected, the other selected
/// waypoints (Shift adds it to the selection).
fn waypoint_drag(i: &Input<'_>, k: usize, out: &mut Out) -> Drag {
    let def = i.def();
    let mut moving = i.model.selection.waypoints();
    if !i.model.selection.contains(&Sel::Waypoint(k)) {
        if i.shift {
            out.push(Command::Select(SelectCommand::Add(vec![Sel::Waypoint(k)])));
            moving.push(k);
        } else {
            out.push(Command::Select(SelectCommand::Set(vec![Sel::Waypoint(k)])));
            moving = vec![k];
        }
    }
    Drag::Waypoints {
        start: moving
            .into_iter()
            .filter_map(|w| Some((w, def.waypoints.get(w)?.clone())))
            .collect(),
        grab: i.at,
    }
}

/// A handle of the selected agent's senses under the pointer.
fn handle_drag(i: &Input<'_>) -> Option<Drag> {
    let def = i.def();
    let agent = i.model.selection.agent()?;
    let a = def.agents.get(agent)?;
    let h = handles::handles(def, agent)
        .into_iter()
        .filter(|h| to_scene(h.at.0, h.at.1).distance(i.at) <= i.pick_r)
        .min_by(|x, y| {
            let d = |h: &Handle| to_scene(h.at.0, h.at.1).distance_sq(i.at);
            d(x).total_cmp(&d(y))
        })?;
    let pose = (Vec2::new(a.pos.0, a.pos.2), handles::facing_xz(a));
    Some(match h.sense {
        None => Drag::Facing {
            index: agent,
            old: a.clone(),
        },
        Some(_) => {
            let ai = def.archetypes.position(&a.archetype)?;
            Drag::Sense {
                archetype: ai,
                old: def.archetypes.0[ai].clone(),
                handle: h,
                pose,
            }
        }
    })
}

/// A wall end or region corner of the selection under the pointer.
fn corner_drag(i: &Input<'_>) -> Option<Drag> {
    let def = i.def();
    for sel in i.model.selection.iter() {
        match sel {
            Sel::Wall(k) => {
                let w = def.walls.get(k)?;
                for (end, at) in [w.from, w.to].into_iter().enumerate() {
                    if to_scene(at.0, at.1).distance(i.at) <= i.pick_r {
                        return Some(Drag::WallEnd {
                            index: k,
                            end,
                            old: w.clone(),
                        });
                    }
                }
            }
            Sel::Region(k) => {
                let r = def.regions.get(k)?;
                if let Some(corner) = r
                    .polygon
                    .iter()
                    .position(|&(x, z)| to_scene(x, z).distance(i.at) <= i.pick_r)
                {
                    return Some(Drag::RegionCorner {
                        index: k,
                        corner,
                        old: r.clone(),
                    });
                }
            }
            _ => {}
        }
    }
    None
}

/// The edit the drag makes with the pointer at `i.at`, from the originals
/// (`None` when the drag changes nothing).
fn dragged(drag: &Drag, i: &Input<'_>) -> Option<Edit> {
    let set = |index: usize, old: Item, new: Item| Edit::Set { index, old, new };
    Some(match drag {
        Drag::Waypoints { start, grab } => {
            let delta = i.at - *grab;
            Edit::Batch(
                start
                    .iter()
                    .map(|(k, w)| {
                        let (x, z) = i.snapped(to_scene(w.pos.0, w.pos.2) + delta);
                        let mut new = w.clone();
                        new.pos = (x, w.pos.1, z);
                        set(*k, Item::Waypoint(w.clone()), Item::Waypoint(new))
                    })
                    .collect(),
            )
        }
        Drag::Agent { index, old, offset } => {
            let (x, z) = i.snapped(i.at + *offset);
            let mut new = old.clone();
            new.pos = (x, old.pos.1, z);
            set(*index, Item::Agent(old.clone()), Item::Agent(new))
        }
        Drag::Facing { index, old } => {
            let (x, z) = to_world(i.at);
            let d = Vec2::new(x - old.pos.0, z - old.pos.2);
            if d.length() <= 1e-3 {
                return None;
            }
            let f = d.normalized();
            let mut new = old.clone();
            new.facing = (f.x, 0.0, f.y);
            set(*index, Item::Agent(old.clone()), Item::Agent(new))
        }
        Drag::Sense {
            archetype,
            old,
            handle,
            pose,
        } => {
            let si = handle.sense?;
            let sense = old.1.senses.get(si)?;
            let (x, z) = to_world(i.at);
            let shape =
                handles::drag_shape(sense.shape, handle.kind, pose.0, pose.1, Vec2::new(x, z));
            let mut new = old.clone();
            new.1.senses[si].shape = shape;
            set(
                *archetype,
                Item::archetype(old.0.clone(), old.1.clone()),
                Item::archetype(new.0, new.1),
            )
        }
        Drag::WallEnd { index, end, old } => {
            let at = i.snapped(i.at);
            let mut new = old.clone();
            if *end == 0 {
                new.from = at;
            } else {
                new.to = at;
            }
            set(*index, Item::Wall(old.clone()), Item::Wall(new))
        }
        Drag::RegionCorner { index, corner, old } => {
            let mut new = old.clone();
            *new.polygon.get_mut(*corner)? = i.snapped(i.at);
            set(*index, Item::Region(old.clone()), Item::Region(new))
        }
        Drag::Box { .. } | Drag::Paint { .. } | Drag::Link { .. } | Drag::None => return None,
    })
}

/// The pointer moved during a drag.
pub fn drag(g: &mut Gesture, i: &Input<'_>, out: &mut Out) {
    if let Drag::Paint { touched } = &mut g.drag {
        paint(i, touched, out);
        return;
    }
    if let Some(edit) = dragged(&g.drag, i) {
        out.push(Command::Edit(EditCommand::Preview(edit)));
    }
}

/// The drag ended with the pointer at `i.at`.
pub fn finish(g: &mut Gesture, i: &Input<'_>, out: &mut Out) {
    let drag = std::mem::take(&mut g.drag);
    if let Some(edit) = dragged(&drag, i) {
        out.push(Command::Edit(EditCommand::Preview(edit.clone())));
        out.push(Command::Edit(EditCommand::Record(edit)));
        return;
    }
    match drag {
        Drag::Paint { touched } => record_paint(touched, out),
        Drag::Box { from } => {
            let rect = Rect::from_two_pos(from, i.at);
            let scene = i.model.scene();
            let mut items: Vec<Sel> = (0..scene.len())
                .filter(|&k| {
                    let p = scene.pos(k);
                    scene.alive(k) && rect.contains(to_scene(p.x, p.z))
                })
                .map(Sel::Agent)
                .collect();
            if !i.model.is_live() {
                items.extend(
                    i.def()
                        .waypoints
                        .iter()
                        .enumerate()
                        .filter(|(_, w)| rect.contains(to_scene(w.pos.0, w.pos.2)))
                        .map(|(k, _)| Sel::Waypoint(k)),
                );
            }
            out.push(if i.shift {
                Command::Select(SelectCommand::Add(items))
            } else {
                Command::Select(SelectCommand::Set(items))
            });
        }
        Drag::Link { from } => {
            if let Some(w) = pick::waypoint_at(i.def(), i.at, i.pick_r) {
                out.push(Command::Edit(EditCommand::ToggleLink(
                    from,
                    i.def().waypoints[w].id,
                )));
            }
        }
        _ => {}
    }
}

/// Sets the current list's multiplier of the links under the brush at
/// `i.at` (Shift: back to 1), previewing; `touched` keeps each link's
/// original and its painted value.
fn paint(i: &Input<'_>, touched: &mut BTreeMap<usize, (LinkDef, LinkDef)>, out: &mut Out) {
    let radius = i.model.tools.brush_radius / i.zoom.max(1e-6);
    let list = i.model.current_list();
    let value = i.model.tools.brush_value;
    let def = i.def();
    let hits = pick::links_near(def, i.at, radius);
    let mut edits = Vec::new();
    for k in hits {
        let original = touched
            .get(&k)
            .map_or_else(|| def.links[k].clone(), |(o, _)| o.clone());
        let mut new = original.clone();
        new.costs.0.retain(|(name, _)| *name != list);
        if !i.shift {
            new.costs.0.push((list.clone(), value));
        }
        edits.push(Edit::Set {
            index: k,
            old: Item::Link(original.clone()),
            new: Item::Link(new.clone()),
        });
        touched.insert(k, (original, new));
    }
    if !edits.is_empty() {
        out.push(Command::Edit(EditCommand::Preview(Edit::Batch(edits))));
    }
}

fn record_paint(touched: BTreeMap<usize, (LinkDef, LinkDef)>, out: &mut Out) {
    let n = touched.len();
    let list = touched
        .values()
        .next()
        .and_then(|(_, new)| new.costs.0.last().map(|(k, _)| k.clone()));
    let edits: Vec<Edit> = touched
        .into_iter()
        .map(|(k, (old, new))| Edit::Set {
            index: k,
            old: Item::Link(old),
            new: Item::Link(new),
        })
        .collect();
    if edits.is_empty() {
        return;
    }
    out.push(Command::Edit(EditCommand::Preview(Edit::Batch(
        edits.clone(),
    ))));
    out.push(Command::Edit(EditCommand::Record(Edit::Batch(edits))));
    let what = crate::model::ops::count(n, "link", "links");
    out.push(Command::Say(match list {
        Some(list) => format!("painted {what} in `{list}`"),
        None => format!("reset {what} to ×1"),
    }));
}

#[cfg(test)]
mod tests {
    use super::snap_to;

    #[test]
    fn snapping_onto_an_axis_gives_positive_zero() {
        let s = snap_to(-0.3, 1.0);
        assert_eq!(s.to_bits(), 0.0f32.to_bits(), "{s}");
        assert_eq!(snap_to(-0.7, 1.0), -1.0);
        assert_eq!(snap_to(2.4, 0.5), 2.5);
    }
}
