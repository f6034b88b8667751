//! The plugin's overhead, side by side in one run, on 10k agents of the
//! same content and seed, ticked in turn:
//!
//! - **bare**: `Pipeline::tick` on a `World`, events drained — no Bevy;
//! - **bare in Bevy**: the same tick by one hand-written system in a
//!   headless Bevy app (`MinimalPlugins`, `AssetPlugin`): the frame a game
//!   pays with or without kiai-bevy;
//! - **plugin**: `KiaiPlugin` in the same app (sync in, tick, sync out: a
//!   `Transform` written per agent, every event sent as a message,
//!   `KiaiPercept` or `KiaiEvent`);
//! - **plugin, no percepts**: the same with percept messages off
//!   (`KiaiEventKinds`).
//!
//! The plugin's overhead is plugin / bare in Bevy (the medians' ratio, and
//! the median of each round's ratio, where slow drifts of the machine
//! cancel); the ratio to the bare
//! tick is printed too. All four must reach the same state hash.
//!
//! ```text
//! cargo run --release -p kiai-bevy --example overhead [-- AGENTS [TICKS]]
//! ```

use std::fmt::Write as _;
use std::time::Instant;

use bevy::asset::AssetPlugin;
use bevy::prelude::*;
use kiai_bevy::kiai::content::Content;
use kiai_bevy::kiai::core::{DefaultDecider, Pipeline, World as KiaiWorld, state_hash};
use kiai_bevy::{Kiai, KiaiContent, KiaiEventKinds, KiaiLevel, KiaiPlugin};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let agents = args
        .next()
        .unwrap_or(Ok(10_000))
        .map_err(|e| e.to_string())?;
    let ticks = args.next().unwrap_or(Ok(100)).map_err(|e| e.to_string())?;
    let content = Content::from_str(&battle(agents), "battle.ron").map_err(|d| d.to_string())?;

    let mut bare = Bare::new(&content)?;
    let mut in_bevy = headless_app();
    in_bevy
        .insert_resource(Bare::new(&content)?)
        .add_systems(Update, |mut bare: ResMut<Bare>| bare.tick());
    let mut plugin = plugin_app(&content, KiaiEventKinds::default());
    let quiet = KiaiEventKinds {
        percepts: false,
        ..KiaiEventKinds::default()
    };
    let mut plugin_quiet = plugin_app(&content, quiet);

    let mut times = [(); 4].map(|()| Vec::with_capacity(ticks));
    // The first update of an app builds what it runs, then ticks.
    for round in 0..10 + ticks {
        // Interleaved, so that all see the same machine.
        let t = [
            time(|| bare.tick()),
            time(|| in_bevy.update()),
            time(|| plugin.update()),
            time(|| plugin_quiet.update()),
        ];
        if round >= 10 {
            for (all, t) in times.iter_mut().zip(t) {
                all.push(t);
            }
        }
    }
    let hashes = [
        Some(state_hash(&bare.world)),
        Some(state_hash(&in_bevy.world().resource::<Bare>().world)),
        plugin.world().resource::<Kiai>().state_hash(),
        plugin_quiet.world().resource::<Kiai>().state_hash(),
    ];
    if hashes.iter().any(|h| *h != hashes[0]) {
        return Err(format!("the runs differ: {hashes:016x?}"));
    }
    // Each round's plugin frame against the same round's bare frame: slow
    // drifts of the machine cancel in the pair.
    let paired = |k: usize| {
        let mut r: Vec<f64> = times[k].iter().zip(&times[1]).map(|(a, b)| a / b).collect();
        (median(&mut r) - 1.0) * 100.0
    };
    let (paired_plugin, paired_quiet) = (paired(2), paired(3));
    let [b, bb, p, q] = times.map(|mut t| median(&mut t));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{agents} agents, {ticks} ticks each, interleaved (median ms per tick)"
    );
    let _ = writeln!(out, "bare Pipeline::tick           {b:8.3} ms");
    let _ = writeln!(out, "bare tick in a Bevy app       {bb:8.3} ms");
    let _ = writeln!(
        out,
        "through KiaiPlugin            {p:8.3} ms   overhead {:5.1} % (ratio to the bare tick {:.3})",
        (p / bb - 1.0) * 100.0,
        p / b
    );
    let _ = writeln!(
        out,
        "KiaiPlugin, no percepts       {q:8.3} ms   overhead {:5.1} % (ratio to the bare tick {:.3})",
        (q / bb - 1.0) * 100.0,
        q / b
    );
    let _ = writeln!(
        out,
        "paired (median over rounds of plugin / bare in Bevy): overhead {paired_plugin:5.1} %, no percepts {paired_quiet:5.1} %"
    );
    let _ = writeln!(
        out,
        "state hash {:016x} at every contender",
        hashes[0].unwrap_or(0)
    );
    print!("{out}");
    Ok(())
}

/// The bare runtime: a world, its pipeline and the default decider.
#[derive(Resource)]
struct Bare {
    world: KiaiWorld,
    pipeline: Pipeline,
    decider: DefaultDecider,
}

impl Bare {
    fn new(content: &Content) -> Result<Self, String> {
        Ok(Self {
            world: content.world(None).map_err(|e| format!("{e:?}"))?,
            pipeline: Pipeline::new(),
            decider: DefaultDecider::default(),
        })
    }

    /// One tick, its events drained (what a game that ignores them does).
    fn tick(&mut self) {
        self.pipeline.tick(&mut self.world, &mut self.decider);
        drop(self.world.drain_events());
    }
}

/// Milliseconds `f` takes.
fn time(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

/// A headless Bevy app: the frame around kiai.
fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default()));
    app
}

/// The headless app running `content` through the plugin once per
/// `update`, sending `kinds` of events.
fn plugin_app(content: &Content, kinds: KiaiEventKinds) -> App {
    let mut app = headless_app();
    app.add_plugins(KiaiPlugin::default().in_schedule(Update));
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
