//! How scripts and the host name agents and report errors to each other:
//! an agent is one integer (its handle's bits), a host error is a Lua
//! runtime error. The bottom of the crate: the intents, the sense ids, the
//! API functions and the script state all use these.

use kiai_core::{AgentId, World};

/// A runtime error with `msg` (scripts see it as the message).
pub(crate) fn rt(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

/// An agent as scripts see it: one integer, its handle's bits
/// ([`AgentId::to_bits`]; the slot for the first agent in a slot).
pub(crate) fn lua_id(agent: AgentId) -> i64 {
    agent.to_bits() as i64
}

/// The live agent whose Lua integer is `bits`, if any (a despawned
/// agent's handle names nobody).
pub(crate) fn live(world: &World, bits: i64) -> Option<AgentId> {
    let id = AgentId::from_bits(bits as u64);
    world.is_alive(id).then_some(id)
}

/// The handle of the live agent in slot `i`.
pub(crate) fn id(world: &World, i: usize) -> AgentId {
    AgentId::new(i as u32, world.agents().generation_of(i))
}
