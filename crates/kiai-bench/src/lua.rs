//! Lua deciding (kiai-lua) against the Rust default decider, 10k agents:
//! the decide stage's overhead per agent and the whole tick, on the battle
//! of [`crate::tick`] and on a light scene where deciding dominates.

use kiai::content::ScriptRef;
use kiai::lua::{Limits, LuaDecider};
use kiai_core::{Decider, DefaultDecider, Pipeline, Sense, SenseFilter, Shape, World, state_hash};

use crate::{Effort, Scenario};

/// Scripts measured: a `decide` that keeps the default, and one that asks
/// for the nearest hostile in sight and chases it.
const SCRIPTS: [(&str, &str); 2] = [
    ("nil", "function decide(agent, ctx) return nil end"),
    (
        "nearest-chase",
        "function decide(agent, ctx)\n  local enemy = agent:nearest(\"eyes\")\n  if enemy then return \"chase\", enemy end\nend",
    ),
];

/// The light scene: the battle's two hostile factions of walkers at the
/// same density, but one short cone (`"eyes"`, range 6, 120°: about 3.5
/// hostiles in sight), no sight and no fog, so that sensing is cheaper and
/// deciding a larger share of the tick.
pub fn light(n: usize, seed: u64) -> Result<World, String> {
    let eyes = Sense {
        name: "eyes".into(),
        shape: Shape::Cone {
            range: 6.0,
            fov_deg: 120.0,
        },
        filter: SenseFilter::Hostile,
        occluded: false,
        lose_range: None,
        memory_ticks: 0,
    };
    crate::tick::armies(n, seed, vec![eyes], None, None).map(|(world, _)| world)
}

/// p50 decide stage, p50 of the scripts' part of it (the scripts alone,
/// before the default decision for the agents they left undecided; 0 for
/// the Rust default) and p50 full tick (ms) of one
/// contender, and its final state hash.
struct Run {
    decide_ms: f64,
    script_ms: f64,
    tick_ms: f64,
    hash: u64,
}

/// A decider measured.
enum Contender {
    Rust(DefaultDecider),
    Lua(Box<LuaDecider>),
}

impl Contender {
    fn decider(&mut self) -> &mut dyn Decider {
        match self {
            Contender::Rust(d) => d,
            Contender::Lua(d) => d.as_mut(),
        }
    }

    fn script_ms(&self) -> f64 {
        match self {
            Contender::Rust(_) => 0.0,
            Contender::Lua(d) => d.script_time().as_secs_f64() * 1e3,
        }
    }
}

/// Ticks one world per decider in turn (so that all see the same machine
/// load): `warmup` ticks, then `ticks` measured ones.
fn run(
    make: fn(usize, u64) -> Result<World, String>,
    deciders: &mut [Contender],
    n: usize,
    warmup: usize,
    ticks: usize,
) -> Result<Vec<Run>, String> {
    let mut worlds = deciders
        .iter()
        .map(|_| make(n, 5))
        .collect::<Result<Vec<_>, _>>()?;
    let mut pipelines: Vec<Pipeline> = deciders.iter().map(|_| Pipeline::new()).collect();
    let mut decide = vec![Vec::with_capacity(ticks); deciders.len()];
    let mut script = vec![Vec::with_capacity(ticks); deciders.len()];
    let mut total = vec![Vec::with_capacity(ticks); deciders.len()];
    for t in 0..warmup + ticks {
        for (k, d) in deciders.iter_mut().enumerate() {
            pipelines[k].tick(&mut worlds[k], d.decider());
            if t >= warmup {
                decide[k].push(pipelines[k].timings().decide.as_secs_f64() * 1e3);
                script[k].push(d.script_ms());
                total[k].push(pipelines[k].timings().total().as_secs_f64() * 1e3);
            }
        }
    }
    let p50 = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    Ok(worlds
        .iter()
        .enumerate()
        .map(|(k, w)| Run {
            decide_ms: p50(&mut decide[k]),
            script_ms: p50(&mut script[k]),
            tick_ms: p50(&mut total[k]),
            hash: state_hash(w),
        })
        .collect())
}

/// A decider running `src` (called `name`.lua) for every archetype of
/// `world`, all in one Lua state, wired as content's scripts are.
pub(crate) fn scripted(world: &World, name: &str, src: &str) -> Result<LuaDecider, String> {
    let scripts: Vec<ScriptRef> = world
        .archetypes()
        .iter()
        .enumerate()
        .map(|(index, a)| ScriptRef {
            index,
            archetype: a.name.clone(),
            path: format!("{name}.lua").into(),
            bundled: Some(src.to_owned()),
        })
        .collect();
    match kiai::lua::decider_for_scripts(&scripts, Limits::default()) {
        (Some(lua), errors) if errors.is_empty() => Ok(lua),
        (_, errors) => Err(errors
            .first()
            .map_or_else(|| "no archetypes".to_owned(), ToString::to_string)),
    }
}

/// One scenario per scene and script: ours = the tick with Lua deciding for
/// every agent every tick, peer = the same tick with the Rust default.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let n = 10_000;
    let (warmup, ticks) = if effort.quick { (5, 20) } else { (20, 200) };
    type Make = fn(usize, u64) -> Result<World, String>;
    let scenes: [(&str, Make, &str); 2] = [
        (
            "battle",
            crate::tick::battle,
            "the battle scene (sphere + cone, ~17 percepts per agent, fog of war)",
        ),
        (
            "light",
            light,
            "the light scene (one cone of range 6, ~3.5 percepts per agent, no fog)",
        ),
    ];
    let mut out = Vec::new();
    for (scene, make, what) in scenes {
        let sample = make(16, 5)?;
        let mut deciders = vec![Contender::Rust(DefaultDecider::default())];
        for (name, src) in SCRIPTS {
            let lua =
                scripted(&sample, name, src).map_err(|e| format!("lua/{scene}/{name}: {e}"))?;
            deciders.push(Contender::Lua(Box::new(lua)));
        }
        let runs = run(make, &mut deciders, n, warmup, ticks)?;
        for (d, (name, _)) in deciders[1..].iter_mut().zip(SCRIPTS) {
            if let Contender::Lua(lua) = d
                && let Some(r) = lua.take_reports().first()
            {
                return Err(format!("lua/{scene}/{name}: script failed: {}", r.error));
            }
        }
        let rust = &runs[0];
        for (k, (name, _)) in SCRIPTS.iter().enumerate() {
            let lua = &runs[k + 1];
            if name == &"nil" && lua.hash != rust.hash {
                return Err(format!(
                    "lua/{scene}/{name}: a decide returning nil changed the simulation ({:016x} vs {:016x})",
                    lua.hash, rust.hash
                ));
            }
            let overhead_ns = (lua.decide_ms - rust.decide_ms) * 1e6 / n as f64;
            let script_ns = lua.script_ms * 1e6 / n as f64;
            out.push(Scenario {
                name: format!("lua/10k agents/{scene}/{name}"),
                ours_ms: lua.tick_ms,
                peer: "Rust DefaultDecider".into(),
                peer_ms: rust.tick_ms,
                note: format!(
                    "p50 ms per full tick over {ticks} ticks after {warmup}, {what}; {n} agents \
                     all scripted, every agent decides every tick, one batched decide call per \
                     script per tick; decide stage {:.3} ms vs {:.3} ms = {overhead_ns:.0} ns \
                     per agent per tick of Lua overhead; the scripts' part of the stage (the \
                     scripts alone, before the default decides the agents they left) {:.3} ms \
                     = {script_ns:.0} ns per agent",
                    lua.decide_ms, rust.decide_ms, lua.script_ms
                ),
            });
        }
    }
    Ok(out)
}
