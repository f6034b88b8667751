//! LuaDecider behaviour: intents, fallbacks, reports, determinism, reload.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use kiai_core::{AgentId, BehaviourState, Pipeline, state_hash};
use kiai_lua::LuaDecider;
use rand::RngExt;
use rand_chacha::ChaCha8Rng as AgentRng;

#[test]
fn without_scripts_it_decides_like_the_default() {
    let (lua_hash, _, _) = common::run(None, None, 30);
    let mut world = common::world();
    let mut d = kiai_core::DefaultDecider::default();
    let mut p = Pipeline::new();
    for _ in 0..30 {
        p.tick(&mut world, &mut d);
    }
    assert_eq!(lua_hash, state_hash(&world));
}

#[test]
fn nil_keeps_the_default() {
    let (h, _, _) = common::run(Some("function decide() return nil end"), None, 30);
    let (h0, _, _) = common::run(None, None, 30);
    assert_eq!(h, h0);
}

#[test]
fn nil_after_sense_queries_keeps_the_default() {
    // Every agent asks (so the lists are copied into agent order from the
    // second tick on, and the default decision reads the copy).
    let ask = r#"function decide(agent) local n = agent:sees("eyes") + #agent:sensed("eyes") end"#;
    let (h, mut d, _) = common::run(Some(ask), Some(ask), 30);
    assert!(d.take_reports().is_empty());
    let (h0, _, _) = common::run(None, None, 30);
    assert_eq!(h, h0);
}

#[test]
fn decide_sets_state_and_target() {
    let src = r#"
        function decide(agent, ctx)
            return "chase", kiai.find("t4")
        end"#;
    let (_, _, world) = common::run(Some(src), None, 3);
    for g in 0..4 {
        let d = world.agents().decisions()[g];
        assert_eq!(d.state, BehaviourState::Chase);
        assert_eq!(d.target, world.agents().find("t4"));
    }
}

#[test]
fn a_target_given_as_handle_float_name_or_false_decides_the_same() {
    let (_, _, world) = common::run(None, None, 1);
    let t4 = world.agents().find("t4");
    for (ret, state, target) in [
        ("'chase', kiai.find('t4')", BehaviourState::Chase, t4),
        ("'chase', kiai.find('t4') + 0.0", BehaviourState::Chase, t4),
        ("'evade', 't4'", BehaviourState::Evade, t4),
        ("'chase', false", BehaviourState::Chase, None),
        ("'random_walk', nil", BehaviourState::RandomWalk, None),
        (
            "{ state = 'chase', target = 't4' }",
            BehaviourState::Chase,
            t4,
        ),
    ] {
        let src = format!("function decide(agent, ctx) return {ret} end");
        let (_, mut d, world) = common::run(Some(&src), None, 2);
        assert!(d.take_reports().is_empty(), "{ret}");
        for g in 0..4 {
            let dec = world.agents().decisions()[g];
            assert_eq!((dec.state, dec.target), (state, target), "{ret}");
        }
    }
}

#[test]
fn table_intents_with_goal_and_label() {
    let src = r#"
        function decide(agent, ctx)
            return { state = "investigate", goal = { 5, 0, 5 } }
        end"#;
    let (_, d, world) = common::run(Some(src), None, 2);
    let dec = world.agents().decisions()[0];
    assert_eq!(dec.state, BehaviourState::Chase);
    assert_eq!(dec.goal, Some(kiai_core::glam::Vec3::new(5.0, 0.0, 5.0)));
    assert_eq!(d.label(AgentId::from_index(0)), Some("investigate"));
    assert_eq!(d.label(AgentId::from_index(5)), None);
}

#[test]
fn errors_are_reported_once_with_file_line_and_traceback() {
    let src = "function decide(agent, ctx)\n  local x = nil\n  return x.y\nend\n";
    let (h, mut d, _) = common::run(Some(src), None, 5);
    let reports = d.take_reports();
    assert_eq!(reports.len(), 1, "{reports:?}");
    let e = &reports[0].error;
    assert_eq!(
        e.to_string().lines().next().unwrap().split(": ").next(),
        Some("guard.lua:3")
    );
    assert!(e.traceback.contains("stack traceback"), "{e:?}");
    // 4 guards x 5 ticks.
    assert_eq!(d.failures(kiai_lua::ScriptId(0)), 20);
    // The failing agents fell back to the default.
    let (h0, _, _) = common::run(None, None, 5);
    assert_eq!(h, h0);
}

#[test]
fn garbage_results_fall_back() {
    for src in [
        "function decide() return 42 end",
        "function decide() return 'chase', -3 end",
        "function decide() return 'chase', 1e300 end",
        "function decide() return 'chase', 'nobody' end",
        "function decide() return 'chase', nil, 0/0, 0, 0 end",
        "function decide() return { state = {} } end",
        "function decide() return '' end",
    ] {
        let (h, d, _) = common::run(Some(src), None, 3);
        let (h0, _, _) = common::run(None, None, 3);
        assert_eq!(h, h0, "{src}");
        assert_eq!(d.failures(kiai_lua::ScriptId(0)), 12, "{src}");
    }
}

/// What `script` (which leaves `agent.memory.r = {float, float, integer
/// in 1..=1000}`) drew for each guard in one tick, with each guard's
/// stream as it was before the tick.
fn draws_in_one_tick(script: &str) -> Vec<((f64, f64, i64), AgentRng)> {
    let mut world = common::world();
    let (mut d, _) = common::decider(Some(script), None);
    let before: Vec<AgentRng> = world
        .agents()
        .minds()
        .iter()
        .map(|m| m.rng.clone())
        .collect();
    Pipeline::new().tick(&mut world, &mut d);
    let read = "local r = agent.memory.r return string.format('%.17g %.17g %d', r[1], r[2], r[3])";
    (0..4)
        .map(|i| {
            let text = d.eval(&world, AgentId::from_index(i), read).unwrap();
            let mut parts = text.split(' ');
            let mut next = || parts.next().unwrap().to_owned();
            let drawn = (
                next().parse().unwrap(),
                next().parse().unwrap(),
                next().parse().unwrap(),
            );
            (drawn, before[i].clone())
        })
        .collect()
}

/// Whether `drawn` are the very next draws of `stream`: the default
/// decider draws nothing for an agent its script decides (it runs after
/// the scripts, for the agents they left undecided).
fn from_stream(drawn: (f64, f64, i64), stream: &AgentRng) -> bool {
    let mut r = stream.clone();
    let a: f64 = r.random();
    let b: f64 = r.random();
    (a, b, r.random_range(1..=1000i64)) == drawn
}

#[test]
fn math_random_uses_the_agents_stream_and_is_deterministic() {
    let src = r#"
        function decide(agent, ctx)
            agent.memory.r = { math.random(), math.random(), math.random(1000) }
            if agent.memory.r[1] < 0.5 then return "evade", kiai.find("t1") end
            return "random_walk"
        end"#;
    // Each guard's draws are its own stream's next ones: a constant, a
    // shared or a wrong agent's stream fails here, and so does a default
    // decision drawn before the script.
    let draws = draws_in_one_tick(src);
    for (i, (drawn, stream)) in draws.iter().enumerate() {
        assert!(
            from_stream(*drawn, stream),
            "guard {i} drew {drawn:?}, not from its own stream"
        );
    }
    let firsts: std::collections::BTreeSet<u64> = draws.iter().map(|d| d.0.0.to_bits()).collect();
    assert_eq!(
        firsts.len(),
        draws.len(),
        "every guard draws its own values"
    );
    // And the same world draws the same.
    let again: Vec<_> = draws_in_one_tick(src).into_iter().map(|d| d.0).collect();
    assert_eq!(again, draws.iter().map(|d| d.0).collect::<Vec<_>>());
    let (a, _, _) = common::run(Some(src), None, 40);
    let (b, _, _) = common::run(Some(src), None, 40);
    assert_eq!(a, b);
}

#[test]
fn messages_and_sounds_are_applied_after_decide() {
    let captain = r#"
        function decide(agent, ctx)
            if agent.name == "g1" then agent:radio(100, 7) end
            return nil
        end
        function on_message(agent, from, tag, x, y, z)
            agent.memory.got = (agent.memory.got or 0) + 1
            agent.memory.tag = tag
        end
        function decide2() end
    "#;
    let src = captain.replace(
        "return nil\n        end\n        function on_message",
        "if agent.memory.got then return \"heard_radio\" end\n            return nil\n        end\n        function on_message",
    );
    let (_, d, _) = common::run(Some(&src), None, 3);
    // g2..g4 got g1's radio at tick 1 and report it from then on.
    assert_eq!(d.label(AgentId::from_index(1)), Some("heard_radio"));
    assert_eq!(d.label(AgentId::from_index(0)), None);
}

/// The test world with `source` (as `guard.lua`) deciding for archetype
/// 0, its script's id and a pipeline.
fn guarded(source: &str) -> (kiai_core::World, LuaDecider, kiai_lua::ScriptId, Pipeline) {
    let mut d = LuaDecider::new(common::limits());
    let id = d.add_script("guard.lua", source).unwrap();
    d.assign(kiai_core::ArchetypeId(0), id);
    (common::world(), d, id, Pipeline::new())
}

#[test]
fn reload_swaps_code_and_keeps_the_last_good_version() {
    let (mut world, mut d, id, mut p) = guarded("function decide() return 'one' end");
    p.tick(&mut world, &mut d);
    assert_eq!(d.label(AgentId::from_index(0)), Some("one"));
    d.reload(id, "function decide() return 'two' end").unwrap();
    p.tick(&mut world, &mut d);
    assert_eq!(d.label(AgentId::from_index(0)), Some("two"));
    let err = d
        .reload(id, "function decide() return 'three' \n end end")
        .unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.to_string().starts_with("guard.lua:2:"), "{err}");
    p.tick(&mut world, &mut d);
    assert_eq!(d.label(AgentId::from_index(0)), Some("two"));
}

#[test]
fn an_invalid_result_is_reported_where_decide_is_defined_before_and_after_a_reload() {
    let (mut world, mut d, id, mut p) = guarded("-- a guard\n\nfunction decide() return 42 end");
    let lines = |d: &mut LuaDecider| {
        let reports = d.take_reports();
        assert!(!reports.is_empty(), "the invalid result is reported");
        reports.iter().map(|r| r.error.line).collect::<Vec<_>>()
    };
    p.tick(&mut world, &mut d);
    assert!(lines(&mut d).iter().all(|&l| l == Some(3)));
    d.reload(id, "\n\n\n\nfunction decide() return 'chase', -1 end")
        .unwrap();
    p.tick(&mut world, &mut d);
    assert!(lines(&mut d).iter().all(|&l| l == Some(5)));
}

#[test]
fn an_intent_table_without_state_names_the_keys_an_intent_does_not_read() {
    let (mut world, mut d, _, mut p) =
        guarded("function decide() return { kind = 'chase', target = nil } end");
    p.tick(&mut world, &mut d);
    let reports = d.take_reports();
    let first = reports.first().map(|r| r.error.to_string());
    assert_eq!(
        first.as_deref(),
        Some(
            "guard.lua:1: decide returned an invalid intent: the intent table has no state \
             (state = \"chase\", \"evade\", \"random_walk\" or a name of your own); an intent \
             has no `kind` (its keys: state, target, goal, label)"
        ),
        "{reports:?}"
    );
    let (mut world, mut d, _, mut p) = guarded("function decide() return {} end");
    p.tick(&mut world, &mut d);
    let reports = d.take_reports();
    assert!(
        reports
            .first()
            .is_some_and(|r| r.error.to_string().ends_with(
                "the intent table has no state (state = \"chase\", \"evade\", \"random_walk\" or a \
             name of your own)"
            )),
        "{reports:?}"
    );
}

#[test]
fn check_syntax_reports_file_line_message() {
    let e = kiai_lua::check_syntax("scripts/x.lua", "local a = \nfunction(").unwrap_err();
    assert_eq!(e.file, "scripts/x.lua");
    assert_eq!(e.line, Some(2));
    assert!(kiai_lua::check_syntax("x.lua", "return 1").is_ok());
}

/// Recording traces (the editor, `kiai test`'s why-traces) works out
/// what the default would have done for a scripted agent on a copy of its
/// mind: the run is the same with and without them.
#[test]
fn traces_of_scripted_agents_change_nothing_in_the_run() {
    let src = r#"
        function decide(agent, ctx)
            if math.random() < 0.5 then return "random_walk" end
            return nil
        end"#;
    let (plain, _, _) = common::run(Some(src), None, 40);
    let mut world = common::world();
    let (d, _) = common::decider(Some(src), None);
    let mut d = d.with_traces();
    let mut p = Pipeline::new();
    let (mut scripted, mut would_chase) = (0, 0);
    for _ in 0..40 {
        p.tick(&mut world, &mut d);
        for i in 0..4 {
            if d.decided_by_script(AgentId::from_index(i)) {
                scripted += 1;
                // What the default would have done is still there: the
                // guards see thieves, so it would often have chased.
                would_chase += usize::from(d.traces()[i].chase_option.is_some());
            }
        }
    }
    assert!(scripted > 0 && scripted < 160, "{scripted} of 160 scripted");
    assert!(
        would_chase > 0,
        "no trace of a scripted guard has an option"
    );
    assert_eq!(state_hash(&world), plain);
}

#[test]
fn a_budget_is_per_call_however_many_ticks_a_script_runs() {
    // Every tick one guard's decide runs a loop of 20,000 metered
    // instructions, well within the budget of 50,000 a call; over 300
    // ticks that is 6 million for the same agent, which must never add up
    // across calls.
    let src = "function decide(agent)
  if agent.name ~= \"g1\" then return nil end
  local s = 0
  for i = 1, 10000 do s = i end
  return s > 0 and nil
end";
    let (_, mut d, _) = common::run(Some(src), None, 300);
    assert_eq!(d.take_reports(), Vec::new());
}

#[test]
fn coroutines_spend_the_budget_of_the_call_that_runs_them() {
    // Each coroutine runs fewer instructions than the hook's interval (500
    // here): if every new coroutine started its own count, the hook would
    // only see the outer loop, and the call would run many times its
    // budget of 50,000 before it stopped.
    let src = "function decide(agent)
  if agent.name ~= \"g1\" then return nil end
  local m = agent.memory
  m.n = 0
  while true do
    coroutine.wrap(function() for i = 1, 60 do m.n = m.n + 1 end end)()
  end
end";
    let (_, mut d, world) = common::run(Some(src), None, 1);
    let reports = d.take_reports();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert!(
        reports[0].error.message.contains("instruction budget"),
        "{reports:?}"
    );
    let g1 = world.agents().find("g1").unwrap();
    let n: u64 = d
        .eval(&world, g1, "agent.memory.n")
        .unwrap()
        .parse()
        .unwrap();
    // Each turn of the inner loop is at least 4 instructions.
    assert!(n < 50_000 / 4, "{n} turns ran on a budget of 50,000");
}

#[test]
fn script_time_counts_the_scripts() {
    let (_, idle, _) = common::run(None, None, 2);
    // A loop long enough to take measurable time on any machine.
    // (Its body is two instructions, 40,000 metered in all, within the
    // test's budget of 50,000; with `s = s + i` the body would be three:
    // the metamethod fallback after an addition is skipped, yet counted.)
    let src =
        "function decide() local s = 0 for i = 1, 20000 do s = i end return s > 0 and nil end";
    let (_, mut busy, _) = common::run(Some(src), None, 2);
    let reports = busy.take_reports();
    assert!(
        reports.is_empty(),
        "the loop stays within budget: {reports:?}"
    );
    assert!(busy.script_time() > std::time::Duration::from_micros(50));
    assert!(busy.script_time() > idle.script_time());
}

#[test]
fn nearest_filters_hostile_by_default_friendly_and_any() {
    // g4 at (0, 0, 10): its radar (r = 6, every faction) holds thief t2
    // (5.8 away) and no guard; its eyes (hostile only) see t1 and t2.
    let src = r#"
        function decide(agent, ctx)
            if agent.name == "g4" then
                local h, hd = agent:nearest("radar")
                local a = agent:nearest("radar", "any")
                local f = agent:nearest("radar", "friendly")
                local e, ed = agent:nearest("eyes", "hostile")
                local ef = agent:nearest("eyes", "friendly")
                print(kiai.name(h), string.format("%.2f", hd), kiai.name(a), tostring(f),
                      kiai.name(e), string.format("%.2f", ed), tostring(ef))
                local ok, err = pcall(agent.nearest, agent, "radar", "enemies")
                print(ok, err)
            end
        end"#;
    let (_, mut d, _) = common::run(Some(src), None, 1);
    assert!(d.take_reports().is_empty());
    let log = d.take_log();
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(log[0], "t2\t5.83\tt2\tnil\tt2\t5.83\tnil");
    assert!(
        log[1].starts_with("false\t") && log[1].contains("not \"enemies\""),
        "{}",
        log[1]
    );
}

#[test]
fn nearest_called_with_a_dot_or_on_no_agent_says_how_to_call_it_at_its_line() {
    // Line 4 calls the method with `.` instead of `:`: one report, at that
    // line, saying how to call it; a protected call on a table that is no
    // agent gets the same message and the script goes on (line 3 prints
    // it).
    let src = "function decide(agent, ctx)
  if agent.name ~= \"g4\" then return nil end
  print(pcall(agent.nearest, {}, \"eyes\"))
  local e = agent.nearest(\"eyes\")
end";
    // And a missing sense is named as missing (nil).
    let missing = "function decide(agent, ctx)
  if agent.name == \"g4\" then print(pcall(agent.nearest, agent)) end
end";
    let (_, mut d, _) = common::run(Some(src), None, 1);
    let reports = d.take_reports();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(
        reports[0].error.to_string(),
        "guard.lua:4: not an agent (call methods with `agent:method()`)"
    );
    assert_eq!(
        d.take_log(),
        ["false\tnot an agent (call methods with `agent:method()`)"]
    );
    let (_, mut d, _) = common::run(Some(missing), None, 1);
    assert_eq!(
        d.take_log(),
        ["false\ta sense is a name or an id from kiai.sense(name), not nil"]
    );
}

#[test]
fn a_world_function_called_while_the_script_loads_says_where_it_works() {
    let mut d = LuaDecider::new(common::limits());
    let e = d
        .add_script(
            "scripts/early.lua",
            "local t = kiai.tick()\nfunction decide() end",
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "scripts/early.lua:1: kiai.tick works only inside hooks (decide, on_seen, ...), not while the script loads"
    );
}

#[test]
fn set_intent_decides_when_decide_returns_nil_and_decides_result_wins() {
    let src = r#"
        function decide(agent, ctx)
            agent:set_intent("evade")
            if agent.name == "g2" or agent.name == "g4" then
                return "chase", kiai.find("t4")
            end
        end"#;
    let (_, _, world) = common::run(Some(src), None, 2);
    let state = |name: &str| {
        let slot = world.agents().find(name).unwrap().index();
        world.agents().decisions()[slot].state
    };
    assert_eq!(state("g1"), BehaviourState::Evade);
    assert_eq!(state("g2"), BehaviourState::Chase);
    assert_eq!(state("g3"), BehaviourState::Evade);
    assert_eq!(state("g4"), BehaviourState::Chase);
}

/// Every agent's `sensed` and `sees` lines of one tick, as the percepts
/// give them: `name: handles` per sense asked, sorted.
fn expected_lines(world: &kiai_core::World, names: &[&str]) -> Vec<String> {
    let mut lines: Vec<String> = world
        .agents()
        .ids()
        .filter_map(|id| {
            let name = world.agents().names().get(id.index())?.clone();
            names.contains(&name.as_str()).then(|| {
                let eyes = world.percepts().sensed(id, 0);
                let list: Vec<String> = eyes.iter().map(|a| a.to_bits().to_string()).collect();
                format!("{name}\t{}\t{}", list.join(" "), eyes.len())
            })
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn sense_queries_list_what_the_percepts_list_whether_or_not_copied() {
    // Every agent asking (the lists are copied into agent order from the
    // second tick on), and one agent asking (never copied).
    let each = r#"
        function decide(agent, ctx)
            print(agent.name, table.concat(agent:sensed("eyes"), " "), agent:sees("eyes"))
        end"#;
    let one = r#"
        function decide(agent, ctx)
            if agent.name == "g1" then
                print(agent.name, table.concat(agent:sensed("eyes"), " "), agent:sees("eyes"))
            end
        end"#;
    let all = ["g1", "g2", "g3", "g4", "t1", "t2", "t3", "t4"];
    for (guard, thief, names) in [(each, each, &all[..]), (one, one, &["g1"][..])] {
        let mut world = common::world();
        let (mut d, _) = common::decider(Some(guard), Some(thief));
        let mut p = Pipeline::new();
        for tick in 0..12 {
            p.tick(&mut world, &mut d);
            let mut log = d.take_log();
            log.sort();
            assert_eq!(log, expected_lines(&world, names), "tick {tick}");
        }
        assert!(d.take_reports().is_empty());
    }
}
