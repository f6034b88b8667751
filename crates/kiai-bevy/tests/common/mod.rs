//! Headless apps for the plugin's tests: `MinimalPlugins`, assets, kiai,
//! and fixed time advanced one kiai tick per `app.update()`.

#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::Duration;

use bevy::asset::AssetPlugin;
use bevy::ecs::message::{MessageCursor, Messages};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use kiai_bevy::kiai::content::Content;
use kiai_bevy::{KiaiContent, KiaiLevel, KiaiPlugin};

/// An app without a window: assets from `dir` (watched for changes when
/// `watch`), the plugin with `plugin`'s settings, one fixed step per update.
pub fn app(dir: &Path, plugin: KiaiPlugin, watch: bool) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: dir.display().to_string(),
            watch_for_changes_override: Some(watch),
            ..default()
        },
        plugin,
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app
}

/// An app running the content `text` (no files), ticked by hand.
pub fn app_with(text: &str) -> App {
    let mut app = app(Path::new("."), KiaiPlugin::default(), false);
    let content = Content::from_str(text, "test.ron").expect("test content is valid");
    let handle = app
        .world_mut()
        .resource_mut::<Assets<KiaiContent>>()
        .add(KiaiContent::new(content));
    app.insert_resource(KiaiLevel(handle));
    app.update(); // startup; the first update runs no fixed step
    app
}

/// Runs `n` updates (one kiai tick each once the level has loaded).
pub fn step(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// Updates until `done` holds, sleeping between updates (assets load on
/// other threads, files are watched), for at most `seconds`.
pub fn until(app: &mut App, seconds: u64, mut done: impl FnMut(&mut App) -> bool) -> bool {
    let end = std::time::Instant::now() + Duration::from_secs(seconds);
    while std::time::Instant::now() < end {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// The messages of one kind (`KiaiEvent`, `KiaiPercept`) sent since
/// `cursor` last read.
pub fn events<M: Message + Clone>(app: &App, cursor: &mut MessageCursor<M>) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    cursor.read(messages).cloned().collect()
}

/// The entity named `name`.
pub fn named(app: &mut App, name: &str) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &Name)>();
    q.iter(app.world())
        .find(|(_, n)| n.as_str() == name)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no entity named {name}"))
}
