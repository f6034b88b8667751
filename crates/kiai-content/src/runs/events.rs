//! Events files: changes to a running world on a schedule, for tests and
//! pipelines (`kiai run|perceive|fog FILE --events EVENTS.ron`).
//!
//! ```ron
//! (events: [
//!     (tick: 10, do: Despawn(agent: "g1")),
//!     (tick: 10, do: Spawn(name: "r1", archetype: "guard", faction: "red",
//!                          pos: (1.0, 0.0, 2.0), facing: (1.0, 0.0, 0.0))),
//!     (tick: 12, do: Move(agent: "g2", pos: (3.0, 0.0, 4.0))),
//!     (tick: 20, do: Door(wall: "door_1", open: true)),
//!     (tick: 25, do: BlockLink(from: 3, to: 4, blocked: true)),
//!     (tick: 25, do: SetWaypointActive(id: 7, active: false)),
//!     (tick: 30, do: Sound(pos: (0.0, 0.0, 0.0), volume: 50.0, tag: 1)),
//!     (tick: 40, do: Walk(agent: "g2", path: [(3.0, 0.0, 4.0), (10.0, 0.0, 4.0)], speed: 2.0)),
//!     (tick: 50, do: Interest(points: [(0.0, 0.0, 0.0)])),
//!     (tick: 50, do: InterestAgent(agent: "g2", on: true)),
//! ])
//! ```
//!
//! A `Walk` moves an agent along a polyline, one step per tick at `speed`
//! world units per second (the content's `tick_seconds` per tick), as a
//! game moves its player: it is expanded into one move per tick when the
//! file is loaded.
//!
//! An event with `tick: t` is applied after `t` ticks have run, before the
//! next one; events of one tick in file order. Everything an event names is
//! checked against the content when the file is loaded, with
//! `file:line:col` diagnostics: archetypes, factions, walls, waypoints and
//! links, and agents (the content's, and those spawned by earlier events,
//! minus those despawned).

use std::collections::BTreeSet;
use std::path::Path;

use kiai_core::glam::Vec3;
use kiai_core::nav::WaypointId;
use kiai_core::perception::hearing::{NO_SOURCE, Sound};
use kiai_core::{AgentSpawn, ArchetypeId, FactionId, World};
use serde::{Deserialize, Serialize};

use crate::format::def::{ContentDef, Vec3Def};
use crate::format::diag::{Diagnostic, Diagnostics};
use crate::format::locate::{Pos, SpanIndex};
use crate::load::Content;
use crate::read::parse::parse_as;

/// An events file as written.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EventsDef {
    /// The events, in any tick order (applied by tick, then file order).
    pub events: Vec<EventDef>,
}

impl EventsDef {
    /// Parses events `text` (from `file`) without checking it against
    /// content (see [`Schedule::from_def`]).
    pub fn from_str(text: &str, file: &str) -> Result<Self, Diagnostics> {
        parse_as(text, file)
    }
}

/// One scheduled change.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EventDef {
    /// Applied after this many ticks have run.
    pub tick: u64,
    /// What changes.
    #[serde(rename = "do")]
    pub action: ActionDef,
}

fn yes() -> bool {
    true
}

/// What an event changes.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub enum ActionDef {
    /// An agent joins the world.
    Spawn {
        /// Its name (unique among the live agents by then).
        name: String,
        /// An archetype of the content.
        archetype: String,
        /// A faction of the content.
        faction: String,
        /// Where, world units.
        pos: Vec3Def,
        /// Which way it faces (default +X; not zero).
        #[serde(default)]
        facing: Option<Vec3Def>,
    },
    /// A live agent leaves the world.
    Despawn {
        /// Its name.
        agent: String,
    },
    /// A live agent is put somewhere (the game moved it).
    Move {
        /// Its name.
        agent: String,
        /// Where, world units.
        pos: Vec3Def,
    },
    /// A named wall opens or closes.
    Door {
        /// The wall's name.
        wall: String,
        /// `true` opens it (it hides nothing and stops nobody).
        open: bool,
    },
    /// A waypoint link (one direction) is blocked or unblocked.
    BlockLink {
        /// The waypoint id it leaves.
        from: u32,
        /// The waypoint id it enters.
        to: u32,
        /// Blocked (default true) or open again.
        #[serde(default = "yes")]
        blocked: bool,
    },
    /// A waypoint is switched on or off.
    SetWaypointActive {
        /// Its id.
        id: u32,
        /// Whether walkers may enter it.
        active: bool,
    },
    /// A live agent walks along a polyline, as a game moves its player:
    /// put on the first point at the event's tick, then one step of
    /// `speed * tick_seconds` along the path after every tick, facing the
    /// way it goes, until the last point.
    Walk {
        /// Its name.
        agent: String,
        /// The points, world units (at least one).
        path: Vec<Vec3Def>,
        /// World units per second, > 0.
        speed: f32,
    },
    /// A sound nobody made, heard at the next sense stage.
    Sound {
        /// Where, world units.
        pos: Vec3Def,
        /// Loudness at the source, >= 0.
        volume: f32,
        /// The game's tag (default 0).
        #[serde(default)]
        tag: u32,
    },
    /// The fixed points of interest of the tick level of detail become
    /// these (replacing the content's `interest` and earlier events'; an
    /// empty list leaves only the agents that are points of interest).
    Interest {
        /// The points, world units.
        points: Vec<Vec3Def>,
    },
    /// A live agent becomes a point of interest of the tick level of
    /// detail wherever it stands (the player), or no longer is one.
    InterestAgent {
        /// Its name.
        agent: String,
        /// On (default true) or off.
        #[serde(default = "yes")]
        on: bool,
    },
}

/// An event with what it names resolved.
#[derive(Clone, Debug, PartialEq)]
enum Change {
    Spawn(AgentSpawn),
    Despawn(String),
    Move(String, Vec3),
    /// A step of a walk: position and the way it faces (zero: unchanged).
    Step(String, Vec3, Vec3),
    Door(usize, bool),
    BlockLink(WaypointId, WaypointId, bool),
    SetWaypointActive(WaypointId, bool),
    Sound(Sound),
    Interest(Vec<Vec3>),
    InterestAgent(String, bool),
}

/// A loaded events file: its changes by tick, ready to apply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    /// `(tick, change)`, by tick, file order within a tick.
    changes: Vec<(u64, Change)>,
    /// How many are applied.
    applied: usize,
}

impl Schedule {
    /// Reads and checks the events file at `path` against `content`.
    pub fn load(path: &Path, content: &Content) -> Result<Self, Diagnostics> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            Diagnostics(vec![Diagnostic::error(
                &file,
                Pos { line: 1, column: 1 },
                format!("cannot read the events file: {e}"),
            )])
        })?;
        Self::from_str(&text, &file, content)
    }

    /// Parses and checks events `text` (from `file`) against `content`.
    pub fn from_str(text: &str, file: &str, content: &Content) -> Result<Self, Diagnostics> {
        let def: EventsDef = parse_as(text, file)?;
        let spans = SpanIndex::new(text);
        Self::from_def(&def.events, &content.to_def(), file, &spans)
    }

    /// Checks `events` against the content `def` and resolves them.
    /// Diagnostics point into `file` through `spans` at `events[i]` (the
    /// events of an events file, or of a scenario file's `events`).
    pub fn from_def(
        events: &[EventDef],
        def: &ContentDef,
        file: &str,
        spans: &SpanIndex,
    ) -> Result<Self, Diagnostics> {
        let mut check = Checker::new(def, file, spans);
        let mut order: Vec<usize> = (0..events.len()).collect();
        order.sort_by_key(|&i| events[i].tick);
        let mut changes = Vec::with_capacity(order.len());
        for i in order {
            let e = &events[i];
            check.tick = e.tick;
            if let ActionDef::Walk { agent, path, speed } = &e.action {
                changes.extend(check.walk(i, agent, path, *speed));
                continue;
            }
            if let Some(c) = check.resolve(i, &e.action) {
                changes.push((e.tick, c));
            }
        }
        // Walks interleave with later events: by tick, stable.
        changes.sort_by_key(|(tick, _)| *tick);
        if check.problems.is_empty() {
            Ok(Self {
                changes,
                applied: 0,
            })
        } else {
            Err(Diagnostics(check.problems))
        }
    }

    /// Number of events.
    pub fn len(&self) -> usize {
        self.changes.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Makes the schedule continue from a world that has run `tick` ticks
    /// and has had the events of the ticks before applied (a snapshot taken
    /// right after tick `tick` ran): the events of `tick` and later are
    /// applied again by [`Schedule::apply_due`].
    pub fn rewind(&mut self, tick: u64) {
        self.applied = self.changes.partition_point(|(t, _)| *t < tick);
    }

    /// Applies every event not yet applied whose tick is at most the number
    /// of ticks `world` has run (call it before each tick, and before a
    /// report). Returns what could not be applied (an agent a script
    /// despawned first, say), one line each.
    pub fn apply_due(&mut self, world: &mut World) -> Vec<String> {
        let mut skipped = Vec::new();
        while let Some((tick, change)) = self.changes.get(self.applied) {
            if *tick > world.tick() {
                break;
            }
            self.applied += 1;
            if let Err(e) = apply(world, change) {
                skipped.push(format!("tick {tick}: {e}"));
            }
        }
        skipped
    }
}

/// Applies one change to `world`.
fn apply(world: &mut World, change: &Change) -> Result<(), String> {
    let live = |world: &World, name: &str| {
        world
            .agents()
            .find(name)
            .ok_or_else(|| format!("no agent `{name}` is in the world"))
    };
    let done = match change {
        Change::Spawn(s) => world.spawn(s.clone()).map(|_| ()),
        Change::Despawn(name) => world.despawn(live(world, name)?),
        Change::Move(name, pos) => {
            let id = live(world, name)?;
            world.set_position(id, *pos);
            Ok(())
        }
        Change::Step(name, pos, facing) => {
            let id = live(world, name)?;
            world.set_position(id, *pos);
            if *facing != Vec3::ZERO {
                world.facings_mut()[id.index()] = *facing;
            }
            Ok(())
        }
        Change::Door(wall, open) => world.set_wall_enabled(*wall, !open),
        Change::BlockLink(from, to, blocked) => world.set_link_blocked(*from, *to, *blocked),
        Change::SetWaypointActive(id, active) => world.set_waypoint_active(*id, *active),
        Change::Sound(s) => {
            world.emit_sound(*s);
            Ok(())
        }
        Change::Interest(points) => {
            world.set_interest_points(points.iter().copied());
            Ok(())
        }
        Change::InterestAgent(name, on) => world.set_interest_agent(live(world, name)?, *on),
    };
    done.map_err(|e| e.to_string())
}

/// Resolves events against the content, collecting problems.
struct Checker<'a> {
    file: &'a str,
    spans: &'a SpanIndex,
    archetypes: Vec<String>,
    factions: Vec<String>,
    walls: Vec<Option<String>>,
    nav: Option<crate::build::nav::NavMap>,
    /// The agents alive at the event being checked.
    agents: BTreeSet<String>,
    /// The tick of the event being checked.
    tick: u64,
    /// Seconds per tick (walks' steps).
    tick_seconds: f32,
    problems: Vec<Diagnostic>,
}

/// Most steps one walk may take (ticks).
pub const MAX_WALK_TICKS: u64 = 1_000_000;

impl<'a> Checker<'a> {
    fn new(def: &ContentDef, file: &'a str, spans: &'a SpanIndex) -> Self {
        Self {
            file,
            spans,
            archetypes: def.archetypes.iter().map(|(n, _)| n.to_owned()).collect(),
            factions: def.factions.iter().map(|f| f.name.clone()).collect(),
            walls: def.walls.iter().map(|w| w.name.clone()).collect(),
            nav: crate::build::nav::build_nav(def)
                .ok()
                .filter(|_| !def.waypoints.is_empty()),
            agents: def.agents.iter().map(|a| a.name.clone()).collect(),
            tick: 0,
            tick_seconds: def.tick_seconds,
            problems: Vec::new(),
        }
    }

    /// A walk as one step per tick from the event's tick on.
    fn walk(&mut self, i: usize, agent: &str, path: &[Vec3Def], speed: f32) -> Vec<(u64, Change)> {
        if !self.live_agent(i, "agent", agent) {
            return Vec::new();
        }
        if !(speed.is_finite() && speed > 0.0) {
            self.problem(
                i,
                "speed",
                format!("speed must be a finite number > 0, not {speed}"),
            );
            return Vec::new();
        }
        let mut points = Vec::with_capacity(path.len());
        for p in path {
            match self.point(i, "path", *p) {
                Some(v) => points.push(v),
                None => return Vec::new(),
            }
        }
        let Some(&first) = points.first() else {
            self.problem(i, "path", "a walk needs at least one point".to_owned());
            return Vec::new();
        };
        let step = f64::from(speed) * f64::from(self.tick_seconds.max(1e-6));
        let length: f64 = points
            .windows(2)
            .map(|w| f64::from(w[0].distance(w[1])))
            .sum();
        let ticks = (length / step).ceil() as u64;
        if ticks > MAX_WALK_TICKS {
            self.problem(
                i,
                "speed",
                format!(
                    "this walk takes {ticks} ticks; at most {MAX_WALK_TICKS} (raise the speed or shorten the path)"
                ),
            );
            return Vec::new();
        }
        let heading = |a: Vec3, b: Vec3| (b - a).try_normalize().unwrap_or(Vec3::ZERO);
        let first_facing = points.get(1).map_or(Vec3::ZERO, |&b| heading(first, b));
        let mut out = vec![(
            self.tick,
            Change::Step(agent.to_owned(), first, first_facing),
        )];
        let (mut leg, mut along) = (0usize, 0.0f64);
        for k in 1..=ticks {
            let mut left = step;
            while leg + 1 < points.len() {
                let len = f64::from(points[leg].distance(points[leg + 1]));
                if along + left <= len {
                    along += left;
                    break;
                }
                left -= len - along;
                leg += 1;
                along = 0.0;
            }
            let (pos, facing) = match points.get(leg + 1) {
                Some(&b) => {
                    let a = points[leg];
                    let len = f64::from(a.distance(b)).max(f64::MIN_POSITIVE);
                    (a.lerp(b, (along / len) as f32), heading(a, b))
                }
                None => (points[points.len() - 1], Vec3::ZERO),
            };
            out.push((self.tick + k, Change::Step(agent.to_owned(), pos, facing)));
        }
        out
    }

    fn problem(&mut self, i: usize, field: &str, message: String) {
        let path = format!("events[{i}].do.{field}");
        let at = if self.spans.contains(&path) {
            self.spans.pos(&path)
        } else {
            self.spans.pos(&format!("events[{i}]"))
        };
        self.problems
            .push(Diagnostic::error(self.file, at, message));
    }

    /// The index of `name` in `names`, or a problem with a hint.
    fn find(
        &mut self,
        i: usize,
        field: &str,
        what: &str,
        names: &[String],
        name: &str,
    ) -> Option<usize> {
        let found = names.iter().position(|n| n == name);
        if found.is_none() {
            let hint = crate::format::diag::hint(name, names.iter().map(String::as_str));
            self.problem(i, field, format!("unknown {what} `{name}`{hint}"));
        }
        found
    }

    /// Whether an agent called `name` is in the world when event `i` (of
    /// tick `tick`) is applied.
    fn live_agent(&mut self, i: usize, field: &str, name: &str) -> bool {
        let live = self.agents.contains(name);
        if !live {
            let hint = crate::format::diag::hint(name, self.agents.iter().map(String::as_str));
            let tick = self.tick;
            self.problem(
                i,
                field,
                format!("no agent `{name}` is in the world at tick {tick}{hint}"),
            );
        }
        live
    }

    fn waypoint(&mut self, i: usize, field: &str, id: u32) -> Option<WaypointId> {
        let found = self.nav.as_ref().and_then(|n| n.waypoint(id));
        if found.is_none() {
            self.problem(i, field, format!("unknown waypoint id {id}"));
        }
        found
    }

    fn resolve(&mut self, i: usize, action: &ActionDef) -> Option<Change> {
        match action {
            ActionDef::Spawn {
                name,
                archetype,
                faction,
                pos,
                facing,
            } => self.spawn(i, name, archetype, faction, (*pos, *facing)),
            ActionDef::Despawn { agent } => {
                self.live_agent(i, "agent", agent).then_some(())?;
                self.agents.remove(agent);
                Some(Change::Despawn(agent.clone()))
            }
            ActionDef::Move { agent, pos } => {
                let p = self.point(i, "pos", *pos)?;
                self.live_agent(i, "agent", agent)
                    .then(|| Change::Move(agent.clone(), p))
            }
            ActionDef::Door { wall, open } => {
                let names: Vec<String> = self.walls.iter().flatten().cloned().collect();
                if names.is_empty() {
                    let m = format!(
                        "unknown wall `{wall}`: the content names no walls \
                         (give one `name: \"{wall}\"`)"
                    );
                    self.problem(i, "wall", m);
                    return None;
                }
                self.find(i, "wall", "wall", &names, wall)?;
                let index = self.walls.iter().position(|w| w.as_deref() == Some(wall))?;
                Some(Change::Door(index, *open))
            }
            ActionDef::BlockLink { from, to, blocked } => self.link(i, (*from, *to), *blocked),
            ActionDef::SetWaypointActive { id, active } => {
                let w = self.waypoint(i, "id", *id)?;
                Some(Change::SetWaypointActive(w, *active))
            }
            ActionDef::Walk { agent, path, speed } => {
                let steps = self.walk(i, agent, path, *speed);
                steps.into_iter().next().map(|(_, c)| c)
            }
            ActionDef::Sound { pos, volume, tag } => {
                let p = self.point(i, "pos", *pos)?;
                if !(volume.is_finite() && *volume >= 0.0) {
                    self.problem(
                        i,
                        "volume",
                        format!("volume must be a finite number >= 0, not {volume}"),
                    );
                    return None;
                }
                Some(Change::Sound(Sound {
                    position: p,
                    volume: *volume,
                    source: NO_SOURCE,
                    tag: *tag,
                }))
            }
            ActionDef::Interest { points } => {
                let mut out = Vec::with_capacity(points.len());
                for (k, &p) in points.iter().enumerate() {
                    out.push(self.point(i, &format!("points[{k}]"), p)?);
                }
                Some(Change::Interest(out))
            }
            ActionDef::InterestAgent { agent, on } => self
                .live_agent(i, "agent", agent)
                .then(|| Change::InterestAgent(agent.clone(), *on)),
        }
    }

    fn point(&mut self, i: usize, field: &str, p: Vec3Def) -> Option<Vec3> {
        let v = Vec3::new(p.0, p.1, p.2);
        if !v.is_finite() {
            self.problem(i, field, format!("{field} must be finite, not {v}"));
            return None;
        }
        Some(v)
    }

    fn spawn(
        &mut self,
        i: usize,
        name: &str,
        archetype: &str,
        faction: &str,
        (pos, facing): (Vec3Def, Option<Vec3Def>),
    ) -> Option<Change> {
        let archetypes = self.archetypes.clone();
        let factions = self.factions.clone();
        let a = self.find(i, "archetype", "archetype", &archetypes, archetype);
        let f = self.find(i, "faction", "faction", &factions, faction);
        let p = self.point(i, "pos", pos);
        let facing = match facing {
            None => Some(Vec3::X),
            Some(d) => match self.point(i, "facing", d) {
                Some(v) if v == Vec3::ZERO => {
                    let m = "facing must not be zero: it is a direction";
                    self.problem(i, "facing", m.into());
                    None
                }
                other => other,
            },
        };
        if self.agents.contains(name) {
            self.problem(
                i,
                "name",
                format!("an agent called `{name}` is already in the world"),
            );
            return None;
        }
        let spawn = AgentSpawn {
            name: name.to_owned(),
            archetype: ArchetypeId::from_index(a?),
            faction: FactionId::from_index(f?),
            position: p?,
            facing: facing?,
        };
        self.agents.insert(name.to_owned());
        Some(Change::Spawn(spawn))
    }

    fn link(&mut self, i: usize, (from, to): (u32, u32), blocked: bool) -> Option<Change> {
        let (a, b) = (self.waypoint(i, "from", from)?, self.waypoint(i, "to", to)?);
        let exists = self
            .nav
            .as_ref()
            .is_some_and(|n| n.graph.find_link(a, b).is_some());
        if !exists {
            self.problem(
                i,
                "from",
                format!("there is no link from waypoint {from} to {to}"),
            );
            return None;
        }
        Some(Change::BlockLink(a, b, blocked))
    }
}
