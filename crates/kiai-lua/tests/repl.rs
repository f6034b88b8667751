//! `LuaDecider::eval`: inspecting an agent from its script's sandbox.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use kiai_core::{AgentId, state_hash};

#[test]
fn eval_reads_the_agent_and_leaves_the_run_untouched() {
    let src = "function decide(agent, ctx) return nil end";
    let (_, mut d, world) = common::run(Some(src), None, 3);
    let hash = state_hash(&world);
    let name = d.eval(&world, AgentId(0), "agent.name").unwrap();
    assert_eq!(name, world.agents().names()[0]);
    let pos = d.eval(&world, AgentId(0), "agent:position()").unwrap();
    let p = world.agents().positions()[0];
    let xyz: Vec<f32> = pos.split('\t').map(|v| v.parse().unwrap()).collect();
    assert_eq!(xyz, vec![p.x, p.y, p.z]);
    // Statements run; their globals stay in a scratch environment.
    assert_eq!(d.eval(&world, AgentId(0), "x = 41").unwrap(), "");
    assert_eq!(d.eval(&world, AgentId(0), "x").unwrap(), "nil");
    assert_eq!(state_hash(&world), hash);
}

#[test]
fn eval_is_budgeted_and_errors_are_reported() {
    let src = "function decide(agent, ctx) return nil end";
    let (_, mut d, world) = common::run(Some(src), None, 1);
    let e = d.eval(&world, AgentId(0), "while true do end").unwrap_err();
    assert!(!e.message.is_empty());
    let e = d.eval(&world, AgentId(0), "agent:nope()").unwrap_err();
    assert!(
        e.message.contains("nope") || e.message.contains("nil"),
        "{e}"
    );
    // The script still decides afterwards.
    assert_eq!(d.eval(&world, AgentId(0), "1 + 1").unwrap(), "2");
}
