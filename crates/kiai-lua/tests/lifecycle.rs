//! Scripts and agents that come and go: `kiai.spawn` and `agent:despawn`
//! act at the end of the tick, and a handle kept after its agent left names
//! nobody (every function given it returns nil).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{decider, world};
use kiai_core::{AgentId, EventKind, Pipeline};

/// Guard g1 despawns thief t1 through its table on tick 2 (scripts can only
/// despawn themselves, so the thief's own script does it), spawns a thief at
/// tick 3, and keeps t1's handle to ask about it afterwards.
const GUARD: &str = r#"
function decide(agent, ctx)
  if agent.name ~= "g1" then return nil end
  if ctx.tick == 1 then agent.memory.old = kiai.find("t1") end
  if ctx.tick == 3 then kiai.spawn("thief", "thieves", 5, 0, 5, "newcomer") end
  if ctx.tick == 4 then
    local old = agent.memory.old
    print("old", kiai.name(old), kiai.position(old), kiai.state(old))
    print("new", kiai.find("newcomer") ~= nil)
  end
  return nil
end
"#;

const THIEF: &str = r#"
function on_spawn(agent)
  print("spawned " .. agent.name .. " " .. agent.id)
end
function decide(agent, ctx)
  if agent.name == "t1" and ctx.tick == 2 then agent:despawn() end
  return nil
end
"#;

#[test]
fn scripts_spawn_and_despawn_at_the_end_of_the_tick_and_stale_handles_name_nobody() {
    let (mut d, _) = decider(Some(GUARD), Some(THIEF));
    let mut world = world();
    let mut pipeline = Pipeline::new();
    let t1 = world.agents().find("t1").unwrap();
    for _ in 0..3 {
        pipeline.tick(&mut world, &mut d);
    }
    assert!(!world.is_alive(t1), "t1 left at the end of tick 2");
    assert!(world.events().iter().all(|e| e.tick == 2));
    assert!(
        world
            .events()
            .iter()
            .any(|e| e.kind == EventKind::Despawned { agent: t1 })
    );
    pipeline.tick(&mut world, &mut d);
    let newcomer = world.agents().find("newcomer").unwrap();
    assert_eq!(newcomer.index(), t1.index(), "the newcomer took t1's slot");
    assert_ne!(newcomer, t1);
    pipeline.tick(&mut world, &mut d);
    let log = d.take_log().join("\n");
    assert!(
        log.contains(&format!("spawned newcomer {}", newcomer.to_bits())),
        "{log}"
    );
    assert!(log.contains("old\tnil"), "{log}");
    assert!(log.contains("new\ttrue"), "{log}");
    assert!(d.take_reports().is_empty());
}

#[test]
fn an_intent_naming_a_departed_agent_is_refused() {
    let chase_old = r#"
function decide(agent, ctx)
  if ctx.tick == 1 then agent.memory.old = kiai.find("t1") end
  if agent.memory.old then return "chase", agent.memory.old end
end
"#;
    let (mut d, _) = decider(Some(chase_old), None);
    let mut world = world();
    let mut pipeline = Pipeline::new();
    let t1 = world.agents().find("t1").unwrap();
    for _ in 0..2 {
        pipeline.tick(&mut world, &mut d);
    }
    assert!(d.take_reports().is_empty());
    assert_eq!(world.despawn(t1), Ok(()));
    pipeline.tick(&mut world, &mut d);
    let reports = d.take_reports();
    assert!(!reports.is_empty());
    let message = reports[0].error.to_string();
    assert!(message.contains("has left the world"), "{message}");
    assert!(
        world
            .agents()
            .decisions()
            .iter()
            .all(|x| x.target != Some(t1))
    );
    assert_eq!(AgentId::from_bits(t1.to_bits()), t1);
}
