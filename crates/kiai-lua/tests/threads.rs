//! A script decider runs the same at any thread count. On more than one
//! thread, while the scripts run, another thread works out the nearest
//! agent each sense lists (the scripts' queries answer themselves until
//! their agent's block is done), copies the sensed lists into agent order
//! (the queries read the percepts until it is done) and works out the
//! default decision's nearest hostiles; the agents a script leaves to the
//! default (it returns nil, after drawing from the agent's stream or not)
//! decide as on one thread, where nothing is worked out ahead.

use kiai_content::Content;
use kiai_core::{ArchetypeId, Pipeline, World, state_hash};
use kiai_lua::{Limits, LuaDecider};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Two armies of `n` agents in all on a square where each has about a
/// dozen others in eye range: soldiers (cone and sphere) and scouts (a
/// cone only, so that archetypes differ in their number of senses),
/// profiles that learn.
fn skirmish(n: usize) -> World {
    let side = (n as f32 * std::f32::consts::PI * 144.0 / 12.0).sqrt();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let agents: Vec<String> = (0..n)
        .map(|i| {
            let (x, z) = (rng.random_range(0.0..side), rng.random_range(0.0..side));
            let (fx, fz) = (rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
            let faction = if i % 2 == 0 { "red" } else { "blue" };
            let archetype = if i % 3 == 0 { "scout" } else { "soldier" };
            format!(
                "(name: \"s{i}\", archetype: \"{archetype}\", faction: \"{faction}\", \
                 pos: ({x}, 0.0, {z}), facing: ({fx}, 0.0, {fz}))"
            )
        })
        .collect();
    let ron = format!(
        r#"(
    format: 2,
    seed: 9,
    factions: [(name: "red", hostile: ["blue"]), (name: "blue", hostile: ["red"])],
    profiles: {{
        "learner": (chase: 6, evade: 4, use_profile: 80.0, keep_decision: 50.0,
            learning: Some((rate: 0.5, min_weight: 1.0, max_weight: 10.0, catch_distance: 1.5))),
    }},
    archetypes: {{
        "soldier": (
            senses: [
                (name: "eyes", shape: Cone(range: 12.0, fov_deg: 120.0), filter: Hostile),
                (name: "radar", shape: Sphere(radius: 6.0), filter: Hostile),
            ],
            movement: Walker(min_speed: 0.5, max_speed: 2.0, direction_change_factor: 20, planar: true),
            profile: "learner",
        ),
        "scout": (
            senses: [
                (name: "eyes", shape: Cone(range: 14.0, fov_deg: 90.0), filter: Hostile),
                (name: "ears", shape: Hearing(threshold: 0.5)),
            ],
            movement: Walker(min_speed: 0.5, max_speed: 2.5, direction_change_factor: 20, planar: true),
            profile: "learner",
            lod: [(within: 40.0, every: 1), (every: 3)],
        ),
    }},
    interest: [(0.0, 0.0, 0.0)],
    agents: [{}],
)"#,
        agents.join(",\n")
    );
    Content::from_str(&ron, "skirmish.ron")
        .unwrap_or_else(|e| panic!("{e}"))
        .world(None)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Every tick's state hash over `ticks` ticks on `threads` threads, with
/// `script` deciding every agent.
fn hashes(script: &str, threads: usize, ticks: usize) -> Vec<u64> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("pool: {e}"));
    pool.install(|| {
        let mut world = skirmish(1_200);
        let mut lua = LuaDecider::new(Limits::default());
        let id = lua
            .add_script("army.lua", script)
            .unwrap_or_else(|e| panic!("{e}"));
        for archetype in 0..world.archetypes().len() {
            lua.assign(ArchetypeId::from_index(archetype), id);
        }
        let mut pipeline = Pipeline::new();
        (0..ticks)
            .map(|_| {
                pipeline.tick(&mut world, &mut lua);
                assert!(lua.take_reports().is_empty(), "the script runs");
                state_hash(&world)
            })
            .collect()
    })
}

#[test]
fn scripts_that_leave_agents_to_the_default_run_the_same_on_one_and_two_threads() {
    // Most agents ask for the nearest agent their eyes see (enough
    // queries for working them out ahead and for the copy in agent order
    // to pay), soldiers also what their radar lists, and chase; the others
    // draw from their stream and then leave the decision to the default,
    // as do those that see nobody.
    let script = r#"
function decide(agent, ctx)
  local roll = math.random()
  if roll < 0.7 then
    local enemy, d = agent:nearest("eyes")
    if agent:archetype() == "soldier" and agent:sees("radar") > 0 then
      local close, dc = agent:nearest("radar", "any")
      if close and (not d or dc < d) then enemy = close end
    end
    if enemy then return "chase", enemy end
  end
end
"#;
    let one = hashes(script, 1, 20);
    let two = hashes(script, 2, 20);
    assert_eq!(one, two);
    let nil = "function decide(agent, ctx) return nil end";
    let nil_two = hashes(nil, 2, 20);
    assert_ne!(nil_two, two, "the script decides some agents");
    // Leaving every agent, or most, to the default: its targets are worked
    // out ahead every tick (chases under way give evade options too).
    assert_eq!(hashes(nil, 1, 20), nil_two);
    let few = script.replace("roll < 0.7", "roll < 0.2");
    assert_eq!(hashes(&few, 1, 20), hashes(&few, 2, 20));
}

#[test]
fn answers_ahead_survive_churn_hearing_and_held_agents_alike_on_one_and_two_threads() {
    // Agents leave, half of them replaced (slots left free, and slots
    // taken again by a new agent), some shout, and scouts ask what they
    // heard (a hearing sense lists sources) and think on one tick in three
    // far from the point of interest.
    let script = r#"
function decide(agent, ctx)
  local roll = math.random()
  if roll < 0.01 then
    local x, y, z = agent:position()
    agent:despawn()
    if roll < 0.005 then kiai.spawn(agent:archetype(), agent:faction(), x, y, z) end
    return nil
  end
  if roll < 0.05 then agent:emit_sound(8.0) end
  if roll < 0.8 then
    local enemy = agent:nearest("eyes")
    if agent:archetype() == "scout" then
      local heard = agent:nearest("ears", "any")
      if heard and not enemy then enemy = heard end
    end
    if enemy then return "chase", enemy end
  end
end
"#;
    assert_eq!(hashes(script, 1, 25), hashes(script, 2, 25));
}
