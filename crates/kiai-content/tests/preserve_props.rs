//! Random edits of the demos (numbers changed, items renamed, agents,
//! waypoints, links and walls added and removed, options toggled): the
//! saved text reads back to the edited content, only what changed was
//! rewritten, and every comment line survives unless it belonged to
//! something removed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

mod common;

use common::{demos, lost_comments, owned_lines};
use kiai_content::def::{
    AgentDef, ContentDef, LinkDef, MovementDef, ShapeDef, WallDef, WaypointDef,
};
use kiai_content::{Layout, SpanIndex, parse, to_ron_preserving};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    MoveAgent(u32, i8, i8),
    MoveWaypoint(u32, i8),
    ReshapeSense(u32, u32, i8),
    RenameAgent(u32),
    RenameArchetype(u32),
    AddAgent(u32, u32),
    RemoveAgent(u32),
    AddWaypoint(u32, i8),
    RemoveWaypoint(u32),
    AddLink(u32, u32),
    RemoveLink(u32),
    PaintLink(u32, u8),
    AddWall(u32, i8),
    RemoveWall(u32),
    ToggleActive(u32),
    ToggleTwoWay(u32),
    ToggleOccluded(u32, u32),
    TogglePlanar(u32),
    ToggleNoise(u32),
}

fn op() -> impl Strategy<Value = Op> {
    let n = any::<u32>;
    prop_oneof![
        (n(), any::<i8>(), any::<i8>()).prop_map(|(a, x, z)| Op::MoveAgent(a, x, z)),
        (n(), any::<i8>()).prop_map(|(a, x)| Op::MoveWaypoint(a, x)),
        (n(), n(), any::<i8>()).prop_map(|(a, s, d)| Op::ReshapeSense(a, s, d)),
        n().prop_map(Op::RenameAgent),
        n().prop_map(Op::RenameArchetype),
        (n(), n()).prop_map(|(a, b)| Op::AddAgent(a, b)),
        n().prop_map(Op::RemoveAgent),
        (n(), any::<i8>()).prop_map(|(a, x)| Op::AddWaypoint(a, x)),
        n().prop_map(Op::RemoveWaypoint),
        (n(), n()).prop_map(|(a, b)| Op::AddLink(a, b)),
        n().prop_map(Op::RemoveLink),
        (n(), 1..16u8).prop_map(|(a, c)| Op::PaintLink(a, c)),
        (n(), any::<i8>()).prop_map(|(a, x)| Op::AddWall(a, x)),
        n().prop_map(Op::RemoveWall),
        n().prop_map(Op::ToggleActive),
        n().prop_map(Op::ToggleTwoWay),
        (n(), n()).prop_map(|(a, s)| Op::ToggleOccluded(a, s)),
        n().prop_map(Op::TogglePlanar),
        n().prop_map(Op::ToggleNoise),
    ]
}

/// The content being edited, with the original index of every item of
/// the lists that lose items (`None`: added), and the lines whose comments
/// may go because what they belonged to was removed.
struct Edited<'a> {
    def: ContentDef,
    text: &'a str,
    spans: SpanIndex,
    agents: Vec<Option<usize>>,
    waypoints: Vec<Option<usize>>,
    links: Vec<Option<usize>>,
    walls: Vec<Option<usize>>,
    may_lose: Vec<usize>,
    serial: u32,
}

impl Edited<'_> {
    fn owned(&mut self, path: &str) {
        if self.spans.contains(path) {
            let lines = owned_lines(self.text, self.spans.pos(path).line);
            self.may_lose.extend(lines);
        }
    }

    fn removed(&mut self, list: &str, origin: Option<usize>) {
        if let Some(i) = origin {
            self.owned(&format!("{list}[{i}]"));
        }
    }

    /// A section emptied by removals goes whole, with every line in it.
    fn emptied(&mut self, list: &str, now_empty: bool) {
        if now_empty && self.spans.contains(list) {
            let from = self.spans.pos(list).line;
            let mut to = from;
            let mut i = 0;
            while self.spans.contains(&format!("{list}[{i}]")) {
                to = self.spans.pos(&format!("{list}[{i}]")).line;
                i += 1;
            }
            self.may_lose.extend(owned_lines(self.text, from));
            self.may_lose
                .extend((from as usize - 1)..=(to as usize).min(self.text.lines().count() - 1));
        }
    }

    fn name(&mut self) -> String {
        self.serial += 1;
        format!("edited_{}", self.serial)
    }

    fn remove_waypoint(&mut self, i: usize) {
        let id = self.def.waypoints[i].id;
        let origin = self.waypoints.remove(i);
        self.def.waypoints.remove(i);
        self.removed("waypoints", origin);
        let mut k = 0;
        while k < self.def.links.len() {
            let l = &self.def.links[k];
            if l.from == id || l.to == id {
                self.def.links.remove(k);
                let origin = self.links.remove(k);
                self.removed("links", origin);
            } else {
                k += 1;
            }
        }
        self.emptied("waypoints", self.def.waypoints.is_empty());
        self.emptied("links", self.def.links.is_empty());
    }

    fn apply(&mut self, op: &Op) {
        let d = &mut self.def;
        let pick = |n: u32, len: usize| (len > 0).then(|| n as usize % len);
        match *op {
            Op::MoveAgent(a, x, z) => {
                if let Some(i) = pick(a, d.agents.len()) {
                    d.agents[i].pos.0 += f32::from(x) / 4.0;
                    d.agents[i].pos.2 += f32::from(z) / 8.0;
                }
            }
            Op::MoveWaypoint(a, x) => {
                if let Some(i) = pick(a, d.waypoints.len()) {
                    d.waypoints[i].pos.1 += f32::from(x) / 2.0;
                }
            }
            Op::ReshapeSense(a, s, delta) => {
                if let Some(i) = pick(a, d.archetypes.len()) {
                    let senses = &mut d.archetypes.0[i].1.senses;
                    if let Some(k) = pick(s, senses.len()) {
                        let r = match &mut senses[k].shape {
                            ShapeDef::Sphere { radius: r }
                            | ShapeDef::Cone { range: r, .. }
                            | ShapeDef::Sector { range: r, .. }
                            | ShapeDef::Ellipse { a: r, .. }
                            | ShapeDef::Hearing { threshold: r, .. } => r,
                        };
                        *r += f32::from(delta);
                    }
                }
            }
            Op::RenameAgent(a) => {
                if let Some(i) = pick(a, d.agents.len()) {
                    let name = self.name();
                    self.def.agents[i].name = name;
                }
            }
            Op::RenameArchetype(a) => {
                if let Some(i) = pick(a, d.archetypes.len()) {
                    let name = self.name();
                    self.def.archetypes.0[i].0 = name;
                }
            }
            Op::AddAgent(template, at) => {
                if let Some(t) = pick(template, d.agents.len()) {
                    let at = at as usize % (d.agents.len() + 1);
                    let agent = AgentDef {
                        name: self.name(),
                        ..self.def.agents[t].clone()
                    };
                    self.def.agents.insert(at, agent);
                    self.agents.insert(at, None);
                }
            }
            Op::RemoveAgent(a) => {
                if let Some(i) = pick(a, d.agents.len()) {
                    d.agents.remove(i);
                    let origin = self.agents.remove(i);
                    self.removed("agents", origin);
                    self.emptied("agents", self.def.agents.is_empty());
                }
            }
            Op::AddWaypoint(at, x) => {
                let id = d.waypoints.iter().map(|w| w.id + 1).max().unwrap_or(0);
                let at = at as usize % (d.waypoints.len() + 1);
                d.waypoints.insert(
                    at,
                    WaypointDef {
                        id,
                        pos: (f32::from(x), 0.0, 1.5),
                        active: x % 3 != 0,
                        name: (x % 2 == 0).then(|| format!("wp{id}")),
                        tags: Vec::new(),
                    },
                );
                self.waypoints.insert(at, None);
            }
            Op::RemoveWaypoint(a) => {
                if let Some(i) = pick(a, d.waypoints.len()) {
                    self.remove_waypoint(i);
                }
            }
            Op::AddLink(a, b) => {
                if let (Some(i), Some(j)) = (pick(a, d.waypoints.len()), pick(b, d.waypoints.len()))
                {
                    let (from, to) = (d.waypoints[i].id, d.waypoints[j].id);
                    d.links.push(LinkDef {
                        from,
                        to,
                        costs: Default::default(),
                        two_way: a % 2 == 0,
                    });
                    self.links.push(None);
                }
            }
            Op::RemoveLink(a) => {
                if let Some(i) = pick(a, d.links.len()) {
                    d.links.remove(i);
                    let origin = self.links.remove(i);
                    self.removed("links", origin);
                    self.emptied("links", self.def.links.is_empty());
                }
            }
            Op::PaintLink(a, c) => {
                let list = d
                    .cost_lists
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "default".into());
                if let Some(i) = pick(a, d.links.len()) {
                    let costs = &mut d.links[i].costs.0;
                    match costs.iter_mut().find(|(k, _)| *k == list) {
                        Some((_, v)) => *v = f32::from(c) / 2.0,
                        None => costs.push((list, f32::from(c) / 2.0)),
                    }
                }
            }
            Op::AddWall(at, x) => {
                let at = at as usize % (d.walls.len() + 1);
                let x = f32::from(x);
                d.walls.insert(
                    at,
                    WallDef {
                        from: (x, 0.0),
                        to: (x, 5.0),
                        height: 3.0,
                        name: None,
                        door: false,
                        open: false,
                    },
                );
                self.walls.insert(at, None);
            }
            Op::RemoveWall(a) => {
                if let Some(i) = pick(a, d.walls.len()) {
                    d.walls.remove(i);
                    let origin = self.walls.remove(i);
                    self.removed("walls", origin);
                    self.emptied("walls", self.def.walls.is_empty());
                }
            }
            Op::ToggleActive(a) => {
                if let Some(i) = pick(a, d.waypoints.len()) {
                    d.waypoints[i].active = !d.waypoints[i].active;
                }
            }
            Op::ToggleTwoWay(a) => {
                if let Some(i) = pick(a, d.links.len()) {
                    d.links[i].two_way = !d.links[i].two_way;
                }
            }
            Op::ToggleOccluded(a, s) => {
                if let Some(i) = pick(a, d.archetypes.len()) {
                    let senses = &mut d.archetypes.0[i].1.senses;
                    if let Some(k) = pick(s, senses.len()) {
                        senses[k].occluded = !senses[k].occluded;
                    }
                }
            }
            Op::TogglePlanar(a) => {
                if let Some(i) = pick(a, d.archetypes.len())
                    && let MovementDef::Walker { planar, .. } = &mut d.archetypes.0[i].1.movement
                {
                    *planar = !*planar;
                }
            }
            Op::ToggleNoise(a) => {
                if let Some(i) = pick(a, d.archetypes.len()) {
                    let noise = &mut d.archetypes.0[i].1.noise;
                    *noise = match noise {
                        Some(_) => None,
                        None => Some(f32::from(a as u8) + 0.5),
                    };
                    // A removed field takes its comment lines.
                    self.owned(&format!("archetypes{{{i}}}.noise"));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_edits_read_back_and_keep_every_other_comment(
        demo in 0..6usize,
        ops in prop::collection::vec(op(), 1..12),
    ) {
        let demos = demos();
        let (name, text) = &demos[demo % demos.len()];
        let def = parse(text, name).unwrap();
        let mut e = Edited {
            agents: (0..def.agents.len()).map(Some).collect(),
            waypoints: (0..def.waypoints.len()).map(Some).collect(),
            links: (0..def.links.len()).map(Some).collect(),
            walls: (0..def.walls.len()).map(Some).collect(),
            def,
            text,
            spans: SpanIndex::new(text),
            may_lose: Vec::new(),
            serial: 0,
        };
        for op in &ops {
            e.apply(op);
        }
        let written = to_ron_preserving(text, &e.def).unwrap();
        prop_assert_eq!(written.layout, Layout::Kept, "{}: {:?}\n{}", name, ops, written.text);
        let back = parse(&written.text, name).unwrap();
        prop_assert_eq!(&back, &e.def, "{}: {:?}", name, ops);
        let lost = lost_comments(text, &written.text, &e.may_lose);
        prop_assert!(lost.is_empty(), "{}: {:?}: lost {:?}\n{}", name, ops, lost, written.text);
        // Saving the result again without a change gives it back unchanged.
        prop_assert_eq!(to_ron_preserving(&written.text, &e.def).unwrap().text, written.text);
    }
}
