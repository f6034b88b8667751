//! A big order on a big map: 1,000 waypoint walkers with A* routes sent
//! across the generated 90,000-waypoint project (`content::project(300)`)
//! at once, as an RTS player does with "select all, move there".
//!
//! Three runs of the same agents and goals, ticked in lockstep so that
//! load from other processes hits all three alike:
//! - ours: the navigate stage's route queue at the default budget;
//! - the peer: the same stage without a budget (every route found in the
//!   tick it is asked for, as the stage did before the queue);
//! - the yardstick: the same agents walking straight to their goals
//!   without the graph (`Walker` movement), the tick a game would have
//!   without navigation.
//!
//! Two cases: every agent to one goal (the far corner: one shared
//! distance field) and every agent to its own far goal (its start
//! mirrored through the map's centre: a search each). Figures are
//! milliseconds per tick over the run, the first tick included.

use kiai_content::Content;
use kiai_core::glam::Vec3;
use kiai_core::{
    BehaviourState, Decider, Decision, Mind, Pipeline, Stage, TickTimes, World, state_hash,
};

use crate::{Effort, Scenario};

/// Sends agent `i` to `goals[i]`, every tick.
struct GoTo {
    goals: Vec<Vec3>,
}

impl Decider for GoTo {
    fn decide(&mut self, _world: &World, _minds: &mut [Mind], out: &mut [Decision]) {
        for (d, goal) in out.iter_mut().zip(&self.goals) {
            *d = Decision {
                state: BehaviourState::Chase,
                target: None,
                goal: Some(*goal),
            };
        }
    }
}

/// The generated project's archetype movement, to replace.
const MOVEMENT: &str =
    "movement: Walker(min_speed: 0.5, max_speed: 1.5, direction_change_factor: 20, planar: true)";

/// The generated project with `side` x `side` waypoints, its agents moving
/// by `movement` (RON), as a world.
fn world(side: u32, movement: &str) -> Result<World, String> {
    let text = crate::content::project(side);
    if !text.contains(MOVEMENT) {
        return Err("big order: the generated project's movement changed".into());
    }
    let text = text.replace(MOVEMENT, &format!("movement: {movement}"));
    let content = Content::from_str(&text, "generated.ron").map_err(|d| d.to_string())?;
    content.world(None).map_err(|e| e.to_string())
}

/// Each agent's goal: the far corner, or its start mirrored through the
/// map's centre (on the grid).
fn goals(world: &World, side: u32, one: bool) -> Vec<Vec3> {
    let far = (side - 1) as f32 * 4.0;
    world
        .agents()
        .positions()
        .iter()
        .map(|p| {
            if one {
                Vec3::new(far, 0.0, far)
            } else {
                let snap = |v: f32| (v / 4.0).round() * 4.0;
                Vec3::new(far - snap(p.x), 0.0, far - snap(p.z))
            }
        })
        .collect()
}

/// One run's figures.
struct Run {
    world: World,
    pipeline: Pipeline,
    times: TickTimes,
}

impl Run {
    fn new(world: World) -> Self {
        Self {
            world,
            pipeline: Pipeline::new(),
            times: TickTimes::new(),
        }
    }

    fn tick(&mut self, decider: &mut GoTo) {
        self.pipeline.tick(&mut self.world, decider);
        self.times.push(*self.pipeline.timings());
    }
}

/// The figures of one case, ticked `ticks` times.
struct Case {
    ours: Run,
    peer: Run,
    straight: Run,
    /// Walkers of ours whose position changed in tick 1.
    moved: usize,
    /// Walkers of ours waiting for a route after tick 1.
    waiting: usize,
    /// The first tick after which none of ours waited.
    served_by: Option<u64>,
}

fn run_case(side: u32, one: bool, ticks: u32) -> Result<Case, String> {
    let walker = "WaypointWalker(speed: 3.0, route: AStar)";
    let mut ours = Run::new(world(side, walker)?);
    let mut peer = Run::new(world(side, walker)?);
    peer.world.set_route_budget(None);
    let straight_movement =
        "Walker(min_speed: 3.0, max_speed: 3.0, direction_change_factor: 20, planar: true)";
    let mut straight = Run::new(world(side, straight_movement)?);
    let mut decider = GoTo {
        goals: goals(&ours.world, side, one),
    };
    let start: Vec<Vec3> = ours.world.agents().positions().to_vec();
    let (mut moved, mut waiting, mut served_by) = (0, 0, None);
    for t in 1..=u64::from(ticks) {
        ours.tick(&mut decider);
        peer.tick(&mut decider);
        straight.tick(&mut decider);
        if t == 1 {
            let now = ours.world.agents().positions();
            moved = now.iter().zip(&start).filter(|(a, b)| a != b).count();
            waiting = ours.world.routes_waiting();
        }
        if served_by.is_none() && ours.world.routes_waiting() == 0 {
            served_by = Some(t);
        }
    }
    Ok(Case {
        ours,
        peer,
        straight,
        moved,
        waiting,
        served_by,
    })
}

/// The scenarios: for each case, the worst tick and the median tick,
/// ours against the unbudgeted stage. Fails when a walker did not move in
/// tick 1 or a run is not deterministic across the two thread counts.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let (side, ticks) = if effort.quick { (150, 30) } else { (300, 60) };
    let mut out = Vec::new();
    for (one, what) in [(true, "one goal"), (false, "own far goals")] {
        let c = run_case(side, one, ticks)?;
        let agents = c.ours.world.agents().live_count();
        if c.moved != agents {
            return Err(format!(
                "big order ({what}): {} of {agents} walkers moved in tick 1",
                c.moved
            ));
        }
        let (o, p, s) = (
            c.ours.times.tick(),
            c.peer.times.tick(),
            c.straight.times.tick(),
        );
        let worst_nav = c.ours.times.stage(Stage::Navigate).max;
        let served = c.served_by.map_or(
            format!("still {} waiting", c.ours.world.routes_waiting()),
            |t| format!("all served by tick {t}"),
        );
        let name = format!(
            "walkers/{agents} across {}k waypoints, {what}",
            side * side / 1000
        );
        let note = format!(
            "ms per tick over {ticks} ticks (first included): ours p50 {:.2} p99 {:.2} max {:.2} (navigate max {worst_nav:.2}); unbudgeted p50 {:.2} max {:.2}; walked straight p50 {:.2} max {:.2}; ours max / straight p50 {:.2}, / straight max {:.2} (goal <= 3); {agents} of {agents} moved in tick 1, {} waited after it, {served}; hash {:016x}",
            o.p50,
            o.p99,
            o.max,
            p.p50,
            p.max,
            s.p50,
            s.max,
            o.max / s.p50,
            o.max / s.max,
            c.waiting,
            state_hash(&c.ours.world),
        );
        out.push(Scenario {
            name: format!("{name}, worst tick"),
            ours_ms: o.max,
            peer: "unbudgeted stage".into(),
            peer_ms: p.max,
            note: note.clone(),
        });
        out.push(Scenario {
            name: format!("{name}, median tick"),
            ours_ms: o.p50,
            peer: "unbudgeted stage".into(),
            peer_ms: p.p50,
            note: "the same runs' median ticks".into(),
        });
    }
    Ok(out)
}
