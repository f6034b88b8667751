//! The plugin's overhead, side by side in one run: 10k agents ticked
//! through `KiaiPlugin` in a headless Bevy app (sync in, tick, sync out:
//! one `Transform` written per agent, the events sent as messages) against
//! the bare runtime's `Pipeline::tick` on the same content and seed, and
//! the plugin again with `Seen`/`Lost` messages switched off
//! (`KiaiEventKinds`). All must reach the same state hash.
//!
//! ```text
//! cargo run --release -p kiai-bevy --example overhead [-- AGENTS [TICKS]]
//! ```

use std::fmt::Write as _;
use std::time::Instant;

use bevy::asset::AssetPlugin;
use bevy::prelude::*;
use kiai_bevy::kiai::content::Content;
use kiai_bevy::kiai::core::{DefaultDecider, Pipeline, state_hash};
use kiai_bevy::{Kiai, KiaiContent, KiaiEventKinds, KiaiLevel, KiaiPlugin};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let agents = args
        .next()
        .unwrap_or(Ok(10_000))
        .map_err(|e| e.to_string())?;
    let ticks = args.next().unwrap_or(Ok(60)).map_err(|e| e.to_string())?;
    let content = Content::from_str(&battle(agents), "battle.ron").map_err(|d| d.to_string())?;

    let mut world = content.world(None).map_err(|e| format!("{e:?}"))?;
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    // The first update builds the world and its entities, then ticks.
    let mut app = plugin_app(&content, KiaiEventKinds::default());
    let quiet = KiaiEventKinds {
        percepts: false,
        ..KiaiEventKinds::default()
    };
    let mut app_quiet = plugin_app(&content, quiet);

    let (mut bare, mut plugin, mut plugin_quiet) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..10 {
        pipeline.tick(&mut world, &mut decider);
        app.update();
        app_quiet.update();
    }
    // Interleaved, so that both sides see the same machine.
    for _ in 0..ticks {
        let t = Instant::now();
        pipeline.tick(&mut world, &mut decider);
        world.drain_events().for_each(drop);
        bare.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        app.update();
        plugin.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        app_quiet.update();
        plugin_quiet.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let kiai = app.world().resource::<Kiai>();
    let (ours, theirs) = (kiai.state_hash(), Some(state_hash(&world)));
    if ours != theirs || kiai.tick() != world.tick() {
        return Err(format!(
            "the plugin's run differs: {ours:016x?} at tick {} vs {theirs:016x?} at {}",
            kiai.tick(),
            world.tick()
        ));
    }
    let quiet_hash = app_quiet.world().resource::<Kiai>().state_hash();
    if quiet_hash != theirs {
        return Err(format!(
            "the run without percept events differs: {quiet_hash:016x?}"
        ));
    }
    let (b, p, q) = (
        median(&mut bare),
        median(&mut plugin),
        median(&mut plugin_quiet),
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{agents} agents, {ticks} ticks each, interleaved (median ms per tick)"
    );
    let _ = writeln!(out, "bare Pipeline::tick      {b:8.3} ms");
    let _ = writeln!(out, "through KiaiPlugin       {p:8.3} ms");
    let _ = writeln!(
        out,
        "plugin overhead          {:7.1} %  (ratio {:.3})",
        (p / b - 1.0) * 100.0,
        p / b
    );
    let _ = writeln!(
        out,
        "the same, no Seen/Lost   {q:8.3} ms  (overhead {:.1} %)",
        (q / b - 1.0) * 100.0
    );
    let _ = writeln!(
        out,
        "state hash at tick {}   {:016x} (the same on all three)",
        world.tick(),
        state_hash(&world)
    );
    print!("{out}");
    Ok(())
}

/// A headless app running `content` once per `update`, sending `kinds`
/// of events.
fn plugin_app(content: &Content, kinds: KiaiEventKinds) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        KiaiPlugin::default().in_schedule(Update),
    ));
    let handle = app
        .world_mut()
        .resource_mut::<Assets<KiaiContent>>()
        .add(KiaiContent::new(content.clone()));
    app.insert_resource(KiaiLevel(handle))
        .insert_resource(kinds);
    app
}

/// The median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Two hostile armies of `n / 2` walkers each on a square sized for about
/// 30 agents within eye range (`kiai bench`'s battle), as content.
fn battle(n: usize) -> String {
    let side = (n as f32 / 30.0 * std::f32::consts::PI * 225.0)
        .sqrt()
        .ceil();
    let mut agents = String::new();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        // splitmix64: a fixed sequence of positions, no dependency needed.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f32 / (1u64 << 53) as f32 * side
    };
    for i in 0..n {
        let (army, x, z) = (["red", "blue"][i % 2], next(), next());
        let _ = writeln!(
            agents,
            "(name: \"a{i}\", archetype: \"{army}\", faction: \"{army}\", pos: ({x:.2}, 0.0, {z:.2})),"
        );
    }
    let archetype = |profile: &str| {
        format!(
            "(senses: [(name: \"radar\", shape: Sphere(radius: 8.0), filter: Hostile),
                       (name: \"eyes\", shape: Cone(range: 15.0, fov_deg: 120.0), filter: Hostile)],
              movement: Walker(min_speed: 0.5, max_speed: 2.0, direction_change_factor: 20, planar: true),
              profile: \"{profile}\", sight: Circle(radius: 12.0))"
        )
    };
    format!(
        "(format: 2, name: \"battle\", seed: 42,
          bounds: (min: (0.0, 0.0, 0.0), max: ({side}, 10.0, {side})),
          fog: (tile_size: 2.0),
          factions: [(name: \"red\", hostile: [\"blue\"]), (name: \"blue\", hostile: [\"red\"])],
          profiles: {{\"berserker\": (chase: 1, evade: 0), \"coward\": (chase: 0, evade: 1)}},
          archetypes: {{\"red\": {}, \"blue\": {}}},
          agents: [{agents}])",
        archetype("berserker"),
        archetype("coward")
    )
}
