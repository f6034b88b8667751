//! A stable hash of the whole simulation state, for determinism checks.

use xxhash_rust::xxh3::Xxh3;

use crate::world::World;

/// A 64-bit XXH3 hash over every piece of simulation state: tick, seed,
/// each agent's archetype, faction, position, velocity, facing (as IEEE bit
/// patterns), decision, mind (random-stream position, saved decision, weights), the last percepts, and the
/// fog of war's per-faction visible and explored counts and events, and,
/// when set, the perception budget and its ray cursor.
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
        h.update(&a.archetype[i].0.to_le_bytes());
        h.update(&a.faction[i].0.to_le_bytes());
        for v in [a.position[i], a.velocity[i], a.facing[i]] {
            for c in v.to_array() {
                h.update(&c.to_bits().to_le_bytes());
            }
        }
        let d = a.decision[i];
        h.update(&[d.state.code()]);
        h.update(&d.target.map_or(u32::MAX, |t| t.0).to_le_bytes());
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
    h.update(&world.percepts.tick().to_le_bytes());
    for (agent, sense, ids) in world.percepts.iter() {
        h.update(&agent.0.to_le_bytes());
        h.update(&(sense as u32).to_le_bytes());
        h.update(&(ids.len() as u32).to_le_bytes());
        for id in ids {
            h.update(&id.0.to_le_bytes());
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
