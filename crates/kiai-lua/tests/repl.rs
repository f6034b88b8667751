//! `LuaDecider::eval`: inspecting an agent from its script's sandbox.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use kiai_core::{AgentId, state_hash};

#[test]
fn eval_reads_the_agent_and_leaves_the_run_untouched() {
    let src = "function decide(agent, ctx) return nil end";
    let (_, mut d, world) = common::run(Some(src), None, 3);
    let hash = state_hash(&world);
    let name = d
        .eval(&world, AgentId::from_index(0), "agent.name")
        .unwrap();
    assert_eq!(name, world.agents().names()[0]);
    let pos = d
        .eval(&world, AgentId::from_index(0), "agent:position()")
        .unwrap();
    let p = world.agents().positions()[0];
    let xyz: Vec<f32> = pos.split('\t').map(|v| v.parse().unwrap()).collect();
    assert_eq!(xyz, vec![p.x, p.y, p.z]);
    // Statements run; their globals stay in a scratch environment.
    assert_eq!(
        d.eval(&world, AgentId::from_index(0), "x = 41").unwrap(),
        ""
    );
    assert_eq!(d.eval(&world, AgentId::from_index(0), "x").unwrap(), "nil");
    // The queries made once per script state find the console's tick too:
    // g4's radar holds thief t2 (as in decider.rs).
    let (g4, t2) = (
        world.agents().find("g4").unwrap(),
        world.agents().find("t2").unwrap(),
    );
    let at = |a: AgentId| world.agents().positions()[a.index()];
    let nearest =
        "local h, d = agent:nearest('radar') return kiai.name(h), string.format('%.2f', d)";
    assert_eq!(
        d.eval(&world, g4, nearest).unwrap(),
        format!("t2\t{:.2}", at(g4).distance(at(t2)))
    );
    assert_eq!(state_hash(&world), hash);
}

#[test]
fn eval_is_budgeted_and_errors_are_reported() {
    let src = "function decide(agent, ctx) return nil end";
    let (_, mut d, world) = common::run(Some(src), None, 1);
    let e = d
        .eval(&world, AgentId::from_index(0), "while true do end")
        .unwrap_err();
    assert!(!e.message.is_empty());
    let e = d
        .eval(&world, AgentId::from_index(0), "agent:nope()")
        .unwrap_err();
    assert!(
        e.message.contains("nope") || e.message.contains("nil"),
        "{e}"
    );
    // The script still decides afterwards.
    assert_eq!(
        d.eval(&world, AgentId::from_index(0), "1 + 1").unwrap(),
        "2"
    );
}

/// What the REPL types never reaches the run: the agent's memory, the
/// sandbox's libraries and the `kiai` table are read-only from it.
#[test]
fn eval_cannot_change_later_ticks() {
    let src = r#"
        function decide(agent, ctx)
            agent.memory.count = (agent.memory.count or 0) + 1
            agent.memory.bump = agent.memory.bump or function() agent.memory.flag = true end
            agent.memory.trap = agent.memory.trap
                or setmetatable({}, { __index = function() agent.memory.flag = true end })
            if agent.memory.flag or math.floor ~= nil and math.floor(0.5) ~= 0
                or kiai.tick == nil or string.flag then
                return "evade"
            end
        end"#;
    let run = |poke: &[&str]| {
        let mut world = common::world();
        let (mut d, _) = common::decider(Some(src), None);
        let mut p = kiai_core::Pipeline::new();
        for t in 0..6 {
            if t == 3 {
                for code in poke {
                    // Refused with a message, or harmless: never an effect.
                    let _ = d.eval(&world, AgentId::from_index(0), code);
                }
            }
            p.tick(&mut world, &mut d);
        }
        assert!(d.take_reports().is_empty());
        state_hash(&world)
    };
    let clean = run(&[]);
    let poked = run(&[
        "agent.memory.flag = true",
        "rawset(agent.memory, 'flag', true)",
        "table.insert(agent.memory, 1)",
        "math.floor = function() return 1 end",
        "kiai.tick = nil",
        "string.flag = true",
        "getmetatable('').__index.flag = true",
        "setmetatable(agent.memory, {})",
        // The script's own functions and metamethods stay out of reach.
        "agent.memory.bump()",
        "agent.memory.trap.anything",
        "for k, v in pairs(agent.memory) do if type(v) == 'function' then v() end end",
    ]);
    assert_eq!(clean, poked);
    // Reading still works, pairs and # included, and writes say why they
    // fail.
    let (_, mut d, world) = common::run(Some(src), None, 2);
    let eval =
        |d: &mut kiai_lua::LuaDecider, code: &str| d.eval(&world, AgentId::from_index(0), code);
    assert_eq!(eval(&mut d, "agent.memory.count").unwrap(), "2");
    let keys =
        "(function() local n = 0 for k in pairs(agent.memory) do n = n + 1 end return n end)()";
    assert_eq!(eval(&mut d, keys).unwrap(), "3");
    assert_eq!(eval(&mut d, "type(agent.memory.bump)").unwrap(), "function");
    let e = eval(&mut d, "agent.memory.bump()").unwrap_err();
    assert!(e.message.contains("script's own functions"), "{e}");
    assert_eq!(eval(&mut d, "agent:sees('eyes') >= 0").unwrap(), "true");
    assert_eq!(eval(&mut d, "#agent.memory").unwrap(), "0");
    assert_eq!(eval(&mut d, "math.floor(2.5)").unwrap(), "2");
    let e = d
        .eval(&world, AgentId::from_index(0), "agent.memory.flag = true")
        .unwrap_err();
    assert!(e.message.contains("REPL"), "{e}");
}

/// Tables and functions the REPL uses as keys get no identity: the order
/// the script's `pairs` visits its own table keys in later is as if the
/// REPL never ran.
#[test]
fn eval_leaves_no_trace_in_later_iteration_orders() {
    let src = r#"
        function decide(agent, ctx)
            local t = {}
            for i = 1, 12 do t[{}] = i end
            local _, first = next(t)
            return "investigate", nil, first, 0, ctx.tick % 7
        end
    "#;
    let plain = {
        let (mut d, _) = common::decider(Some(src), None);
        let mut world = common::world();
        let mut p = kiai_core::Pipeline::new();
        for _ in 0..20 {
            p.tick(&mut world, &mut d);
        }
        state_hash(&world)
    };
    let (mut d, _) = common::decider(Some(src), None);
    let mut world = common::world();
    let mut p = kiai_core::Pipeline::new();
    for t in 0..20 {
        p.tick(&mut world, &mut d);
        if t % 5 == 0 {
            let typed = "local s = {} for i = 1, 50 do s[{}] = i s[function() end] = i end \
                         s[agent] = 1 s[kiai.tick] = 2 return next(s) ~= nil";
            assert_eq!(
                d.eval(&world, AgentId::from_index(0), typed).unwrap(),
                "true"
            );
        }
    }
    assert_eq!(state_hash(&world), plain);
}
