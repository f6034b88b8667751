//! 1,000 walkers across 90,000 waypoints: the generated project
//! (`content::project(300)`) with its agents as
//! `WaypointWalker(speed: 3.0, route: AStar)`, all sent across the map at
//! once, as an RTS player does with "select all, move there".
//!
//! Three runs of the same agents and goals, ticked in lockstep so that
//! load from other processes hits all three alike:
//! - ours: the navigate stage's route queue at the default budget
//!   ([`DEFAULT_ROUTE_BUDGET`] waypoints expanded a tick);
//! - the peer: the same stage without a budget (every route found in the
//!   tick it is asked for, as the stage did before the queue);
//! - the yardstick: the same agents walking straight to their goals
//!   without the graph (`Walker` movement, which arrives at a goal that is
//!   not an agent), the tick a game would have without navigation. The
//!   goal: no tick of ours over 3x the straight walk's median tick.
//!
//! Two cases: every agent to one goal (the far corner waypoint: one shared
//! distance field) and every agent to its own far goal (its start mirrored
//! through the map's centre, on the grid: a search each). Each is run as a
//! game scripts it (a Lua `decide` returning `"investigate"` with the goal,
//! every agent every tick: the scripted tick, the issue's own setup) and
//! with a Rust decider (a far cheaper tick, so a stricter yardstick).
//! Figures are milliseconds per tick over the run, the first tick
//! included; the goal is measured twice: the first tick against the
//! straight walk's first tick (both pay for a cold start), every later
//! tick against the straight walk's median tick.

use kiai_content::Content;
use kiai_core::glam::Vec3;
use kiai_core::{
    BehaviourState, DEFAULT_ROUTE_BUDGET, Decider, Decision, Mind, Pipeline, Stage, StageTimings,
    TickTimes, World, state_hash,
};

use crate::{Effort, Scenario};

/// Waypoint spacing of the generated project's grid, in world units.
const SPACING: f32 = 4.0;

/// The map side (waypoints per row) and ticks of the check that the
/// queue's run is the same at 1 and 2 threads: the quick size, cheap.
const CHECK: (u32, u32) = (150, 20);

/// Sends agent `i` to `goals[i]`, every tick: Chase with a goal and no
/// target.
struct GoTo {
    goals: Vec<Vec3>,
}

/// The scripts of the scripted runs: every agent to the far corner.
const ONE_GOAL_LUA: &str =
    "function decide(agent, ctx) return \"investigate\", nil, 1196.0, 0.0, 1196.0 end\n";

/// Every agent to its start mirrored through the map's centre, snapped to
/// the grid (kept in the agent's memory).
const OWN_GOAL_LUA: &str = r#"function decide(agent, ctx)
  local g = agent.memory.goal
  if not g then
    local x, _, z = agent:position()
    g = { 1196 - math.floor(x / 4 + 0.5) * 4, 1196 - math.floor(z / 4 + 0.5) * 4 }
    agent.memory.goal = g
  end
  return "investigate", nil, g[1], 0.0, g[2]
end
"#;

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

/// Ours and the peer: waypoint walkers routed by A*.
const ROUTED: &str = "WaypointWalker(speed: 3.0, route: AStar)";

/// The yardstick: the same speed, straight to the goal.
const STRAIGHT: &str =
    "Walker(min_speed: 3.0, max_speed: 3.0, direction_change_factor: 20, planar: true)";

/// The generated project with `side` x `side` waypoints, its agents moving
/// by `movement` (RON), as a world.
fn world(side: u32, movement: &str) -> Result<World, String> {
    let text = crate::content::project(side);
    if !text.contains(MOVEMENT) {
        return Err("walkers: the generated project's movement changed".into());
    }
    let text = text.replace(MOVEMENT, &format!("movement: {movement}"));
    let content = Content::from_str(&text, "generated.ron").map_err(|d| d.to_string())?;
    content.world(None).map_err(|e| e.to_string())
}

/// Each agent's goal: the far corner waypoint, or its start mirrored
/// through the map's centre (snapped to the grid).
fn goals(world: &World, side: u32, one: bool) -> Vec<Vec3> {
    let far = (side - 1) as f32 * SPACING;
    let snap = |v: f32| ((v / SPACING).round() * SPACING).clamp(0.0, far);
    world
        .agents()
        .positions()
        .iter()
        .map(|p| {
            if one {
                Vec3::new(far, 0.0, far)
            } else {
                Vec3::new(far - snap(p.x), 0.0, far - snap(p.z))
            }
        })
        .collect()
}

/// A case: where the agents go, and who sends them.
#[derive(Clone, Copy, Debug)]
struct Setup {
    /// Every agent to one goal (else each to its own).
    one: bool,
    /// A Lua script decides (else a Rust decider).
    scripted: bool,
}

impl Setup {
    /// The decider of one run on `world`.
    fn brain(self, world: &World, side: u32) -> Result<Box<dyn Decider>, String> {
        if !self.scripted {
            return Ok(Box::new(GoTo {
                goals: goals(world, side, self.one),
            }));
        }
        let (name, src) = if self.one {
            ("one_goal", ONE_GOAL_LUA)
        } else {
            ("own_goal", OWN_GOAL_LUA)
        };
        // The scripts name the far corner of the full-size map.
        let far = format!("{}", (side - 1) as f32 * SPACING);
        let src = src.replace("1196", &far);
        Ok(Box::new(crate::lua::scripted(world, name, &src)?))
    }

    fn what(self) -> String {
        format!(
            "every agent to {}, {}",
            if self.one {
                "one goal"
            } else {
                "its own far goal"
            },
            if self.scripted {
                "scripted"
            } else {
                "Rust decider"
            }
        )
    }
}

/// One run: its world, decider, pipeline and every tick's timings.
struct Run {
    world: World,
    brain: Box<dyn Decider>,
    pipeline: Pipeline,
    times: TickTimes,
}

impl Run {
    fn new(side: u32, movement: &str, setup: Setup, budget: Option<u32>) -> Result<Self, String> {
        let mut world = world(side, movement)?;
        world.set_route_budget(budget);
        Ok(Self {
            brain: setup.brain(&world, side)?,
            world,
            pipeline: Pipeline::new(),
            times: TickTimes::new(),
        })
    }

    /// Ticks once and returns how many agents' positions changed.
    fn tick(&mut self, before: &mut Vec<Vec3>) -> usize {
        before.clear();
        before.extend_from_slice(self.world.agents().positions());
        self.pipeline.tick(&mut self.world, self.brain.as_mut());
        self.times.push(*self.pipeline.timings());
        let now = self.world.agents().positions();
        now.iter()
            .zip(before.iter())
            .filter(|(a, b)| a != b)
            .count()
    }
}

/// The three runs of one case, ticked in lockstep, and what ours did.
struct Case {
    ours: Run,
    peer: Run,
    straight: Run,
    /// Walkers of ours whose position changed in tick 1.
    moved_first: usize,
    /// The fewest walkers of ours that moved in any one tick.
    moved_fewest: usize,
    /// Walkers of ours waiting for a route after tick 1.
    waiting_first: usize,
    /// The most walkers of ours waiting after any tick.
    waiting_most: usize,
    /// The first tick after which none of ours waited.
    served_by: Option<u64>,
    /// Ticks in which a walker of ours did not move while more than one
    /// grid step from its goal, summed over walkers.
    stalled: usize,
}

fn run_case(side: u32, setup: Setup, ticks: u32) -> Result<Case, String> {
    let mut ours = Run::new(side, ROUTED, setup, Some(DEFAULT_ROUTE_BUDGET))?;
    let mut peer = Run::new(side, ROUTED, setup, None)?;
    let mut straight = Run::new(side, STRAIGHT, setup, None)?;
    let goals = goals(&ours.world, side, setup.one);
    let mut scratch = Vec::new();
    let (mut moved_first, mut moved_fewest) = (0, usize::MAX);
    let (mut waiting_first, mut waiting_most, mut served_by) = (0, 0, None);
    let mut stalled = 0;
    for t in 1..=u64::from(ticks) {
        let moved = ours.tick(&mut scratch);
        stalled += stood_still(&ours.world, &scratch, &goals);
        peer.tick(&mut scratch);
        straight.tick(&mut scratch);
        let waiting = ours.world.routes_waiting();
        if t == 1 {
            moved_first = moved;
            waiting_first = waiting;
        }
        moved_fewest = moved_fewest.min(moved);
        waiting_most = waiting_most.max(waiting);
        if served_by.is_none() && waiting == 0 {
            served_by = Some(t);
        }
    }
    Ok(Case {
        ours,
        peer,
        straight,
        moved_first,
        moved_fewest,
        waiting_first,
        waiting_most,
        served_by,
        stalled,
    })
}

/// How many agents of `world` stand where they stood `before` the tick
/// while more than one grid step from their goal.
fn stood_still(world: &World, before: &[Vec3], goals: &[Vec3]) -> usize {
    let now = world.agents().positions();
    now.iter()
        .zip(before)
        .zip(goals)
        .filter(|((a, b), g)| a == b && a.distance(**g) > SPACING)
        .count()
}

/// The state hash of ours (the queue at the default budget) after `ticks`
/// ticks on the `side` map, on a pool of `threads` threads.
fn queue_hash(side: u32, setup: Setup, ticks: u32, threads: usize) -> Result<u64, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    pool.install(|| {
        let mut run = Run::new(side, ROUTED, setup, Some(DEFAULT_ROUTE_BUDGET))?;
        let mut scratch = Vec::new();
        for _ in 0..ticks {
            run.tick(&mut scratch);
        }
        Ok(state_hash(&run.world))
    })
}

/// Fails unless the queue's run gives the same state at 1 and 2 threads
/// (on the quick map, where it is cheap); returns the hash.
fn check_threads(setup: Setup) -> Result<u64, String> {
    let (side, ticks) = CHECK;
    let (h1, h2) = (
        queue_hash(side, setup, ticks, 1)?,
        queue_hash(side, setup, ticks, 2)?,
    );
    if h1 != h2 {
        return Err(format!(
            "walkers ({}): state hash differs at 1 and 2 threads after {ticks} ticks on \
             {}k waypoints ({h1:016x} vs {h2:016x})",
            setup.what(),
            side * side / 1000
        ));
    }
    Ok(h1)
}

/// The `n` slowest ticks of `times`, slowest first, as
/// "tick k: total (navigate x, rest y)", milliseconds.
fn worst_ticks(times: &TickTimes, n: usize) -> String {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let mut ticks: Vec<(usize, &StageTimings)> = times.ticks().iter().enumerate().collect();
    ticks.sort_by(|a, b| b.1.total().cmp(&a.1.total()).then(a.0.cmp(&b.0)));
    ticks
        .iter()
        .take(n)
        .map(|(k, t)| {
            let (total, nav) = (ms(t.total()), ms(t.navigate));
            format!(
                "tick {}: {total:.2} (navigate {nav:.2}, rest {:.2})",
                k + 1,
                total - nav
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Milliseconds of the first tick, and the slowest of the later ticks.
fn first_and_later(times: &TickTimes) -> (f64, f64) {
    let ms = |t: &StageTimings| t.total().as_secs_f64() * 1e3;
    let ticks = times.ticks();
    let first = ticks.first().map_or(0.0, ms);
    let later = ticks.iter().skip(1).map(ms).fold(0.0, f64::max);
    (first, later)
}

/// The note of one case's worst-tick scenario.
fn note(c: &Case, ticks: u32, hash_threads: u64) -> String {
    let agents = c.ours.world.agents().live_count();
    let (o, p, s) = (
        c.ours.times.tick(),
        c.peer.times.tick(),
        c.straight.times.tick(),
    );
    let (o_first, o_later) = first_and_later(&c.ours.times);
    let (s_first, _) = first_and_later(&c.straight.times);
    let served = c.served_by.map_or(
        format!(
            "{} still waiting after tick {ticks}",
            c.ours.world.routes_waiting()
        ),
        |t| format!("all served by tick {t}"),
    );
    format!(
        "ms per tick over {ticks} ticks (first included), p50 / p99 / max: \
         ours (budget {DEFAULT_ROUTE_BUDGET}) {:.2} / {:.2} / {:.2}; \
         unbudgeted stage {:.2} / {:.2} / {:.2}; walked straight {:.2} / {:.2} / {:.2}; \
         first tick ours {o_first:.2} / straight's first {s_first:.2} = {:.2}, \
         slowest later tick ours {o_later:.2} / straight p50 {:.2} = {:.2} (goal <= 3 each); \
         ours' worst {}; positions changed in tick 1: {} of {agents} (fewest in any tick {}; \
         walker-ticks standing still away from the goal {}); \
         waiting for a route after tick 1: {}, at most {}, {served}; state hash after the run \
         {:016x}; the queue's state hash after {} ticks on {}k waypoints equal at 1 and 2 \
         threads ({hash_threads:016x})",
        o.p50,
        o.p99,
        o.max,
        p.p50,
        p.p99,
        p.max,
        s.p50,
        s.p99,
        s.max,
        o_first / s_first,
        s.p50,
        o_later / s.p50,
        worst_ticks(&c.ours.times, 3),
        c.moved_first,
        c.moved_fewest,
        c.stalled,
        c.waiting_first,
        c.waiting_most,
        state_hash(&c.ours.world),
        CHECK.1,
        CHECK.0 * CHECK.0 / 1000,
    )
}

/// The two scenarios of one case: the worst tick and the median tick,
/// ours against the unbudgeted stage.
fn case_scenarios(c: &Case, side: u32, what: &str, note: String) -> [Scenario; 2] {
    let agents = c.ours.world.agents().live_count();
    let name = format!(
        "walkers/{agents} across {}k waypoints, {what}",
        side * side / 1000
    );
    let (o, p, s) = (
        c.ours.times.tick(),
        c.peer.times.tick(),
        c.straight.times.tick(),
    );
    [
        Scenario {
            name: format!("{name}, worst tick"),
            ours_ms: o.max,
            peer: "unbudgeted stage".into(),
            peer_ms: p.max,
            note,
        },
        Scenario {
            name: format!("{name}, median tick"),
            ours_ms: o.p50,
            peer: "unbudgeted stage".into(),
            peer_ms: p.p50,
            note: format!(
                "the same runs' median ticks (walked straight {:.2} ms, navigate p50 ours {:.2} \
                 ms, unbudgeted {:.2} ms)",
                s.p50,
                c.ours.times.stage(Stage::Navigate).p50,
                c.peer.times.stage(Stage::Navigate).p50,
            ),
        },
    ]
}

/// The scenarios: for each case (every agent to one goal or to its own
/// far goal, scripted or with a Rust decider), the worst tick and the
/// median tick of ours against the unbudgeted stage, milliseconds. Fails
/// when a walker's position did not change in tick 1 with the queue, or
/// when the queue's run is not the same at 1 and 2 threads.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let (side, ticks) = if effort.quick { (150, 30) } else { (300, 60) };
    let mut out = Vec::new();
    for scripted in [true, false] {
        for one in [true, false] {
            let setup = Setup { one, scripted };
            let c = run_case(side, setup, ticks)?;
            let agents = c.ours.world.agents().live_count();
            if c.moved_first != agents {
                return Err(format!(
                    "walkers ({}): positions changed in tick 1: {} of {agents}",
                    setup.what(),
                    c.moved_first
                ));
            }
            let hash = check_threads(setup)?;
            let note = note(&c, ticks, hash);
            out.extend(case_scenarios(&c, side, &setup.what(), note));
        }
    }
    Ok(out)
}
