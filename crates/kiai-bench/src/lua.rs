//! Lua deciding (kiai-lua) against the Rust default decider on the 10k-agent
//! battle: the decide stage's overhead per agent and the whole tick.

use kiai_core::{ArchetypeId, Decider, DefaultDecider, Pipeline, state_hash};
use kiai_lua::LuaDecider;

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

/// Median decide-stage and full-tick times (ms) over `ticks` ticks.
fn run(
    decider: &mut dyn Decider,
    n: usize,
    warmup: usize,
    ticks: usize,
) -> Result<(f64, f64, u64), String> {
    let mut world = crate::tick::battle(n, 5)?;
    let mut pipeline = Pipeline::new();
    for _ in 0..warmup {
        pipeline.tick(&mut world, decider);
    }
    let mut decide = Vec::with_capacity(ticks);
    let mut total = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        pipeline.tick(&mut world, decider);
        decide.push(pipeline.timings().decide.as_secs_f64() * 1e3);
        total.push(pipeline.timings().total().as_secs_f64() * 1e3);
    }
    decide.sort_by(f64::total_cmp);
    total.sort_by(f64::total_cmp);
    Ok((decide[ticks / 2], total[ticks / 2], state_hash(&world)))
}

/// One scenario per script: ours = the tick with Lua deciding for every
/// agent, peer = the same tick with the Rust default.
pub fn scenarios(effort: Effort) -> Result<Vec<Scenario>, String> {
    let n = 10_000;
    let (warmup, ticks) = if effort.quick { (5, 20) } else { (20, 200) };
    let archetypes = crate::tick::battle(16, 5)?.archetypes().len();
    let (rust_decide, rust_tick, rust_hash) =
        run(&mut DefaultDecider::default(), n, warmup, ticks)?;
    let mut out = Vec::new();
    for (name, src) in SCRIPTS {
        let mut lua = LuaDecider::default();
        let id = lua
            .add_script(&format!("{name}.lua"), src)
            .map_err(|e| e.to_string())?;
        for a in 0..archetypes {
            lua.assign(ArchetypeId::from_index(a), id);
        }
        let (lua_decide, lua_tick, lua_hash) = run(&mut lua, n, warmup, ticks)?;
        if let Some(r) = lua.take_reports().first() {
            return Err(format!("lua/{name}: script failed: {}", r.error));
        }
        if name == "nil" && lua_hash != rust_hash {
            return Err(format!(
                "lua/{name}: a decide returning nil changed the simulation ({lua_hash:016x} vs {rust_hash:016x})"
            ));
        }
        let overhead_ns = (lua_decide - rust_decide) * 1e6 / n as f64;
        out.push(Scenario {
            name: format!("lua/10k agents/{name}"),
            ours_ms: lua_tick,
            peer: "Rust DefaultDecider".into(),
            peer_ms: rust_tick,
            note: format!(
                "p50 ms per full tick, {n} agents all scripted, one batched decide call per tick; \
                 decide stage {lua_decide:.3} ms vs {rust_decide:.3} ms = {overhead_ns:.0} ns per agent of Lua overhead"
            ),
        });
    }
    Ok(out)
}
