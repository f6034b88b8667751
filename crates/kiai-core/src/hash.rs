//! A stable hash of the whole simulation state, for determinism checks.

use xxhash_rust::xxh3::Xxh3;

use crate::data::{AgentId, BodyMode};
use crate::world::World;

/// A 64-bit XXH3 hash over every piece of simulation state: tick, seed,
/// each agent's archetype, faction, position, velocity, facing (as IEEE bit
/// patterns), decision, mind (random-stream position, saved decision, weights), the last percepts, and the
/// fog of war's per-faction visible and explored counts and events, and,
/// when set, the perception budget and its ray cursor, standing goals and
/// walkers' direct points and stall counts, and the walkers waiting for
/// routes.
///
/// Equal hashes mean (with overwhelming probability) bit-identical states.
/// The value is stable across platforms and runs for the same kiai version.
pub fn state_hash(world: &World) -> u64 {
    let mut h = Xxh3::new();
    h.update(&world.tick.to_le_bytes());
    h.update(&world.config.seed.to_le_bytes());
    let a = &world.agents;
    h.update(&(a.len() as u64).to_le_bytes());
    for i in 0..a.len() {
        // Free slots and generations past 0 exist only in worlds that
        // despawned, so every other world hashes as it always did.
        if !a.alive[i] {
            h.update(b"free");
            h.update(&a.generation[i].to_le_bytes());
            continue;
        }
        if a.generation[i] != 0 {
            h.update(&a.generation[i].to_le_bytes());
        }
        hash_body(&mut h, world, i);
        h.update(&a.archetype[i].0.to_le_bytes());
        h.update(&a.faction[i].0.to_le_bytes());
        for v in [a.position[i], a.velocity[i], a.facing[i]] {
            for c in v.to_array() {
                h.update(&c.to_bits().to_le_bytes());
            }
        }
        let d = a.decision[i];
        h.update(&[d.state.code()]);
        match d.target {
            Some(t) => hash_id(&mut h, t),
            None => h.update(&u32::MAX.to_le_bytes()),
        }
        // Only when set, so hashes of worlds without goals stay as they were.
        if let Some(goal) = d.goal {
            for c in goal.to_array() {
                h.update(&c.to_bits().to_le_bytes());
            }
        }
        let m = &a.mind[i];
        h.update(&m.rng.get_word_pos().to_le_bytes());
        h.update(&[m.saved.map_or(u8::MAX, |s| s.code())]);
        h.update(&m.weights[0].to_bits().to_le_bytes());
        h.update(&m.weights[1].to_bits().to_le_bytes());
        hash_orders(&mut h, world, i);
        if let Some(missile) = &a.missile[i] {
            for v in [missile.forward(), missile.up()] {
                for c in v.to_array() {
                    h.update(&c.to_bits().to_le_bytes());
                }
            }
        }
    }
    if let Some(budget) = world.perception_budget {
        // Only budgeted worlds hash these, so other hashes are unchanged.
        h.update(b"budget");
        h.update(&budget.max_rays_per_tick.to_le_bytes());
        h.update(&world.ray_cursor.agent.to_le_bytes());
        h.update(&world.ray_cursor.offset.to_le_bytes());
    }
    hash_routes(&mut h, world);
    hash_lod(&mut h, world);
    if world.walls_info.changed {
        // Only worlds changed while running hash these, so other hashes are
        // unchanged.
        hash_changes(&mut h, world);
    }
    h.update(&world.percepts.tick().to_le_bytes());
    for (agent, sense, ids) in world.percepts.iter() {
        hash_id(&mut h, agent);
        h.update(&(sense as u32).to_le_bytes());
        h.update(&(ids.len() as u32).to_le_bytes());
        for &id in ids {
            hash_id(&mut h, id);
        }
    }
    if let Some(fog) = world.fog() {
        let grid = fog.grid();
        for f in 0..grid.config().factions {
            let f = kiai_fog::FactionId(f);
            h.update(&grid.visible_tile_count(f).to_le_bytes());
            h.update(&grid.explored_tile_count(f).to_le_bytes());
        }
        for e in fog.events() {
            h.update(&e.unit().0.to_le_bytes());
            h.update(&[
                e.by().0,
                u8::from(matches!(e, kiai_fog::FogEvent::Spotted { .. })),
            ]);
        }
    }
    h.digest()
}

/// The tick level of detail: points of interest and tiers.
/// Only worlds where it acts (a tier of period > 1) hash anything here,
/// so a world whose tiers all think every tick hashes as one without.
fn hash_lod(h: &mut Xxh3, world: &World) {
    let lod = &world.lod;
    if !lod.active {
        return;
    }
    h.update(b"lod");
    for p in &lod.points {
        for c in p.to_array() {
            h.update(&c.to_bits().to_le_bytes());
        }
    }
    for &a in &lod.agents {
        hash_id(h, a);
    }
    h.update(&lod.tier);
}

/// The walkers waiting for routes. Only worlds with some hash anything
/// here, so other hashes are unchanged.
fn hash_routes(h: &mut Xxh3, world: &World) {
    if world.routes.requests.is_empty() {
        return;
    }
    h.update(b"routes");
    for r in &world.routes.requests {
        h.update(&r.tick.to_le_bytes());
        hash_id(h, r.agent);
        h.update(&r.key.goal.0.to_le_bytes());
        h.update(&[u8::from(r.replan)]);
    }
    // A search under way is its request, where it started and how far it
    // got (the rest of its state follows from those and the graph).
    for (slot, f) in world.routes.searches.slots.iter().enumerate() {
        let Some(f) = &f.flight else {
            continue;
        };
        h.update(&(slot as u32).to_le_bytes());
        hash_id(h, f.request.agent);
        h.update(&f.onward.0.to_le_bytes());
        h.update(&f.expanded.to_le_bytes());
    }
}

/// An agent's handle: its slot, and its generation when past 0 (so worlds
/// that never reuse a slot hash as before generations existed).
fn hash_id(h: &mut Xxh3, id: AgentId) {
    h.update(&id.slot().to_le_bytes());
    if id.generation() != 0 {
        h.update(&id.generation().to_le_bytes());
    }
}

/// Slot `i`'s standing goal and its walker's smoothing and stall state,
/// only when set (worlds without them hash as before they existed).
fn hash_orders(h: &mut Xxh3, world: &World, i: usize) {
    let a = &world.agents;
    let nav = &a.nav[i];
    for (tag, point) in [(b"goal", a.goal[i]), (b"dirt", nav.direct)] {
        if let Some(p) = point {
            h.update(tag);
            for c in p.to_array() {
                h.update(&c.to_bits().to_le_bytes());
            }
        }
    }
    if nav.stalled != 0 {
        h.update(b"stalled");
        h.update(&nav.stalled.to_le_bytes());
    }
}

/// The body mode of slot `i` and, for Driven bodies, what steering asked of
/// them (their steering's own state); nothing for Simulated bodies.
fn hash_body(h: &mut Xxh3, world: &World, i: usize) {
    let a = &world.agents;
    match a.body[i] {
        BodyMode::Simulated => {}
        BodyMode::Kinematic => h.update(b"kinematic"),
        BodyMode::Driven => {
            h.update(b"driven");
            for v in [a.desired_velocity[i], a.desired_facing[i]] {
                for c in v.to_array() {
                    h.update(&c.to_bits().to_le_bytes());
                }
            }
        }
    }
}

/// Which walls stand, which waypoints are active and which links blocked:
/// state that changes while the world runs (doors, events, the API).
fn hash_changes(h: &mut Xxh3, world: &World) {
    h.update(b"changes");
    if let Some(o) = &world.occluders {
        for i in 0..o.walls.walls().len() {
            h.update(&[u8::from(o.walls.is_enabled(i) == Some(true))]);
        }
    }
    if let Some(nav) = &world.nav {
        for from in nav.waypoint_ids() {
            h.update(&[u8::from(nav.is_active(from) == Some(true))]);
            for (_, to) in nav.links_from(from) {
                h.update(&[u8::from(nav.is_link_blocked(from, to) == Some(true))]);
            }
        }
    }
}
